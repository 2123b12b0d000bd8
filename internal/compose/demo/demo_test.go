package demo_test

import (
	"bytes"
	"context"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/compose/demo"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
	"github.com/clubhouse-go/clubhouse/tickets"
)

// rowCounts returns the number of rows of every table of db.
func rowCounts(tb testing.TB, db *sqldb.DB) map[string]int {
	tb.Helper()
	ctx := context.Background()
	var tables []string
	require.NoError(tb, db.SelectContext(ctx, &tables, "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"))
	counts := map[string]int{}
	for _, t := range tables {
		var n int
		require.NoError(tb, db.GetContext(ctx, &n, `SELECT count(*) FROM "`+t+`"`))
		counts[t] = n
	}
	return counts
}

var passwordLine = regexp.MustCompile(`(?m)^\s+(\S+@demo\.club)\s+(\S+)\s+(\S+)$`)

func TestSeed_idempotent(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	club := apptest.New(t)

	var out bytes.Buffer
	require.NoError(t, demo.Seed(ctx, club.App, &out))
	assert.Contains(t, out.String(), "shown once")
	lines := passwordLine.FindAllStringSubmatch(out.String(), -1)
	require.Len(t, lines, 6, "one user per role and a client:\n%s", out.String())
	roles := map[clubhouse.Role]bool{}
	for _, l := range lines {
		_, err := club.Auth.Login(ctx, l[1], l[2], "127.0.0.1")
		assert.NoError(t, err, "the printed password of %s signs in", l[1])
		for _, r := range strings.Split(l[3], ",") {
			roles[clubhouse.Role(r)] = true
		}
	}
	for _, r := range clubhouse.Roles {
		assert.True(t, roles[r], "a demo user has role %s", r)
	}

	first := rowCounts(t, club.DB)
	for _, table := range []string{"users", "clients", "court_types", "courts", "document_types", "payment_types",
		"reservation_statuses", "reservation_types", "class_tariffs", "reservations", "events", "event_participants"} {
		assert.Positive(t, first[table], "the demo fills %s", table)
	}
	assert.Equal(t, 6, first["users"])
	assert.Equal(t, 2, first["clients"], "the demo client and the event's other participant")
	assert.Equal(t, 2, first["training_classes"], "the demo trainer's two classes")
	assert.Equal(t, 32, first["class_sessions"], "eight weeks of two sessions a week each")
	assert.Equal(t, 2, first["ticket_programs"], "Open play and Padel clinic")
	assert.Equal(t, 4, first["ticket_packages"], "two packages each")
	assert.Equal(t, 1, first["ticket_sales"], "ten Open play tickets sold to a walk-in buyer")
	assert.Equal(t, 10, first["tickets"])
	assert.Equal(t, 1, first["events"])
	assert.Equal(t, 2, first["event_participants"])
	assert.Equal(t, first["class_sessions"]+first["events"], first["reservations"], "every session and event holds its court")
	desk := clubhouse.Staff("test")
	events, err := club.Tickets.Events.List(ctx, desk, tickets.EventFilter{})
	require.NoError(t, err)
	require.Len(t, events, 1)
	event, err := club.Tickets.Events.Get(ctx, desk, events[0].ID)
	require.NoError(t, err)
	assert.Equal(t, "Football 5", event.CourtName)
	assert.Equal(t, "Event", event.EventTypeName)
	require.Len(t, event.Participants, 2)
	assert.Equal(t, []string{"Demo", "Carla"}, []string{*event.Participants[0].FirstName, *event.Participants[1].FirstName})

	out.Reset()
	require.NoError(t, demo.Seed(ctx, club.App, &out))
	assert.Contains(t, out.String(), "already existed")
	assert.NotContains(t, out.String(), "shown once")
	assert.Empty(t, passwordLine.FindAllString(out.String(), -1), "no password is printed again")
	assert.Equal(t, first, rowCounts(t, club.DB), "the second run creates nothing")
}

// TestSeed_addsWhatIsMissing removes a demo user and a court: a new run
// recreates only those and prints only the new user's password.
func TestSeed_addsWhatIsMissing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	club := apptest.New(t)
	var out bytes.Buffer
	require.NoError(t, demo.Seed(ctx, club.App, &out))
	first := rowCounts(t, club.DB)

	_, err := club.DB.ExecContext(ctx, "DELETE FROM users WHERE email = 'operator@demo.club'; DELETE FROM courts WHERE name = 'Padel 2'; "+
		"DELETE FROM ticket_packages WHERE name = '8 sessions'")
	require.NoError(t, err)
	out.Reset()
	require.NoError(t, demo.Seed(ctx, club.App, &out))
	lines := passwordLine.FindAllStringSubmatch(out.String(), -1)
	require.Len(t, lines, 1, "%s", out.String())
	assert.Equal(t, "operator@demo.club", lines[0][1])
	assert.Equal(t, first, rowCounts(t, club.DB))
}

// TestSeed_rules: the demo club sets realistic rules once; a club that
// changed them keeps its own when the demo is seeded again.
func TestSeed_rules(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	club := apptest.New(t)
	require.NoError(t, demo.Seed(ctx, club.App, &bytes.Buffer{}))

	got := club.Anonymous().Get("/api/public/club-rules").Status(t, http.StatusOK).Object(t)
	assert.Len(t, got["opening_hours"], 7)
	assert.Len(t, got["exceptions"], 2, "Christmas Day and New Year's Day")
	assert.EqualValues(t, 14, got["advance_days"])
	assert.EqualValues(t, 360, got["cancel_window_minutes"])
	staffOnly := []string{}
	for _, ty := range got["types"].([]any) {
		if m := ty.(map[string]any); m["staff_only"] == true {
			staffOnly = append(staffOnly, m["reservation_type_name"].(string))
		}
	}
	assert.Equal(t, []string{"Maintenance"}, staffOnly)

	club.AsAdmin().Patch("/api/admin/club-rules", map[string]any{"advance_days": 30}).Status(t, http.StatusOK)
	require.NoError(t, demo.Seed(ctx, club.App, &bytes.Buffer{}))
	assert.EqualValues(t, 30, club.Anonymous().Get("/api/public/club-rules").Status(t, http.StatusOK).Object(t)["advance_days"])
}

// TestSeed_tickets: the demo club has two ticket programs with their
// packages, which the front desk can quote.
func TestSeed_tickets(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	club := apptest.New(t)
	require.NoError(t, demo.Seed(ctx, club.App, &bytes.Buffer{}))

	var programs []struct {
		Name     string `json:"name"`
		IsActive bool   `json:"is_active"`
		Packages []struct {
			ID          int64   `json:"id"`
			TicketCount int     `json:"ticket_count"`
			UnitPrice   float64 `json:"unit_price"`
			IsActive    bool    `json:"is_active"`
		} `json:"packages"`
	}
	admin := club.AsAdmin()
	admin.Get("/api/admin/tickets/programs").Status(t, http.StatusOK).JSON(t, &programs)
	counts := map[string][]int{}
	for _, p := range programs {
		assert.True(t, p.IsActive, p.Name)
		for _, k := range p.Packages {
			assert.True(t, k.IsActive)
			assert.Positive(t, k.UnitPrice)
			counts[p.Name] = append(counts[p.Name], k.TicketCount)
		}
	}
	assert.Equal(t, map[string][]int{"Open play": {5, 10}, "Padel clinic": {4, 8}}, counts)
	q := admin.Post("/api/admin/tickets/quote", map[string]any{"package_id": programs[0].Packages[1].ID}).Status(t, http.StatusOK).Object(t)
	assert.EqualValues(t, 180000, q["total"], "ten Open play tickets at 18000")
}
