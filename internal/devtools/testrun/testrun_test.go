package testrun_test

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/devtools/testrun"
)

// watch is the output of a run. Once it shows that package later ended,
// and after that a line naming package early as still running, it creates
// the marker that early's test waits for.
type watch struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	marker string
}

func (w *watch) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n, _ := w.buf.Write(b)
	s := w.buf.String()
	if i := strings.Index(s, "\nPASS example.com/progress/later ("); i >= 0 && strings.Contains(s[i:], "\nRUNNING example.com/progress/early (") {
		if err := os.WriteFile(w.marker, nil, 0o600); err != nil {
			return 0, err
		}
	}
	return n, nil
}

func (w *watch) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// TestRun runs the module of testdata/progress, whose first package
// (early) ends only after the run has shown that a later package ended and
// then that early still runs: one go test over the packages would show
// nothing of later until early ended, and early would fail waiting. Each
// package's start and end (with its time) are shown, packages without test
// files are left out, and a failure makes the run fail, with gotestsum's
// summary.
func TestRun(t *testing.T) {
	dir, err := filepath.Abs("testdata/progress")
	require.NoError(t, err)
	out := &watch{marker: filepath.Join(t.TempDir(), "later-done")}
	t.Setenv("TESTRUN_MARKER", out.marker)
	t.Chdir(dir)
	var stderr bytes.Buffer
	err = testrun.Run(t.Context(), testrun.Options{Packages: []string{"./..."}, Flags: []string{"-count=1"},
		Parallel: 2, Quiet: 200 * time.Millisecond, Out: out, Err: &stderr})
	require.ErrorIs(t, err, testrun.ErrFailed)
	got := "\n" + out.String()
	for _, line := range []string{
		`START example.com/progress/broken (1/3)`,
		`START example.com/progress/early (2/3)`,
		`START example.com/progress/later (3/3)`,
		`FAIL example.com/progress/broken.TestFails (`,
		`PASS example.com/progress/broken.TestPasses (`,
		`FAIL example.com/progress/broken (`,
		`PASS example.com/progress/later.TestQuick (`,
		`PASS example.com/progress/early.TestWaitsForLater (`,
		`PASS example.com/progress/early (`,
		`DONE 4 tests, 1 failure in `,
	} {
		assert.Contains(t, got, "\n"+line, "a line %q", line)
	}
	assert.Regexp(t, regexp.MustCompile(`(?m)^PASS example.com/progress/later \(\d[\d.]*m?s\)$`), got, "a package's end shows its time")
	assert.Less(t, strings.Index(got, "PASS example.com/progress/later ("), strings.Index(got, "PASS example.com/progress/early ("))
	assert.Contains(t, got, "=== FAIL: example.com/progress/broken TestFails", "the summary names the failure")
	assert.NotContains(t, got, "notests", "a package without test files is left out")
	assert.Empty(t, stderr.String())
}

// TestRun_listFails: patterns that match no package are an error of go
// list, not a run.
func TestRun_listFails(t *testing.T) {
	t.Chdir(t.TempDir())
	var out bytes.Buffer
	err := testrun.Run(t.Context(), testrun.Options{Packages: []string{"./..."}, Out: &out, Err: &out})
	require.Error(t, err)
	assert.NotErrorIs(t, err, testrun.ErrFailed)
	assert.Contains(t, err.Error(), "go list")
}

// TestRun_noRace: the packages NoRace matches are tested without -race,
// the others with it, and their start says so.
func TestRun_noRace(t *testing.T) {
	dir, err := filepath.Abs("testdata/race")
	require.NoError(t, err)
	t.Chdir(dir)
	var out, stderr bytes.Buffer
	err = testrun.Run(t.Context(), testrun.Options{Packages: []string{"./..."}, Flags: []string{"-race", "-count=1"},
		NoRace: regexp.MustCompile(`/plain$`), Out: &out, Err: &stderr})
	require.NoError(t, err, "%s\n%s", &out, &stderr)
	got := "\n" + out.String()
	for _, line := range []string{
		`START example.com/race/plain without -race (1/2)`,
		`START example.com/race/raced (2/2)`,
		`PASS example.com/race/plain.TestWithoutRace (`,
		`PASS example.com/race/raced.TestWithRace (`,
	} {
		assert.Contains(t, got, "\n"+line, "a line %q", line)
	}
	assert.Regexp(t, regexp.MustCompile(`(?m)^PASS example.com/race/plain \(\d[\d.]*m?s\)$`), got, "its end shows its time")
}
