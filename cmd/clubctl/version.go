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
// command stamped (vX.Y.Z for go install ...@vX.Y.Z, a pseudo-version with
// the commit for go build and go install in a checkout, "(devel)" for go
// run, which stamps neither a version nor a commit), then the commit and
// whether the tree had changes, when the build recorded them.
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
