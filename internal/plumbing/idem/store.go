package idem

import (
	"bytes"
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
)

// The defaults of Options.
const (
	DefaultTTL   = 24 * time.Hour
	DefaultLease = time.Minute
)

// finishTimeout bounds the recording or release of a key after the write,
// which runs even when the caller's context has ended.
const finishTimeout = 10 * time.Second

// purgeBatch bounds the rows one statement of Purge deletes.
const purgeBatch = 10_000

// claimTries bounds the rounds of a claim that finds the key released
// between its insert and its read by another attempt each time.
const claimTries = 3

// Options are the settings of a Store.
type Options struct {
	// Now is the clock; time.Now when nil.
	Now func() time.Time
	// TTL is how long a recorded outcome replays; DefaultTTL when 0.
	TTL time.Duration
	// Lease is how long a running attempt holds its key before another
	// request may take it over; DefaultLease when 0. run gets half of it:
	// its context ends after Lease/2, so no attempt still runs when its
	// key is taken over.
	Lease time.Duration
	// Report receives the errors Do cannot return because the write has
	// already happened or failed for its own reason: an outcome that could
	// not be recorded (the key stays running until the lease ends, and
	// then answers ErrAlreadyApplied), a key that could not be released
	// (it stays running until the lease ends), and a late write rolled
	// back because another attempt took its key over. Nil: dropped.
	Report func(error)
}

// Store keeps idempotency keys in the main database.
type Store struct {
	db *sqlx.DB
	o  Options
}

// New returns a Store on db, a main database migrated with
// migrations.Main().
func New(db *sqlx.DB, o Options) *Store {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.TTL <= 0 {
		o.TTL = DefaultTTL
	}
	if o.Lease <= 0 {
		o.Lease = DefaultLease
	}
	if o.Report == nil {
		o.Report = func(error) {}
	}
	return &Store{db: db, o: o}
}

// Do runs the write run once for k and fp, the fingerprint of the
// request's input (see Fingerprint), and records its outcome:
//
//   - a key seen for the first time, released by a failed attempt, expired,
//     or held by an attempt older than the lease whose write did not
//     commit: run runs; when it returns without error its Outcome is
//     recorded and returned, replayed false;
//   - a key whose outcome is recorded, with the same fp: that outcome is
//     returned, replayed true, and run does not run;
//   - a key whose write committed but whose outcome was never recorded
//     (its attempt failed after the write, or ended without recording and
//     its lease is over), with the same fp: ErrAlreadyApplied, and run
//     does not run;
//   - a key with another fp, in any state: ErrKeyReused;
//   - a key whose attempt still runs, with the same fp: ErrInProgress.
//
// The context run gets carries a commit hook (sqldb.OnCommit) for the
// Store's database: each transaction that sqldb.Transact or sqldb.Atomic
// runs there with that context marks the key written before it commits,
// so the mark commits exactly when the write does, and a process that dies
// between the write and the recording of its outcome leaves a key that
// is never run again. When the key was taken over meanwhile (run outlived
// the lease), the hook fails the transaction: that late write rolls back
// and Do returns ErrInProgress. A write made otherwise (on another
// database, or not through sqldb) is not marked, and may run again when
// its process dies before recording the outcome.
//
// When run fails (an error, or a panic, which Do lets through), the key is
// released, unless its write committed: then it is kept unanswered, so
// that a retry gets ErrAlreadyApplied. Do returns run's Outcome and error
// as they are. run gets a context that ends after half the lease. Other
// errors: ErrInvalidKey, an error for a key without owner or scope, and
// the database's.
func (s *Store) Do(ctx context.Context, k Key, fp [32]byte, run func(ctx context.Context) (Outcome, error)) (out Outcome, replayed bool, err error) {
	if err := CheckKey(k.Key); err != nil {
		return Outcome{}, false, err
	}
	if k.Owner == "" || k.Scope == "" {
		return Outcome{}, false, fmt.Errorf("idempotency key %q: owner and scope are required", k.Key)
	}
	c, err := s.claim(ctx, k, fp)
	if err != nil {
		return Outcome{}, false, err
	}
	if c.replay != nil {
		return *c.replay, true, nil
	}
	recorded := false
	defer func() {
		if !recorded {
			s.finish(ctx, func(ctx context.Context) error { return s.release(ctx, k, c.attempt) })
		}
	}()
	rctx, cancel := context.WithTimeout(ctx, s.o.Lease/2)
	defer cancel()
	rctx = sqldb.OnCommit(rctx, s.db, func(ctx context.Context, tx *sqlx.Tx) error { return s.markWritten(ctx, tx, k, c.attempt) })
	if out, err = run(rctx); err != nil {
		if errors.Is(err, errTakenOver) {
			s.o.Report(fmt.Errorf("idempotency key %q of %s: the write was rolled back: %w", k.Key, k.Scope, err))
			return Outcome{}, false, ErrInProgress.Wrap(err)
		}
		return out, false, err
	}
	recorded = true
	s.finish(ctx, func(ctx context.Context) error { return s.record(ctx, k, c.attempt, out) })
	return out, false, nil
}

// finish runs fn, which records or releases a key, even when ctx has ended:
// the write it concludes has happened or failed either way.
func (s *Store) finish(ctx context.Context, fn func(ctx context.Context) error) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), finishTimeout)
	defer cancel()
	if err := fn(ctx); err != nil {
		s.o.Report(err)
	}
}

// errTakenOver is the error of a write whose key another attempt took over
// before the write committed.
var errTakenOver = errors.New("taken over by another attempt after the lease")

// markWritten marks k as written by attempt, in tx, the transaction of its
// write; it is run's commit hook, and runs once per transaction of run.
// It fails, so that the write rolls back, when attempt no longer holds k.
// Its update waits for a claim reading k, and a claim waits for it, so a
// claim sees the mark of every write that committed.
func (s *Store) markWritten(ctx context.Context, tx *sqlx.Tx, k Key, attempt string) error {
	res, err := tx.ExecContext(ctx, `UPDATE idempotency_keys SET written = true
		WHERE owner = $1 AND scope = $2 AND key = $3 AND attempt = $4`, k.Owner, k.Scope, k.Key, attempt)
	if err != nil {
		return fmt.Errorf("mark idempotency key %q of %s written: %w", k.Key, k.Scope, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("mark idempotency key %q of %s written: %w", k.Key, k.Scope, err)
	}
	if n == 0 {
		return fmt.Errorf("mark idempotency key %q of %s written: %w", k.Key, k.Scope, errTakenOver)
	}
	return nil
}

// claim is what a request finds under its key: either the key is now
// held by its attempt, or a recorded outcome to replay.
type claim struct {
	attempt string   // the attempt holding the key
	replay  *Outcome // the recorded outcome, when there is one to replay
}

// keyRow is a row of idempotency_keys as claim reads it.
type keyRow struct {
	Fingerprint []byte    `db:"fingerprint"`
	State       string    `db:"state"`
	Written     bool      `db:"written"`
	StartedAt   time.Time `db:"started_at"`
	ExpiresAt   time.Time `db:"expires_at"`
	Status      int       `db:"status"`
	ContentType string    `db:"content_type"`
	Location    string    `db:"location"`
	Body        []byte    `db:"body"`
}

// claim takes k for a new attempt, in one transaction, or finds the outcome
// to replay. Errors: ErrKeyReused, ErrInProgress, the database's.
func (s *Store) claim(ctx context.Context, k Key, fp [32]byte) (claim, error) {
	now := s.o.Now()
	attempt := rand.Text()
	var c claim
	err := sqldb.Transact(ctx, s.db, func(tx *sqlx.Tx) error {
		c = claim{}
		for range claimTries {
			// A concurrent insert of the same key makes this one wait for
			// its commit, then do nothing.
			res, err := tx.ExecContext(ctx, `INSERT INTO idempotency_keys
				(owner, scope, key, fingerprint, state, attempt, started_at, expires_at)
				VALUES ($1, $2, $3, $4, 'running', $5, $6, $7) ON CONFLICT DO NOTHING`,
				k.Owner, k.Scope, k.Key, fp[:], attempt, now, now.Add(s.o.TTL))
			if err != nil {
				return fmt.Errorf("claim idempotency key: %w", err)
			}
			if n, err := res.RowsAffected(); err != nil || n == 1 {
				c.attempt = attempt
				return err
			}
			var r keyRow
			err = tx.GetContext(ctx, &r, `SELECT fingerprint, state, written, started_at, expires_at, status, content_type, location, body
				FROM idempotency_keys WHERE owner = $1 AND scope = $2 AND key = $3 FOR UPDATE`, k.Owner, k.Scope, k.Key)
			if errors.Is(err, sql.ErrNoRows) {
				continue // released since the insert: try again
			}
			if err != nil {
				return fmt.Errorf("read idempotency key: %w", err)
			}
			stale := r.State == "running" && !r.StartedAt.Add(s.o.Lease).After(now)
			switch {
			case !r.ExpiresAt.After(now), stale && !r.Written:
				// Expired, or held by an attempt that outlived its lease
				// without writing: as good as missing. Should that
				// attempt write after all, its commit hook finds the key
				// taken over and rolls the write back.
				_, err := tx.ExecContext(ctx, `UPDATE idempotency_keys SET fingerprint = $4, state = 'running',
					attempt = $5, started_at = $6, expires_at = $7, written = false,
					status = 0, content_type = '', location = '', body = ''
					WHERE owner = $1 AND scope = $2 AND key = $3`,
					k.Owner, k.Scope, k.Key, fp[:], attempt, now, now.Add(s.o.TTL))
				if err != nil {
					return fmt.Errorf("take over idempotency key: %w", err)
				}
				c.attempt = attempt
				return nil
			case !bytes.Equal(r.Fingerprint, fp[:]):
				return ErrKeyReused
			case r.State == "done":
				c.replay = &Outcome{Status: r.Status, ContentType: r.ContentType, Location: r.Location, Body: r.Body}
				return nil
			case r.State == "unanswered", stale:
				// The write committed; its outcome is lost.
				return ErrAlreadyApplied
			}
			return ErrInProgress
		}
		return ErrInProgress // taken and released again each time: busy
	})
	return c, err
}

// record stores out as the outcome of k's attempt, if that attempt still
// holds k. It returns an error when the key was taken over.
func (s *Store) record(ctx context.Context, k Key, attempt string, out Outcome) error {
	body := out.Body
	if body == nil {
		body = []byte{}
	}
	res, err := s.db.ExecContext(ctx, `UPDATE idempotency_keys SET state = 'done', status = $5, content_type = $6,
		location = $7, body = $8, expires_at = $9
		WHERE owner = $1 AND scope = $2 AND key = $3 AND attempt = $4`,
		k.Owner, k.Scope, k.Key, attempt, out.Status, out.ContentType, out.Location, body, s.o.Now().Add(s.o.TTL))
	if err != nil {
		return fmt.Errorf("record idempotency key %q of %s: %w", k.Key, k.Scope, err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return fmt.Errorf("record idempotency key %q of %s: taken over by another attempt after the lease (%v)", k.Key, k.Scope, err)
	}
	return nil
}

// release deletes k if attempt still holds it and its write did not
// commit. A key whose write committed is kept instead, unanswered, so that
// its retries get ErrAlreadyApplied rather than writing a second time.
func (s *Store) release(ctx context.Context, k Key, attempt string) error {
	res, err := s.db.ExecContext(ctx, `DELETE FROM idempotency_keys
		WHERE owner = $1 AND scope = $2 AND key = $3 AND attempt = $4 AND NOT written`,
		k.Owner, k.Scope, k.Key, attempt)
	if err != nil {
		return fmt.Errorf("release idempotency key %q of %s: %w", k.Key, k.Scope, err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 1 {
		return err
	}
	_, err = s.db.ExecContext(ctx, `UPDATE idempotency_keys SET state = 'unanswered', expires_at = $5
		WHERE owner = $1 AND scope = $2 AND key = $3 AND attempt = $4 AND written`,
		k.Owner, k.Scope, k.Key, attempt, s.o.Now().Add(s.o.TTL))
	if err != nil {
		return fmt.Errorf("keep idempotency key %q of %s unanswered: %w", k.Key, k.Scope, err)
	}
	return nil
}

// Purge deletes the keys that have expired, skipping those a claim holds,
// and returns how many it deleted. Several instances may purge at once.
// PurgeJob calls it periodically.
func (s *Store) Purge(ctx context.Context) (int64, error) {
	var total int64
	for {
		res, err := s.db.ExecContext(ctx, `DELETE FROM idempotency_keys WHERE (owner, scope, key) IN (
				SELECT owner, scope, key FROM idempotency_keys WHERE expires_at <= $1 LIMIT $2 FOR UPDATE SKIP LOCKED
			) AND expires_at <= $1`, s.o.Now(), purgeBatch)
		if err != nil {
			return total, fmt.Errorf("purge idempotency keys: %w", err)
		}
		n, err := res.RowsAffected()
		total += n
		if err != nil || n < purgeBatch {
			return total, err
		}
	}
}

// PurgeJob is the job "idempotency_purge": it calls Purge at once and then
// every interval, and fails with its first error.
func (s *Store) PurgeJob(interval time.Duration) clubhouse.Job {
	return clubhouse.Every("idempotency_purge", interval, func(ctx context.Context) error {
		_, err := s.Purge(ctx)
		return err
	})
}
