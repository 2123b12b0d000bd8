package idem_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/plumbing/idem"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
	"github.com/clubhouse-go/clubhouse/migrations"
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
	dsn     string
	clock   *clock
	mu      sync.Mutex
	reports []error
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	f := &fixture{clock: &clock{t: time.Now().Truncate(time.Microsecond)}}
	f.db, f.dsn = dbtest.NewWith(t, migrations.Main())
	f.keys = idem.New(f.db.DB, idem.Options{Now: f.clock.Now, Report: f.report})
	return f
}

func (f *fixture) report(err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reports = append(f.reports, err)
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

// TestIdempotentPurgeJob: the job purges at once and then every interval, until
// its context ends.
func TestIdempotentPurgeJob(t *testing.T) {
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
		assert.NoError(t, f.keys.PurgeJob(time.Hour).Run(ctx), "purge")
	}()
	require.Eventually(t, func() bool {
		var n int
		err := f.db.GetContext(ctx, &n, `SELECT count(*) FROM idempotency_keys`)
		return err == nil && n == 0
	}, 10*time.Second, 10*time.Millisecond)
	cancel()
	<-stopped
}

// The tests of the written mark: a write that committed is never run
// again for its key, whatever happens to its attempt afterwards.

// scratch creates the table the writes of these tests insert into.
func (f *fixture) scratch(t *testing.T) {
	t.Helper()
	_, err := f.db.ExecContext(t.Context(), `CREATE TABLE scratch (n int NOT NULL)`)
	require.NoError(t, err)
}

// writes lists what the writes inserted into scratch.
func (f *fixture) writes(t *testing.T) []int {
	t.Helper()
	ns := []int{}
	require.NoError(t, f.db.SelectContext(t.Context(), &ns, `SELECT n FROM scratch ORDER BY n`))
	return ns
}

// keyState returns the state of key's row and its written mark.
func (f *fixture) keyState(t *testing.T) (state string, written bool) {
	t.Helper()
	require.NoError(t, f.db.QueryRowContext(t.Context(), `SELECT state, written FROM idempotency_keys
		WHERE owner = $1 AND scope = $2 AND key = $3`, key.Owner, key.Scope, key.Key).Scan(&state, &written))
	return state, written
}

// process returns a Store on a pool of its own on f's database, with f's
// clock and reports: another server, which the test kills by closing the
// pool.
func (f *fixture) process(t *testing.T) (*idem.Store, *sqldb.DB) {
	t.Helper()
	db, err := sqldb.Open(t.Context(), f.dsn)
	require.NoError(t, err)
	t.Cleanup(db.Close)
	return idem.New(db.DB, idem.Options{Now: f.clock.Now, Report: f.report}), db
}

// write inserts n into scratch in a transaction of db run with ctx, as a
// service's write does.
func write(ctx context.Context, db *sqldb.DB, n int) error {
	return sqldb.Transact(ctx, db.DB, func(tx *sqlx.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO scratch VALUES ($1)`, n)
		return err
	})
}

// TestIdempotentDo_diedAfterWriteIsNotRunAgain: a server that dies between
// the commit of the write and the recording of its outcome leaves the key
// running and written; a retry is in progress within the lease, and after
// it gets ErrAlreadyApplied, without writing a second time, until the key
// expires.
func TestIdempotentDo_diedAfterWriteIsNotRunAgain(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.scratch(t)
	dying, pool := f.process(t)
	_, _, err := dying.Do(t.Context(), key, input, func(ctx context.Context) (idem.Outcome, error) {
		if err := write(ctx, pool, 1); err != nil {
			return idem.Outcome{}, err
		}
		pool.Close() // the server dies: nothing after the write reaches the database
		return idem.Outcome{Status: 201, Body: []byte("lost")}, nil
	})
	require.NoError(t, err, "the write happened; the failed recording is reported")
	require.Len(t, f.reported(), 1)
	state, written := f.keyState(t)
	assert.Equal(t, "running", state)
	assert.True(t, written, "the mark committed with the write")

	var c counter
	_, _, err = f.keys.Do(t.Context(), key, input, c.run)
	require.ErrorIs(t, err, idem.ErrInProgress, "within the lease")
	f.clock.Advance(idem.DefaultLease)
	for range 2 {
		_, _, err = f.keys.Do(t.Context(), key, input, c.run)
		require.ErrorIs(t, err, idem.ErrAlreadyApplied, "after the lease")
	}
	_, _, err = f.keys.Do(t.Context(), key, other, c.run)
	require.ErrorIs(t, err, idem.ErrKeyReused)
	assert.Zero(t, c.n.Load(), "run did not run again")
	assert.Equal(t, []int{1}, f.writes(t), "one write")

	f.clock.Advance(idem.DefaultTTL)
	_, replayed, err := f.keys.Do(t.Context(), key, input, c.run)
	require.NoError(t, err, "an expired key is free")
	assert.False(t, replayed)
	assert.EqualValues(t, 1, c.n.Load())
}

// TestIdempotentDo_failureAfterWriteKeepsKey: an attempt that fails after
// its write committed (its answer could not be made) does not release its
// key: it keeps it unanswered, and a retry gets ErrAlreadyApplied at once.
// The write here goes through sqldb.Atomic, as a single-statement create
// does.
func TestIdempotentDo_failureAfterWriteKeepsKey(t *testing.T) {
	t.Parallel()
	encode := errors.New("encode answer: broken pipe")
	for name, fail := range map[string]func() (idem.Outcome, error){
		"error": func() (idem.Outcome, error) { return idem.Outcome{}, encode },
		"panic": func() (idem.Outcome, error) { panic(encode) },
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			f.scratch(t)
			do := func() error {
				_, _, err := f.keys.Do(t.Context(), key, input, func(ctx context.Context) (idem.Outcome, error) {
					err := sqldb.Atomic(ctx, f.db.DB, func(q sqldb.Queryer) error {
						_, err := q.ExecContext(ctx, `INSERT INTO scratch VALUES (1)`)
						return err
					})
					if err != nil {
						return idem.Outcome{}, err
					}
					return fail()
				})
				return err
			}
			if name == "panic" {
				assert.PanicsWithValue(t, encode, func() { _ = do() })
			} else {
				require.ErrorIs(t, do(), encode)
			}
			state, written := f.keyState(t)
			assert.Equal(t, "unanswered", state)
			assert.True(t, written)

			var c counter
			_, _, err := f.keys.Do(t.Context(), key, input, c.run)
			require.ErrorIs(t, err, idem.ErrAlreadyApplied, "at once, without waiting for a lease")
			_, _, err = f.keys.Do(t.Context(), key, other, c.run)
			require.ErrorIs(t, err, idem.ErrKeyReused)
			assert.Zero(t, c.n.Load())
			assert.Equal(t, []int{1}, f.writes(t))
			assert.Empty(t, f.reported())
		})
	}
}

// TestIdempotentDo_lateWriteAfterTakeoverRollsBack: an attempt that stalls
// past its lease before writing loses its key to a retry, which writes;
// when the stalled attempt writes after all, its transaction finds the key
// taken over and rolls back, and its caller is told the request is in
// progress. The retry's outcome is the one kept.
func TestIdempotentDo_lateWriteAfterTakeoverRollsBack(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.scratch(t)
	started, proceed, done := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	go func() {
		_, _, err := f.keys.Do(context.Background(), key, input, func(ctx context.Context) (idem.Outcome, error) {
			close(started)
			<-proceed
			if err := write(ctx, f.db, 1); err != nil {
				return idem.Outcome{}, err
			}
			return idem.Outcome{Status: 201, Body: []byte("late")}, nil
		})
		done <- err
	}()
	<-started
	f.clock.Advance(idem.DefaultLease)
	second, replayed, err := f.keys.Do(t.Context(), key, input, func(ctx context.Context) (idem.Outcome, error) {
		return idem.Outcome{Status: 201, Body: []byte("second")}, write(ctx, f.db, 2)
	})
	require.NoError(t, err, "the stalled attempt had not written: the retry takes over")
	assert.False(t, replayed)

	close(proceed)
	err = <-done
	require.ErrorIs(t, err, idem.ErrInProgress)
	assert.Equal(t, []int{2}, f.writes(t), "the late write was rolled back")
	require.Len(t, f.reported(), 1)
	assert.ErrorContains(t, f.reported()[0], "taken over")

	var c counter
	again, replayed, err := f.keys.Do(t.Context(), key, input, c.run)
	require.NoError(t, err)
	assert.True(t, replayed)
	assert.Equal(t, second, again)
	state, written := f.keyState(t)
	assert.Equal(t, "done", state)
	assert.True(t, written)
}

// TestIdempotentDo_takeoverWaitsForCommittingWrite: a retry after the
// lease that meets a write on the point of committing waits for it, and
// then sees the key written: ErrAlreadyApplied, not a second write. When
// the slow attempt records its outcome after all, retries replay it.
func TestIdempotentDo_takeoverWaitsForCommittingWrite(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.scratch(t)
	marked, commit, done := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	go func() {
		_, _, err := f.keys.Do(context.Background(), key, input, func(ctx context.Context) (idem.Outcome, error) {
			// A hook added after Do's runs after the mark, in the same
			// transaction: the commit waits here, with the key's row locked.
			var once sync.Once
			ctx = sqldb.OnCommit(ctx, f.db.DB, func(context.Context, *sqlx.Tx) error {
				once.Do(func() { close(marked) })
				<-commit
				return nil
			})
			return idem.Outcome{Status: 201, Body: []byte("first")}, write(ctx, f.db, 1)
		})
		done <- err
	}()
	<-marked
	f.clock.Advance(idem.DefaultLease)
	var c counter
	retried := make(chan error, 1)
	go func() {
		_, _, err := f.keys.Do(t.Context(), key, input, c.run)
		retried <- err
	}()
	require.Eventually(t, func() bool {
		var n int
		err := f.db.GetContext(t.Context(), &n, `SELECT count(*) FROM pg_stat_activity
			WHERE datname = current_database() AND wait_event_type = 'Lock'`)
		return err == nil && n > 0
	}, 10*time.Second, 10*time.Millisecond, "the retry waits for the write's transaction")
	close(commit)
	// Once the write commits, the retry sees the key written: "already
	// applied", or, when the first attempt records its outcome before the
	// retry reads the row again, a replay of it. Never a second write.
	if err := <-retried; err != nil {
		require.ErrorIs(t, err, idem.ErrAlreadyApplied)
	}
	require.NoError(t, <-done)
	assert.Zero(t, c.n.Load())
	assert.Equal(t, []int{1}, f.writes(t))

	out, replayed, err := f.keys.Do(t.Context(), key, input, c.run)
	require.NoError(t, err)
	assert.True(t, replayed)
	assert.Equal(t, "first", string(out.Body))
}
