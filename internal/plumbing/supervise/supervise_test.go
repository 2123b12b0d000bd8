package supervise_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/supervise"
)

// waits records the waits before restarts and lets each pass at once.
type waits struct {
	mu sync.Mutex
	d  []time.Duration
}

func (w *waits) after(d time.Duration) <-chan time.Time {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.d = append(w.d, d)
	c := make(chan time.Time, 1)
	c <- time.Time{}
	return c
}

func (w *waits) list() []time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]time.Duration(nil), w.d...)
}

// failures collects the reported failures.
type failures struct {
	mu   sync.Mutex
	errs []error
}

func (f *failures) report(job string, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.errs = append(f.errs, err)
}

func (f *failures) list() []error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]error(nil), f.errs...)
}

// TestSupervisor_restarts: a job that fails, panics or returns early is
// reported and run again, after waits that double from the least to the
// most; once it runs, it is up with its restarts counted.
func TestSupervisor_restarts(t *testing.T) {
	t.Parallel()
	errBroken := errors.New("broken")
	for _, tc := range []struct {
		name string
		fail func() error
		want func(t *testing.T, err error)
	}{
		{"error", func() error { return errBroken }, func(t *testing.T, err error) { assert.ErrorIs(t, err, errBroken) }},
		{"panic", func() error { panic("boom") }, func(t *testing.T, err error) {
			assert.ErrorContains(t, err, "panic: boom")
			assert.ErrorContains(t, err, "supervise_test.go", "the stack is reported")
		}},
		{"returned", func() error { return nil }, func(t *testing.T, err error) { assert.ErrorIs(t, err, supervise.ErrReturned) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w, f := &waits{}, &failures{}
			s := supervise.New(supervise.Options{Report: f.report, After: w.after})
			const fails = 9
			runs, running := 0, make(chan struct{})
			job := clubhouse.NewJob("flaky", func(ctx context.Context) error {
				runs++
				if runs <= fails {
					return tc.fail()
				}
				close(running)
				<-ctx.Done()
				return nil
			})
			ctx, cancel := context.WithCancel(t.Context())
			done := make(chan struct{})
			go func() { defer close(done); s.Run(ctx, job) }()
			<-running
			assert.Equal(t, []supervise.Status{{Job: "flaky", State: supervise.Up, Restarts: fails}}, s.Status())
			cancel()
			<-done
			assert.Equal(t, []supervise.Status{{Job: "flaky", State: supervise.Stopped, Restarts: fails}}, s.Status())
			assert.Equal(t, []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 16 * time.Second,
				32 * time.Second, time.Minute, time.Minute, time.Minute}, w.list(), "from a second to a minute")
			errs := f.list()
			require.Len(t, errs, fails)
			for _, err := range errs {
				tc.want(t, err)
			}
		})
	}
}

// TestSupervisor_backoffResets: a job that ran for the longest wait or
// longer before it failed waits the least again.
func TestSupervisor_backoffResets(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	clock := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	now := func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		return clock
	}
	w := &waits{}
	s := supervise.New(supervise.Options{After: w.after, Now: now, MinBackoff: time.Millisecond, MaxBackoff: 8 * time.Millisecond})
	runs, running := 0, make(chan struct{})
	job := clubhouse.NewJob("long", func(ctx context.Context) error {
		runs++
		switch runs {
		case 1, 2, 3:
			return errors.New("quick failure")
		case 4:
			mu.Lock()
			clock = clock.Add(8 * time.Millisecond) // ran as long as the longest wait
			mu.Unlock()
			return errors.New("late failure")
		}
		close(running)
		<-ctx.Done()
		return nil
	})
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() { defer close(done); s.Run(ctx, job) }()
	<-running
	cancel()
	<-done
	assert.Equal(t, []time.Duration{time.Millisecond, 2 * time.Millisecond, 4 * time.Millisecond, time.Millisecond}, w.list())
}

// TestSupervisor_waitsOnShutdown: Run returns only once every job has
// returned, a job busy when the context ends included, and a job waiting
// to restart stops waiting.
func TestSupervisor_waitsOnShutdown(t *testing.T) {
	t.Parallel()
	s := supervise.New(supervise.Options{After: func(time.Duration) <-chan time.Time { return nil }}) // never restarts
	busy, release, finished := make(chan struct{}), make(chan struct{}), make(chan struct{})
	slow := clubhouse.NewJob("slow", func(ctx context.Context) error {
		close(busy)
		<-ctx.Done()
		<-release // finishing its round after shutdown began
		close(finished)
		return nil
	})
	failed := clubhouse.NewJob("failed", func(context.Context) error { return errors.New("down") })
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() { defer close(done); s.Run(ctx, slow, failed) }()
	<-busy
	require.Eventually(t, func() bool { return s.Status()[1].State == supervise.Restarting }, 5*time.Second, time.Millisecond)
	cancel()
	select {
	case <-done:
		t.Fatal("Run returned while a job was still running")
	case <-time.After(50 * time.Millisecond):
	}
	close(release)
	<-done
	select {
	case <-finished:
	default:
		t.Fatal("the job had not finished when Run returned")
	}
	assert.Equal(t, []supervise.Status{{Job: "slow", State: supervise.Stopped}, {Job: "failed", State: supervise.Stopped}}, s.Status())
}

// TestSupervisor_metrics: each job's up gauge and restart counter.
func TestSupervisor_metrics(t *testing.T) {
	t.Parallel()
	s := supervise.New(supervise.Options{After: func(time.Duration) <-chan time.Time { return nil }})
	running := make(chan struct{})
	ok := clubhouse.NewJob("ok", func(ctx context.Context) error { close(running); <-ctx.Done(); return nil })
	down := clubhouse.NewJob("down", func(context.Context) error { return errors.New("down") })
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() { defer close(done); s.Run(ctx, ok, down) }()
	defer func() { cancel(); <-done }()
	<-running
	require.Eventually(t, func() bool { return s.Status()[1].State == supervise.Restarting }, 5*time.Second, time.Millisecond)
	assert.NoError(t, testutil.CollectAndCompare(s, strings.NewReader(`
# HELP clubhouse_job_restarts_total Times the background job was run again after a failure.
# TYPE clubhouse_job_restarts_total counter
clubhouse_job_restarts_total{job="down"} 0
clubhouse_job_restarts_total{job="ok"} 0
# HELP clubhouse_job_up 1 while the background job runs, 0 while it waits to restart or has stopped.
# TYPE clubhouse_job_up gauge
clubhouse_job_up{job="down"} 0
clubhouse_job_up{job="ok"} 1
`)))
}

// TestSupervisor_oneCopy: a job runs once at a time under its name: a
// second Run of a job of the same name while it runs panics, and once it
// stopped it may run again, under the same status.
func TestSupervisor_oneCopy(t *testing.T) {
	t.Parallel()
	s := supervise.New(supervise.Options{})
	started := make(chan struct{})
	job := clubhouse.NewJob("watch", func(ctx context.Context) error {
		started <- struct{}{}
		<-ctx.Done()
		return nil
	})
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() { defer close(done); s.Run(ctx, job) }()
	<-started
	assert.PanicsWithValue(t, `supervise: job "watch" is running already`, func() { s.Run(t.Context(), job) })
	cancel()
	<-done
	ctx, cancel = context.WithCancel(t.Context())
	done = make(chan struct{})
	go func() { defer close(done); s.Run(ctx, job) }()
	<-started
	cancel()
	<-done
	assert.Equal(t, []supervise.Status{{Job: "watch", State: supervise.Stopped}}, s.Status())
}

// TestSupervisor_failureAtShutdown: a job that fails as the shutdown
// begins is reported, as any failure; one that returns the context's end
// is not.
func TestSupervisor_failureAtShutdown(t *testing.T) {
	t.Parallel()
	var f failures
	s := supervise.New(supervise.Options{Report: f.report})
	busy := make(chan struct{}, 2)
	failing := clubhouse.NewJob("failing", func(ctx context.Context) error {
		busy <- struct{}{}
		<-ctx.Done()
		return errors.New("flush lost")
	})
	quiet := clubhouse.NewJob("quiet", func(ctx context.Context) error {
		busy <- struct{}{}
		<-ctx.Done()
		return ctx.Err()
	})
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() { defer close(done); s.Run(ctx, failing, quiet) }()
	<-busy
	<-busy
	cancel()
	<-done
	errs := f.list()
	require.Len(t, errs, 1)
	assert.EqualError(t, errs[0], "flush lost")
}
