// Package testrun runs go test package by package, so that a long test run
// shows its progress: make test runs the suite through it.
//
// One go test over many packages keeps each package's output until that
// package ends, and prints it in the order of the package list, so one
// slow package early in the list silences every other for minutes. testrun
// runs one go test -json per package instead, as many at a time as go test
// would run (GOMAXPROCS), and merges their events, so each test is shown
// as it ends. It prints, in gotestsum's testname format, a line when a
// package starts, a line per test, a line when the package ends with its
// time (build and run), and, when nothing was printed for a while, a line
// naming the packages still running; then gotestsum's summary.
package testrun

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os/exec"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"gotest.tools/gotestsum/testjson"
)

// Options are what Run runs and where it writes.
type Options struct {
	Packages []string // package patterns, such as ./...; packages without test files are left out
	Flags    []string // go test flags, such as -race -count=1 (-json is added)
	// NoRace matches the import paths of the packages tested without
	// -race, when Flags hold it; nil: none.
	NoRace   *regexp.Regexp
	Parallel int           // packages tested at once; 0: GOMAXPROCS, go test's default
	Quiet    time.Duration // after this long without a line, a line names the packages still running; 0: 30s
	Out      io.Writer     // the progress, the tests and the summary
	Err      io.Writer     // what go test writes to its standard error
}

// ErrFailed is returned by Run when a test, a package or a go command
// failed; the output says which.
var ErrFailed = errors.New("tests failed")

// Run tests the packages of o. Errors: ErrFailed, or an error of go list.
func Run(ctx context.Context, o Options) error {
	if o.Parallel <= 0 {
		o.Parallel = runtime.GOMAXPROCS(0)
	}
	if o.Quiet <= 0 {
		o.Quiet = 30 * time.Second
	}
	pkgs, err := list(ctx, o.Packages)
	if err != nil {
		return err
	}
	p := &progress{out: o.Out, last: time.Now(), started: map[string]time.Time{}}
	p.format = testjson.NewEventFormatter(p, "testname", testjson.FormatOptions{HideEmptyPackages: true})
	stdout, stdoutW := io.Pipe()
	stderr, stderrW := io.Pipe()
	scanned := make(chan error, 1)
	var ran *testjson.Execution
	go func() {
		var err error
		ran, err = testjson.ScanTestOutput(testjson.ScanConfig{Stdout: stdout, Stderr: stderr,
			Handler: handler{p: p, err: o.Err}})
		// Should the scan stop early, the copies of the go test
		// processes' output must not block on the pipes.
		stdout.Close()
		stderr.Close()
		scanned <- err
	}()
	stop := make(chan struct{})
	go p.heartbeat(o.Quiet, stop)

	lines := &lineWriter{w: stdoutW}
	errLines := &lineWriter{w: stderrW}
	var (
		wg       sync.WaitGroup
		slots    = make(chan struct{}, o.Parallel)
		goFailed atomic.Bool // a go test exited with an error
	)
	for i, pkg := range pkgs {
		slots <- struct{}{}
		wg.Add(1)
		flags, note := o.Flags, ""
		if o.NoRace != nil && o.NoRace.MatchString(pkg) && slices.Contains(flags, "-race") {
			flags = slices.DeleteFunc(slices.Clone(flags), func(f string) bool { return f == "-race" })
			note = " without -race"
		}
		p.start(pkg, note, i+1, len(pkgs))
		go func() {
			defer func() { <-slots; wg.Done() }()
			if err := goTest(ctx, pkg, flags, lines, errLines); err != nil {
				goFailed.Store(true)
			}
		}()
	}
	wg.Wait()
	stdoutW.Close()
	stderrW.Close()
	err = <-scanned
	close(stop)
	if err != nil {
		return fmt.Errorf("read go test output: %w", err)
	}
	testjson.PrintSummary(o.Out, ran, testjson.SummarizeAll)
	if goFailed.Load() || len(ran.Failed()) > 0 || len(ran.Errors()) > 0 {
		return ErrFailed
	}
	return nil
}

// list returns the import paths of the packages of patterns that have test
// files, in go list's order.
func list(ctx context.Context, patterns []string) ([]string, error) {
	cmd := exec.CommandContext(ctx, "go", append([]string{"list", "-f", "{{if or .TestGoFiles .XTestGoFiles}}{{.ImportPath}}{{end}}"}, patterns...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list %s: %w: %s", strings.Join(patterns, " "), err, strings.TrimSpace(stderr.String()))
	}
	return strings.Fields(string(out)), nil
}

// goTest runs go test -json on pkg with flags, and copies its output, line
// by line, to stdout and stderr. Errors: go test failed.
func goTest(ctx context.Context, pkg string, flags []string, stdout, stderr *lineWriter) error {
	cmd := exec.CommandContext(ctx, "go", append(append([]string{"test", "-json"}, flags...), pkg)...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	errOut, err := cmd.StderrPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(stderr, "go test %s: %v\n", pkg, err)
		return err
	}
	var copies sync.WaitGroup
	copies.Add(2)
	go func() { defer copies.Done(); stdout.copyLines(out) }()
	go func() { defer copies.Done(); stderr.copyLines(errOut) }()
	copies.Wait()
	return cmd.Wait()
}

// lineWriter writes whole lines to w, one at a time, so that the lines of
// several go test processes never interleave within a line.
type lineWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lineWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}

// copyLines copies r to l line by line, whatever the length of a line.
func (l *lineWriter) copyLines(r io.Reader) {
	br := bufio.NewReader(r)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			if line[len(line)-1] != '\n' {
				line = append(line, '\n')
			}
			_, _ = l.Write(line)
		}
		if err != nil {
			return
		}
	}
}

// progress writes the lines of the run: its own and the formatter's.
type progress struct {
	mu      sync.Mutex
	out     io.Writer
	format  testjson.EventFormatter // writes to the progress itself
	last    time.Time               // when a line was last written
	started map[string]time.Time    // the packages running, by import path
}

// Write writes b to the output and notes the time; p.mu is held.
func (p *progress) Write(b []byte) (int, error) {
	p.last = time.Now()
	return p.out.Write(b)
}

// start writes the line of the n-th package of total, pkg, starting.
func (p *progress) start(pkg, note string, n, total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.started[pkg] = time.Now()
	p.printf("START %s%s (%d/%d)\n", testjson.RelativePackagePath(pkg), note, n, total)
}

// event writes the line of e, if it has one: a package's end with the time
// since it started, anything else as the testname format writes it.
func (p *progress) event(e testjson.TestEvent, exec *testjson.Execution) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !e.PackageEvent() || !e.Action.IsTerminal() {
		return p.format.Format(e, exec)
	}
	result := strings.ToUpper(string(e.Action))
	if e.Action == testjson.ActionPass && exec.Package(e.Package).Total == 0 {
		result = "EMPTY"
	}
	took := time.Since(p.started[e.Package])
	delete(p.started, e.Package)
	p.printf("%s %s (%s)\n", result, testjson.RelativePackagePath(e.Package), took.Round(100*time.Millisecond))
	return nil
}

// heartbeat writes, each time nothing was written for quiet, a line that
// names the packages still running and for how long, until stop closes.
func (p *progress) heartbeat(quiet time.Duration, stop <-chan struct{}) {
	tick := time.NewTicker(min(quiet, time.Second))
	defer tick.Stop()
	for {
		select {
		case <-stop:
			return
		case now := <-tick.C:
			p.mu.Lock()
			if now.Sub(p.last) >= quiet && len(p.started) > 0 {
				var running []string
				for _, pkg := range slices.Sorted(maps.Keys(p.started)) {
					running = append(running, fmt.Sprintf("%s (%s)", testjson.RelativePackagePath(pkg), now.Sub(p.started[pkg]).Round(time.Second)))
				}
				p.printf("RUNNING %s\n", strings.Join(running, ", "))
			}
			p.mu.Unlock()
		}
	}
}

// printf writes a line; p.mu is held.
func (p *progress) printf(format string, args ...any) {
	fmt.Fprintf(p, format, args...)
}

// handler hands ScanTestOutput's events to the progress, and go test's
// standard error to err.
type handler struct {
	p   *progress
	err io.Writer
}

func (h handler) Event(e testjson.TestEvent, exec *testjson.Execution) error {
	return h.p.event(e, exec)
}

func (h handler) Err(text string) error {
	_, err := fmt.Fprintln(h.err, text)
	return err
}
