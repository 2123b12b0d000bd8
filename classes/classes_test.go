package classes_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/classes"
	"github.com/clubhouse-go/clubhouse/internal/dbtest"
	"github.com/clubhouse-go/clubhouse/pricing"
)

// TestClasses_Complete: a class is completed once its first session has
// started (its trainer or staff), as an event is; before, it is refused
// with ErrClassNotStarted and changes nothing, and it may still be
// cancelled. Each documented outcome, in order, at the time the row gives.
func TestClasses_Complete(t *testing.T) {
	t.Parallel()
	db := dbtest.New(t)
	ctx := t.Context()
	get := func(dest any, query string, args ...any) {
		t.Helper()
		require.NoError(t, db.GetContext(ctx, dest, query, args...))
	}
	var padel, court, clinic, coach, other int64
	get(&padel, `INSERT INTO court_types (name) VALUES ('Padel') RETURNING id`)
	get(&court, `INSERT INTO courts (court_type_id, name, price) VALUES ($1, 'Court 1', 60000) RETURNING id`, padel)
	get(&clinic, `INSERT INTO reservation_types (name, gestion) VALUES ('Clinic', $1) RETURNING id`, booking.GestionClass)
	get(&coach, `INSERT INTO users (local_id, email, trainer) VALUES ('u-coach', 'coach@test.club', true) RETURNING id`)
	get(&other, `INSERT INTO users (local_id, email, trainer) VALUES ('u-other', 'other@test.club', true) RETURNING id`)

	now := at(t, "2026-03-02 15:00")
	club := booking.New(db.DB, booking.Options{Zone: time.UTC, Now: func() time.Time { return now }})
	academy := classes.New(db.DB, classes.Options{Zone: time.UTC, Now: func() time.Time { return now }, Bookings: club.Bookings})
	desk := clubhouse.Staff("desk")
	_, err := academy.Tariffs.Create(ctx, desk, classes.TariffInput{CourtTypeID: clubhouse.Some(padel), ReservationTypeID: clubhouse.Some(clinic),
		SinglePrice: money("25000"), TotalPrice: money("100000"), MaxCapacity: clubhouse.Some(4)})
	require.NoError(t, err)
	// newClass is a class of the coach on Tuesdays and Thursdays from
	// 2026-03-03 to 2026-03-12, at the hours given; the first session
	// starts on 2026-03-03 at start.
	newClass := func(start, end int) classes.Class {
		c, err := academy.Classes.Create(ctx, desk, classes.ClassInput{UserID: clubhouse.Some(coach), CourtID: clubhouse.Some(court),
			ReservationTypeID: clubhouse.Some(clinic), Title: clubhouse.Some("Basics"), StartDate: clubhouse.Some(at(t, "2026-03-03 00:00")),
			EndDate: clubhouse.Some(at(t, "2026-03-12 00:00")), Days: clubhouse.Some([]int{2, 4}),
			StartTime: clubhouse.Some(pricing.TimeOfDay(start * 60)), EndTime: clubhouse.Some(pricing.TimeOfDay(end * 60))})
		require.NoError(t, err)
		return c
	}
	class, spare := newClass(10, 11), newClass(12, 13)
	asCoach := clubhouse.Actor{UID: "u-coach", UserID: coach, Roles: map[clubhouse.Role]bool{clubhouse.RoleTrainer: true}}
	asOther := clubhouse.Actor{UID: "u-other", UserID: other, Roles: map[clubhouse.Role]bool{clubhouse.RoleTrainer: true}}

	for _, tc := range []struct {
		name string
		at   string
		by   clubhouse.Actor
		id   int64
		want error
	}{
		{"the day before", "2026-03-02 15:00", asCoach, class.ID, classes.ErrClassNotStarted},
		{"by staff, a minute before the first session", "2026-03-03 09:59", desk, class.ID, classes.ErrClassNotStarted},
		{"another trainer's class", "2026-03-03 10:00", asOther, class.ID, classes.ErrClassNotFound},
		{"as the first session starts", "2026-03-03 10:00", asCoach, class.ID, nil},
		{"completed already", "2026-03-03 10:30", asCoach, class.ID, classes.ErrClassEnded},
	} {
		t.Run(tc.name, func(t *testing.T) {
			now = at(t, tc.at)
			before, err := academy.Classes.Get(ctx, desk, tc.id)
			require.NoError(t, err)
			done, err := academy.Classes.Complete(ctx, tc.by, tc.id)
			require.ErrorIs(t, err, tc.want)
			after, gerr := academy.Classes.Get(ctx, desk, tc.id)
			require.NoError(t, gerr)
			if tc.want != nil {
				assert.Equal(t, before.Status, after.Status, "a refusal changes nothing")
				assert.Equal(t, before.Sessions, after.Sessions)
				return
			}
			assert.Equal(t, classes.StatusCompleted, done.Status)
			assert.NotNil(t, done.CompletedAt)
			require.NotNil(t, done.Sessions[0].ReservationID, "the started session stays")
			for _, s := range done.Sessions[1:] {
				assert.Nil(t, s.ReservationID, "the court is free on %s", s.Date.Format(time.DateOnly))
			}
		})
	}

	now = at(t, "2026-03-03 11:00")
	_, err = academy.Classes.Complete(ctx, desk, spare.ID)
	assert.Contains(t, clubhouse.AsError(err).Message, "starts at 2026-03-03 12:00", "the refusal says when the class starts")
	assert.Equal(t, clubhouse.Conflict, clubhouse.KindOf(err))
	cancelled, err := academy.Classes.Cancel(ctx, desk, spare.ID)
	require.NoError(t, err, "a class that has not started is cancelled instead")
	assert.Equal(t, classes.StatusCancelled, cancelled.Status)
}
