package classes_test

import (
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/classes"
	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/fixture"
	"github.com/clubhouse-go/clubhouse/payments"
	"github.com/clubhouse-go/clubhouse/pricing"
)

// recorder is a clubhouse.Publisher that keeps every message as a relay
// would deliver it.
type recorder struct {
	mu   sync.Mutex
	msgs []published
}

// published is a message's topic, its payload as JSON and its audience.
type published struct {
	Topic    string
	JSON     string
	Audience clubhouse.Audience
}

func (r *recorder) Publish(topic string, payload any) {
	b, err := json.Marshal(payload)
	if err != nil {
		panic(err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.msgs = append(r.msgs, published{Topic: topic, JSON: string(b), Audience: clubhouse.AudienceOf(payload)})
}

// take returns the messages published since the last take.
func (r *recorder) take() []published {
	r.mu.Lock()
	defer r.mu.Unlock()
	msgs := r.msgs
	r.msgs = nil
	return msgs
}

// at is the wall time of "YYYY-MM-DD HH:MM".
func at(tb testing.TB, s string) time.Time {
	tb.Helper()
	t, err := time.Parse("2006-01-02 15:04", s)
	require.NoError(tb, err)
	return t
}

// TestClasses_messages: a class's sessions book the court (booking:changed
// for the staff, availability:updated per session date), its enrollments
// and its waitlist tell the staff, the trainer's room and the client, its
// cancellation tells each student on their own, and a refused change tells
// no one.
func TestClasses_messages(t *testing.T) {
	t.Parallel()
	db := dbtest.New(t)
	ctx := t.Context()
	events := &recorder{}
	club := fixture.New(t, db.DB, fixture.Options{Start: "2026-03-02 15:00", Events: events})
	padel := club.CourtType("Padel").ID
	court := club.Court(padel, "Court 1").ID
	clinic := club.ClassType("Clinic").ID
	card := club.PaymentType("Card").ID
	trainer := club.Trainer("Coach").UserID
	ana, bob := club.Member("Ana", "Test"), club.Member("Bob", "Test")
	club.ClassTariff(padel, clinic, 1)
	academy := club.Classes
	desk := clubhouse.Staff("desk")

	ten, eleven := pricing.TimeOfDay(10*60), pricing.TimeOfDay(11*60)
	in := classes.ClassInput{UserID: clubhouse.Some(trainer), CourtID: clubhouse.Some(court), ReservationTypeID: clubhouse.Some(clinic),
		Title: clubhouse.Some("Basics"), StartDate: clubhouse.Some(at(t, "2026-03-03 00:00")), EndDate: clubhouse.Some(at(t, "2026-03-12 00:00")),
		Days: clubhouse.Some([]int{2, 4}), StartTime: clubhouse.Some(ten), EndTime: clubhouse.Some(eleven)}
	dates := []string{"2026-03-03", "2026-03-05", "2026-03-10", "2026-03-12"}
	staff := clubhouse.Audience{Rooms: []string{clubhouse.RoomPanel}}
	everyone := clubhouse.Audience{Rooms: []string{clubhouse.RoomPanel, clubhouse.RoomApp}}
	// sessions are the messages of the bookings of the class's sessions:
	// for the staff, and one availability:updated per date.
	sessions := func(ids []int64) []published {
		b, err := json.Marshal(ids)
		require.NoError(t, err)
		out := []published{{Topic: booking.TopicChanged, JSON: fmt.Sprintf(`{"ids":%s}`, b), Audience: staff}}
		for _, d := range dates {
			out = append(out, published{Topic: booking.TopicAvailability, JSON: fmt.Sprintf(`{"court_id":%d,"date":"%s"}`, court, d),
				Audience: everyone})
		}
		return out
	}
	held := func(c classes.Class) []int64 {
		var ids []int64
		for _, s := range c.Sessions {
			if s.ReservationID != nil {
				ids = append(ids, *s.ReservationID)
			}
		}
		return ids
	}

	class, err := academy.Classes.Create(ctx, desk, in)
	require.NoError(t, err)
	booked := held(class)
	require.Len(t, booked, 4)
	assert.Equal(t, sessions(booked), events.take(), "the sessions book the court")

	_, err = academy.Classes.Create(ctx, desk, in)
	require.ErrorIs(t, err, booking.ErrCourtTaken)
	assert.Empty(t, events.take(), "a class refused publishes nothing")

	// enrollment is the message of an enrollment of the class.
	trainerRoom := clubhouse.TrainerRoom(trainer)
	enrollment := func(topic string, id, user int64, status string) published {
		return published{Topic: topic, JSON: fmt.Sprintf(`{"id":%d,"class_id":%d,"status":"%s","user_id":%d}`, id, class.ID, status, user),
			Audience: clubhouse.Audience{Users: []int64{user}, Rooms: []string{clubhouse.RoomPanel, trainerRoom}}}
	}
	claim := payments.Input{PaymentTypeID: clubhouse.Some(card), Amount: money("25000"), TransactionID: clubhouse.Some("tx-ana")}
	first, err := academy.Enrollments.Enroll(ctx, ana.Actor, class.ID, []payments.Input{claim})
	require.NoError(t, err)
	var paid int64
	require.NoError(t, db.GetContext(ctx, &paid, `SELECT id FROM payments WHERE enrollment_id = $1`, first.ID))
	assert.Equal(t, []published{
		{Topic: payments.TopicUpdated, JSON: fmt.Sprintf(`{"id":%d,"reservation_id":null,"enrollment_id":%d,"status":false,"status_detail":"pending"}`, paid, first.ID),
			Audience: clubhouse.Audience{Users: []int64{ana.UserID}, Rooms: []string{clubhouse.RoomPanel}}},
		enrollment(classes.TopicEnrollment, first.ID, ana.UserID, "pending"),
	}, events.take(), "the claim is the client's payment")
	waiting, err := academy.Enrollments.Add(ctx, desk, class.ID, bob.Client.ID)
	require.NoError(t, err)
	assert.Equal(t, []published{enrollment(classes.TopicEnrollment, waiting.ID, bob.UserID, "waitlisted")}, events.take())
	_, err = academy.Enrollments.Add(ctx, desk, class.ID, bob.Client.ID)
	require.ErrorIs(t, err, classes.ErrAlreadyEnrolled)
	assert.Empty(t, events.take(), "an enrollment refused publishes nothing")

	_, err = academy.Enrollments.Accept(ctx, desk, waiting.ID)
	require.ErrorIs(t, err, classes.ErrEnrollmentMove)
	assert.Empty(t, events.take())
	_, err = academy.Enrollments.Remove(ctx, desk, first.ID)
	require.NoError(t, err)
	assert.Equal(t, []published{enrollment(classes.TopicEnrollment, first.ID, ana.UserID, "cancelled"),
		enrollment(classes.TopicEnrollment, waiting.ID, bob.UserID, "pending"), enrollment(classes.TopicPromoted, waiting.ID, bob.UserID, "pending")},
		events.take(), "the freed place goes to the first in line, who is told")
	_, err = academy.Enrollments.Accept(ctx, desk, waiting.ID)
	require.NoError(t, err)
	assert.Equal(t, []published{enrollment(classes.TopicEnrollment, waiting.ID, bob.UserID, "accepted")}, events.take())
	_, err = academy.Enrollments.MarkAttendance(ctx, desk, waiting.ID, at(t, "2026-03-03 00:00"), "present")
	require.NoError(t, err)
	assert.Equal(t, []published{enrollment(classes.TopicEnrollment, waiting.ID, bob.UserID, "accepted")}, events.take())

	// A later start moves every session within its date: each date once.
	noon, one := pricing.TimeOfDay(12*60), pricing.TimeOfDay(13*60)
	class, err = academy.Classes.Update(ctx, desk, class.ID, classes.ClassInput{StartTime: clubhouse.Some(noon), EndTime: clubhouse.Some(one)})
	require.NoError(t, err)
	moved := held(class)
	want := sessions(append(append([]int64{}, booked...), moved...))
	assert.Equal(t, want, events.take())

	_, err = academy.Classes.Cancel(ctx, desk, class.ID)
	require.NoError(t, err)
	want = append(sessions(moved),
		published{Topic: classes.TopicClassCancelled, JSON: fmt.Sprintf(`{"class_id":%d,"title":"Basics","user_ids":[%d]}`, class.ID, bob.UserID),
			Audience: clubhouse.Audience{Rooms: []string{clubhouse.RoomPanel, trainerRoom}}},
		published{Topic: classes.TopicClassCancelled, JSON: fmt.Sprintf(`{"class_id":%d,"title":"Basics","user_ids":[%d]}`, class.ID, bob.UserID),
			Audience: clubhouse.Audience{Users: []int64{bob.UserID}}})
	assert.Equal(t, want, events.take(), "the court is free, and each student is told on their own")
	_, err = academy.Classes.Cancel(ctx, desk, class.ID)
	require.ErrorIs(t, err, classes.ErrClassEnded)
	assert.Empty(t, events.take())
}
