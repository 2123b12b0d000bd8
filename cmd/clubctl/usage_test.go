package main

import (
	"bytes"
	"io"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"
)

// help runs clubctl with args and --help, and returns its stdout.
func help(t *testing.T, args ...string) string {
	t.Helper()
	var stdout bytes.Buffer
	require.NoError(t, run(append(append([]string{"clubctl"}, args...), "--help"), strings.NewReader(""), &stdout, io.Discard))
	return stdout.String()
}

// TestHelp asks every command for --help: each must answer its usage, not
// an error (required flags must not get in the way).
func TestHelp(t *testing.T) {
	var walk func(path []string, cmds []*cli.Command)
	seen := 0
	walk = func(path []string, cmds []*cli.Command) {
		for _, cmd := range cmds {
			p := append(append([]string{}, path...), cmd.Name)
			seen++
			t.Run(strings.Join(p, "_"), func(t *testing.T) {
				out := help(t, p...)
				assert.Contains(t, out, "USAGE:")
				assert.Contains(t, out, "clubctl "+strings.Join(p, " "))
				if cmd.Usage != "" {
					assert.Contains(t, out, cmd.Usage)
				}
			})
			walk(p, cmd.Subcommands)
		}
	}
	walk(nil, newApp(nil, io.Discard, io.Discard).Commands)
	assert.Equal(t, 46, seen, "db (3), user (5), machine (6), token, login, booking (4), payment (3), client (3), tickets (4), events (2), "+
		"accounting with trial-balance, statement (4) and period (6), standin (2)")

	out := help(t)
	for _, cmd := range newApp(nil, io.Discard, io.Discard).Commands {
		assert.Contains(t, out, cmd.Name)
	}
}

// TestHelp_flags: each command's help lists the flags it reads, and no
// other: the settings of clubd that it does not use stay out.
func TestHelp_flags(t *testing.T) {
	api := []string{"--url", "--port", "--token"}
	for _, tt := range []struct {
		cmd   []string
		flags []string
	}{
		{nil, []string{"--help", "--version"}},
		{[]string{"db", "migrate"}, []string{"--database-url"}},
		{[]string{"user", "create"}, []string{"--database-url", "--email", "--password", "--name", "--role"}},
		{[]string{"machine", "rotate"}, []string{"--database-url"}},
		{[]string{"token"}, []string{"--database-url", "--auth-signing-key-file", "--public-base-url", "--port", "--auth-audience",
			"--access-token-ttl", "--email", "--scope"}},
		{[]string{"login"}, []string{"--url", "--port", "--email", "--password"}},
		{[]string{"booking", "list"}, append(api, "--club-timezone", "--date", "--court", "--format")},
		{[]string{"booking", "create"}, append(api, "--court", "--date", "--from", "--to", "--type", "--client", "--notes", "--override-rules", "--format")},
		{[]string{"booking", "cancel"}, append(api, "--format")},
		{[]string{"payment", "pending"}, append(api, "--format")},
		{[]string{"payment", "validate"}, append(api, "--format")},
		{[]string{"client", "find"}, append(api, "--format")},
		{[]string{"client", "create"}, append(api, "--first-name", "--last-name", "--document-type", "--document", "--email", "--phone",
			"--address", "--format")},
		{[]string{"accounting", "trial-balance"}, append(api, "--as-of", "--period", "--format")},
		{[]string{"accounting", "statement", "changes-in-equity"}, append(api, "--from", "--to", "--period", "--format")},
		{[]string{"accounting", "period", "close"}, append(api, "--early")},
		{[]string{"accounting", "period", "reopen"}, append(api, "--reason")},
	} {
		t.Run(strings.Join(append([]string{"clubctl"}, tt.cmd...), " "), func(t *testing.T) {
			var listed []string
			for _, m := range regexp.MustCompile(`(?m)^\s+(--[a-z-]+)`).FindAllStringSubmatch(help(t, tt.cmd...), -1) {
				listed = append(listed, m[1])
			}
			want := tt.flags
			if len(tt.cmd) > 0 {
				want = append(slices.Clone(tt.flags), "--help")
			}
			assert.ElementsMatch(t, want, listed)
		})
	}
}

// TestUsageErrors: a mistake in a command line is one line that names the
// command, a hint to its help, exit status 2, and nothing on stdout (no
// help dumped) and no call to the API or the database.
func TestUsageErrors(t *testing.T) {
	t.Setenv("CLUBD_URL", "http://127.0.0.1:1") // nothing answers there: no test reaches a server
	t.Setenv("CLUBD_TOKEN", "some-key")
	t.Setenv("DATABASE_URL", "postgres://nobody@127.0.0.1:1/none")
	for _, tt := range []struct {
		args    []string
		command string
		message string
	}{
		{[]string{"bogus"}, "clubctl", `unknown command "bogus"`},
		{[]string{"user", "delete"}, "clubctl user", `unknown command "delete"`},
		{[]string{"accounting", "statement", "cash-flow"}, "clubctl accounting statement", `unknown command "cash-flow"`},
		{[]string{"--bogus"}, "clubctl", "unknown flag --bogus"},
		{[]string{"booking", "list", "--bogus"}, "clubctl booking list", "unknown flag --bogus"},
		{[]string{"booking", "list", "--date"}, "clubctl booking list", "flag needs an argument: -date"},
		{[]string{"booking", "list", "--date", "2026-02-30"}, "clubctl booking list", `"2026-02-30" is not a date YYYY-MM-DD`},
		{[]string{"booking", "list", "2026-03-02"}, "clubctl booking list", `unexpected argument "2026-03-02" (this command takes flags only)`},
		{[]string{"booking", "list", "--format", "xml"}, "clubctl booking list", `--format must be table, csv or json, not "xml"`},
		{[]string{"booking", "create", "--court", "1", "--date", "2026-03-02", "--from", "10:00", "--to", "11:00"}, "clubctl booking create", "missing --type"},
		{[]string{"booking", "create", "--client", "ana"}, "clubctl booking create", `invalid value "ana" for flag -client: parse error`},
		{[]string{"booking", "create", "--court", "1", "--date", "2026-03-02", "--from", "10h", "--to", "11:00", "--type", "1"}, "clubctl booking create", `"10h" is not a time of day HH:MM (24:00 for the midnight that ends the day)`},
		{[]string{"booking", "cancel"}, "clubctl booking cancel", "give the booking id, a positive integer"},
		{[]string{"booking", "cancel", "12", "13"}, "clubctl booking cancel", "give the booking id, a positive integer"},
		{[]string{"booking", "cancel", "twelve"}, "clubctl booking cancel", `the booking id must be a positive integer, not "twelve"`},
		{[]string{"booking", "cancel", "12", "--format", "xml"}, "clubctl booking cancel", `--format must be table, csv or json, not "xml"`},
		{[]string{"booking", "cancel", "--", "--12"}, "clubctl booking cancel", `the booking id must be a positive integer, not "--12"`},
		{[]string{"payment", "validate", "0"}, "clubctl payment validate", `the payment id must be a positive integer, not "0"`},
		{[]string{"client", "find"}, "clubctl client find", "give the text to look for, one argument (quote it if it has spaces)"},
		{[]string{"client", "create", "--first-name", "Ana"}, "clubctl client create", "missing --last-name"},
		{[]string{"accounting", "period", "close", "abc"}, "clubctl accounting period close", `the period id must be a positive integer, not "abc"`},
		{[]string{"login"}, "clubctl login", "missing --email"},
		{[]string{"token"}, "clubctl token", "missing --email"},
		{[]string{"user", "create", "--email", "x@club.test"}, "clubctl user create", "missing --password"},
		{[]string{"machine", "disable"}, "clubctl machine disable", "name one machine client by its id or client_id"},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			err := run(append([]string{"clubctl"}, tt.args...), strings.NewReader(""), &stdout, &stderr)
			require.Error(t, err)
			assert.Equal(t, 2, report(&stderr, err), "usage mistakes exit with status 2")
			assert.Equal(t, tt.command+": "+tt.message+"\nrun '"+tt.command+" --help'\n", stderr.String())
			assert.Empty(t, stdout.String(), "no help dumped")
		})
	}
}

// TestReport: any other error is one line and exit status 1; no error is 0.
func TestReport(t *testing.T) {
	t.Setenv("CLUBD_URL", "http://127.0.0.1:1")
	t.Setenv("CLUBD_TOKEN", "some-key")
	var stderr bytes.Buffer
	err := run([]string{"clubctl", "payment", "pending"}, strings.NewReader(""), io.Discard, &stderr)
	require.Error(t, err)
	assert.Equal(t, 1, report(&stderr, err))
	assert.Regexp(t, `^clubctl: cannot reach clubd at http://127\.0\.0\.1:1 \(set CLUBD_URL, or PORT for a clubd on this machine\): dial tcp 127\.0\.0\.1:1: connect: connection refused\n$`,
		stderr.String())
	assert.Equal(t, 0, report(&stderr, nil))
}

func TestVersion(t *testing.T) {
	var stdout bytes.Buffer
	require.NoError(t, run([]string{"clubctl", "--version"}, strings.NewReader(""), &stdout, io.Discard))
	assert.Equal(t, "clubctl version "+version()+"\n", stdout.String())

	for _, tt := range []struct {
		name string
		bi   *debug.BuildInfo
		ok   bool
		want string
	}{
		{"built without VCS information", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, true, "(devel)"},
		{"go build, go install or go run in a checkout", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261127031500-1ad67bb0e4c5"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "1ad67bb0e4c5d5e9a2f1b7c3d4e5f60718293a4b"}, {Key: "vcs.modified", Value: "false"}}},
			true, "v0.0.0-20261127031500-1ad67bb0e4c5, commit 1ad67bb0e4c5d5e9a2f1b7c3d4e5f60718293a4b"},
		{"go build of a changed checkout", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261127031500-1ad67bb0e4c5+dirty"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "1ad67bb0e4c5d5e9a2f1b7c3d4e5f60718293a4b"}, {Key: "vcs.modified", Value: "true"}}},
			true, "v0.0.0-20261127031500-1ad67bb0e4c5+dirty, commit 1ad67bb0e4c5d5e9a2f1b7c3d4e5f60718293a4b with uncommitted changes"},
		{"go install of a release", &debug.BuildInfo{Main: debug.Module{Version: "v0.4.2"}}, true, "v0.4.2"},
		{"no build information", nil, false, "unknown (no build information)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, versionOf(tt.bi, tt.ok))
		})
	}
}
