// Package examples_test builds each program under examples/ the way a
// program outside this repository is built: as a module of its own that
// requires github.com/clubhouse-go/clubhouse. The go tool refuses another
// module's internal/ packages, so an example that reaches into them does
// not build.
package examples_test

import (
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/mod/modfile"

	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
)

const module = "github.com/clubhouse-go/clubhouse"

// want lists, for each example, lines its output must contain (spaces
// collapsed), worked out by hand: see each example's doc comment.
var want = map[string][]string{
	"booking": {
		"court #1 Court 1 (Tennis) at 60000 per hour; tariff #1 Weekend +20%",
		"07:00-08:00: refused, outside opening hours",
		"17:00-19:00: hours 2, total 144000, per hour 72000, free true", // 4 slots of 30 000 + 20%
		"booked #1",
		"payment #1 of 100000 by Cash: completed",
		"17:00-19:00: total 144000, paid 100000, debt 44000",
		"cancelled #1 by front-desk;",
		"17:00-19:00 free again: true",
	},
	"classes": {
		"class tariff #1 Padel clinic on Padel: 25000 per person, 100000 a class, 4 students",
		"user laura@club.example: role trainer",
		`class #1 "Padel for beginners" by Laura: 8 sessions, 4 places left`, // four weeks of Mondays and Wednesdays
		"rental during the first session: taken true",
		"enrolled Ana: pending, owes 25000",
		"enrolled Luis: pending, owes 25000",
		"class #1: 2 enrolled, 2 places left",
		"class #1 cancelled: court free again for 8 sessions",
		"rental during the first session after the cancel: booked true",
	},
	"ledger": {
		"check results_closed: ok",
		"check equity_equation: ok",
		"period 2025: closed",
		"posting into 2025 after the close: refused",
		"total 15000000 15000000", // the five entries and the closing entry's 3 000 000
		"total Income 2000000",
		"total Expenses 1000000",
		"result 1000000",
		"total Assets 11000000", // cash 1 500 000 - 600 000, bank 10 500 000 - 400 000
		"total Liabilities 0",
		"total Equity 11000000",
		"3.1 Resultados del ejercicio 0 1000000 0 1000000",
		"Total equity 0 1000000 10000000 11000000",
	},
	"mail": {
		"booked #1 for Ana",
		"sending to ana@club.example: Booking #1 confirmed: Court 1,", // the day is tomorrow's
		"18:00-19:30",
		"sent 1 message(s)",
		"outbox: 1 message(s)",
		"message #1 booking_confirmed to ana@club.example: sent via log after 1 attempt(s)",
	},
	"eventlog": {
		`page after "": 2 event(s)`,
		`booking.created by desk@club.example: {"checking":"2030-03-04T18:00:00","court":"Court 1","id":1}`,
		`payment.completed by system: {"amount":60000,"booking":1,"id":1}`,
		`page after "3": 1 event(s)`,
		`booking.updated by system: {"checking":"2030-03-04T18:00:00","court":"Court 1","id":1}`,
		`page after "4": 0 event(s)`,
		`message booking:changed to [panel]: {"ids":[1]}`,
	},
	"quote": {"hours 2, total 149000, per hour 74500"},
	"webhooks": {
		"endpoint #1 for booking.*",
		`(1 signature(s)): verified: {"type":"booking.created",`,
		"delivered 1 message(s)", // the payment is not of its types
		`(2 signature(s)): verified, verified: {"type":"booking.cancelled",`,
		"after the rotation: delivered 1 message(s)",
	},
	"tickets": {
		"quote: 12 tickets at 18000, total 216000",
		"sale #1 to Marta Gómez: 12 tickets on 2 strips (10 and 2), 216000 paid",
		`event #1 "Americano night": 8 places`,
		"seated Marta Gómez in slot 1 and Marta Gómez in slot 2",
		"the first ticket again: used true",
		"after the removal the second ticket is available",
		"sale #1: 1 used, 9 available, 2 refunded",
	},
}

// TestExamples builds every example as a separate module and runs it
// against an empty database of its own, which it must migrate and use
// without failing.
func TestExamples(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs("..")
	require.NoError(t, err)
	entries, err := os.ReadDir(".")
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	require.ElementsMatch(t, names, slices.Collect(maps.Keys(want)), "each example under examples/ has its expected output in want")
	for _, name := range names {
		// One after another: the first build fills the build cache that the
		// others then reuse, and the machine may be busy with other tests.
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			require.NoError(t, os.CopyFS(dir, os.DirFS(name)))
			bin, out, err := build(t, root, dir, name)
			require.NoError(t, err, "build examples/%s as module example.com/%s:\n%s", name, name, out)
			cmd := exec.CommandContext(t.Context(), bin)
			cmd.Env = append(os.Environ(), "DATABASE_URL="+dbtest.Empty(t))
			got, err := cmd.CombinedOutput()
			require.NoError(t, err, "run examples/%s:\n%s", name, got)
			lines := collapse(string(got))
			for _, w := range want[name] {
				assert.Contains(t, lines, w, "examples/%s printed:\n%s", name, got)
			}
		})
	}
}

// TestInternalRefused shows that the build of TestExamples catches an
// example that imports an internal/ package.
func TestInternalRefused(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs("..")
	require.NoError(t, err)
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "main.go"), []byte(`package main

import "github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"

func main() { println(sqldb.DefaultMaxConns()) }
`), 0o644))
	_, out, err := build(t, root, dir, "sneaky")
	require.Error(t, err)
	assert.Contains(t, out, "use of internal package "+module+"/internal/plumbing/sqldb not allowed")
}

// build makes dir, holding the files of a main package, a module
// example.com/<name> that requires this repository (at root) and builds
// it; it returns the binary and the go tool's output.
//
// The module starts from the repository's go.mod, so it needs exactly the
// modules the repository builds with, all in the module cache already: the
// build runs with GOPROXY=off, and so needs no network.
func build(t *testing.T, root, dir, name string) (string, string, error) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	require.NoError(t, err)
	mod, err := modfile.Parse("go.mod", data, nil)
	require.NoError(t, err)
	require.NoError(t, mod.AddModuleStmt("example.com/"+name))
	for _, tool := range mod.Tool {
		require.NoError(t, mod.DropTool(tool.Path))
	}
	mod.AddNewRequire(module, "v0.0.0", false)
	require.NoError(t, mod.AddReplace(module, "", root, ""))
	mod.Cleanup()
	data, err = mod.Format()
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), data, 0o644))
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644))

	bin := filepath.Join(t.TempDir(), name)
	cmd := exec.CommandContext(t.Context(), "go", "build", "-o", bin, ".")
	cmd.Dir = dir
	// The requirements are complete, so the go tool may change none
	// (-mod=readonly), whatever GOFLAGS the test runs with.
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=readonly", "GOPROXY=off", "GOWORK=off", "GOTOOLCHAIN=local")
	out, err := cmd.CombinedOutput()
	return bin, string(out), err
}

// collapse returns s with each run of spaces made one, so that the
// examples' column padding does not matter.
func collapse(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.Join(strings.Fields(l), " ")
	}
	return strings.Join(lines, "\n")
}
