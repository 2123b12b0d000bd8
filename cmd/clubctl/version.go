package main

import (
	"runtime/debug"
)

// version is the version of this clubctl, from its build information.
func version() string {
	bi, ok := debug.ReadBuildInfo()
	return versionOf(bi, ok)
}

// versionOf tells the version of a build: the module version the go
// command stamped (vX.Y.Z for go install ...@vX.Y.Z; for go build, go
// install and go run in a git checkout a pseudo-version naming the commit,
// +dirty when the tree had changes; "(devel)" when it stamped none, outside
// a checkout or with -buildvcs=false), then the commit and whether the tree
// had changes, when the build recorded them.
func versionOf(bi *debug.BuildInfo, ok bool) string {
	if !ok {
		return "unknown (no build information)"
	}
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if rev != "" {
		v += ", commit " + rev
		if modified == "true" {
			v += " with uncommitted changes"
		}
	}
	return v
}
