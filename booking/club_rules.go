package booking

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
)

// ClubRules reads and changes the club's booking rules (see Rules), and
// gives the booking services the rules in force, which it keeps in memory.
// Without WatchJob running, each use reads the rules' version (one small
// query) and reads the rules again when it moved; while it runs, the
// database announces every change at its commit and the rules are read
// again only then, so that a booking costs no query for them. Either way a
// change made through any server rules the bookings of every server: at
// once, or as soon as the announcement arrives, milliseconds after the
// commit.
type ClubRules struct {
	db    *sqlx.DB
	pool  *pgxpool.Pool
	now   func() time.Time
	store rulesStore

	mu      sync.Mutex
	rules   Rules
	version int64  // of rules
	read    bool   // rules holds a version read while gen was what it is
	live    bool   // WatchJob listens
	want    int64  // the highest version announced
	gen     uint64 // counts the starts and ends of listening
}

// rulesChanged is the channel on which the database announces the version
// of the rules at the commit of each change (migration 00018).
const rulesChanged = "club_rules_changed"

// WatchJob is the job "club_rules_watch": it listens for the changes of
// the rules until its context ends, on a connection of its own opened with
// the configuration of Options.Pool (sqldb.Listen): while it listens, the
// rules in memory serve every booking until a change is announced. A lost
// connection falls back to reading the version and fails the job, which
// its supervisor runs again. Without Options.Pool the job fails at once.
func (c *ClubRules) WatchJob() clubhouse.Job {
	return clubhouse.NewJob("club_rules_watch", func(ctx context.Context) error {
		if c.pool == nil {
			return errors.New("watch club rules: no pgx pool (booking.Options.Pool)")
		}
		return sqldb.Listen(ctx, c.pool, rulesChanged, c.listening, c.announced)
	})
}

// Watching reports whether WatchJob listens.
func (c *ClubRules) Watching() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.live
}

// listening starts or ends trusting the announcements: a change made
// before may have gone unheard, so the rules are read again.
func (c *ClubRules) listening(live bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.live, c.read = live, false
	c.gen++
}

// announced notes the version payload announced.
func (c *ClubRules) announced(payload string) {
	v, err := strconv.ParseInt(payload, 10, 64)
	c.mu.Lock()
	defer c.mu.Unlock()
	if err != nil {
		c.read = false
		return
	}
	c.want = max(c.want, v)
}

// Get returns the rules in force.
func (c *ClubRules) Get(ctx context.Context) (Rules, error) {
	return c.current(ctx, c.db)
}

// RulesChange is a change of the club's rules: the fields set replace the
// rules' own (a null limit is 0, no limit); the others stay.
type RulesChange struct {
	Hours               clubhouse.Optional[[]WeekHours]
	Exceptions          clubhouse.Optional[[]DateHours]
	AdvanceDays         clubhouse.Optional[int]
	MinNoticeMinutes    clubhouse.Optional[int]
	MaxDurationMinutes  clubhouse.Optional[int]
	MaxFutureBookings   clubhouse.Optional[int]
	CancelWindowMinutes clubhouse.Optional[int]
	Types               clubhouse.Optional[[]TypeRules]
	PaymentRequired     clubhouse.Optional[bool]
	// PaymentHoldMinutes set to null is DefaultPaymentHoldMinutes.
	PaymentHoldMinutes clubhouse.Optional[int]
}

// apply writes the fields set in ch onto r.
func (ch RulesChange) apply(r *Rules) {
	if ch.Hours.Set {
		r.Hours = ch.Hours.Or(nil)
	}
	if ch.Exceptions.Set {
		r.Exceptions = ch.Exceptions.Or(nil)
	}
	if ch.Types.Set {
		r.Types = ch.Types.Or(nil)
	}
	if ch.PaymentRequired.Set {
		r.PaymentRequired = ch.PaymentRequired.Or(false)
	}
	if ch.PaymentHoldMinutes.Set {
		r.PaymentHoldMinutes = ch.PaymentHoldMinutes.Or(DefaultPaymentHoldMinutes)
	}
	for _, f := range []struct {
		o   clubhouse.Optional[int]
		dst *int
	}{{ch.AdvanceDays, &r.AdvanceDays}, {ch.MinNoticeMinutes, &r.MinNoticeMinutes}, {ch.MaxDurationMinutes, &r.MaxDurationMinutes},
		{ch.MaxFutureBookings, &r.MaxFutureBookings}, {ch.CancelWindowMinutes, &r.CancelWindowMinutes}} {
		if f.o.Set {
			*f.dst = f.o.Or(0)
		}
	}
}

// Change applies ch to the club's rules, in one transaction, on behalf of
// by, and returns the rules as stored, stamped with by and the time.
// Errors: clubhouse.ErrForbidden for an actor without the panel
// permission, Invalid (see Rules.Validate; an unknown reservation type is
// an invalid reference).
func (c *ClubRules) Change(ctx context.Context, by clubhouse.Actor, ch RulesChange) (Rules, error) {
	if err := by.RequirePanel(); err != nil {
		return Rules{}, err
	}
	var out Rules
	var v int64
	c.mu.Lock()
	gen := c.gen
	c.mu.Unlock()
	err := sqldb.Transact(ctx, c.db, func(tx *sqlx.Tx) error {
		r, _, err := c.store.get(ctx, tx, true)
		if err != nil {
			return err
		}
		ch.apply(&r)
		if err := r.Validate(); err != nil {
			return err
		}
		if err := c.store.set(ctx, tx, r, by.Name(), c.now()); err != nil {
			return err
		}
		out, v, err = c.store.get(ctx, tx, false)
		return err
	})
	if err != nil {
		return Rules{}, fmt.Errorf("change club rules: %w", err)
	}
	c.keep(out, v, gen)
	return out, nil
}

// current returns the rules in force: from memory while WatchJob listens and
// no newer version was announced; otherwise read on q when their version
// moved since they were last read.
func (c *ClubRules) current(ctx context.Context, q sqldb.Queryer) (Rules, error) {
	c.mu.Lock()
	r, kept, read, gen := c.rules, c.version, c.read, c.gen
	if c.live && read && kept >= c.want {
		c.mu.Unlock()
		return r, nil
	}
	c.mu.Unlock()
	v, err := c.store.version(ctx, q)
	if err != nil {
		return Rules{}, fmt.Errorf("club rules version: %w", err)
	}
	if read && kept == v {
		return r, nil
	}
	r, v, err = c.store.get(ctx, q, false)
	if err != nil {
		return Rules{}, err
	}
	c.keep(r, v, gen)
	return r, nil
}

// keep remembers r, the rules of version v read while the count of
// listening changes was gen, unless listening started or ended since
// (then a change may have gone unheard) or newer ones are kept.
func (c *ClubRules) keep(r Rules, v int64, gen uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen == c.gen && (!c.read || v >= c.version) {
		c.rules, c.version, c.read = r, v, true
	}
}
