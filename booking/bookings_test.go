package booking_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/jmoiron/sqlx"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/eventlog"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/fixture"
)

// queryLog is a pgx tracer that records the SQL of every query of its pool.
type queryLog struct {
	mu  sync.Mutex
	sql []string
}

func (l *queryLog) TraceQueryStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceQueryStartData) context.Context {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sql = append(l.sql, strings.Join(strings.Fields(d.SQL), " "))
	return ctx
}

func (l *queryLog) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

// take returns the queries recorded since the last take.
func (l *queryLog) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.sql
	l.sql = nil
	return out
}

// TestCreateBooking_oneRoundTrip: Create stores a booking in one query,
// the insert (the club's rules are in memory), which writes its history's
// entry and its event too, on the pgx pool of Options.Pool (database/sql opens no
// connection); with a commit hook, in one transaction with the hook. Either
// way it answers the booking as a read finds it.
func TestCreateBooking_oneRoundTrip(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	db := dbtest.New(t)
	fix := fixture.New(t, db.DB, fixture.Options{})
	court := fix.Court(fix.CourtType("Padel").ID, "Court 1").ID
	rental := fix.ReservationType("Rental").ID
	fix.Status("Pending", "#F9A825")
	cfg := db.Pool.Config()
	log := &queryLog{}
	cfg.ConnConfig.Tracer = log
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	require.NoError(t, err)
	t.Cleanup(pool.Close)
	traced := sqlx.NewDb(stdlib.OpenDBFromPool(pool), "pgx")
	t.Cleanup(func() { _ = traced.Close() })
	events := eventlog.New(traced, eventlog.Options{Render: logged})
	club := booking.New(traced, booking.Options{Zone: time.UTC, Pool: pool, Log: events})
	b := club.Bookings
	// With the club's rules watched, as clubd watches them, they cost a
	// booking no query once read.
	watch, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		assert.NoError(t, club.Rules.WatchJob().Run(watch), "watch rules")
	}()
	t.Cleanup(func() { stop(); <-done })
	require.Eventually(t, club.Rules.Watching, 10*time.Second, 5*time.Millisecond)
	_, err = club.Rules.Get(ctx)
	require.NoError(t, err)
	log.take()

	// A wall time may come in any location: its clock is the wall clock.
	at := time.Date(2030, 1, 7, 18, 0, 0, 0, time.FixedZone("UTC-5", -5*3600))
	in := func(hour int) booking.BookingInput {
		return booking.BookingInput{CourtID: clubhouse.Some(court), ReservationTypeID: clubhouse.Some(rental),
			Checking: clubhouse.Some(at.Add(time.Duration(hour) * time.Hour)), Checkout: clubhouse.Some(at.Add(time.Duration(hour+1) * time.Hour)),
			Notes: clubhouse.Some(" by phone ")}
	}
	// row is the booking as stored, without the names a read joins.
	row := func(r booking.Reservation) booking.Reservation {
		return booking.Reservation{ID: r.ID, OperatorID: r.OperatorID, ClientID: r.ClientID, CourtID: r.CourtID,
			ReservationTypeID: r.ReservationTypeID, ReservationStatusID: r.ReservationStatusID, Checking: r.Checking,
			Checkout: r.Checkout, Notes: r.Notes, SeriesID: r.SeriesID, CouponID: r.CouponID, ContractID: r.ContractID,
			CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt}
	}
	created, err := b.Create(ctx, clubhouse.Staff("desk"), in(0))
	require.NoError(t, err)
	queries := log.take()
	require.Len(t, queries, 1, "one query: %q", queries)
	assert.Contains(t, queries[0], "INSERT INTO reservations ", "the insert, which reads the type itself")
	assert.Zero(t, traced.Stats().OpenConnections, "database/sql opened no connection: the insert ran on the pool")
	stored, err := b.Get(ctx, desk, created.ID)
	require.NoError(t, err)
	assert.Equal(t, row(stored), created)
	require.NotNil(t, created.ReservationStatusID, "the pending status by default")
	assert.Equal(t, "by phone", *created.Notes)
	var cursor eventlog.Cursor
	logged := logRead(t, events, &cursor)
	require.Len(t, logged, 1)
	assert.Equal(t, booking.EventCreated, logged[0].Type)
	assert.Equal(t, created.ID, logged[0].Payload.ID, "the id the insert chose")
	assert.Equal(t, created.ReservationStatusID, logged[0].Payload.ReservationStatusID, "the status it chose")
	assert.Equal(t, "desk", logged[0].Actor)

	hooked := sqldb.OnCommit(ctx, traced, func(ctx context.Context, tx *sqlx.Tx) error {
		_, err := tx.ExecContext(ctx, "SELECT 1")
		return err
	})
	log.take()
	created, err = b.Create(hooked, clubhouse.Staff("desk"), in(1))
	require.NoError(t, err)
	queries = log.take()
	require.Len(t, queries, 4, "begin, insert, hook, commit: %q", queries)
	assert.Equal(t, "begin", strings.ToLower(queries[0]))
	assert.Contains(t, queries[1], "INSERT INTO reservations ", "the insert, which reads the type itself")
	assert.Equal(t, "SELECT 1", queries[2])
	assert.Equal(t, "commit", strings.ToLower(queries[3]))
	stored, err = b.Get(ctx, desk, created.ID)
	require.NoError(t, err)
	assert.Equal(t, row(stored), created)
	assert.Len(t, logRead(t, events, &cursor), 1, "the hooked booking's event")
}
