package idem_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/dbtest"
	"github.com/clubhouse-go/clubhouse/internal/idem"
	"github.com/clubhouse-go/clubhouse/internal/sqldb"
)

// clock is a settable clock that moves only when told to.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// fixture is a Store over a fresh database, on a stopped clock, with the
// errors it reported.
type fixture struct {
	keys    *idem.Store
	db      *sqldb.DB
	clock   *clock
	mu      sync.Mutex
	reports []error
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	f := &fixture{db: dbtest.New(t), clock: &clock{t: time.Now().Truncate(time.Microsecond)}}
	f.keys = idem.New(f.db.DB, idem.Options{Now: f.clock.Now, Report: func(err error) {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.reports = append(f.reports, err)
	}})
	return f
}

func (f *fixture) reported() []error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]error(nil), f.reports...)
}

// rows counts the stored keys.
func (f *fixture) rows(t *testing.T) int {
	t.Helper()
	var n int
	require.NoError(t, f.db.GetContext(t.Context(), &n, `SELECT count(*) FROM idempotency_keys`))
	return n
}

var (
	key   = idem.Key{Owner: "uid-ana", Scope: "POST /api/admin/booking", Key: "k-1"}
	input = idem.Fingerprint([]byte("POST"), []byte(`{"court_id":1}`))
	other = idem.Fingerprint([]byte("POST"), []byte(`{"court_id":2}`))
)

// counter is a run that counts its calls and answers 201 with the call's
// number.
type counter struct{ n atomic.Int32 }

func (c *counter) run(context.Context) (idem.Outcome, error) {
	n := c.n.Add(1)
	return idem.Outcome{Status: 201, ContentType: "application/json", Location: "/things/1", Body: fmt.Appendf(nil, `{"call":%d}`, n)}, nil
}

func TestIdempotentDo_runsOnceAndReplays(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	var c counter
	first, replayed, err := f.keys.Do(t.Context(), key, input, c.run)
	require.NoError(t, err)
	assert.False(t, replayed)
	assert.Equal(t, idem.Outcome{Status: 201, ContentType: "application/json", Location: "/things/1", Body: []byte(`{"call":1}`)}, first)
	for range 3 {
		again, replayed, err := f.keys.Do(t.Context(), key, input, c.run)
		require.NoError(t, err)
		assert.True(t, replayed)
		assert.Equal(t, first, again)
	}
	assert.EqualValues(t, 1, c.n.Load(), "run ran once")
	assert.Equal(t, 1, f.rows(t))
	assert.Empty(t, f.reported())
}

func TestIdempotentDo_otherInputIsRefused(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	var c counter
	_, _, err := f.keys.Do(t.Context(), key, input, c.run)
	require.NoError(t, err)
	_, _, err = f.keys.Do(t.Context(), key, other, c.run)
	require.ErrorIs(t, err, idem.ErrKeyReused)
	assert.EqualValues(t, 1, c.n.Load())
	_, replayed, err := f.keys.Do(t.Context(), key, input, c.run)
	require.NoError(t, err)
	assert.True(t, replayed, "the refusal changed nothing")
}

func TestIdempotentDo_keysAreScoped(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	var c counter
	for _, k := range []idem.Key{
		key,
		{Owner: "uid-bob", Scope: key.Scope, Key: key.Key},
		{Owner: key.Owner, Scope: "mcp:booking_create", Key: key.Key},
	} {
		_, replayed, err := f.keys.Do(t.Context(), k, other, c.run)
		require.NoError(t, err, "%+v", k)
		assert.False(t, replayed, "%+v", k)
	}
	assert.EqualValues(t, 3, c.n.Load(), "each owner and scope has keys of its own")
}

func TestIdempotentDo_failureReleasesKey(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	failure := errors.New("court taken")
	out, _, err := f.keys.Do(t.Context(), key, input, func(context.Context) (idem.Outcome, error) {
		return idem.Outcome{Status: 409}, failure
	})
	require.ErrorIs(t, err, failure)
	assert.Equal(t, 409, out.Status, "run's outcome comes back with its error")
	assert.Equal(t, 0, f.rows(t), "nothing kept")

	var c counter
	_, replayed, err := f.keys.Do(t.Context(), key, other, c.run)
	require.NoError(t, err, "a corrected retry runs, with any input")
	assert.False(t, replayed)
	assert.EqualValues(t, 1, c.n.Load())
}

func TestIdempotentDo_panicReleasesKey(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	assert.PanicsWithValue(t, "boom", func() {
		_, _, _ = f.keys.Do(t.Context(), key, input, func(context.Context) (idem.Outcome, error) { panic("boom") })
	})
	assert.Equal(t, 0, f.rows(t))
	var c counter
	_, _, err := f.keys.Do(t.Context(), key, input, c.run)
	require.NoError(t, err)
	assert.EqualValues(t, 1, c.n.Load())
}

// TestIdempotentDo_cancelledCallerReleasesKey: a caller that goes away mid-write
// fails its write, and the key is released although its context has ended.
func TestIdempotentDo_cancelledCallerReleasesKey(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx, cancel := context.WithCancel(t.Context())
	_, _, err := f.keys.Do(ctx, key, input, func(ctx context.Context) (idem.Outcome, error) {
		cancel()
		<-ctx.Done()
		return idem.Outcome{}, ctx.Err()
	})
	require.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, 0, f.rows(t))
	assert.Empty(t, f.reported())
}

// blocked starts a Do of key whose run waits for release; it returns once
// the run has started, and a channel with Do's error.
func blocked(t *testing.T, f *fixture, k idem.Key, fp [32]byte, release <-chan struct{}, out idem.Outcome) <-chan error {
	t.Helper()
	started, done := make(chan struct{}), make(chan error, 1)
	go func() {
		_, _, err := f.keys.Do(context.Background(), k, fp, func(context.Context) (idem.Outcome, error) {
			close(started)
			<-release
			return out, nil
		})
		done <- err
	}()
	select {
	case <-started:
	case err := <-done:
		t.Fatalf("Do returned before running: %v", err)
	}
	return done
}

func TestIdempotentDo_inProgress(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	release := make(chan struct{})
	done := blocked(t, f, key, input, release, idem.Outcome{Status: 201, Body: []byte("first")})
	var c counter
	_, _, err := f.keys.Do(t.Context(), key, input, c.run)
	require.ErrorIs(t, err, idem.ErrInProgress)
	_, _, err = f.keys.Do(t.Context(), key, other, c.run)
	require.ErrorIs(t, err, idem.ErrKeyReused, "other input is refused even while the first runs")
	close(release)
	require.NoError(t, <-done)
	out, replayed, err := f.keys.Do(t.Context(), key, input, c.run)
	require.NoError(t, err)
	assert.True(t, replayed)
	assert.Equal(t, "first", string(out.Body))
	assert.Zero(t, c.n.Load())
}

// TestIdempotentDo_staleAttemptIsTakenOver: an attempt older than the lease no
// longer holds its key; if it finishes after all, its outcome is not
// recorded over the one of the attempt that took over, and it is reported.
func TestIdempotentDo_staleAttemptIsTakenOver(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	release := make(chan struct{})
	done := blocked(t, f, key, input, release, idem.Outcome{Status: 201, Body: []byte("stale")})
	f.clock.Advance(idem.DefaultLease - time.Second)
	var c counter
	_, _, err := f.keys.Do(t.Context(), key, input, c.run)
	require.ErrorIs(t, err, idem.ErrInProgress, "within the lease")

	f.clock.Advance(time.Second)
	second, replayed, err := f.keys.Do(t.Context(), key, other, c.run)
	require.NoError(t, err, "a stale attempt holds nothing: any input runs")
	assert.False(t, replayed)
	close(release)
	require.NoError(t, <-done, "the stale attempt's write happened; its caller gets it")
	require.Len(t, f.reported(), 1)
	assert.ErrorContains(t, f.reported()[0], "taken over")

	again, replayed, err := f.keys.Do(t.Context(), key, other, c.run)
	require.NoError(t, err)
	assert.True(t, replayed)
	assert.Equal(t, second, again, "the attempt that took over is the one recorded")
}

func TestIdempotentDo_expiredKeyRunsAgain(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	var c counter
	_, _, err := f.keys.Do(t.Context(), key, input, c.run)
	require.NoError(t, err)
	f.clock.Advance(idem.DefaultTTL - time.Second)
	_, replayed, err := f.keys.Do(t.Context(), key, input, c.run)
	require.NoError(t, err)
	assert.True(t, replayed, "alive until the TTL has passed")

	f.clock.Advance(time.Second)
	out, replayed, err := f.keys.Do(t.Context(), key, other, c.run)
	require.NoError(t, err, "an expired key is free, for any input")
	assert.False(t, replayed)
	assert.Equal(t, `{"call":2}`, string(out.Body))
}

func TestIdempotentDo_runContextEndsWithinLease(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	start := time.Now()
	_, _, err := f.keys.Do(t.Context(), key, input, func(ctx context.Context) (idem.Outcome, error) {
		deadline, ok := ctx.Deadline()
		assert.True(t, ok)
		assert.WithinDuration(t, start.Add(idem.DefaultLease/2), deadline, 5*time.Second)
		return idem.Outcome{Status: 201}, nil
	})
	require.NoError(t, err)
}

func TestIdempotentDo_refusesBadKeys(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	var c counter
	_, _, err := f.keys.Do(t.Context(), idem.Key{Owner: "o", Scope: "s", Key: "with space"}, input, c.run)
	require.ErrorIs(t, err, idem.ErrInvalidKey)
	_, _, err = f.keys.Do(t.Context(), idem.Key{Scope: "s", Key: "k"}, input, c.run)
	require.ErrorContains(t, err, "owner and scope")
	_, _, err = f.keys.Do(t.Context(), idem.Key{Owner: "o", Key: "k"}, input, c.run)
	require.ErrorContains(t, err, "owner and scope")
	assert.Zero(t, c.n.Load())
}

// TestIdempotentDo_racing: many requests with one key at once run the write once;
// every other one gets its outcome replayed or is told it is in progress.
func TestIdempotentDo_racing(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	const n = 16
	var c counter
	type result struct {
		out      idem.Outcome
		replayed bool
		err      error
	}
	results := make(chan result, n)
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			out, replayed, err := f.keys.Do(t.Context(), key, input, c.run)
			results <- result{out, replayed, err}
		})
	}
	wg.Wait()
	close(results)
	fresh := 0
	for r := range results {
		if errors.Is(r.err, idem.ErrInProgress) {
			continue
		}
		require.NoError(t, r.err)
		assert.Equal(t, `{"call":1}`, string(r.out.Body))
		if !r.replayed {
			fresh++
		}
	}
	assert.Equal(t, 1, fresh, "one request ran the write")
	assert.EqualValues(t, 1, c.n.Load())
}

func TestIdempotentPurge(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	var c counter
	old := idem.Key{Owner: key.Owner, Scope: key.Scope, Key: "old"}
	_, _, err := f.keys.Do(t.Context(), old, input, c.run)
	require.NoError(t, err)
	f.clock.Advance(idem.DefaultTTL / 2)
	_, _, err = f.keys.Do(t.Context(), key, input, c.run)
	require.NoError(t, err)

	n, err := f.keys.Purge(t.Context())
	require.NoError(t, err)
	assert.Zero(t, n, "nothing has expired")
	f.clock.Advance(idem.DefaultTTL / 2)
	n, err = f.keys.Purge(t.Context())
	require.NoError(t, err)
	assert.EqualValues(t, 1, n)
	assert.Equal(t, 1, f.rows(t))
	_, replayed, err := f.keys.Do(t.Context(), key, input, c.run)
	require.NoError(t, err)
	assert.True(t, replayed, "the younger key is kept")
}

// TestIdempotentRunPurge: the loop purges at once and then every interval, until
// its context ends.
func TestIdempotentRunPurge(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	var c counter
	_, _, err := f.keys.Do(t.Context(), key, input, c.run)
	require.NoError(t, err)
	f.clock.Advance(idem.DefaultTTL)
	ctx, cancel := context.WithCancel(t.Context())
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		f.keys.RunPurge(ctx, time.Hour, func(err error) { t.Errorf("purge: %v", err) })
	}()
	require.Eventually(t, func() bool {
		var n int
		err := f.db.GetContext(ctx, &n, `SELECT count(*) FROM idempotency_keys`)
		return err == nil && n == 0
	}, 10*time.Second, 10*time.Millisecond)
	cancel()
	<-stopped
}
