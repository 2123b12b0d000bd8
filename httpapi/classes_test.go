package httpapi_test

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
)

// academy is a club ready for classes: padel courts A and B with a class
// tariff for the class type clinic (capacity 4), a tennis court without
// one, a booking type, and two trainers.
type academy struct {
	courtA, courtB, tennis, clinic, rental int64
	t1, t2                                 int64 // the trainers' user ids
	start                                  time.Time
}

func newAcademy(t *testing.T, app *apptest.App, clock *apptest.Clock) academy {
	t.Helper()
	admin := app.AsAdmin()
	padel := admin.Post("/api/admin/court-types", map[string]any{"name": "Padel"}).Status(t, http.StatusCreated).ID(t)
	tennisType := admin.Post("/api/admin/court-types", map[string]any{"name": "Tennis"}).Status(t, http.StatusCreated).ID(t)
	a := academy{
		courtA: admin.Post("/api/admin/courts", map[string]any{"name": "A", "court_type_id": padel, "price": 60000}).Status(t, http.StatusCreated).ID(t),
		courtB: admin.Post("/api/admin/courts", map[string]any{"name": "B", "court_type_id": padel, "price": 60000}).Status(t, http.StatusCreated).ID(t),
		tennis: admin.Post("/api/admin/courts", map[string]any{"name": "T", "court_type_id": tennisType, "price": 50000}).Status(t, http.StatusCreated).ID(t),
		clinic: admin.Post("/api/admin/reservation-types", map[string]any{"name": "Clinic", "gestion": 2}).Status(t, http.StatusCreated).ID(t),
		rental: admin.Post("/api/admin/reservation-types", map[string]any{"name": "Rental"}).Status(t, http.StatusCreated).ID(t),
		t1:     app.User("t1@test.club", clubhouse.RoleTrainer).ID,
		t2:     app.User("t2@test.club", clubhouse.RoleTrainer).ID,
	}
	admin.Post("/api/admin/tariff-classes", map[string]any{"court_type_id": padel, "reservation_type_id": a.clinic,
		"single_price": 25000, "total_price": 100000, "max_capacity": 4}).Status(t, http.StatusCreated)
	bogota, err := time.LoadLocation("America/Bogota")
	require.NoError(t, err)
	now := clock.Now().In(bogota)
	a.start = time.Date(now.Year(), now.Month(), now.Day()+1, 0, 0, 0, 0, time.UTC)
	return a
}

// day is the date d days after the academy's first date.
func (a academy) day(d int) string { return a.start.AddDate(0, 0, d).Format(time.DateOnly) }

// class is the body of a class on court from day first to day last, every
// day, 18:00 to 19:30.
func (a academy) class(court int64, first, last int) map[string]any {
	return map[string]any{"title": "Padel basics", "court_id": court, "reservation_type_id": a.clinic, "user_id": a.t1,
		"start_date": a.day(first), "end_date": a.day(last), "recurrence_days": []int{1, 2, 3, 4, 5, 6, 7},
		"start_time": "18:00", "end_time": "19:30"}
}

type classView struct {
	ID             int64  `json:"id"`
	UserID         int64  `json:"user_id"`
	ReservationID  *int64 `json:"reservation_id"`
	Status         string `json:"status"`
	ClassStartTime string `json:"class_start_time"`
	PlacesLeft     int    `json:"places_left"`
	MaxCapacity    int    `json:"max_capacity"`
	CompletedAt    *string
	Sessions       []struct {
		Date          string `json:"date"`
		ReservationID *int64 `json:"reservation_id"`
	} `json:"sessions"`
}

func TestClasses_sessionsBookTheCourt(t *testing.T) {
	t.Parallel()
	clock := apptest.NewClock()
	app := apptest.New(t, apptest.WithClock(clock))
	a := newAcademy(t, app, clock)
	admin := app.AsAdmin()

	var c classView
	admin.Post("/api/admin/classes", a.class(a.courtA, 0, 13)).Status(t, http.StatusCreated).JSON(t, &c)
	require.Len(t, c.Sessions, 14, "one session a day for two weeks")
	assert.Equal(t, a.t1, c.UserID)
	assert.Equal(t, "scheduled", c.Status)
	assert.Equal(t, 4, c.MaxCapacity, "from the class tariff")
	assert.Equal(t, 4, c.PlacesLeft)
	assert.Equal(t, a.day(0)+"T18:00:00", c.ClassStartTime)
	require.NotNil(t, c.ReservationID)
	assert.Equal(t, *c.Sessions[0].ReservationID, *c.ReservationID, "reservation_id is the first session's booking")
	b := admin.Get(path("/api/admin/booking/%d", *c.Sessions[3].ReservationID)).Status(t, http.StatusOK).Object(t)
	assert.Equal(t, a.day(3)+" 18:00:00", b["checking"])
	assert.Equal(t, a.day(3)+" 19:30:00", b["checkout"])
	assert.Equal(t, "Clinic", b["reservation_type_name"])
	assert.Len(t, app.Events.Topic("booking:changed"), 1, "one message for the whole class")
	admin.Delete(path("/api/admin/booking/%d", *c.Sessions[3].ReservationID), nil).Status(t, http.StatusConflict)
	admin.Post(path("/api/admin/booking/%d/cancel", *c.Sessions[3].ReservationID), nil).Status(t, http.StatusConflict).
		Error(t, "booking held")

	// A class that hits a booked court books nothing and names the dates.
	var before []map[string]any
	admin.Get("/api/admin/booking?limit=1000").Status(t, http.StatusOK).JSON(t, &before)
	clash := a.class(a.courtA, 12, 20)
	clash["start_time"], clash["end_time"] = "19:00", "20:00"
	res := admin.Post("/api/admin/classes", clash).Status(t, http.StatusConflict).Error(t, "court occupied")
	assert.Contains(t, string(res.Body), a.day(12)+" 19:00")
	assert.Contains(t, string(res.Body), a.day(13)+" 19:00")
	assert.NotContains(t, string(res.Body), a.day(14))
	var after []map[string]any
	admin.Get("/api/admin/booking?limit=1000").Status(t, http.StatusOK).JSON(t, &after)
	assert.Len(t, after, len(before), "all sessions or none")
	admin.Post("/api/admin/classes", a.class(a.courtB, 0, 13)).Status(t, http.StatusCreated)

	// Two days later at noon, the first two sessions have started.
	bogota, err := time.LoadLocation("America/Bogota")
	require.NoError(t, err)
	noon := time.Date(a.start.Year(), a.start.Month(), a.start.Day()+2, 12, 0, 0, 0, bogota)
	clock.Advance(noon.Sub(clock.Now()))
	admin = app.AsAdmin() // a token of the new time
	var moved classView
	admin.Put(path("/api/admin/classes/%d", c.ID), map[string]any{"start_time": "08:00", "end_time": "09:00"}).
		Status(t, http.StatusOK).JSON(t, &moved)
	require.Len(t, moved.Sessions, 13, "two sessions kept, today's 08:00 has passed, eleven moved")
	assert.Equal(t, c.Sessions[0], moved.Sessions[0], "a started session stays")
	assert.Equal(t, c.Sessions[1], moved.Sessions[1])
	assert.Equal(t, a.day(3), moved.Sessions[2].Date)
	admin.Get(path("/api/admin/booking/%d", *c.Sessions[2].ReservationID)).Status(t, http.StatusNotFound)
	b = admin.Get(path("/api/admin/booking/%d", *moved.Sessions[2].ReservationID)).Status(t, http.StatusOK).Object(t)
	assert.Equal(t, a.day(3)+" 08:00:00", b["checking"])

	var cancelled classView
	admin.Patch(path("/api/admin/classes/%d/cancel", c.ID), nil).Status(t, http.StatusOK).JSON(t, &cancelled)
	assert.Equal(t, "cancelled", cancelled.Status)
	assert.NotNil(t, cancelled.Sessions[0].ReservationID, "the history stays")
	for _, s := range cancelled.Sessions[2:] {
		assert.Nil(t, s.ReservationID, "the court is free on %s", s.Date)
	}
	admin.Get(path("/api/admin/booking/%d", *moved.Sessions[2].ReservationID)).Status(t, http.StatusNotFound)
	admin.Patch(path("/api/admin/classes/%d/cancel", c.ID), nil).Status(t, http.StatusConflict)
	admin.Patch(path("/api/admin/classes/%d/complete", c.ID), nil).Status(t, http.StatusConflict)
	admin.Put(path("/api/admin/classes/%d", c.ID), map[string]any{"title": "Again"}).Status(t, http.StatusConflict)
	admin.Post("/api/admin/booking", map[string]any{"court_id": a.courtA, "reservation_type_id": a.rental,
		"checking": a.day(5) + " 08:00:00", "checkout": a.day(5) + " 09:00:00"}).Status(t, http.StatusCreated)

	var list []classView
	admin.Get("/api/admin/classes?status=scheduled").Status(t, http.StatusOK).JSON(t, &list)
	require.Len(t, list, 1)
	done := admin.Patch(path("/api/admin/classes/%d/complete", list[0].ID), nil).Status(t, http.StatusOK).Object(t)
	assert.Equal(t, "completed", done["status"])
	assert.NotNil(t, done["completed_at"])
	admin.Delete(path("/api/admin/classes/%d", list[0].ID), nil).Status(t, http.StatusNoContent)
	admin.Get(path("/api/admin/classes/%d", list[0].ID)).Status(t, http.StatusNotFound)
	admin.Get("/api/admin/classes?status=done").Status(t, http.StatusBadRequest)
}

func TestClasses_validation(t *testing.T) {
	t.Parallel()
	clock := apptest.NewClock()
	app := apptest.New(t, apptest.WithClock(clock))
	a := newAcademy(t, app, clock)
	admin := app.AsAdmin()
	client := app.User("client@test.club").ID
	bad := []struct {
		name string
		edit func(map[string]any)
		want string
	}{
		{"no title", func(b map[string]any) { delete(b, "title") }, "title"},
		{"blank title", func(b map[string]any) { b["title"] = "  " }, "title"},
		{"weekday 0", func(b map[string]any) { b["recurrence_days"] = []int{0} }, "recurrence_days"},
		{"weekday 8", func(b map[string]any) { b["recurrence_days"] = []int{1, 8} }, "recurrence_days"},
		{"a weekday twice", func(b map[string]any) { b["recurrence_days"] = []int{2, 2} }, "twice"},
		{"no weekdays", func(b map[string]any) { b["recurrence_days"] = []int{} }, "recurrence_days"},
		{"weekdays as text", func(b map[string]any) { b["recurrence_days"] = "1,3" }, "recurrence_days"},
		{"off the grid", func(b map[string]any) { b["start_time"] = "18:15" }, "start_time"},
		{"end before start", func(b map[string]any) { b["end_time"] = "17:00" }, "end_time"},
		{"bad date", func(b map[string]any) { b["start_date"] = "2026-02-30" }, "start_date"},
		{"dates reversed", func(b map[string]any) { b["end_date"] = a.day(-1) }, "end_date"},
		{"longer than a year", func(b map[string]any) { b["end_date"] = a.day(400) }, "366"},
		{"no session", func(b map[string]any) {
			b["end_date"] = a.day(0)
			b["recurrence_days"] = []int{isoWeekday(a.start)%7 + 1}
		}, "no session"},
		{"no tariff", func(b map[string]any) { b["court_id"] = a.tennis }, "class tariff"},
		{"not a class type", func(b map[string]any) { b["reservation_type_id"] = a.rental }, "gestion 2"},
		{"not a trainer", func(b map[string]any) { b["user_id"] = client }, "trainer"},
		{"no trainer", func(b map[string]any) { delete(b, "user_id") }, "user_id"},
		{"unknown court", func(b map[string]any) { b["court_id"] = 9999 }, "court"},
	}
	for _, tc := range bad {
		b := a.class(a.courtA, 0, 6)
		tc.edit(b)
		res := admin.Post("/api/admin/classes", b).Status(t, http.StatusBadRequest)
		assert.Contains(t, strings.ToLower(string(res.Body)), strings.ToLower(tc.want), tc.name)
	}
	var list []classView
	admin.Get("/api/admin/classes").Status(t, http.StatusOK).JSON(t, &list)
	assert.Empty(t, list, "no refused class left a row")
	admin.Get("/api/admin/booking").Status(t, http.StatusOK).JSON(t, &list)
	assert.Empty(t, list, "nor a booking")
}

func isoWeekday(d time.Time) int {
	if w := int(d.Weekday()); w != 0 {
		return w
	}
	return 7
}

func TestClasses_trainerArea(t *testing.T) {
	t.Parallel()
	clock := apptest.NewClock()
	app := apptest.New(t, apptest.WithClock(clock))
	a := newAcademy(t, app, clock)
	t1 := app.As(app.User("t1@test.club", clubhouse.RoleTrainer))
	t2 := app.As(app.User("t2@test.club", clubhouse.RoleTrainer))

	body := a.class(a.courtA, 0, 6)
	body["user_id"] = a.t2
	var own classView
	t1.Post("/api/trainer/classes", body).Status(t, http.StatusCreated).JSON(t, &own)
	assert.Equal(t, a.t1, own.UserID, "a trainer's class is theirs, whatever user_id says")
	other := app.AsAdmin().Post("/api/admin/classes", func() map[string]any {
		b := a.class(a.courtB, 0, 6)
		b["user_id"] = a.t2
		return b
	}()).Status(t, http.StatusCreated).ID(t)

	var list []classView
	t1.Get("/api/trainer/classes").Status(t, http.StatusOK).JSON(t, &list)
	require.Len(t, list, 1)
	assert.Equal(t, own.ID, list[0].ID)
	t1.Get(path("/api/trainer/classes?user_id=%d", a.t2)).Status(t, http.StatusOK).JSON(t, &list)
	require.Len(t, list, 1, "a filter on another trainer still shows only one's own")
	assert.Equal(t, own.ID, list[0].ID)
	t1.Get(path("/api/trainer/classes/%d", other)).Status(t, http.StatusNotFound)
	t1.Put(path("/api/trainer/classes/%d", other), map[string]any{"title": "Mine"}).Status(t, http.StatusNotFound)
	t1.Patch(path("/api/trainer/classes/%d/cancel", other), nil).Status(t, http.StatusNotFound)
	t1.Post(path("/api/trainer/classes/%d/cancel", other), nil).Status(t, http.StatusNotFound)
	t1.Patch(path("/api/trainer/classes/%d/complete", other), nil).Status(t, http.StatusNotFound)
	t1.Delete(path("/api/trainer/classes/%d", other), nil).Status(t, http.StatusNotFound)
	t2.Get(path("/api/trainer/classes/%d", other)).Status(t, http.StatusOK)

	t1.Put(path("/api/trainer/classes/%d", own.ID), map[string]any{"title": "Padel plus", "user_id": a.t2}).Status(t, http.StatusOK)
	assert.Equal(t, "Padel plus", t1.Get(path("/api/trainer/classes/%d", own.ID)).Status(t, http.StatusOK).Object(t)["title"])
	assert.EqualValues(t, a.t1, t1.Get(path("/api/trainer/classes/%d", own.ID)).Status(t, http.StatusOK).Object(t)["user_id"],
		"a trainer cannot hand a class to another")
	t1.Post(path("/api/trainer/classes/%d/cancel", own.ID), nil).Status(t, http.StatusOK)

	// A staff member who also trains sees only their own classes in the trainer area.
	both := app.As(app.User("t1@test.club", clubhouse.RoleTrainer))
	head := app.As(app.User("head@test.club", clubhouse.RoleTrainer, clubhouse.RoleAdmin))
	head.Get("/api/trainer/classes").Status(t, http.StatusOK).JSON(t, &list)
	assert.Empty(t, list)
	head.Get("/api/admin/classes").Status(t, http.StatusOK).JSON(t, &list)
	assert.Len(t, list, 2)
	both.Get("/api/admin/classes").Status(t, http.StatusForbidden)
	app.AsClient().Get("/api/trainer/classes").Status(t, http.StatusForbidden)
	app.AsBot().Get("/api/trainer/classes").Status(t, http.StatusOK).JSON(t, &list)
	assert.Len(t, list, 2, "the bot key acts for the club")
}

// TestClasses_race: classes racing for the same court and hours get it
// once; the losers book nothing.
func TestClasses_race(t *testing.T) {
	t.Parallel()
	clock := apptest.NewClock()
	app := apptest.New(t, apptest.WithClock(clock))
	a := newAcademy(t, app, clock)
	admin := app.AsAdmin()
	const racers = 8
	codes := make(chan int, racers)
	var wg sync.WaitGroup
	for i := range racers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b := a.class(a.courtA, i%2, 6)
			b["title"] = fmt.Sprintf("Racer %d", i)
			codes <- admin.Post("/api/admin/classes", b).Code
		}()
	}
	wg.Wait()
	close(codes)
	won := 0
	for code := range codes {
		switch code {
		case http.StatusCreated:
			won++
		case http.StatusConflict:
		default:
			t.Errorf("a racing class got %d", code)
		}
	}
	assert.Equal(t, 1, won, "overlapping classes: one wins")
	var list []classView
	admin.Get("/api/admin/classes").Status(t, http.StatusOK).JSON(t, &list)
	require.Len(t, list, 1)
	var bookings []map[string]any
	admin.Get("/api/admin/booking?limit=1000").Status(t, http.StatusOK).JSON(t, &bookings)
	assert.Len(t, bookings, len(list[0].Sessions), "the losers booked nothing")
}

// TestClasses_completeOnceStarted: a class is completed, by its trainer or
// by staff, once its first session has started; before, both routes answer
// 409 "class not started" and the class stays scheduled.
func TestClasses_completeOnceStarted(t *testing.T) {
	t.Parallel()
	clock := apptest.NewClock()
	app := apptest.New(t, apptest.WithClock(clock))
	a := newAcademy(t, app, clock)
	t1 := app.As(app.User("t1@test.club", clubhouse.RoleTrainer))
	own := t1.Post("/api/trainer/classes", a.class(a.courtA, 0, 6)).Status(t, http.StatusCreated).ID(t)
	staffs := app.AsAdmin().Post("/api/admin/classes", a.class(a.courtB, 0, 6)).Status(t, http.StatusCreated).ID(t)

	res := t1.Patch(path("/api/trainer/classes/%d/complete", own), nil).Status(t, http.StatusConflict).Error(t, "class not started")
	assert.Contains(t, string(res.Body), a.day(0)+" 18:00", "the refusal says when it starts")
	app.AsAdmin().Patch(path("/api/admin/classes/%d/complete", staffs), nil).Status(t, http.StatusConflict).Error(t, "class not started")
	assert.Equal(t, "scheduled", t1.Get(path("/api/trainer/classes/%d", own)).Status(t, http.StatusOK).Object(t)["status"])

	bogota, err := time.LoadLocation("America/Bogota")
	require.NoError(t, err)
	first := time.Date(a.start.Year(), a.start.Month(), a.start.Day(), 18, 0, 0, 0, bogota)
	clock.Advance(first.Sub(clock.Now()))
	t1 = app.As(app.User("t1@test.club", clubhouse.RoleTrainer)) // tokens of the new time
	done := t1.Patch(path("/api/trainer/classes/%d/complete", own), nil).Status(t, http.StatusOK).Object(t)
	assert.Equal(t, "completed", done["status"])
	done = app.AsAdmin().Patch(path("/api/admin/classes/%d/complete", staffs), nil).Status(t, http.StatusOK).Object(t)
	assert.Equal(t, "completed", done["status"])
}

func TestTrainerBookings(t *testing.T) {
	t.Parallel()
	clock := apptest.NewClock()
	app := apptest.New(t, apptest.WithClock(clock))
	a := newAcademy(t, app, clock)
	t1 := app.As(app.User("t1@test.club", clubhouse.RoleTrainer))
	t2 := app.As(app.User("t2@test.club", clubhouse.RoleTrainer))
	slot := func(typeID int64, day int) map[string]any {
		return map[string]any{"court_id": a.courtB, "reservation_type_id": typeID,
			"checking": a.day(day) + " 10:00:00", "checkout": a.day(day) + " 11:00:00"}
	}

	b := t1.Post("/api/trainer/bookings", slot(a.clinic, 1)).Status(t, http.StatusCreated).Object(t)
	assert.EqualValues(t, a.t1, b["operator_id"])
	t1.Post("/api/trainer/bookings", slot(a.rental, 2)).Status(t, http.StatusBadRequest).Error(t, "invalid reference")
	t2.Post("/api/trainer/bookings", slot(a.clinic, 1)).Status(t, http.StatusConflict).Error(t, "court occupied")
	t1.Post("/api/trainer/classes", a.class(a.courtA, 3, 4)).Status(t, http.StatusCreated)

	var list []map[string]any
	t1.Get("/api/trainer/bookings").Status(t, http.StatusOK).JSON(t, &list)
	assert.Len(t, list, 3, "the booking and the two sessions of the trainer's class")
	t2.Get("/api/trainer/bookings").Status(t, http.StatusOK).JSON(t, &list)
	assert.Empty(t, list, "another trainer's bookings are not theirs")
	p := t1.Get(path("/api/trainer/bookings/calculate-price?date=%s&checking=10:00&checkout=11:30&court_id=%d", a.day(5), a.courtB)).
		Status(t, http.StatusOK).Object(t)
	assert.EqualValues(t, 90000, p["final_price"])
	app.AsClient().Get("/api/trainer/bookings").Status(t, http.StatusForbidden)
	app.AsBot().Post("/api/trainer/bookings", slot(a.clinic, 6)).Status(t, http.StatusForbidden)
}

// TestClasses_moveOntoABookedCourt: a schedule change that hits a booked
// court moves nothing and names the taken dates.
func TestClasses_moveOntoABookedCourt(t *testing.T) {
	t.Parallel()
	clock := apptest.NewClock()
	app := apptest.New(t, apptest.WithClock(clock))
	a := newAcademy(t, app, clock)
	admin := app.AsAdmin()
	var c classView
	admin.Post("/api/admin/classes", a.class(a.courtA, 0, 6)).Status(t, http.StatusCreated).JSON(t, &c)
	admin.Post("/api/admin/booking", map[string]any{"court_id": a.courtA, "reservation_type_id": a.rental,
		"checking": a.day(4) + " 08:00:00", "checkout": a.day(4) + " 09:00:00"}).Status(t, http.StatusCreated)

	res := admin.Put(path("/api/admin/classes/%d", c.ID), map[string]any{"start_time": "08:00", "end_time": "09:30"}).
		Status(t, http.StatusConflict).Error(t, "court occupied")
	assert.Contains(t, string(res.Body), a.day(4)+" 08:00")
	var same classView
	admin.Get(path("/api/admin/classes/%d", c.ID)).Status(t, http.StatusOK).JSON(t, &same)
	assert.Equal(t, c.Sessions, same.Sessions, "the sessions and their bookings stay")
	b := admin.Get(path("/api/admin/booking/%d", *same.Sessions[4].ReservationID)).Status(t, http.StatusOK).Object(t)
	assert.Equal(t, a.day(4)+" 18:00:00", b["checking"])

	admin.Put(path("/api/admin/classes/%d", c.ID), map[string]any{"court_id": a.courtB}).Status(t, http.StatusOK).JSON(t, &same)
	b = admin.Get(path("/api/admin/booking/%d", *same.Sessions[4].ReservationID)).Status(t, http.StatusOK).Object(t)
	assert.EqualValues(t, a.courtB, b["court_id"], "a change of court moves the sessions")
}
