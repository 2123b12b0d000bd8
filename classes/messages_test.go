package classes_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/classes"
	"github.com/clubhouse-go/clubhouse/eventlog"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/fixture"
	"github.com/clubhouse-go/clubhouse/internal/testkit/relaytest"
	"github.com/clubhouse-go/clubhouse/payments"
	"github.com/clubhouse-go/clubhouse/pricing"
)

// relayed is the message on topic whose payload's JSON is data, for
// audience a, as the relay reads it from the log.
func relayed(topic, data string, a clubhouse.Audience) relaytest.Message {
	return relaytest.Message{Topic: topic, Users: a.Users, Rooms: a.Rooms, All: a.All, Data: data}
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
// cancellation tells each student on their own, each change recording its
// messages in the log in its transaction, and a refused change tells no
// one.
func TestClasses_messages(t *testing.T) {
	t.Parallel()
	db := dbtest.New(t)
	ctx := t.Context()
	log := eventlog.New(db.DB, eventlog.Options{})
	club := fixture.New(t, db.DB, fixture.Options{Start: "2026-03-02 15:00", Log: log})
	padel := club.CourtType("Padel").ID
	court := club.Court(padel, "Court 1").ID
	clinic := club.ClassType("Clinic").ID
	card := club.PaymentType("Card").ID
	trainer := club.Trainer("Coach").UserID
	ana, bob := club.Member("Ana", "Test"), club.Member("Bob", "Test")
	club.ClassTariff(padel, clinic, 1)
	academy := club.Classes
	desk := clubhouse.Staff("desk")
	events := relaytest.New(t, log)

	ten, eleven := pricing.TimeOfDay(10*60), pricing.TimeOfDay(11*60)
	in := classes.ClassInput{UserID: clubhouse.Some(trainer), CourtID: clubhouse.Some(court), ReservationTypeID: clubhouse.Some(clinic),
		Title: clubhouse.Some("Basics"), StartDate: clubhouse.Some(at(t, "2026-03-03 00:00")), EndDate: clubhouse.Some(at(t, "2026-03-12 00:00")),
		Days: clubhouse.Some([]int{2, 4}), StartTime: clubhouse.Some(ten), EndTime: clubhouse.Some(eleven)}
	dates := []string{"2026-03-03", "2026-03-05", "2026-03-10", "2026-03-12"}
	staff := clubhouse.Audience{Rooms: []string{clubhouse.RoomPanel}}
	everyone := clubhouse.Audience{Rooms: []string{clubhouse.RoomPanel, clubhouse.RoomApp}}
	// sessions are the messages of the bookings of the class's sessions:
	// for the staff, and one availability:updated per date.
	sessions := func(ids []int64) []relaytest.Message {
		b, err := json.Marshal(ids)
		require.NoError(t, err)
		out := []relaytest.Message{relayed(booking.TopicChanged, fmt.Sprintf(`{"ids":%s}`, b), staff)}
		for _, d := range dates {
			out = append(out, relayed(booking.TopicAvailability, fmt.Sprintf(`{"court_id":%d,"date":"%s"}`, court, d), everyone))
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
	assert.Equal(t, sessions(booked), events.Take(), "the sessions book the court")

	_, err = academy.Classes.Create(ctx, desk, in)
	require.ErrorIs(t, err, booking.ErrCourtTaken)
	assert.Empty(t, events.Take(), "a class refused records nothing")

	// enrollment is the message of an enrollment of the class.
	trainerRoom := clubhouse.TrainerRoom(trainer)
	enrollment := func(topic string, id, user int64, status string) relaytest.Message {
		return relayed(topic, fmt.Sprintf(`{"id":%d,"class_id":%d,"status":"%s","user_id":%d}`, id, class.ID, status, user),
			clubhouse.Audience{Users: []int64{user}, Rooms: []string{clubhouse.RoomPanel, trainerRoom}})
	}
	claim := payments.Input{PaymentTypeID: clubhouse.Some(card), Amount: money("25000"), TransactionID: clubhouse.Some("tx-ana")}
	first, err := academy.Enrollments.Enroll(ctx, ana.Actor, class.ID, []payments.Input{claim})
	require.NoError(t, err)
	var paid int64
	require.NoError(t, db.GetContext(ctx, &paid, `SELECT id FROM payments WHERE enrollment_id = $1`, first.ID))
	assert.Equal(t, []relaytest.Message{
		relayed(payments.TopicUpdated, fmt.Sprintf(`{"id":%d,"reservation_id":null,"enrollment_id":%d,"status":false,"status_detail":"pending"}`, paid, first.ID),
			clubhouse.Audience{Users: []int64{ana.UserID}, Rooms: []string{clubhouse.RoomPanel}}),
		enrollment(classes.TopicEnrollment, first.ID, ana.UserID, "pending"),
	}, events.Take(), "the claim is the client's payment")
	waiting, err := academy.Enrollments.Add(ctx, desk, class.ID, bob.Client.ID)
	require.NoError(t, err)
	assert.Equal(t, []relaytest.Message{enrollment(classes.TopicEnrollment, waiting.ID, bob.UserID, "waitlisted")}, events.Take())
	_, err = academy.Enrollments.Add(ctx, desk, class.ID, bob.Client.ID)
	require.ErrorIs(t, err, classes.ErrAlreadyEnrolled)
	assert.Empty(t, events.Take(), "an enrollment refused records nothing")

	_, err = academy.Enrollments.Accept(ctx, desk, waiting.ID)
	require.ErrorIs(t, err, classes.ErrEnrollmentMove)
	assert.Empty(t, events.Take())
	_, err = academy.Enrollments.Remove(ctx, desk, first.ID)
	require.NoError(t, err)
	assert.Equal(t, []relaytest.Message{enrollment(classes.TopicEnrollment, first.ID, ana.UserID, "cancelled"),
		enrollment(classes.TopicEnrollment, waiting.ID, bob.UserID, "pending"), enrollment(classes.TopicPromoted, waiting.ID, bob.UserID, "pending")},
		events.Take(), "the freed place goes to the first in line, who is told")
	_, err = academy.Enrollments.Accept(ctx, desk, waiting.ID)
	require.NoError(t, err)
	assert.Equal(t, []relaytest.Message{enrollment(classes.TopicEnrollment, waiting.ID, bob.UserID, "accepted")}, events.Take())
	_, err = academy.Enrollments.MarkAttendance(ctx, desk, waiting.ID, at(t, "2026-03-03 00:00"), "present")
	require.NoError(t, err)
	assert.Equal(t, []relaytest.Message{enrollment(classes.TopicEnrollment, waiting.ID, bob.UserID, "accepted")}, events.Take())

	// A later start moves every session within its date: each date once.
	noon, one := pricing.TimeOfDay(12*60), pricing.TimeOfDay(13*60)
	class, err = academy.Classes.Update(ctx, desk, class.ID, classes.ClassInput{StartTime: clubhouse.Some(noon), EndTime: clubhouse.Some(one)})
	require.NoError(t, err)
	moved := held(class)
	want := sessions(append(append([]int64{}, booked...), moved...))
	assert.Equal(t, want, events.Take())

	_, err = academy.Classes.Cancel(ctx, desk, class.ID)
	require.NoError(t, err)
	want = append(sessions(moved),
		relayed(classes.TopicClassCancelled, fmt.Sprintf(`{"class_id":%d,"title":"Basics","user_ids":[%d]}`, class.ID, bob.UserID),
			clubhouse.Audience{Rooms: []string{clubhouse.RoomPanel, trainerRoom}}),
		relayed(classes.TopicClassCancelled, fmt.Sprintf(`{"class_id":%d,"title":"Basics","user_ids":[%d]}`, class.ID, bob.UserID),
			clubhouse.Audience{Users: []int64{bob.UserID}}))
	assert.Equal(t, want, events.Take(), "the court is free, and each student is told on their own")
	_, err = academy.Classes.Cancel(ctx, desk, class.ID)
	require.ErrorIs(t, err, classes.ErrClassEnded)
	assert.Empty(t, events.Take())
}

// changed is the payload of the messages about e, as the services make it.
func changed(e classes.Enrollment) classes.EnrollmentChanged {
	return classes.EnrollmentChanged{ID: e.ID, ClassID: e.ClassID, Status: e.Status, UserID: e.UserID, TrainerID: e.TrainerID}
}

// TestEnrollments_messageInOneStatement: a client's enrollment without
// claims records its enrollment:changed in the one statement that enrolls
// (on database/sql's connections or on the pgx pool), or in the
// transaction that commit hooks need, exactly as Announce records the
// message of the enrollment it answers (relaytest.Of), pending or
// waitlisted: for the staff, the class's trainer and the client. One
// refused records none, and services without a log record nothing.
func TestEnrollments_messageInOneStatement(t *testing.T) {
	t.Parallel()
	a := newAcademy(t)
	hooked := sqldb.OnCommit(t.Context(), a.db.DB, func(context.Context, *sqlx.Tx) error { return nil })
	unlogged := classes.New(a.db.DB, classes.Options{Zone: time.UTC, Now: a.clock.Now, Bookings: a.club.Bookings,
		Clients: a.club.Clients, Payments: a.pay}).Enrollments
	for i, tc := range []struct {
		name        string
		enrollments *classes.Enrollments
		ctx         context.Context
		logged      bool
	}{
		{"in one statement", a.Enrollments, t.Context(), true},
		{"in one statement on the pool", a.services(a.db.Pool).Enrollments, t.Context(), true},
		{"in a transaction, for commit hooks", a.Enrollments, hooked, true},
		{"without a log", unlogged, t.Context(), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := a.campClass(t, 10+2*i) // two places
			var first student
			for j, status := range []string{classes.EnrollmentPending, classes.EnrollmentPending, classes.EnrollmentWaitlisted} {
				s := a.client(t, fmt.Sprintf("Case%dStudent%d", i, j), "Test")
				if j == 0 {
					first = s
				}
				e, err := tc.enrollments.Enroll(tc.ctx, s.by, c.ID, nil)
				require.NoError(t, err)
				require.Equal(t, status, e.Status)
				if !tc.logged {
					assert.Empty(t, a.events.Take(), "nothing is recorded without a log")
					continue
				}
				require.Equal(t, a.coach.UserID, e.TrainerID)
				require.Equal(t, &s.by.UserID, e.UserID)
				msg := relaytest.Of(classes.TopicEnrollment, changed(e))
				assert.Equal(t, []relaytest.Message{msg}, a.events.Take(), status)
				assert.Equal(t, clubhouse.Audience{Users: []int64{s.by.UserID}, Rooms: []string{clubhouse.RoomPanel, clubhouse.TrainerRoom(a.coach.UserID)}},
					msg.Audience(), "the staff, the trainer and the client")
			}
			_, err := tc.enrollments.Enroll(tc.ctx, first.by, c.ID, nil)
			require.ErrorIs(t, err, classes.ErrAlreadyEnrolled)
			assert.Empty(t, a.events.Take(), "an enrollment refused records nothing")
		})
	}
}
