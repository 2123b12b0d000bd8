package httpapi_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/classes"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
	"github.com/clubhouse-go/clubhouse/pricing"
)

// The enrollment benchmark compares POST /api/account/classes/{id}/enroll,
// sent by 16 signed-in clients over HTTP to the real handler stack, with raw
// pgx inserts of the same rows (an enrollment of a client in a class, which
// the places trigger counts, and its enrollment.created event, with a
// payload the service wrote) by 16 other clients. Each round enrolls every
// client in classesPerRound fresh classes; the rounds alternate raw, API,
// API, raw. The server keeps signed-in users in memory, as clubd does
// (apptest.App.Watch). Run it with
//
//	go test ./httpapi/ -run XXX -bench EnrollFloor -benchtime 3x
const (
	enrollClients   = 16
	classesPerRound = 25
)

// rawEnrollSQL is the raw baseline: the rows the service inserts, the
// enrollment made by the client's own user and its event with the payload
// $4, in one statement.
const rawEnrollSQL = `WITH e AS (INSERT INTO enrollments (class_id, client_id, status, created_by) VALUES ($1, $2, 'pending', $3)
	RETURNING id)
	INSERT INTO event_log (type, at, actor, payload) SELECT 'enrollment.created', now(), 'bench', $4::json FROM e`

func BenchmarkEnrollFloor(b *testing.B) {
	app := apptest.New(b)
	app.Watch()
	ctx := b.Context()
	admin := app.AsAdmin()
	padel := admin.Post("/api/admin/court-types", map[string]any{"name": "Padel"}).Status(b, http.StatusCreated).ID(b)
	court := admin.Post("/api/admin/courts", map[string]any{"name": "A", "court_type_id": padel, "price": 60000}).Status(b, http.StatusCreated).ID(b)
	clinic := admin.Post("/api/admin/reservation-types", map[string]any{"name": "Clinic", "gestion": 2}).Status(b, http.StatusCreated).ID(b)
	admin.Post("/api/admin/tariff-classes", map[string]any{"court_type_id": padel, "reservation_type_id": clinic,
		"single_price": 25000, "total_price": 100000, "max_capacity": 100}).Status(b, http.StatusCreated)
	doc := admin.Post("/api/admin/document-types", map[string]any{"name": "CC"}).Status(b, http.StatusCreated).ID(b)
	trainer := app.User("coach@test.club", clubhouse.RoleTrainer).ID

	tokens := make([]string, enrollClients)
	rawClients := make([]int64, enrollClients)
	rawUsers := make([]int64, enrollClients)
	for i := range enrollClients {
		u := app.User(fmt.Sprintf("api%d@test.club", i))
		app.As(u).Post("/api/account/client", map[string]any{"email": fmt.Sprintf("api%d@test.club", i), "first_name": "Api",
			"last_name": fmt.Sprint(i), "document": fmt.Sprint(100 + i), "document_type_id": doc}).Status(b, http.StatusCreated)
		tokens[i] = app.Token(u)
		rawUsers[i] = app.User(fmt.Sprintf("raw%d@test.club", i)).ID
		rawClients[i] = admin.Post("/api/admin/clients", map[string]any{"first_name": "Raw", "last_name": fmt.Sprint(i),
			"document": fmt.Sprint(500 + i), "document_type_id": doc}).Status(b, http.StatusCreated).ID(b)
	}
	pool, err := pgxpool.NewWithConfig(ctx, app.DB.Pool.Config())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(pool.Close)
	tr := &http.Transport{MaxIdleConns: 2 * enrollClients, MaxIdleConnsPerHost: 2 * enrollClients, IdleConnTimeout: time.Minute}
	b.Cleanup(tr.CloseIdleConnections)
	client := &http.Client{Transport: tr, Timeout: time.Minute}

	// Each class has one session, on a day of its own, so that classes
	// never compete for the court.
	day := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	desk := clubhouse.Staff("bench")
	newClasses := func() []int64 {
		ids := make([]int64, classesPerRound)
		for i := range ids {
			c, err := app.Classes.Classes.Create(ctx, desk, classes.ClassInput{Title: clubhouse.Some("Bench"),
				UserID: clubhouse.Some(trainer), CourtID: clubhouse.Some(court), ReservationTypeID: clubhouse.Some(clinic),
				StartDate: clubhouse.Some(day), EndDate: clubhouse.Some(day), Days: clubhouse.Some([]int{1, 2, 3, 4, 5, 6, 7}),
				StartTime: clubhouse.Some(pricing.TimeOfDay(18 * 60)), EndTime: clubhouse.Some(pricing.TimeOfDay(19 * 60))})
			if err != nil {
				b.Fatal(err)
			}
			ids[i], day = c.ID, day.AddDate(0, 0, 1)
		}
		return ids
	}
	enroll := func(ctx context.Context, token string, class int64) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, fmt.Sprintf("%s/api/account/classes/%d/enroll", app.URL, class),
			bytes.NewReader([]byte(`{"payments":[]}`)))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := client.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if _, err := io.Copy(io.Discard, resp.Body); err != nil {
			return err
		}
		if resp.StatusCode != http.StatusCreated {
			return fmt.Errorf("enroll: status %d", resp.StatusCode)
		}
		return nil
	}
	// payload is the payload of an enrollment.created event the service
	// wrote, for the raw rows.
	var payload string
	if err := enroll(ctx, tokens[0], newClasses()[0]); err != nil {
		b.Fatal(err)
	}
	if err := app.DB.GetContext(ctx, &payload, `SELECT payload::text FROM event_log WHERE type = 'enrollment.created' LIMIT 1`); err != nil {
		b.Fatal(err)
	}
	round := func(api bool) side {
		ids := newClasses()
		d, lat, err := workers(ctx, enrollClients, classesPerRound, func(ctx context.Context, c, i int) error {
			if api {
				return enroll(ctx, tokens[c], ids[i])
			}
			_, err := pool.Exec(ctx, rawEnrollSQL, ids[i], rawClients[c], rawUsers[c], payload)
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
		return side{ops: enrollClients * classesPerRound, elapsed: d, lat: lat}
	}
	raw, api := abba(b, "enrollments/s", 1, round, nil)
	b.ReportMetric(raw.rate(), "raw-enrollments/s")
	b.ReportMetric(api.rate(), "api-enrollments/s")
	b.ReportMetric(api.p99(), "api-p99-ms")
}
