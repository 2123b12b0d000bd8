package httpapi_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/httpapi"
	"github.com/clubhouse-go/clubhouse/internal/compose/app"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
)

// withWebhookSecret makes the app's webhook accept webhookSecret.
func withWebhookSecret(c *app.Config, _ *app.Options) {
	c.PaymentWebhookSecrets = []string{webhookSecret}
}

type enrollmentView struct {
	ID                int64  `json:"id"`
	ClassID           int64  `json:"class_id"`
	ClientID          int64  `json:"client_id"`
	UserID            *int64 `json:"user_id"`
	Status            string `json:"status"`
	WaitlistPosition  *int   `json:"waitlist_position"`
	PaymentReference  *string
	TotalPaid         float64 `json:"total_paid"`
	IsPaymentComplete bool    `json:"is_payment_complete"`
	Student           struct {
		FirstName string `json:"first_name"`
	} `json:"student"`
}

// students signs up n clients (each a user with a client record) and
// returns their API clients and client ids.
func students(t *testing.T, app *apptest.App, n int) ([]*apptest.Client, []int64) {
	t.Helper()
	doc := app.AsAdmin().Post("/api/admin/document-types", map[string]any{"name": "CC"}).Status(t, http.StatusCreated).ID(t)
	as := make([]*apptest.Client, n)
	ids := make([]int64, n)
	for i := range n {
		email := fmt.Sprintf("student%d@test.club", i)
		as[i] = app.As(app.User(email))
		ids[i] = as[i].Post("/api/account/client", map[string]any{"email": email, "first_name": fmt.Sprintf("Student%d", i),
			"last_name": "Test", "document": fmt.Sprint(1000 + i), "document_type_id": doc}).Status(t, http.StatusCreated).ID(t)
	}
	return as, ids
}

func TestEnrollments_placesWaitlistAndPayments(t *testing.T) {
	t.Parallel()
	clock := apptest.NewClock()
	app := apptest.New(t, apptest.WithClock(clock))
	a := newAcademy(t, app, clock)
	admin := app.AsAdmin()
	card := admin.Post("/api/admin/payment-types", map[string]any{"name": "Card"}).Status(t, http.StatusCreated).ID(t)
	class := admin.Post("/api/admin/classes", a.class(a.courtA, 0, 13)).Status(t, http.StatusCreated).ID(t)
	enrollURL := path("/api/account/classes/%d/enroll", class)
	s, clients := students(t, app, 6)
	t1 := app.As(app.User("t1@test.club", clubhouse.RoleTrainer))
	t2 := app.As(app.User("t2@test.club", clubhouse.RoleTrainer))

	var open []classView
	s[0].Get("/api/account/classes").Status(t, http.StatusOK).JSON(t, &open)
	require.Len(t, open, 1)
	s[0].Get(path("/api/account/classes?reservation_type_id=%d", a.rental)).Status(t, http.StatusOK).JSON(t, &open)
	assert.Empty(t, open, "only classes of that type")

	// Bad claims store nothing.
	for name, claim := range map[string]map[string]any{
		"above the price":   {"paymentTypeId": card, "amount": 25000.01, "transaction_id": "TX-A"},
		"three decimals":    {"paymentTypeId": card, "amount": 10.001, "transaction_id": "TX-A"},
		"no transaction id": {"paymentTypeId": card, "amount": 1000},
		"blank id":          {"paymentTypeId": card, "amount": 1000, "transaction_id": " "},
		"unknown type":      {"paymentTypeId": 9999, "amount": 1000, "transaction_id": "TX-A"},
		"amount as text":    {"paymentTypeId": card, "amount": "1000", "transaction_id": "TX-A"},
	} {
		t.Run(name, func(t *testing.T) {
			s[0].Post(enrollURL, map[string]any{"payments": []any{claim}}).Status(t, http.StatusBadRequest)
		})
	}
	var mine []enrollmentView
	s[0].Get("/api/account/classes/my-enrollments").Status(t, http.StatusOK).JSON(t, &mine)
	assert.Empty(t, mine, "a refused enrollment leaves nothing")

	var e enrollmentView
	s[0].Post(enrollURL, map[string]any{"payments": []any{map[string]any{"paymentTypeId": card, "amount": 25000, "transaction_id": "TX-1"}}}).
		Status(t, http.StatusCreated).JSON(t, &e)
	assert.Equal(t, "pending", e.Status)
	assert.Equal(t, clients[0], e.ClientID)
	assert.Nil(t, e.WaitlistPosition)
	assert.Zero(t, e.TotalPaid, "the claim is pending")
	var logged struct{ Data []struct{ Type string } }
	admin.Get("/api/admin/events-log?limit=1000").Status(t, http.StatusOK).JSON(t, &logged)
	var order []string
	for _, ev := range logged.Data {
		if ev.Type == "enrollment.created" || ev.Type == "payment.created" {
			order = append(order, ev.Type)
		}
	}
	assert.Equal(t, []string{"enrollment.created", "payment.created"}, order, "the enrollment's event comes before its claim's, which names it")
	s[0].Post(enrollURL, map[string]any{"payments": []any{}}).Status(t, http.StatusConflict).Error(t, "already enrolled")

	var pays []map[string]any
	admin.Get("/api/admin/payments?search=TX-1").Status(t, http.StatusOK).JSON(t, &pays)
	require.Len(t, pays, 1, "the claim is a payment like any other")
	assert.EqualValues(t, e.ID, pays[0]["enrollment_id"])
	assert.Nil(t, pays[0]["reservation_id"])
	admin.Patch(path("/api/admin/payments/%d", int64(pays[0]["id"].(float64))), map[string]any{"status": true}).Status(t, http.StatusOK)
	t1.Get(path("/api/trainer/events/%d", e.ID)).Status(t, http.StatusOK).JSON(t, &e)
	assert.EqualValues(t, 25000, e.TotalPaid)
	assert.True(t, e.IsPaymentComplete)

	for i := 1; i < 4; i++ {
		s[i].Post(enrollURL, map[string]any{"payments": []any{}}).Status(t, http.StatusCreated)
	}
	var c classView
	admin.Get(path("/api/admin/classes/%d", class)).Status(t, http.StatusOK).JSON(t, &c)
	assert.Equal(t, 0, c.PlacesLeft, "four places, four enrollments")
	var w1, w2 enrollmentView
	s[4].Post(enrollURL, map[string]any{"payments": []any{}}).Status(t, http.StatusCreated).JSON(t, &w1)
	s[5].Post(enrollURL, map[string]any{"payments": []any{}}).Status(t, http.StatusCreated).JSON(t, &w2)
	assert.Equal(t, "waitlisted", w1.Status)
	require.NotNil(t, w2.WaitlistPosition)
	assert.Equal(t, 2, *w2.WaitlistPosition)

	// The trainer rejects a student: the first on the waitlist takes the place.
	var list []enrollmentView
	t1.Get(path("/api/trainer/events?class_id=%d&status=pending", class)).Status(t, http.StatusOK).JSON(t, &list)
	require.Len(t, list, 4)
	rejected := t1.Patch(path("/api/trainer/events/%d/reject", list[1].ID), nil).Status(t, http.StatusOK).Object(t)
	assert.Equal(t, "rejected", rejected["status"])
	t1.Get(path("/api/trainer/events/%d", w1.ID)).Status(t, http.StatusOK).JSON(t, &w1)
	assert.Equal(t, "pending", w1.Status, "promoted")
	t1.Get(path("/api/trainer/events/%d", w2.ID)).Status(t, http.StatusOK).JSON(t, &w2)
	assert.Equal(t, 1, *w2.WaitlistPosition, "next in line")
	promoted := app.Events.Topic("enrollment:promoted")
	require.Len(t, promoted, 1)
	assert.Contains(t, promoted[0], fmt.Sprintf(`"id":%d`, w1.ID))
	assert.Contains(t, promoted[0], fmt.Sprintf(`"user_id":%d`, *w1.UserID), "the message is for the promoted client")

	t1.Patch(path("/api/trainer/events/%d/accept", e.ID), nil).Status(t, http.StatusOK)
	t1.Patch(path("/api/trainer/events/%d/accept", e.ID), nil).Status(t, http.StatusConflict)
	t1.Patch(path("/api/trainer/events/%d/reject", list[1].ID), nil).Status(t, http.StatusConflict)
	t1.Delete(path("/api/trainer/events/%d", w2.ID), nil).Status(t, http.StatusNoContent)
	t1.Get(path("/api/trainer/events/%d", w2.ID)).Status(t, http.StatusOK).JSON(t, &w2)
	assert.Equal(t, "cancelled", w2.Status)
	s[5].Post(enrollURL, map[string]any{"payments": []any{}}).Status(t, http.StatusCreated).JSON(t, &w2)
	assert.Equal(t, "waitlisted", w2.Status, "a removed student may enroll again")

	// A client who withdraws frees their place for the next in line.
	withdrawn := s[3].Delete(enrollURL, nil).Status(t, http.StatusOK).Object(t)
	assert.Equal(t, "cancelled", withdrawn["status"])
	s[3].Delete(enrollURL, nil).Status(t, http.StatusNotFound)
	t1.Get(path("/api/trainer/events/%d", w2.ID)).Status(t, http.StatusOK).JSON(t, &w2)
	assert.Equal(t, "pending", w2.Status, "promoted when a client withdrew")

	// Another trainer sees nothing of it.
	t2.Get("/api/trainer/events").Status(t, http.StatusOK).JSON(t, &list)
	assert.Empty(t, list)
	t2.Get(path("/api/trainer/events/%d", e.ID)).Status(t, http.StatusNotFound)
	t2.Patch(path("/api/trainer/events/%d/reject", e.ID), nil).Status(t, http.StatusNotFound)
	t2.Delete(path("/api/trainer/events/%d", e.ID), nil).Status(t, http.StatusNotFound)
	t2.Post("/api/trainer/events", map[string]any{"class_id": class, "client_id": clients[1]}).Status(t, http.StatusNotFound)

	// The old paths answer the same, marked deprecated.
	res := t1.Get(path("/api/trainer/enrollments?class_id=%d", class)).Status(t, http.StatusOK)
	assert.Equal(t, "@1795564800", res.Header.Get("Deprecation"))
	assert.Contains(t, res.Header.Get("Link"), "</api/trainer/events>")
	res.JSON(t, &list)
	assert.Len(t, list, 7)

	s[0].Get("/api/account/classes/my-enrollments").Status(t, http.StatusOK).JSON(t, &mine)
	require.Len(t, mine, 1)
	assert.Equal(t, "accepted", mine[0].Status)
	app.AsClient().Post(enrollURL, map[string]any{"payments": []any{}}).Status(t, http.StatusNotFound).Error(t, "client not found")

	admin.Delete(path("/api/admin/classes/%d", class), nil).Status(t, http.StatusConflict)
	admin.Patch(path("/api/admin/classes/%d/cancel", class), nil).Status(t, http.StatusOK)
	cancelled := app.Events.Topic("class:cancelled")
	require.Len(t, cancelled, 5, "the copy of the staff and the trainer, then one for each of the 4 students")
	assert.Contains(t, cancelled[0], fmt.Sprintf("%d", *mine[0].UserID), "the students are told")
	assert.Contains(t, cancelled[1:], fmt.Sprintf(`{"class_id":%d,"title":"Padel basics","user_ids":[%d]}`, class, *mine[0].UserID),
		"each student's own copy names only them")
	s[1].Post(enrollURL, map[string]any{"payments": []any{}}).Status(t, http.StatusNotFound)
}

// TestEnrollments_raceForTheLastPlaces: fifty clients race for the five
// places of a class; exactly five hold one and the rest wait in line,
// each told their place in line, and each enrollment's event in the log is
// the enrollment as its client was answered.
func TestEnrollments_raceForTheLastPlaces(t *testing.T) {
	t.Parallel()
	clock := apptest.NewClock()
	app := apptest.New(t, apptest.WithClock(clock))
	a := newAcademy(t, app, clock)
	admin := app.AsAdmin()
	admin.Patch("/api/admin/tariff-classes/1", map[string]any{"max_capacity": 5}).Status(t, http.StatusOK)
	class := admin.Post("/api/admin/classes", a.class(a.courtA, 0, 6)).Status(t, http.StatusCreated).ID(t)
	s, _ := students(t, app, 50)
	var wg sync.WaitGroup
	codes := make(chan int, len(s))
	lat := make([]time.Duration, len(s))
	answers := make([]enrollmentView, len(s))
	objects := make([]map[string]any, len(s))
	start := time.Now()
	for i, c := range s {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t0 := time.Now()
			r := c.Post(path("/api/account/classes/%d/enroll", class), map[string]any{"payments": []any{}})
			lat[i] = time.Since(t0)
			codes <- r.Code
			assert.NoError(t, json.Unmarshal(r.Body, &answers[i]), "%s", r)
			assert.NoError(t, json.Unmarshal(r.Body, &objects[i]), "%s", r)
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	close(codes)
	slices.Sort(lat)
	t.Logf("%d racing enrollments: %.0f attempts/s, p99 %s (the contract checks of apptest included)",
		len(s), float64(len(s))/elapsed.Seconds(), lat[(len(lat)*99+99)/100-1])
	for code := range codes {
		assert.Equal(t, http.StatusCreated, code)
	}
	var list []enrollmentView
	app.AsBot().Get(path("/api/trainer/events?class_id=%d", class)).Status(t, http.StatusOK).JSON(t, &list)
	count := map[string]int{}
	positions := map[int]bool{}
	for _, e := range list {
		count[e.Status]++
		if e.WaitlistPosition != nil {
			positions[*e.WaitlistPosition] = true
		}
	}
	assert.Equal(t, map[string]int{"pending": 5, "waitlisted": 45}, count)
	assert.Len(t, positions, 45, "every waiting client has a place in line of their own")
	listed := map[int64]*int{}
	for _, e := range list {
		listed[e.ID] = e.WaitlistPosition
	}
	for _, e := range answers {
		assert.Equal(t, listed[e.ID], e.WaitlistPosition, "enrollment %d answered its place in line", e.ID)
	}
	answered := map[float64]map[string]any{}
	for _, o := range objects {
		answered[o["id"].(float64)] = o
	}
	var events struct{ Data []map[string]any }
	admin.Get("/api/admin/events-log?type=enrollment.created&limit=1000").Status(t, http.StatusOK).JSON(t, &events)
	require.Len(t, events.Data, len(s))
	doc, err := httpapi.OpenAPI()
	require.NoError(t, err)
	schema := doc.Components.Schemas[httpapi.EventSchemaPrefix+"enrollment.created"]
	require.NotNil(t, schema)
	for _, e := range events.Data {
		data := e["data"].(map[string]any)
		sameResource(t, answered[data["id"].(float64)], data)
		assert.NoError(t, schema.Value.VisitJSON(e), "%v", e)
	}
	var c classView
	admin.Get(path("/api/admin/classes/%d", class)).Status(t, http.StatusOK).JSON(t, &c)
	assert.Equal(t, 0, c.PlacesLeft)
}

func TestEnrollments_attendance(t *testing.T) {
	t.Parallel()
	clock := apptest.NewClock()
	app := apptest.New(t, apptest.WithClock(clock))
	a := newAcademy(t, app, clock)
	admin := app.AsAdmin()
	admin.Patch("/api/admin/tariff-classes/1", map[string]any{"max_capacity": 1}).Status(t, http.StatusOK)
	class := admin.Post("/api/admin/classes", a.class(a.courtA, 0, 6)).Status(t, http.StatusCreated).ID(t)
	s, _ := students(t, app, 2)
	var e, waiting enrollmentView
	s[0].Post(path("/api/account/classes/%d/enroll", class), map[string]any{"payments": []any{}}).Status(t, http.StatusCreated).JSON(t, &e)
	s[1].Post(path("/api/account/classes/%d/enroll", class), map[string]any{"payments": []any{}}).Status(t, http.StatusCreated).JSON(t, &waiting)
	t1 := app.As(app.User("t1@test.club", clubhouse.RoleTrainer))
	mark := func(id int64, date, status string) *apptest.Response {
		return t1.Patch(path("/api/trainer/events/%d/attendance", id), map[string]any{"date": date, "attendance_status": status})
	}

	got := mark(e.ID, a.day(1), "present").Status(t, http.StatusOK).Object(t)
	assert.Equal(t, "present", got["attendance_status"])
	assert.NotNil(t, got["attendance_marked_at"])
	mark(e.ID, a.day(1), "late").Status(t, http.StatusOK)
	got = mark(e.ID, a.day(2), "absent").Status(t, http.StatusOK).Object(t)
	assert.Equal(t, "absent", got["attendance_status"], "the latest mark")

	mark(e.ID, a.day(20), "present").Status(t, http.StatusBadRequest).Error(t, "invalid date")
	mark(e.ID, "yesterday", "present").Status(t, http.StatusBadRequest)
	mark(e.ID, a.day(3), "asleep").Status(t, http.StatusBadRequest).Error(t, "invalid data")
	t1.Patch(path("/api/trainer/events/%d/attendance", e.ID), map[string]any{"date": a.day(3)}).Status(t, http.StatusBadRequest)
	mark(waiting.ID, a.day(3), "present").Status(t, http.StatusConflict)
	app.As(app.User("t2@test.club", clubhouse.RoleTrainer)).
		Patch(path("/api/trainer/events/%d/attendance", e.ID), map[string]any{"date": a.day(3), "attendance_status": "present"}).
		Status(t, http.StatusNotFound)
	res := t1.Patch(path("/api/trainer/enrollments/%d/attendance", e.ID), map[string]any{"date": a.day(3), "attendance_status": "excused"}).
		Status(t, http.StatusOK)
	assert.NotEmpty(t, res.Header.Get("Deprecation"))

	var c struct {
		Attendance []struct {
			Date                           string
			Present, Absent, Late, Excused int
		} `json:"attendance"`
	}
	admin.Get(path("/api/admin/classes/%d", class)).Status(t, http.StatusOK).JSON(t, &c)
	require.Len(t, c.Attendance, 7, "one row per session")
	assert.Equal(t, a.day(1), c.Attendance[1].Date)
	assert.Equal(t, [4]int{0, 0, 1, 0}, [4]int{c.Attendance[1].Present, c.Attendance[1].Absent, c.Attendance[1].Late, c.Attendance[1].Excused})
	assert.Equal(t, 1, c.Attendance[2].Absent)
	assert.Equal(t, 1, c.Attendance[3].Excused)
	assert.Equal(t, 0, c.Attendance[0].Present+c.Attendance[0].Absent+c.Attendance[0].Late+c.Attendance[0].Excused)

	stats := t1.Get("/api/trainer/dashboard/stats").Status(t, http.StatusOK).Object(t)
	assert.EqualValues(t, 1, stats["scheduled_classes"])
	assert.EqualValues(t, 2, stats["students"], "the enrolled and the waiting client")
	assert.EqualValues(t, 1, stats["pending_enrollments"])
	assert.EqualValues(t, 1, stats["waitlisted"])
	assert.EqualValues(t, 0.3333, stats["attendance_rate"], "one late of three marks")
	require.Len(t, stats["income_by_class"], 1)
	assert.EqualValues(t, 0, stats["income_by_class"].([]any)[0].(map[string]any)["paid"])
	other := app.As(app.User("t2@test.club", clubhouse.RoleTrainer)).Get("/api/trainer/dashboard/stats").Status(t, http.StatusOK).Object(t)
	assert.EqualValues(t, 0, other["scheduled_classes"], "another trainer's figures are their own")
	assert.Nil(t, other["attendance_rate"])
	assert.Empty(t, other["income_by_class"])
}

// TestEnrollments_paidThroughTheWebhook follows enrollment payments from
// the gateway to the ledger: an event confirms a client's claim, creates
// the payment of an enrollment without one, waits in the inbox for an
// unknown enrollment until staff attach it, and every completed payment
// posts once to enrollment income.
func TestEnrollments_paidThroughTheWebhook(t *testing.T) {
	t.Parallel()
	clock := apptest.NewClock()
	app := apptest.New(t, apptest.WithLedger(t), apptest.WithClock(clock),
		withWebhookSecret)
	a := newAcademy(t, app, clock)
	admin, acc := app.AsAdmin(), app.AsAccounting()
	gateway := admin.Post("/api/admin/payment-types", map[string]any{"name": "Gateway", "ledger_account": "1.1.10.01"}).Status(t, http.StatusCreated).ID(t)
	class := admin.Post("/api/admin/classes", a.class(a.courtA, 0, 6)).Status(t, http.StatusCreated).ID(t)
	s, _ := students(t, app, 3)
	enroll := func(c *apptest.Client, claims ...any) enrollmentView {
		var e enrollmentView
		if claims == nil {
			claims = []any{}
		}
		c.Post(path("/api/account/classes/%d/enroll", class), map[string]any{"payments": claims}).Status(t, http.StatusCreated).JSON(t, &e)
		return e
	}
	claimed := enroll(s[0], map[string]any{"paymentTypeId": gateway, "amount": 25000, "transaction_id": "GW-ENR-1"})
	unpaid := enroll(s[1])
	late := enroll(s[2])

	r := result(t, deliver(t, app, map[string]any{"transaction_id": "GW-ENR-1", "amount": 25000, "status": "completed", "enrollment_id": claimed.ID}))
	assert.Equal(t, "processed", r.Status)
	assert.True(t, r.Changed)
	var e enrollmentView
	app.AsBot().Get(path("/api/trainer/events/%d", claimed.ID)).Status(t, http.StatusOK).JSON(t, &e)
	assert.True(t, e.IsPaymentComplete, "the gateway confirmed the client's claim")
	assert.EqualValues(t, 25000, e.TotalPaid)

	r = result(t, deliver(t, app, map[string]any{"transaction_id": "GW-ENR-2", "amount": 25000, "status": "completed", "enrollment_id": unpaid.ID}))
	require.NotNil(t, r.PaymentID, "the payment is created on the enrollment")
	p := admin.Get(path("/api/admin/payments/%d", *r.PaymentID)).Status(t, http.StatusOK).Object(t)
	assert.EqualValues(t, unpaid.ID, p["enrollment_id"])

	r = result(t, deliver(t, app, map[string]any{"transaction_id": "GW-ENR-3", "amount": 25000, "status": "completed", "enrollment_id": 999999}))
	require.NotNil(t, r.InboxID)
	var open []map[string]any
	admin.Get("/api/admin/payments/inbox").Status(t, http.StatusOK).JSON(t, &open)
	require.Len(t, open, 1)
	assert.Contains(t, open[0]["note"], "enrollment_id 999999 does not name an existing class enrollment")
	admin.Post(path("/api/admin/payments/inbox/%d/resolve", *r.InboxID), map[string]any{"action": "attach", "enrollment_id": late.ID, "reservation_id": 1}).
		Status(t, http.StatusBadRequest)
	admin.Post(path("/api/admin/payments/inbox/%d/resolve", *r.InboxID), map[string]any{"action": "attach", "enrollment_id": late.ID}).
		Status(t, http.StatusOK)
	app.AsBot().Get(path("/api/trainer/events/%d", late.ID)).Status(t, http.StatusOK).JSON(t, &e)
	assert.True(t, e.IsPaymentComplete)

	today := time.Now().In(app.Config.ClubTimezone)
	from := time.Date(today.Year(), today.Month(), 1, 0, 0, 0, 0, time.UTC).Format(time.DateOnly)
	to := time.Date(today.Year(), today.Month()+1, 0, 0, 0, 0, 0, time.UTC).Format(time.DateOnly)
	acc.Post("/api/accounting/periods", map[string]any{"name": "this month", "start_date": from, "end_date": to}).Status(t, http.StatusCreated)
	posted, _, err := app.Poster.PostPending(t.Context())
	require.NoError(t, err)
	assert.Equal(t, 3, posted)
	result(t, deliver(t, app, map[string]any{"transaction_id": "GW-ENR-1", "amount": 25000, "status": "completed", "enrollment_id": claimed.ID}))
	posted, _, err = app.Poster.PostPending(t.Context())
	require.NoError(t, err)
	assert.Zero(t, posted, "a repeated delivery posts nothing twice")
	tb := acc.Get("/api/accounting/trial-balance?as_of="+to).Status(t, http.StatusOK).Object(t)
	income := 0.0
	for _, row := range tb["rows"].([]any) {
		if row.(map[string]any)["code"] == "4.1.10" {
			income = row.(map[string]any)["balance"].(float64)
		}
	}
	assert.EqualValues(t, -75000, income, "three enrollments of 25 000 credited to enrollment income")
	stats := app.As(app.User("t1@test.club", clubhouse.RoleTrainer)).Get("/api/trainer/dashboard/stats").Status(t, http.StatusOK).Object(t)
	assert.EqualValues(t, 75000, stats["income_by_class"].([]any)[0].(map[string]any)["paid"], "the trainer's income by class")
}

// TestTrainer_studentsAndClients: each trainer sees their own students and
// the clients they created, and enrolls only those, only in their classes.
func TestTrainer_studentsAndClients(t *testing.T) {
	t.Parallel()
	clock := apptest.NewClock()
	app := apptest.New(t, apptest.WithClock(clock))
	a := newAcademy(t, app, clock)
	t1 := app.As(app.User("t1@test.club", clubhouse.RoleTrainer))
	t2 := app.As(app.User("t2@test.club", clubhouse.RoleTrainer))
	c1 := t1.Post("/api/trainer/classes", a.class(a.courtA, 0, 6)).Status(t, http.StatusCreated).ID(t)
	c2 := t2.Post("/api/trainer/classes", a.class(a.courtB, 0, 6)).Status(t, http.StatusCreated).ID(t)
	s, ids := students(t, app, 2)
	s[0].Post(path("/api/account/classes/%d/enroll", c1), map[string]any{"payments": []any{}}).Status(t, http.StatusCreated)
	s[1].Post(path("/api/account/classes/%d/enroll", c2), map[string]any{"payments": []any{}}).Status(t, http.StatusCreated)

	var list []map[string]any
	t1.Get("/api/trainer/students").Status(t, http.StatusOK).JSON(t, &list)
	require.Len(t, list, 1)
	assert.EqualValues(t, ids[0], list[0]["id"])
	assert.Equal(t, "Student0", t1.Get(path("/api/trainer/students/%d", ids[0])).Status(t, http.StatusOK).Object(t)["first_name"])
	t1.Get(path("/api/trainer/students/%d", ids[1])).Status(t, http.StatusNotFound)

	var doc []map[string]any
	t1.Get("/api/trainer/document-types").Status(t, http.StatusOK).JSON(t, &doc)
	require.NotEmpty(t, doc)
	nico := t1.Post("/api/trainer/clients", map[string]any{"first_name": "Nico", "last_name": "Paz", "document": "77",
		"document_type_id": doc[0]["id"]}).Status(t, http.StatusCreated).ID(t)
	t1.Get("/api/trainer/clients").Status(t, http.StatusOK).JSON(t, &list)
	assert.Len(t, list, 2, "the student and the client the trainer created")
	t1.Get(path("/api/trainer/clients/%d", nico)).Status(t, http.StatusOK)
	t2.Get("/api/trainer/clients").Status(t, http.StatusOK).JSON(t, &list)
	require.Len(t, list, 1)
	assert.EqualValues(t, ids[1], list[0]["id"])
	t2.Get(path("/api/trainer/clients/%d", nico)).Status(t, http.StatusNotFound)

	e := t1.Post(path("/api/trainer/students/%d/assign", nico), map[string]any{"class_id": c1}).Status(t, http.StatusCreated).Object(t)
	assert.Equal(t, "pending", e["status"])
	t1.Post(path("/api/trainer/students/%d/assign", nico), map[string]any{"class_id": c1}).Status(t, http.StatusConflict)
	t1.Post(path("/api/trainer/students/%d/assign", ids[1]), map[string]any{"class_id": c1}).Status(t, http.StatusNotFound)
	t2.Post(path("/api/trainer/students/%d/assign", nico), map[string]any{"class_id": c2}).Status(t, http.StatusNotFound)
	t1.Post("/api/trainer/events", map[string]any{"class_id": c1, "client_id": ids[1]}).Status(t, http.StatusNotFound)
	t1.Post(path("/api/trainer/students/%d/assign", nico), map[string]any{}).Status(t, http.StatusBadRequest)
	t1.Get("/api/trainer/students").Status(t, http.StatusOK).JSON(t, &list)
	assert.Len(t, list, 2, "the assigned client is a student now")
	t1.Get("/api/trainer/events?status=done").Status(t, http.StatusBadRequest).Error(t, "invalid query")
	app.AsClient().Get("/api/trainer/students").Status(t, http.StatusForbidden)
	app.AsClient().Post("/api/trainer/clients", map[string]any{}).Status(t, http.StatusForbidden)
}

// TestEnrollments_doubleClick: one client's concurrent enrollments in a
// class give one enrollment; the others answer 409.
func TestEnrollments_doubleClick(t *testing.T) {
	t.Parallel()
	clock := apptest.NewClock()
	app := apptest.New(t, apptest.WithClock(clock))
	a := newAcademy(t, app, clock)
	class := app.AsAdmin().Post("/api/admin/classes", a.class(a.courtA, 0, 6)).Status(t, http.StatusCreated).ID(t)
	s, _ := students(t, app, 1)
	codes := make(chan int, 8)
	var wg sync.WaitGroup
	for range cap(codes) {
		wg.Go(func() {
			codes <- s[0].Post(path("/api/account/classes/%d/enroll", class), map[string]any{"payments": []any{}}).Code
		})
	}
	wg.Wait()
	close(codes)
	count := map[int]int{}
	for c := range codes {
		count[c]++
	}
	assert.Equal(t, map[int]int{http.StatusCreated: 1, http.StatusConflict: 7}, count)
	var mine []enrollmentView
	s[0].Get("/api/account/classes/my-enrollments").Status(t, http.StatusOK).JSON(t, &mine)
	assert.Len(t, mine, 1)
}
