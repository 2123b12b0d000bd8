package classes_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/jmoiron/sqlx"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/classes"
	"github.com/clubhouse-go/clubhouse/eventlog"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/payments"
)

// logged renders an enrollment or a class for the academy's log as an API
// would, by the names the enrolling statement fills (id, status,
// waitlist_position): only what the tests read of it.
func logged(v any) any {
	switch v := v.(type) {
	case classes.Enrollment:
		return map[string]any{"id": v.ID, "status": v.Status, "waitlist_position": v.WaitlistPosition, "paid": v.Paid}
	case classes.Class:
		return map[string]any{"id": v.ID, "status": v.Status}
	}
	return v
}

// loggedEvent is an event of the academy's log with what the tests read of
// its payload, as logged renders it.
type loggedEvent struct {
	Type    string
	Actor   string
	Payload struct {
		ID               int64           `json:"id"`
		Status           string          `json:"status"`
		WaitlistPosition *int            `json:"waitlist_position"`
		Paid             decimal.Decimal `json:"paid"`
	}
}

// logRead returns the events of the academy's log after *cursor, as staff
// read them, and moves the cursor past them.
func (a *academy) logRead(tb testing.TB, cursor *eventlog.Cursor) []loggedEvent {
	tb.Helper()
	page, err := a.log.List(tb.Context(), a.desk, eventlog.Query{After: *cursor, Limit: 1000})
	require.NoError(tb, err)
	*cursor = page.Next
	out := make([]loggedEvent, len(page.Events))
	for i, e := range page.Events {
		out[i].Type, out[i].Actor = e.Type, e.Actor
		require.NoError(tb, json.Unmarshal(e.Payload, &out[i].Payload))
	}
	return out
}

// sequence names each event by its type and its payload's id.
func sequence(es []loggedEvent) []string {
	out := []string{}
	for _, e := range es {
		out = append(out, fmt.Sprintf("%s #%d", e.Type, e.Payload.ID))
	}
	return out
}

func named(typ string, id int64) string { return fmt.Sprintf("%s #%d", typ, id) }

// TestEnrollments_events: each change of an enrollment writes its event,
// the enrollment as the change leaves it, naming who made it: made in one
// statement or with claims, by its client or by the trainer, waitlisted;
// accepted, rejected, withdrawn and removed, with the enrollment promoted
// into the place freed after the one that freed it.
func TestEnrollments_events(t *testing.T) {
	t.Parallel()
	a := newAcademy(t)
	ctx := t.Context()
	var cursor eventlog.Cursor
	c := a.campClass(t, 10) // two places
	ana, bob, cara := a.client(t, "Ana", "Ruiz"), a.client(t, "Bob", "Paz"), a.client(t, "Cara", "Gil")
	dan := a.clientBy(t, "Dan", a.coach)
	a.logRead(t, &cursor)

	first := a.enroll(t, ana, c.ID)
	got := a.logRead(t, &cursor)
	require.Equal(t, []string{named(classes.EventEnrollmentCreated, first.ID)}, sequence(got), "made in one statement")
	assert.Equal(t, ana.by.Email, got[0].Actor)
	assert.Equal(t, classes.EnrollmentPending, got[0].Payload.Status)

	second, err := a.Enrollments.Enroll(ctx, bob.by, c.ID, []payments.Input{a.claim("25000", "B-1")})
	require.NoError(t, err)
	got = a.logRead(t, &cursor)
	require.Equal(t, []string{named(classes.EventEnrollmentCreated, second.ID)}, sequence(got), "made with its claims")
	assert.Equal(t, bob.by.Email, got[0].Actor)

	third := a.enroll(t, cara, c.ID)
	got = a.logRead(t, &cursor)
	require.Equal(t, []string{named(classes.EventEnrollmentCreated, third.ID)}, sequence(got))
	assert.Equal(t, classes.EnrollmentWaitlisted, got[0].Payload.Status)
	require.NotNil(t, got[0].Payload.WaitlistPosition)
	assert.Equal(t, 1, *got[0].Payload.WaitlistPosition, "its place in line, read in its transaction")

	fourth, err := a.Enrollments.Add(ctx, a.coach, c.ID, dan)
	require.NoError(t, err)
	got = a.logRead(t, &cursor)
	require.Equal(t, []string{named(classes.EventEnrollmentCreated, fourth.ID)}, sequence(got), "made by the trainer")
	assert.Equal(t, a.coach.Email, got[0].Actor)
	require.NotNil(t, got[0].Payload.WaitlistPosition)
	assert.Equal(t, 2, *got[0].Payload.WaitlistPosition)

	_, err = a.Enrollments.Accept(ctx, a.desk, first.ID)
	require.NoError(t, err)
	got = a.logRead(t, &cursor)
	require.Equal(t, []string{named(classes.EventEnrollmentAccepted, first.ID)}, sequence(got))
	assert.Equal(t, "desk", got[0].Actor, "a program without an e-mail, by its label")
	assert.Equal(t, classes.EnrollmentAccepted, got[0].Payload.Status)

	a.confirm(t, "B-1")
	_, err = a.Enrollments.Reject(ctx, a.coach, second.ID)
	require.NoError(t, err)
	got = a.logRead(t, &cursor)
	require.Equal(t, []string{named(classes.EventEnrollmentRejected, second.ID), named(classes.EventEnrollmentPromoted, third.ID)},
		sequence(got), "the place freed goes to the first in line")
	assert.Equal(t, classes.EnrollmentRejected, got[0].Payload.Status)
	assert.True(t, decimal.RequireFromString("25000").Equal(got[0].Payload.Paid), "with its payments: %s", got[0].Payload.Paid)
	assert.Equal(t, classes.EnrollmentPending, got[1].Payload.Status)
	assert.Nil(t, got[1].Payload.WaitlistPosition)
	assert.Equal(t, []string{a.coach.Email, a.coach.Email}, []string{got[0].Actor, got[1].Actor})

	_, err = a.Enrollments.Withdraw(ctx, ana.by, c.ID)
	require.NoError(t, err)
	got = a.logRead(t, &cursor)
	require.Equal(t, []string{named(classes.EventEnrollmentCancelled, first.ID), named(classes.EventEnrollmentPromoted, fourth.ID)},
		sequence(got), "withdrawn by its client")
	assert.Equal(t, ana.by.Email, got[0].Actor)

	_, err = a.Enrollments.Remove(ctx, a.desk, third.ID)
	require.NoError(t, err)
	got = a.logRead(t, &cursor)
	require.Equal(t, []string{named(classes.EventEnrollmentCancelled, third.ID)}, sequence(got), "no one waits")
	assert.Equal(t, classes.EnrollmentCancelled, got[0].Payload.Status)
}

// TestEnrollments_eventsOnThePool: enrollments made in one statement on
// the pgx pool, as clubd makes them, write their events in the same
// transaction: each enrollment as its client gets it, a waitlisted one
// with its place in line; one refused writes none, and the pool's
// connections are all back, idle.
func TestEnrollments_eventsOnThePool(t *testing.T) {
	t.Parallel()
	a := newAcademy(t)
	enrollments := a.services(a.db.Pool).Enrollments
	var cursor eventlog.Cursor
	c := a.campClass(t, 10) // two places
	a.logRead(t, &cursor)
	one := 1
	two := 2
	for _, want := range []struct {
		first    string
		status   string
		position *int
	}{
		{"Ana", classes.EnrollmentPending, nil},
		{"Bob", classes.EnrollmentPending, nil},
		{"Cara", classes.EnrollmentWaitlisted, &one},
		{"Dan", classes.EnrollmentWaitlisted, &two},
	} {
		e, err := enrollments.Enroll(t.Context(), a.client(t, want.first, "Ruiz").by, c.ID, nil)
		require.NoError(t, err, want.first)
		assert.Equal(t, want.status, e.Status, want.first)
		assert.Equal(t, want.position, e.WaitlistPosition, want.first)
		got := a.logRead(t, &cursor)
		require.Equal(t, []string{named(classes.EventEnrollmentCreated, e.ID)}, sequence(got), want.first)
		assert.Equal(t, want.status, got[0].Payload.Status, want.first)
		assert.Equal(t, want.position, got[0].Payload.WaitlistPosition, want.first)
	}

	eva := a.client(t, "Eva", "Paz")
	_, err := enrollments.Enroll(t.Context(), eva.by, c.ID, nil)
	require.NoError(t, err)
	a.logRead(t, &cursor)
	_, err = enrollments.Enroll(t.Context(), eva.by, c.ID, nil)
	require.ErrorIs(t, err, classes.ErrAlreadyEnrolled)
	_, err = enrollments.Enroll(t.Context(), a.nobody, c.ID, nil)
	require.ErrorIs(t, err, booking.ErrNoClient)
	assert.Empty(t, a.logRead(t, &cursor), "a refusal writes no event")
	assert.Zero(t, a.db.Pool.Stat().AcquiredConns(), "every connection went back to the pool")
}

// TestClasses_events: a class whose capacity grows promotes its waitlist,
// one event each; a class cancelled or completed writes its event, the
// class as it ends.
func TestClasses_events(t *testing.T) {
	t.Parallel()
	a := newAcademy(t)
	ctx := t.Context()
	var cursor eventlog.Cursor
	c := a.campClass(t, 12) // two places
	a.enroll(t, a.client(t, "Ana", "Ruiz"), c.ID)
	a.enroll(t, a.client(t, "Bob", "Paz"), c.ID)
	waiting := []classes.Enrollment{a.enroll(t, a.client(t, "Cara", "Gil"), c.ID), a.enroll(t, a.client(t, "Dan", "Mora"), c.ID)}
	a.logRead(t, &cursor)

	_, err := a.Classes.Update(ctx, a.desk, c.ID, classes.ClassInput{ReservationTypeID: clubhouse.Some(a.clinic)}) // four places
	require.NoError(t, err)
	got := a.logRead(t, &cursor)
	require.Equal(t, []string{named(classes.EventEnrollmentPromoted, waiting[0].ID), named(classes.EventEnrollmentPromoted, waiting[1].ID)},
		sequence(got), "in line order")
	for _, e := range got {
		assert.Equal(t, classes.EnrollmentPending, e.Payload.Status)
		assert.Equal(t, "desk", e.Actor)
	}

	_, err = a.Classes.Cancel(ctx, a.coach, c.ID)
	require.NoError(t, err)
	got = a.logRead(t, &cursor)
	require.Equal(t, []string{named(classes.EventClassCancelled, c.ID)}, sequence(got))
	assert.Equal(t, classes.StatusCancelled, got[0].Payload.Status)
	assert.Equal(t, a.coach.Email, got[0].Actor)

	begun := a.begun(t, a.coach.UserID, a.courtA, 12)
	_, err = a.Classes.Complete(ctx, a.desk, begun.ID)
	require.NoError(t, err)
	got = a.logRead(t, &cursor)
	require.Equal(t, []string{named(classes.EventClassCompleted, begun.ID)}, sequence(got))
	assert.Equal(t, classes.StatusCompleted, got[0].Payload.Status)
}

// TestEventLog_refusedRecordsNothing: a change refused, or rolled back
// after it wrote its event (a commit hook that fails), leaves no event and
// no message, and changes nothing.
func TestEventLog_refusedRecordsNothing(t *testing.T) {
	t.Parallel()
	a := newAcademy(t)
	ctx := t.Context()
	var cursor eventlog.Cursor
	c := a.campClass(t, 10)
	notBegun := a.newClass(t, a.input(a.coach.UserID, a.courtA, 10), nil)
	ana, bob := a.client(t, "Ana", "Ruiz"), a.client(t, "Bob", "Paz")
	enrolled := a.enroll(t, ana, c.ID)
	accepted := a.enroll(t, a.client(t, "Cara", "Gil"), c.ID)
	_, err := a.Enrollments.Accept(ctx, a.desk, accepted.ID)
	require.NoError(t, err)
	a.logRead(t, &cursor)
	a.events.Take()

	errRollback := errors.New("the commit hook fails")
	failing := sqldb.OnCommit(ctx, a.db.DB, func(context.Context, *sqlx.Tx) error { return errRollback })
	for _, tc := range []struct {
		name   string
		change func() error
		want   error
	}{
		{"enrolled already, in one statement", func() error {
			_, err := a.Enrollments.Enroll(ctx, ana.by, c.ID, nil)
			return err
		}, classes.ErrAlreadyEnrolled},
		{"enrolled already, by staff", func() error {
			_, err := a.Enrollments.Add(ctx, a.desk, c.ID, ana.id)
			return err
		}, classes.ErrAlreadyEnrolled},
		{"a claim above the price, refused after the insert", func() error {
			_, err := a.Enrollments.Enroll(ctx, bob.by, c.ID, []payments.Input{a.claim("25000.01", "B-1")})
			return err
		}, payments.ErrClaimAboveDebt},
		{"accepted already", func() error {
			_, err := a.Enrollments.Accept(ctx, a.desk, accepted.ID)
			return err
		}, classes.ErrEnrollmentMove},
		{"a class not begun completed", func() error {
			_, err := a.Classes.Complete(ctx, a.desk, notBegun.ID)
			return err
		}, classes.ErrClassNotStarted},
		{"an enrollment in one statement, rolled back", func() error {
			_, err := a.Enrollments.Enroll(failing, bob.by, c.ID, nil)
			return err
		}, errRollback},
		{"a rejection, rolled back", func() error {
			_, err := a.Enrollments.Reject(failing, a.desk, enrolled.ID)
			return err
		}, errRollback},
		{"a class cancelled, rolled back", func() error {
			_, err := a.Classes.Cancel(failing, a.desk, c.ID)
			return err
		}, errRollback},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.ErrorIs(t, tc.change(), tc.want)
			assert.Empty(t, a.logRead(t, &cursor))
			assert.Empty(t, a.events.Take(), "nor a message")
		})
	}
	assert.Equal(t, classes.EnrollmentPending, a.enrollment(t, enrolled.ID).Status)
	assert.Equal(t, classes.StatusScheduled, a.class(t, c.ID).Status)
	var n int
	a.get(t, &n, `SELECT count(*) FROM enrollments WHERE client_id = $1`, bob.id)
	assert.Zero(t, n)
}
