package migrations_test

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
	"github.com/clubhouse-go/clubhouse/migrations"
)

// openEmpty returns a handle on a brand-new database without tables.
func openEmpty(tb testing.TB) *sql.DB {
	tb.Helper()
	db, err := sql.Open("pgx", dbtest.Empty(tb))
	require.NoError(tb, err)
	tb.Cleanup(func() { db.Close() })
	return db
}

func TestUp_freshDatabase(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openEmpty(t)

	st, err := migrations.Status(ctx, db, migrations.Main())
	require.NoError(t, err)
	require.NotEmpty(t, st)
	assert.Equal(t, int64(1), st[0].Version)
	assert.False(t, st[0].Applied, "nothing is applied on a new database")

	applied, err := migrations.Up(ctx, db, migrations.Main())
	require.NoError(t, err)
	require.NotEmpty(t, applied)
	assert.Equal(t, int64(1), applied[0], "version 1 comes first")
	assert.Len(t, applied, len(st), "every migration is applied")

	st, err = migrations.Status(ctx, db, migrations.Main())
	require.NoError(t, err)
	for _, s := range st {
		assert.True(t, s.Applied, "migration %05d", s.Version)
		assert.NotEmpty(t, s.Source)
	}
	var users sql.NullString
	require.NoError(t, db.QueryRowContext(ctx, "SELECT to_regclass('public.users')::text").Scan(&users))
	assert.True(t, users.Valid, "the users table exists after Up")

	again, err := migrations.Up(ctx, db, migrations.Main())
	require.NoError(t, err)
	assert.Empty(t, again, "a second Up applies nothing")
}

// TestUp_concurrent starts several Ups at once: the session lock must let
// exactly one of them apply each version, and the others must find nothing
// to do rather than fail. On a brand-new database goose's own retry when
// creating its version table (a 1s pause) already spaces the migrators out,
// so the race on the migrations themselves is run with that table in place
// too, as after "clubctl db status".
func TestUp_concurrent(t *testing.T) {
	t.Parallel()
	for _, versionTable := range []bool{false, true} {
		t.Run(fmt.Sprintf("version table %t", versionTable), func(t *testing.T) {
			t.Parallel()
			upConcurrently(t, versionTable)
		})
	}
}

func upConcurrently(t *testing.T, versionTable bool) {
	const n = 3 // goose probes a held lock every 5s, so each extra migrator costs up to 5s
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dsn := dbtest.Empty(t)
	db, err := sql.Open("pgx", dsn)
	require.NoError(t, err)
	defer db.Close()
	if versionTable {
		_, err := migrations.Status(ctx, db, migrations.Main())
		require.NoError(t, err)
	}

	var (
		wg      sync.WaitGroup
		start   = make(chan struct{})
		results = make([][]int64, n)
		errs    = make([]error, n)
	)
	for i := range n {
		db, err := sql.Open("pgx", dsn) // one pool per migrator, as with separate clubd processes
		require.NoError(t, err)
		t.Cleanup(func() { db.Close() })
		wg.Go(func() {
			<-start
			results[i], errs[i] = migrations.Up(ctx, db, migrations.Main())
		})
	}
	close(start)
	wg.Wait()

	count := map[int64]int{}
	for i := range n {
		require.NoError(t, errs[i], "migrator %d", i)
		for _, v := range results[i] {
			count[v]++
		}
	}
	require.Contains(t, count, int64(1), "version 1 was applied by someone")
	for v, c := range count {
		assert.Equal(t, 1, c, "version %05d applied by %d migrators", v, c)
	}
	var rows int
	require.NoError(t, db.QueryRowContext(ctx, "SELECT count(*) FROM goose_db_version WHERE version_id = 1").Scan(&rows))
	assert.Equal(t, 1, rows, "version 1 is recorded once")
}

// migrateBefore applies to db the main migrations numbered before version
// and returns the whole set, to apply the rest with.
func migrateBefore(tb testing.TB, db *sql.DB, version string) fs.FS {
	tb.Helper()
	before := fstest.MapFS{}
	main := migrations.Main()
	names, err := fs.Glob(main, "*.sql")
	require.NoError(tb, err)
	for _, name := range names {
		if name < version {
			b, err := fs.ReadFile(main, name)
			require.NoError(tb, err)
			before[name] = &fstest.MapFile{Data: b}
		}
	}
	_, err = migrations.Up(context.Background(), db, before)
	require.NoError(tb, err)
	return main
}

// TestUp_clientDocuments: migration 12 makes documents unique per type on a
// database whose clients already share some: the oldest keeps the
// document, the later ones get it marked as a duplicate, and the original
// values stay in client_document_duplicates. No row is lost.
func TestUp_clientDocuments(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openEmpty(t)
	main := migrateBefore(t, db, "00012")
	_, err := db.ExecContext(ctx, `INSERT INTO document_types (name) VALUES ('CC'), ('NIT');
		INSERT INTO clients (first_name, last_name, document, document_type_id) VALUES
			('Ana', 'Ruiz', '1020', 1), ('Eva', 'Ruiz', '1020', 1), ('Leo', 'Paz', 'ab-9', 1),
			('Max', 'Paz', 'AB-9', 1), ('Ana', 'Corp', '1020', 2), ('Sol', 'Mar', '3030', 1)`)
	require.NoError(t, err)

	_, err = migrations.Up(ctx, db, main)
	require.NoError(t, err)
	rows, err := db.QueryContext(ctx, `SELECT first_name, document FROM clients ORDER BY id`)
	require.NoError(t, err)
	defer rows.Close()
	var got []string
	for rows.Next() {
		var name, doc string
		require.NoError(t, rows.Scan(&name, &doc))
		got = append(got, name+" "+doc)
	}
	require.NoError(t, rows.Err())
	assert.Equal(t, []string{"Ana 1020", "Eva 1020 (duplicate of client 1)", "Leo ab-9", "Max AB-9 (duplicate of client 3)",
		"Ana 1020", "Sol 3030"}, got, "every client stays; the same number under another type is no duplicate")
	var kept int
	require.NoError(t, db.QueryRowContext(ctx, `SELECT count(*) FROM client_document_duplicates
		WHERE (client_id, document, kept_by_client_id) IN ((2, '1020', 1), (4, 'AB-9', 3))`).Scan(&kept))
	assert.Equal(t, 2, kept, "the original documents are kept")
	_, err = db.ExecContext(ctx, `INSERT INTO clients (first_name, last_name, document, document_type_id) VALUES ('New', 'One', 'Ab-9', 1)`)
	require.Error(t, err, "the index refuses a new duplicate")
}

// TestUp_pushAnswers: migration 29 drops what the records of failed push
// deliveries kept of the answers (the first bytes of a push service's
// body, a connection's error), leaving the status alone.
func TestUp_pushAnswers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openEmpty(t)
	main := migrateBefore(t, db, "00029")
	_, err := db.ExecContext(ctx, `INSERT INTO document_types (name) VALUES ('CC');
		INSERT INTO clients (first_name, last_name, document, document_type_id) VALUES ('Ana', 'Ruiz', '1020', 1);
		INSERT INTO push_subscriptions (client_id, platform, endpoint, p256dh, auth, last_error) VALUES
			(1, 'webpush', 'https://push.example.com/1', repeat('a', 87), repeat('a', 22), E'push service answered 400: <html>\nadmin panel'),
			(1, 'webpush', 'https://push.example.com/2', repeat('a', 87), repeat('a', 22), 'send: dial tcp 10.0.0.1:443: connection refused');
		INSERT INTO push_notifications (client_id, title, body, created_by_label) VALUES (1, 'Hi', '', 'desk');
		INSERT INTO push_deliveries (notification_id, subscription_id, status, last_status, last_error) VALUES
			(1, 1, 'failed', 400, E'push service answered 400: <html>\nadmin panel'),
			(1, 2, 'failed', NULL, 'gave up after 5 attempts: send: dial tcp 10.0.0.1:443: i/o timeout');
		INSERT INTO push_notifications (client_id, title, body, created_by_label) VALUES (1, 'Again', '', 'desk');
		INSERT INTO push_deliveries (notification_id, subscription_id, status, last_status, last_error) VALUES
			(2, 1, 'failed', 503, 'gave up after 5 attempts: push service answered 503: {"secret": "x"}'),
			(2, 2, 'gone', NULL, 'the subscription was removed')`)
	require.NoError(t, err)

	_, err = migrations.Up(ctx, db, main)
	require.NoError(t, err)
	texts := func(query string) []string {
		rows, err := db.QueryContext(ctx, query)
		require.NoError(t, err)
		defer rows.Close()
		var out []string
		for rows.Next() {
			var s string
			require.NoError(t, rows.Scan(&s))
			out = append(out, s)
		}
		require.NoError(t, rows.Err())
		return out
	}
	assert.Equal(t, []string{"the push service answered 400", "the push service could not be reached"},
		texts(`SELECT last_error FROM push_subscriptions ORDER BY id`))
	assert.Equal(t, []string{"the push service answered 400", "gave up after 5 attempts: the push service could not be reached",
		"gave up after 5 attempts: the push service answered 503", "the subscription was removed"},
		texts(`SELECT last_error FROM push_deliveries ORDER BY id`))
}

// TestUp_outboxSources: migration 31 leaves the ledger outbox's source to
// the domains that write it: the rows already written stay, a new
// domain's word is taken (for_enrollment false unless said), and a source
// that is not a plain lowercase word is refused.
func TestUp_outboxSources(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openEmpty(t)
	main := migrateBefore(t, db, "00031")
	_, err := db.ExecContext(ctx, `INSERT INTO ledger_outbox (payment_id, kind, paid_at, amount, for_enrollment) VALUES (1, 'post', now(), 10, true);
		INSERT INTO ledger_outbox (source, source_id, kind, paid_at, amount, for_enrollment, for_tickets) VALUES ('ticket_use', 1, 'post', now(), 10, false, true)`)
	require.NoError(t, err)
	_, err = db.ExecContext(ctx, `INSERT INTO ledger_outbox (source, source_id, kind, paid_at, amount, for_enrollment) VALUES ('membership', 1, 'post', now(), 10, false)`)
	require.Error(t, err, "before, the outbox names its sources")

	_, err = migrations.Up(ctx, db, main)
	require.NoError(t, err)
	var rows int
	require.NoError(t, db.QueryRowContext(ctx, `SELECT count(*) FROM ledger_outbox`).Scan(&rows))
	assert.Equal(t, 2, rows)
	var forEnrollment bool
	require.NoError(t, db.QueryRowContext(ctx, `INSERT INTO ledger_outbox (source, source_id, kind, paid_at, amount)
		VALUES ('membership', 1, 'post', now(), 10) RETURNING for_enrollment`).Scan(&forEnrollment))
	assert.False(t, forEnrollment)
	for _, bad := range []string{"Membership", "gift card", "", "_x", "fee;"} {
		_, err = db.ExecContext(ctx, `INSERT INTO ledger_outbox (source, source_id, kind, paid_at, amount) VALUES ($1, 2, 'post', now(), 10)`, bad)
		require.Error(t, err, "%q", bad)
		assert.Contains(t, err.Error(), "ledger_outbox_source_check", "%q", bad)
	}
}

// TestUp_reservationHolds: migration 30 gives the bookings of class
// sessions and events to their class or event as holds, leaves the others
// plain, and from then on refuses a change of a held booking that does not
// come through its holder.
func TestUp_reservationHolds(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openEmpty(t)
	main := migrateBefore(t, db, "00030")
	_, err := db.ExecContext(ctx, `INSERT INTO court_types (name) VALUES ('Padel');
		INSERT INTO courts (court_type_id, name) VALUES (1, 'Court 1');
		INSERT INTO reservation_types (name) VALUES ('Rental');
		INSERT INTO reservation_types (name, gestion) VALUES ('Clinic', 2);
		INSERT INTO reservation_types (name, is_event) VALUES ('Event', true);
		INSERT INTO users (email, trainer) VALUES ('coach@test.club', true);
		INSERT INTO reservations (court_id, reservation_type_id, checking, checkout) VALUES
			(1, 1, '2026-03-02 08:00', '2026-03-02 09:00'),
			(1, 2, '2026-03-03 10:00', '2026-03-03 11:00'),
			(1, 2, '2026-03-05 10:00', '2026-03-05 11:00'),
			(1, 3, '2026-03-06 18:00', '2026-03-06 20:00');
		INSERT INTO training_classes (user_id, court_id, reservation_type_id, title, start_date, end_date, recurrence_days,
			start_time, end_time, single_price, total_price, max_capacity)
			VALUES (1, 1, 2, 'Basics', '2026-03-03', '2026-03-12', '{2,4}', '10:00', '11:00', 10, 40, 4);
		INSERT INTO class_sessions (class_id, date, reservation_id) VALUES
			(1, '2026-03-03', 2), (1, '2026-03-05', 3), (1, '2026-03-10', NULL);
		INSERT INTO events (reservation_id, event_type_id, title, capacity) VALUES (4, 3, 'Night', 10)`)
	require.NoError(t, err)

	_, err = migrations.Up(ctx, db, main)
	require.NoError(t, err)
	rows, err := db.QueryContext(ctx, `SELECT id, coalesce(held_by || ' ' || holder_id, 'plain') FROM reservations ORDER BY id`)
	require.NoError(t, err)
	defer rows.Close()
	var got []string
	for rows.Next() {
		var id int64
		var hold string
		require.NoError(t, rows.Scan(&id, &hold))
		got = append(got, fmt.Sprintf("%d %s", id, hold))
	}
	require.NoError(t, rows.Err())
	assert.Equal(t, []string{"1 plain", "2 class 1", "3 class 1", "4 event 1"}, got)

	for _, q := range []string{
		`UPDATE reservations SET notes = 'moved' WHERE id = 2`,
		`UPDATE reservations SET cancelled_at = now(), cancelled_by = 'desk' WHERE id = 3`,
		`DELETE FROM reservations WHERE id = 4`,
	} {
		_, err := db.ExecContext(ctx, q)
		require.Error(t, err, q)
		assert.Contains(t, err.Error(), "is held by", q)
	}
	_, err = db.ExecContext(ctx, `UPDATE reservations SET notes = 'plain' WHERE id = 1`)
	require.NoError(t, err, "a plain booking changes as before")
	tx, err := db.BeginTx(ctx, nil)
	require.NoError(t, err)
	defer func() { _ = tx.Rollback() }()
	_, err = tx.ExecContext(ctx, `SELECT set_config('clubhouse.holder', 'event:1', true)`)
	require.NoError(t, err)
	_, err = tx.ExecContext(ctx, `UPDATE reservations SET cancelled_at = now(), cancelled_by = 'desk' WHERE id = 4`)
	require.NoError(t, err, "its holder cancels it")
	_, err = tx.ExecContext(ctx, `UPDATE reservations SET notes = 'x' WHERE id = 2`)
	require.Error(t, err, "but changes no other holder's booking")
}
