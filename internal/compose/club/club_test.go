package club_test

import (
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/compose/club"
	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
	"github.com/clubhouse-go/clubhouse/mail"
	"github.com/clubhouse-go/clubhouse/migrations"
)

// TestNew: the services share the club's zone and clock; the ledger and
// its poster exist only with an accounting database.
func TestNew(t *testing.T) {
	t.Parallel()
	bogota, err := time.LoadLocation("America/Bogota")
	require.NoError(t, err)
	db := dbtest.New(t)
	s := club.New(db.DB, club.Options{Zone: bogota})
	assert.Equal(t, bogota, s.Zone)
	require.NotNil(t, s.Now)
	for name, v := range map[string]any{"Catalogs": s.Catalogs, "Clients": s.Clients, "Tariffs": s.Tariffs,
		"Bookings": s.Bookings, "Discounts": s.Discounts, "Payments": s.Payments, "Classes": s.Classes, "Tickets": s.Tickets,
		"Expirer": s.Expirer} {
		assert.NotNil(t, v, name)
	}
	assert.Nil(t, s.Ledger, "no accounting database, no ledger")
	assert.Nil(t, s.Poster)

	acc, _ := dbtest.NewWith(t, migrations.Accounting())
	s = club.New(db.DB, club.Options{Accounting: acc.DB})
	assert.NotNil(t, s.Ledger)
	assert.NotNil(t, s.Poster)
	assert.Equal(t, time.UTC, s.Zone, "UTC by default")
}

// TestServices_Jobs: the club's jobs, the ledger poster only with a ledger.
func TestServices_Jobs(t *testing.T) {
	t.Parallel()
	db := dbtest.New(t)
	names := func(s *club.Services) []string {
		var out []string
		for _, j := range s.Jobs() {
			out = append(out, j.Name)
		}
		return out
	}
	assert.Equal(t, []string{"club_rules_watch", "ticket_expiry", "push_delivery", "gateway_events", "booking_payment_holds", "event_log_purge", "webhook_delivery", "webhook_purge", "reminder_planner", "reminder_sender"}, names(club.New(db.DB, club.Options{})))
	acc, _ := dbtest.NewWith(t, migrations.Accounting())
	assert.Equal(t, []string{"club_rules_watch", "ticket_expiry", "push_delivery", "gateway_events", "booking_payment_holds", "event_log_purge", "webhook_delivery", "webhook_purge", "reminder_planner", "reminder_sender", "ledger_poster", "event_log_forward"},
		names(club.New(db.DB, club.Options{Accounting: acc.DB})))
}

// TestServices_Metrics: the backlogs of the jobs, read from the database at
// each scrape; the outbox only with a ledger.
func TestServices_Metrics(t *testing.T) {
	t.Parallel()
	db := dbtest.New(t)
	acc, _ := dbtest.NewWith(t, migrations.Accounting())
	_, err := db.ExecContext(t.Context(), `INSERT INTO ledger_outbox (payment_id, kind, paid_at, amount, for_enrollment) VALUES (1, 'post', now(), 10, false)`)
	require.NoError(t, err)
	_, err = db.ExecContext(t.Context(), `INSERT INTO users (email) VALUES ('ana@test.club');
		INSERT INTO mail_outbox (kind, user_id, link, next_attempt_at) SELECT 'set_password', id, 'https://x.test', now() FROM users;
		INSERT INTO gateway_events (gateway, transaction_id, payload, received_at, last_received_at, due_at)
			VALUES ('wompi', '1-2-3', '{}', now(), now(), now())`)
	require.NoError(t, err)
	assert.NoError(t, testutil.CollectAndCompare(club.New(db.DB, club.Options{Accounting: acc.DB, Mail: mail.NewOutbox(db.DB, nil)}).Metrics(), strings.NewReader(`
# HELP clubhouse_backlog_scrape_errors Backlogs that could not be read in this scrape (the database did not answer in time).
# TYPE clubhouse_backlog_scrape_errors gauge
clubhouse_backlog_scrape_errors 0
# HELP clubhouse_gateway_events Payment gateway notifications waiting to be settled, retries among them (due), and those given up after every retry (given_up).
# TYPE clubhouse_gateway_events gauge
clubhouse_gateway_events{status="due"} 1
clubhouse_gateway_events{status="given_up"} 0
# HELP clubhouse_ledger_outbox_waiting Postings (payments and ticket movements) in the outbox not posted to the ledger yet.
# TYPE clubhouse_ledger_outbox_waiting gauge
clubhouse_ledger_outbox_waiting 1
# HELP clubhouse_mail_messages Outgoing e-mail waiting to be sent, retries among them (pending), and that which failed for good (failed).
# TYPE clubhouse_mail_messages gauge
clubhouse_mail_messages{status="failed"} 0
clubhouse_mail_messages{status="pending"} 1
# HELP clubhouse_push_deliveries Push deliveries waiting to be sent (pending) and those that failed for good (failed).
# TYPE clubhouse_push_deliveries gauge
clubhouse_push_deliveries{status="failed"} 0
clubhouse_push_deliveries{status="pending"} 0
# HELP clubhouse_tickets_due_to_expire Available tickets whose time is up, which the next round of the ticket expiry expires.
# TYPE clubhouse_tickets_due_to_expire gauge
clubhouse_tickets_due_to_expire 0
`)))
	assert.NoError(t, testutil.CollectAndCompare(club.New(db.DB, club.Options{}).Metrics(), strings.NewReader(`
# HELP clubhouse_backlog_scrape_errors Backlogs that could not be read in this scrape (the database did not answer in time).
# TYPE clubhouse_backlog_scrape_errors gauge
clubhouse_backlog_scrape_errors 0
`), "clubhouse_backlog_scrape_errors", "clubhouse_ledger_outbox_waiting"), "no ledger, no outbox gauge")
}

// TestServices_WithDefaults: a front door given no services still has a
// zone and a clock, and never changes the value it was given.
func TestServices_WithDefaults(t *testing.T) {
	t.Parallel()
	var none *club.Services
	d := none.WithDefaults()
	assert.Equal(t, time.UTC, d.Zone)
	require.NotNil(t, d.Now)

	given := &club.Services{}
	assert.NotSame(t, given, given.WithDefaults())
	assert.Nil(t, given.Zone, "the given value is not changed")
}
