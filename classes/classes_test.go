package classes_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/classes"
	"github.com/clubhouse-go/clubhouse/pricing"
)

// The tests of Classes: one table per exported method, one row per
// outcome its doc comment lists. The rows of a table run in order on one
// academy, and a row may rely on what the rows before it did.

func classIDs(cs []classes.Class) []int64 {
	ids := []int64{}
	for _, c := range cs {
		ids = append(ids, c.ID)
	}
	return ids
}

// hours sets the class of in from hour to an hour later.
func hours(in *classes.ClassInput, hour int) {
	in.StartTime, in.EndTime = clubhouse.Some(pricing.TimeOfDay(hour*60)), clubhouse.Some(pricing.TimeOfDay((hour+1)*60))
}

func TestClasses_List(t *testing.T) {
	t.Parallel()
	a := newAcademy(t)
	ctx := t.Context()
	own := a.newClass(t, a.input(a.coach.UserID, a.courtA, 10), nil)
	others := a.newClass(t, a.input(a.other.UserID, a.courtB, 10), nil)
	cancelled := a.newClass(t, a.input(a.coach.UserID, a.courtA, 12), nil)
	heads := a.newClass(t, a.input(a.head.UserID, a.courtB, 12), nil)
	_, err := a.Classes.Cancel(ctx, a.desk, cancelled.ID)
	require.NoError(t, err)
	ana := a.client(t, "Ana", "Ruiz")

	for _, tc := range []struct {
		name string
		by   clubhouse.Actor
		f    classes.ClassFilter
		want error
		ids  []int64
	}{
		{"staff: every class, by start", a.desk, classes.ClassFilter{}, nil, []int64{own.ID, others.ID, cancelled.ID, heads.ID}},
		{"staff, by status", a.desk, classes.ClassFilter{Status: classes.StatusCancelled}, nil, []int64{cancelled.ID}},
		{"staff, by trainer", a.desk, classes.ClassFilter{TrainerID: a.other.UserID}, nil, []int64{others.ID}},
		{"staff, by type", a.desk, classes.ClassFilter{ReservationTypeID: a.camp}, nil, []int64{}},
		{"staff, running after they end", a.desk, classes.ClassFilter{From: date("2026-03-13")}, nil, []int64{}},
		{"staff, running before they start", a.desk, classes.ClassFilter{To: date("2026-03-02")}, nil, []int64{}},
		{"a trainer: their own", a.coach, classes.ClassFilter{}, nil, []int64{own.ID, cancelled.ID}},
		{"a trainer asking for another's: their own still", a.coach, classes.ClassFilter{TrainerID: a.other.UserID}, nil, []int64{own.ID, cancelled.ID}},
		{"staff in the trainer area: their own", a.head, classes.ClassFilter{}, nil, []int64{heads.ID}},
		{"a client", ana.by, classes.ClassFilter{}, clubhouse.ErrForbidden, nil},
		{"anonymous", clubhouse.Actor{}, classes.ClassFilter{}, clubhouse.ErrForbidden, nil},
		{"an unknown status", a.desk, classes.ClassFilter{Status: "done"}, clubhouse.ErrInvalidQuery, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := a.Classes.List(ctx, tc.by, tc.f)
			require.ErrorIs(t, err, tc.want)
			if tc.want == nil {
				assert.Equal(t, tc.ids, classIDs(got))
			}
		})
	}
}

func TestClasses_Get(t *testing.T) {
	t.Parallel()
	a := newAcademy(t)
	ctx := t.Context()
	own := a.newClass(t, a.input(a.coach.UserID, a.courtA, 10), nil)
	others := a.newClass(t, a.input(a.other.UserID, a.courtB, 10), nil)
	ana := a.client(t, "Ana", "Ruiz")

	for _, tc := range []struct {
		name string
		by   clubhouse.Actor
		id   int64
		want error
	}{
		{"staff, any class", a.desk, others.ID, nil},
		{"its trainer", a.coach, own.ID, nil},
		{"another trainer's class", a.coach, others.ID, classes.ErrClassNotFound},
		{"staff in the trainer area, another's class", a.head, own.ID, classes.ErrClassNotFound},
		{"a client", ana.by, own.ID, clubhouse.ErrForbidden},
		{"no such class", a.desk, 9999, classes.ErrClassNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := a.Classes.Get(ctx, tc.by, tc.id)
			require.ErrorIs(t, err, tc.want)
			if tc.want == nil {
				assert.Equal(t, tc.id, got.ID)
				assert.Len(t, got.Sessions, 4)
				assert.Len(t, got.Attendance, 4, "a row of marks per session")
			}
		})
	}
}

func TestClasses_Create(t *testing.T) {
	t.Parallel()
	a := newAcademy(t)
	ctx := t.Context()
	ana := a.client(t, "Ana", "Ruiz")
	_, err := a.club.Rules.Change(ctx, a.desk, booking.RulesChange{AdvanceDays: clubhouse.Some(60)})
	require.NoError(t, err)
	// far is a class starting more than the 60 days ahead the club's
	// rules allow.
	far := func(in *classes.ClassInput) {
		in.StartDate, in.EndDate = clubhouse.Some(date("2026-06-02")), clubhouse.Some(date("2026-06-11"))
	}

	for _, tc := range []struct {
		name    string
		by      clubhouse.Actor
		edit    func(*classes.ClassInput)
		want    error
		trainer int64 // the trainer of the class made
	}{
		{"by staff, for a trainer", a.desk, nil, nil, a.coach.UserID},
		{"by a trainer: theirs, whatever user_id says", a.coach, func(in *classes.ClassInput) {
			in.UserID = clubhouse.Some(a.other.UserID)
			hours(in, 12)
		}, nil, a.coach.UserID},
		{"by staff in the trainer area: theirs", a.head, func(in *classes.ClassInput) { hours(in, 14) }, nil, a.head.UserID},
		{"by a client", ana.by, func(in *classes.ClassInput) { hours(in, 16) }, clubhouse.ErrForbidden, 0},
		{"anonymous", clubhouse.Actor{}, func(in *classes.ClassInput) { hours(in, 16) }, clubhouse.ErrForbidden, 0},
		{"a missing field", a.desk, func(in *classes.ClassInput) { in.Title = clubhouse.Optional[string]{} }, clubhouse.ErrIncomplete, 0},
		{"a null field", a.desk, func(in *classes.ClassInput) { in.Days = clubhouse.Optional[[]int]{Set: true} }, clubhouse.ErrIncomplete, 0},
		{"a blank title", a.desk, func(in *classes.ClassInput) { in.Title = clubhouse.Some("  ") }, clubhouse.ErrInvalidData, 0},
		{"a description over MaxDescription", a.desk, func(in *classes.ClassInput) {
			in.Description = clubhouse.Some(strings.Repeat("d", classes.MaxDescription+1))
		}, clubhouse.ErrInvalidData, 0},
		{"weekday 8", a.desk, func(in *classes.ClassInput) { in.Days = clubhouse.Some([]int{1, 8}) }, clubhouse.ErrInvalidData, 0},
		{"a weekday twice", a.desk, func(in *classes.ClassInput) { in.Days = clubhouse.Some([]int{2, 2}) }, clubhouse.ErrInvalidData, 0},
		{"no weekdays", a.desk, func(in *classes.ClassInput) { in.Days = clubhouse.Some([]int{}) }, clubhouse.ErrInvalidData, 0},
		{"off the grid", a.desk, func(in *classes.ClassInput) { in.StartTime = clubhouse.Some(pricing.TimeOfDay(16*60 + 15)) }, clubhouse.ErrInvalidTime, 0},
		{"ending before it starts", a.desk, func(in *classes.ClassInput) { in.EndTime = clubhouse.Some(pricing.TimeOfDay(9 * 60)) }, clubhouse.ErrInvalidTime, 0},
		{"dates reversed", a.desk, func(in *classes.ClassInput) { in.EndDate = clubhouse.Some(date("2026-03-01")) }, clubhouse.ErrInvalidDate, 0},
		{"longer than a year", a.desk, func(in *classes.ClassInput) { in.EndDate = clubhouse.Some(date("2027-03-04")) }, clubhouse.ErrInvalidDate, 0},
		{"no session", a.desk, func(in *classes.ClassInput) {
			in.EndDate = clubhouse.Some(date("2026-03-04"))
			in.Days = clubhouse.Some([]int{5})
		}, clubhouse.ErrInvalidDate, 0},
		{"an id below 1", a.desk, func(in *classes.ClassInput) { in.CourtID = clubhouse.Some[int64](0) }, clubhouse.ErrInvalidReference, 0},
		{"a user who is not a trainer", a.desk, func(in *classes.ClassInput) { in.UserID = clubhouse.Some(ana.by.UserID) }, classes.ErrNotTrainer, 0},
		{"no such trainer", a.desk, func(in *classes.ClassInput) { in.UserID = clubhouse.Some[int64](9999) }, classes.ErrNotTrainer, 0},
		{"no such court", a.desk, func(in *classes.ClassInput) { in.CourtID = clubhouse.Some[int64](9999) }, clubhouse.ErrInvalidReference, 0},
		{"no such reservation type", a.desk, func(in *classes.ClassInput) { in.ReservationTypeID = clubhouse.Some[int64](9999) },
			clubhouse.ErrInvalidReference, 0},
		{"not a class type", a.desk, func(in *classes.ClassInput) { in.ReservationTypeID = clubhouse.Some(a.rental) }, classes.ErrNotClassType, 0},
		{"no class tariff for the court's type", a.desk, func(in *classes.ClassInput) { in.CourtID = clubhouse.Some(a.tennis) }, classes.ErrNoTariff, 0},
		{"the court taken", a.desk, nil, booking.ErrCourtTaken, 0},
		{"against a rule of the club", a.desk, func(in *classes.ClassInput) { far(in) }, booking.ErrRuleTooFarAhead, 0},
		{"a trainer overriding the rules", a.coach, func(in *classes.ClassInput) { far(in); in.OverrideRules = true }, booking.ErrOverrideForStaff, 0},
		{"staff overriding the rules", a.desk, func(in *classes.ClassInput) { far(in); in.OverrideRules = true }, nil, a.coach.UserID},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := a.input(a.coach.UserID, a.courtA, 10)
			if tc.edit != nil {
				tc.edit(&in)
			}
			c, err := a.Classes.Create(ctx, tc.by, in)
			require.ErrorIs(t, err, tc.want)
			if tc.want != nil {
				return
			}
			assert.Equal(t, tc.trainer, c.UserID)
			assert.Equal(t, classes.StatusScheduled, c.Status)
			assert.Equal(t, "25000", c.SinglePrice.String(), "the price of the class tariff")
			assert.Equal(t, 4, c.MaxCapacity, "its capacity")
			assert.Equal(t, 4, c.PlacesLeft())
			require.Len(t, c.Sessions, 4)
			assert.Len(t, held(c), 4, "every session books the court")
			if tc.by.UserID != 0 {
				require.NotNil(t, c.CreatedBy)
				assert.Equal(t, tc.by.UserID, *c.CreatedBy)
			}
		})
	}

	t.Run("the refusals name what they refuse", func(t *testing.T) {
		in := a.input(a.coach.UserID, a.courtA, 10)
		in.CourtID = clubhouse.Some[int64](9999)
		_, err := a.Classes.Create(ctx, a.desk, in)
		assert.Contains(t, clubhouse.AsError(err).Message, "court_id", "an unknown court is not a missing tariff")
		in = a.input(a.coach.UserID, a.courtA, 10)
		in.StartDate, in.EndDate = clubhouse.Some(date("2026-03-03")), clubhouse.Some(date("2026-03-10"))
		_, err = a.Classes.Create(ctx, a.desk, in)
		assert.Contains(t, clubhouse.AsError(err).Message, "2026-03-03 10:00", "the taken dates")
		assert.Contains(t, clubhouse.AsError(err).Message, "2026-03-10 10:00")
	})
	var n int
	a.get(t, &n, `SELECT count(*) FROM training_classes`)
	assert.Equal(t, 4, n, "no refused class left a row")
	a.get(t, &n, `SELECT count(*) FROM reservations`)
	assert.Equal(t, 16, n, "nor a booking")
}

func TestClasses_Update(t *testing.T) {
	t.Parallel()
	a := newAcademy(t)
	ctx := t.Context()
	c := a.newClass(t, a.input(a.coach.UserID, a.courtA, 10), nil)
	others := a.newClass(t, a.input(a.other.UserID, a.courtB, 10), nil)
	heads := a.newClass(t, a.input(a.head.UserID, a.courtB, 12), nil)
	handed := a.newClass(t, a.input(a.coach.UserID, a.courtB, 14), nil)
	ended := a.newClass(t, a.input(a.coach.UserID, a.courtA, 12), nil)
	_, err := a.Classes.Cancel(ctx, a.desk, ended.ID)
	require.NoError(t, err)
	// crowded holds three places of four; small's two places are taken
	// and two clients wait.
	crowded := a.newClass(t, a.input(a.coach.UserID, a.courtA, 16), nil)
	small := a.newClass(t, a.input(a.coach.UserID, a.courtB, 16), func(in *classes.ClassInput) { in.ReservationTypeID = clubhouse.Some(a.camp) })
	ana := a.client(t, "Ana", "Ruiz")
	var waiting []classes.Enrollment
	for i, s := range []student{ana, a.client(t, "Bob", "Paz"), a.client(t, "Cara", "Gil"), a.client(t, "Dan", "Mora")} {
		if i < 3 {
			a.enroll(t, s, crowded.ID)
		}
		if e := a.enroll(t, s, small.ID); e.Status == classes.EnrollmentWaitlisted {
			waiting = append(waiting, e)
		}
	}
	require.Len(t, waiting, 2)
	_, err = a.club.Bookings.Create(ctx, a.desk, booking.BookingInput{CourtID: clubhouse.Some(a.courtA), ReservationTypeID: clubhouse.Some(a.rental),
		Checking: clubhouse.Some(at(t, "2026-03-05 08:00")), Checkout: clubhouse.Some(at(t, "2026-03-05 09:00"))})
	require.NoError(t, err)
	_, err = a.Tariffs.Update(ctx, a.desk, a.clinicTariff, classes.TariffInput{SinglePrice: money("30000")})
	require.NoError(t, err)
	title := func(s string) classes.ClassInput { return classes.ClassInput{Title: clubhouse.Some(s)} }
	a.events.Take()

	for _, tc := range []struct {
		name  string
		at    string // the time of the change; "": as the row before
		by    clubhouse.Actor
		id    int64
		in    classes.ClassInput
		want  error
		check func(t *testing.T, before, after classes.Class)
	}{
		{"staff: the fields set", "", a.desk, c.ID, title("Basics plus"), nil, func(t *testing.T, before, after classes.Class) {
			assert.Equal(t, "Basics plus", after.Title)
			assert.Equal(t, before.Sessions, after.Sessions, "no change of schedule moves nothing")
			assert.Equal(t, "25000", after.SinglePrice.String(), "nor reprices the class")
		}},
		{"its trainer", "", a.coach, c.ID, classes.ClassInput{Description: clubhouse.Some("For beginners")}, nil,
			func(t *testing.T, _, after classes.Class) {
				require.NotNil(t, after.Description)
				assert.Equal(t, "For beginners", *after.Description)
			}},
		{"its trainer cannot hand it over", "", a.coach, c.ID, classes.ClassInput{UserID: clubhouse.Some(a.other.UserID)}, nil,
			func(t *testing.T, _, after classes.Class) { assert.Equal(t, a.coach.UserID, after.UserID) }},
		{"staff hand it to another trainer, at its price", "", a.desk, handed.ID, classes.ClassInput{UserID: clubhouse.Some(a.other.UserID)}, nil,
			func(t *testing.T, before, after classes.Class) {
				assert.Equal(t, a.other.UserID, after.UserID)
				assert.Equal(t, "25000", after.SinglePrice.String(), "a new trainer does not reprice the class")
				assert.Equal(t, before.Sessions, after.Sessions)
			}},
		{"to a user who is not a trainer", "", a.desk, c.ID, classes.ClassInput{UserID: clubhouse.Some(ana.by.UserID)}, classes.ErrNotTrainer, nil},
		{"onto a booked court", "", a.desk, c.ID, func() classes.ClassInput {
			var in classes.ClassInput
			hours(&in, 8)
			return in
		}(), booking.ErrCourtTaken, nil},
		{"to a court whose type has no class tariff", "", a.desk, c.ID, classes.ClassInput{CourtID: clubhouse.Some(a.tennis)}, classes.ErrNoTariff, nil},
		{"to a type not of classes", "", a.desk, c.ID, classes.ClassInput{ReservationTypeID: clubhouse.Some(a.rental)}, classes.ErrNotClassType, nil},
		{"a blank title", "", a.desk, c.ID, title(" "), clubhouse.ErrInvalidData, nil},
		{"a null field", "", a.desk, c.ID, classes.ClassInput{Title: clubhouse.Optional[string]{Set: true}}, clubhouse.ErrIncomplete, nil},
		{"a bad schedule", "", a.desk, c.ID, classes.ClassInput{EndTime: clubhouse.Some(pricing.TimeOfDay(9 * 60))}, clubhouse.ErrInvalidTime, nil},
		{"another trainer's class", "", a.coach, others.ID, title("Mine"), classes.ErrClassNotFound, nil},
		{"staff in the trainer area, another's class", "", a.head, c.ID, title("Mine"), classes.ErrClassNotFound, nil},
		{"staff in the trainer area, their own", "", a.head, heads.ID, title("Head's"), nil,
			func(t *testing.T, _, after classes.Class) { assert.Equal(t, "Head's", after.Title) }},
		{"a client", "", ana.by, c.ID, title("Mine"), clubhouse.ErrForbidden, nil},
		{"no such class", "", a.desk, 9999, title("Mine"), classes.ErrClassNotFound, nil},
		{"an ended class", "", a.desk, ended.ID, title("Again"), classes.ErrClassEnded, nil},
		{"to a tariff with fewer places than it holds", "", a.desk, crowded.ID, classes.ClassInput{ReservationTypeID: clubhouse.Some(a.camp)},
			classes.ErrClassFull, nil},
		{"to a tariff with more places: those waiting take them, in order", "", a.desk, small.ID,
			classes.ClassInput{ReservationTypeID: clubhouse.Some(a.clinic)}, nil, func(t *testing.T, _, after classes.Class) {
				assert.Equal(t, 4, after.MaxCapacity)
				assert.Equal(t, "30000", after.SinglePrice.String(), "a new type takes the price of its tariff")
				assert.Equal(t, 4, after.EnrolledCount)
				for _, w := range waiting {
					assert.Equal(t, classes.EnrollmentPending, a.enrollment(t, w.ID).Status, "promoted")
				}
				var promoted []string
				for _, m := range a.events.Take() {
					if m.Topic == classes.TopicPromoted {
						promoted = append(promoted, m.Data)
					}
				}
				assert.Len(t, promoted, 2, "each promoted client is told")
			}},
		{"a schedule change once sessions have started: they stay, the others move", "2026-03-05 12:00", a.desk, c.ID,
			func() classes.ClassInput {
				var in classes.ClassInput
				hours(&in, 18)
				return in
			}(), nil, func(t *testing.T, before, after classes.Class) {
				require.Len(t, after.Sessions, 4)
				assert.Equal(t, before.Sessions[:2], after.Sessions[:2], "the started sessions keep their bookings")
				var n int
				a.get(t, &n, `SELECT count(*) FROM reservations WHERE id = ANY($1)`, held(before)[2:])
				assert.Zero(t, n, "the bookings of the moved sessions are freed")
				b, err := a.club.Bookings.Get(ctx, a.desk, *after.Sessions[2].ReservationID)
				require.NoError(t, err)
				assert.Equal(t, at(t, "2026-03-10 18:00"), b.Checking)
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.at != "" {
				a.clock.Set(t, tc.at)
			}
			before := a.classOrZero(t, tc.id)
			got, err := a.Classes.Update(ctx, tc.by, tc.id, tc.in)
			require.ErrorIs(t, err, tc.want)
			after := a.classOrZero(t, tc.id)
			if tc.want != nil {
				assert.Equal(t, before, after, "a refused change changes nothing")
				return
			}
			assert.Equal(t, after, got, "the class as stored")
			if tc.check != nil {
				tc.check(t, before, after)
			}
		})
	}
}

// classOrZero reads the class with id as staff see it, or the zero Class
// when there is none.
func (a *academy) classOrZero(tb testing.TB, id int64) classes.Class {
	tb.Helper()
	c, err := a.Classes.Get(context.Background(), a.desk, id)
	if err != nil {
		require.ErrorIs(tb, err, classes.ErrClassNotFound)
	}
	return c
}

func TestClasses_Cancel(t *testing.T) {
	t.Parallel()
	a := newAcademy(t)
	ctx := t.Context()
	c := a.newClass(t, a.input(a.coach.UserID, a.courtA, 10), nil)
	others := a.newClass(t, a.input(a.other.UserID, a.courtB, 10), nil)
	heads := a.newClass(t, a.input(a.head.UserID, a.courtB, 12), nil)
	started := a.begun(t, a.coach.UserID, a.courtA, 14)
	completed := a.begun(t, a.coach.UserID, a.courtB, 16)
	_, err := a.Classes.Complete(ctx, a.desk, completed.ID)
	require.NoError(t, err)
	ana := a.client(t, "Ana", "Ruiz")
	a.enroll(t, ana, c.ID)

	for _, tc := range []struct {
		name  string
		by    clubhouse.Actor
		id    int64
		want  error
		check func(t *testing.T, before, after classes.Class)
	}{
		{"a client", ana.by, c.ID, clubhouse.ErrForbidden, nil},
		{"another trainer's class", a.coach, others.ID, classes.ErrClassNotFound, nil},
		{"staff in the trainer area, another's class", a.head, c.ID, classes.ErrClassNotFound, nil},
		{"no such class", a.desk, 9999, classes.ErrClassNotFound, nil},
		{"its trainer: the court is free, the students told", a.coach, c.ID, nil, func(t *testing.T, before, after classes.Class) {
			assert.Empty(t, held(after), "no session had started")
			var n int
			a.get(t, &n, `SELECT count(*) FROM reservations WHERE id = ANY($1)`, held(before))
			assert.Zero(t, n)
			var told []clubhouse.Audience
			for _, m := range a.events.Take() {
				if m.Topic == classes.TopicClassCancelled {
					told = append(told, m.Audience())
				}
			}
			assert.Contains(t, told, clubhouse.Audience{Users: []int64{ana.by.UserID}})
			e, err := a.Enrollments.List(ctx, a.desk, classes.EnrollmentFilter{ClassID: c.ID})
			require.NoError(t, err)
			assert.Equal(t, classes.EnrollmentPending, e[0].Status, "the enrollments stay")
		}},
		{"cancelled already", a.desk, c.ID, classes.ErrClassEnded, nil},
		{"completed", a.desk, completed.ID, classes.ErrClassEnded, nil},
		{"staff in the trainer area, their own", a.head, heads.ID, nil, nil},
		{"begun: the started sessions keep the court", a.desk, started.ID, nil, func(t *testing.T, before, after classes.Class) {
			assert.Equal(t, held(before)[:2], held(after), "the sessions of 02-24 and 02-26 stay as history")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := a.classOrZero(t, tc.id)
			got, err := a.Classes.Cancel(ctx, tc.by, tc.id)
			require.ErrorIs(t, err, tc.want)
			after := a.classOrZero(t, tc.id)
			if tc.want != nil {
				assert.Equal(t, before, after, "a refusal changes nothing")
				return
			}
			assert.Equal(t, after, got)
			assert.Equal(t, classes.StatusCancelled, got.Status)
			assert.NotNil(t, got.CancelledAt)
			if tc.check != nil {
				tc.check(t, before, after)
			}
		})
	}
}

// TestClasses_Complete: a class is completed once its first session has
// started (by its trainer or staff), as an event is; before, it is refused
// with ErrClassNotStarted and changes nothing, and it may still be
// cancelled. Each documented outcome, in order, at the time the row gives.
func TestClasses_Complete(t *testing.T) {
	t.Parallel()
	a := newAcademy(t)
	ctx := t.Context()
	class := a.newClass(t, a.input(a.coach.UserID, a.courtA, 10), nil)
	spare := a.newClass(t, a.input(a.coach.UserID, a.courtA, 12), nil)
	cancelled := a.newClass(t, a.input(a.coach.UserID, a.courtB, 10), nil)
	_, err := a.Classes.Cancel(ctx, a.desk, cancelled.ID)
	require.NoError(t, err)
	heads := a.begun(t, a.head.UserID, a.courtB, 14)
	ana := a.client(t, "Ana", "Ruiz")

	for _, tc := range []struct {
		name string
		at   string
		by   clubhouse.Actor
		id   int64
		want error
	}{
		{"the day before", "2026-03-02 15:00", a.coach, class.ID, classes.ErrClassNotStarted},
		{"by staff, a minute before the first session", "2026-03-03 09:59", a.desk, class.ID, classes.ErrClassNotStarted},
		{"a client", "2026-03-03 10:00", ana.by, class.ID, clubhouse.ErrForbidden},
		{"another trainer's class", "2026-03-03 10:00", a.other, class.ID, classes.ErrClassNotFound},
		{"staff in the trainer area, another's class", "2026-03-03 10:00", a.head, class.ID, classes.ErrClassNotFound},
		{"no such class", "2026-03-03 10:00", a.desk, 9999, classes.ErrClassNotFound},
		{"a cancelled class", "2026-03-03 10:00", a.desk, cancelled.ID, classes.ErrClassEnded},
		{"as the first session starts", "2026-03-03 10:00", a.coach, class.ID, nil},
		{"completed already", "2026-03-03 10:30", a.coach, class.ID, classes.ErrClassEnded},
		{"staff in the trainer area, their own", "2026-03-03 10:30", a.head, heads.ID, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a.clock.Set(t, tc.at)
			before := a.classOrZero(t, tc.id)
			done, err := a.Classes.Complete(ctx, tc.by, tc.id)
			require.ErrorIs(t, err, tc.want)
			after := a.classOrZero(t, tc.id)
			if tc.want != nil {
				assert.Equal(t, before, after, "a refusal changes nothing")
				return
			}
			assert.Equal(t, classes.StatusCompleted, done.Status)
			assert.NotNil(t, done.CompletedAt)
			started := 0
			for _, s := range before.Sessions {
				if !s.Date.Add(time.Duration(before.StartTime) * time.Minute).After(a.clock.Now()) {
					started++
				}
			}
			require.Positive(t, started)
			assert.Equal(t, held(before)[:started], held(done), "the started sessions keep the court, the others free it")
		})
	}

	a.clock.Set(t, "2026-03-03 11:00")
	_, err = a.Classes.Complete(ctx, a.desk, spare.ID)
	assert.Contains(t, clubhouse.AsError(err).Message, "starts at 2026-03-03 12:00", "the refusal says when the class starts")
	assert.Equal(t, clubhouse.Conflict, clubhouse.KindOf(err))
	c, err := a.Classes.Cancel(ctx, a.desk, spare.ID)
	require.NoError(t, err, "a class that has not started is cancelled instead")
	assert.Equal(t, classes.StatusCancelled, c.Status)
}

func TestClasses_Delete(t *testing.T) {
	t.Parallel()
	a := newAcademy(t)
	ctx := t.Context()
	c := a.newClass(t, a.input(a.coach.UserID, a.courtA, 10), nil)
	enrolled := a.newClass(t, a.input(a.coach.UserID, a.courtA, 12), nil)
	others := a.newClass(t, a.input(a.other.UserID, a.courtB, 10), nil)
	heads := a.newClass(t, a.input(a.head.UserID, a.courtB, 12), nil)
	started := a.begun(t, a.coach.UserID, a.courtA, 14)
	ana := a.client(t, "Ana", "Ruiz")
	a.enroll(t, ana, enrolled.ID)
	_, err := a.Enrollments.Withdraw(ctx, ana.by, enrolled.ID)
	require.NoError(t, err)
	exist := func(t *testing.T, ids []int64) int {
		var n int
		a.get(t, &n, `SELECT count(*) FROM reservations WHERE id = ANY($1)`, ids)
		return n
	}

	for _, tc := range []struct {
		name  string
		by    clubhouse.Actor
		id    int64
		want  error
		check func(t *testing.T, before classes.Class)
	}{
		{"a client", ana.by, c.ID, clubhouse.ErrForbidden, nil},
		{"another trainer's class", a.coach, others.ID, classes.ErrClassNotFound, nil},
		{"staff in the trainer area, another's class", a.head, c.ID, classes.ErrClassNotFound, nil},
		{"no such class", a.desk, 9999, classes.ErrClassNotFound, nil},
		{"with enrollments, even cancelled ones", a.desk, enrolled.ID, clubhouse.ErrInUse, nil},
		{"its trainer: the court is free", a.coach, c.ID, nil, func(t *testing.T, before classes.Class) {
			assert.Zero(t, exist(t, held(before)))
		}},
		{"deleted already", a.coach, c.ID, classes.ErrClassNotFound, nil},
		{"staff in the trainer area, their own", a.head, heads.ID, nil, nil},
		{"begun: the started sessions' bookings stay as history", a.desk, started.ID, nil, func(t *testing.T, before classes.Class) {
			assert.Equal(t, 2, exist(t, held(before)[:2]))
			assert.Zero(t, exist(t, held(before)[2:]))
			var holds int
			a.get(t, &holds, `SELECT count(*) FROM reservations WHERE id = ANY($1) AND held_by IS NOT NULL`, held(before)[:2])
			assert.Zero(t, holds, "let go of by the class: plain bookings now")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := a.classOrZero(t, tc.id)
			err := a.Classes.Delete(ctx, tc.by, tc.id)
			require.ErrorIs(t, err, tc.want)
			after := a.classOrZero(t, tc.id)
			if tc.want != nil {
				assert.Equal(t, before, after, "a refusal changes nothing")
				return
			}
			assert.Zero(t, after.ID, "the class is gone")
			if tc.check != nil {
				tc.check(t, before)
			}
		})
	}
}

func TestClasses_Open(t *testing.T) {
	t.Parallel()
	a := newAcademy(t)
	ctx := t.Context()
	clinic := a.newClass(t, a.input(a.coach.UserID, a.courtA, 10), nil)
	camp := a.newClass(t, a.input(a.other.UserID, a.courtB, 10), func(in *classes.ClassInput) { in.ReservationTypeID = clubhouse.Some(a.camp) })
	cancelled := a.newClass(t, a.input(a.coach.UserID, a.courtA, 12), nil)
	_, err := a.Classes.Cancel(ctx, a.desk, cancelled.ID)
	require.NoError(t, err)
	completed := a.begun(t, a.coach.UserID, a.courtA, 14)
	_, err = a.Classes.Complete(ctx, a.desk, completed.ID)
	require.NoError(t, err)
	a.newClass(t, a.input(a.coach.UserID, a.courtB, 14), func(in *classes.ClassInput) {
		in.StartDate, in.EndDate = clubhouse.Some(date("2026-02-17")), clubhouse.Some(date("2026-02-26"))
	})

	for _, tc := range []struct {
		name   string
		at     string
		typeID int64
		want   []int64
	}{
		{"any class type: the scheduled ones with a session to come", "", 0, []int64{clinic.ID, camp.ID}},
		{"of one type", "", a.clinic, []int64{clinic.ID}},
		{"of another", "", a.camp, []int64{camp.ID}},
		{"a type without classes", "", a.rental, []int64{}},
		{"once the last session has started", "2026-03-12 10:00", 0, []int64{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.at != "" {
				a.clock.Set(t, tc.at)
			}
			got, err := a.Classes.Open(ctx, tc.typeID)
			require.NoError(t, err)
			assert.Equal(t, tc.want, classIDs(got))
		})
	}
}

func TestClasses_Lookup(t *testing.T) {
	t.Parallel()
	a := newAcademy(t)
	ctx := t.Context()
	c := a.newClass(t, a.input(a.coach.UserID, a.courtA, 10), nil)
	cancelled := a.newClass(t, a.input(a.coach.UserID, a.courtA, 12), nil)
	_, err := a.Classes.Cancel(ctx, a.desk, cancelled.ID)
	require.NoError(t, err)
	ana := a.client(t, "Ana", "Ruiz")

	for _, tc := range []struct {
		name string
		by   clubhouse.Actor
		id   int64
		want error
	}{
		{"anonymous", clubhouse.Actor{}, c.ID, clubhouse.ErrUnauthorized},
		{"a client", ana.by, c.ID, nil},
		{"a client, a cancelled class", ana.by, cancelled.ID, nil},
		{"a user without a client record", a.nobody, c.ID, nil},
		{"another trainer", a.other, c.ID, nil},
		{"no such class", ana.by, 9999, classes.ErrClassNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := a.Classes.Lookup(ctx, tc.by, tc.id)
			require.ErrorIs(t, err, tc.want)
			if tc.want == nil {
				assert.Equal(t, a.class(t, tc.id), got)
			}
		})
	}
}

// TestClasses_sessionsHeld: a session's booking is held by its class, so
// staff change, cancel or delete it only through the class.
func TestClasses_sessionsHeld(t *testing.T) {
	t.Parallel()
	a := newAcademy(t)
	ctx := t.Context()
	c := a.newClass(t, a.input(a.coach.UserID, a.courtA, 10), nil)
	id := *c.Sessions[1].ReservationID
	r, err := a.club.Bookings.Get(ctx, a.desk, id)
	require.NoError(t, err)
	h, ok := r.Hold()
	require.True(t, ok)
	assert.Equal(t, booking.Hold{Kind: classes.HoldKind, ID: c.ID}, h)

	for _, tc := range []struct {
		name string
		run  func() error
	}{
		{"moved", func() error {
			_, err := a.club.Bookings.Update(ctx, a.desk, id, booking.BookingInput{CourtID: clubhouse.Some(a.courtB)})
			return err
		}},
		{"cancelled", func() error { _, err := a.club.Bookings.Cancel(ctx, a.desk, id, ""); return err }},
		{"deleted", func() error { return a.club.Bookings.Delete(ctx, a.desk, id) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.run()
			require.ErrorIs(t, err, booking.ErrHeld)
			assert.Contains(t, clubhouse.AsError(err).Message, fmt.Sprintf("held by class %d", c.ID))
		})
	}
	after, err := a.club.Bookings.Get(ctx, a.desk, id)
	require.NoError(t, err)
	assert.Equal(t, r, after, "a refusal changes nothing")

	_, err = a.Classes.Cancel(ctx, a.desk, c.ID)
	require.NoError(t, err, "the class frees its sessions' courts")
	_, err = a.club.Bookings.Get(ctx, a.desk, id)
	require.ErrorIs(t, err, booking.ErrBookingNotFound)
}
