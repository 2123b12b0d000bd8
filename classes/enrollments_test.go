package classes_test

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/classes"
	"github.com/clubhouse-go/clubhouse/payments"
)

// The tests of Enrollments: one table per exported method, one row per
// outcome its doc comment lists, run in order on one academy.

func enrollmentIDs(es []classes.Enrollment) []int64 {
	ids := []int64{}
	for _, e := range es {
		ids = append(ids, e.ID)
	}
	return ids
}

// camp is a class of the coach's of the type camp (two places) on court B
// at hour.
func (a *academy) campClass(tb testing.TB, hour int) classes.Class {
	tb.Helper()
	return a.newClass(tb, a.input(a.coach.UserID, a.courtB, hour), func(in *classes.ClassInput) { in.ReservationTypeID = clubhouse.Some(a.camp) })
}

// promotedWith checks that the enrollment with id was promoted from the
// waitlist by the move that made freed, in the same transaction (the
// database's now() is the time its transaction began), and that its
// client was told.
func (a *academy) promotedWith(t *testing.T, id int64, freed time.Time) {
	t.Helper()
	p := a.enrollment(t, id)
	assert.Equal(t, classes.EnrollmentPending, p.Status, "the first waiting takes the place")
	assert.Nil(t, p.WaitlistPosition)
	assert.True(t, freed.Equal(p.UpdatedAt), "in the transaction that freed the place: %s, %s", freed, p.UpdatedAt)
	var told []int64
	for _, m := range a.events.Take() {
		if m.Topic == classes.TopicPromoted {
			told = append(told, m.Users...)
		}
	}
	assert.Equal(t, []int64{*p.UserID}, told, "the promoted client is told")
}

// nonePromoted checks that no enrollment was promoted since the last
// messages were taken.
func (a *academy) nonePromoted(t *testing.T) {
	t.Helper()
	for _, m := range a.events.Take() {
		assert.NotEqual(t, classes.TopicPromoted, m.Topic, "no one is promoted: %s", m.Data)
	}
}

func TestEnrollments_Enroll(t *testing.T) {
	t.Parallel()
	a := newAcademy(t)
	ctx := t.Context()
	c := a.campClass(t, 10)
	cancelled := a.newClass(t, a.input(a.coach.UserID, a.courtA, 10), nil)
	_, err := a.Classes.Cancel(ctx, a.desk, cancelled.ID)
	require.NoError(t, err)
	completed := a.begun(t, a.coach.UserID, a.courtA, 12)
	_, err = a.Classes.Complete(ctx, a.desk, completed.ID)
	require.NoError(t, err)
	past := a.newClass(t, a.input(a.coach.UserID, a.courtA, 14), func(in *classes.ClassInput) {
		in.StartDate, in.EndDate = clubhouse.Some(date("2026-02-17")), clubhouse.Some(date("2026-02-26"))
	})
	ana, bob, cara, dan := a.client(t, "Ana", "Ruiz"), a.client(t, "Bob", "Paz"), a.client(t, "Cara", "Gil"), a.client(t, "Dan", "Mora")
	claims := func(amount, txid string) []payments.Input { return []payments.Input{a.claim(amount, txid)} }

	for _, tc := range []struct {
		name     string
		by       clubhouse.Actor
		class    int64
		claims   []payments.Input
		want     error
		status   string
		position int // in the waitlist; 0: none
	}{
		{"a program, not a user", a.desk, c.ID, nil, booking.ErrNoClient, "", 0},
		{"a user without a client record", a.nobody, c.ID, nil, booking.ErrNoClient, "", 0},
		{"a user without a client record, with claims", a.nobody, c.ID, claims("1000", "N-1"), booking.ErrNoClient, "", 0},
		{"no such class", ana.by, 9999, nil, classes.ErrClassNotOpen, "", 0},
		{"no such class, with claims", ana.by, 9999, claims("1000", "N-2"), classes.ErrClassNotOpen, "", 0},
		{"a cancelled class", ana.by, cancelled.ID, nil, classes.ErrClassNotOpen, "", 0},
		{"a completed class", ana.by, completed.ID, claims("1000", "N-3"), classes.ErrClassNotOpen, "", 0},
		{"a class whose sessions have all started", ana.by, past.ID, nil, classes.ErrClassNotOpen, "", 0},
		{"a claim above the price", ana.by, c.ID, claims("25000.01", "N-4"), payments.ErrClaimAboveDebt, "", 0},
		{"a place free", ana.by, c.ID, nil, nil, classes.EnrollmentPending, 0},
		{"enrolled already", ana.by, c.ID, nil, classes.ErrAlreadyEnrolled, "", 0},
		{"enrolled already, with claims", ana.by, c.ID, claims("1000", "N-5"), classes.ErrAlreadyEnrolled, "", 0},
		{"the last place, with a claim", bob.by, c.ID, claims("25000", "B-1"), nil, classes.EnrollmentPending, 0},
		{"a full class: the waitlist", cara.by, c.ID, nil, nil, classes.EnrollmentWaitlisted, 1},
		{"a full class, with a claim: next in line", dan.by, c.ID, claims("5000", "D-1"), nil, classes.EnrollmentWaitlisted, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var before int
			a.get(t, &before, `SELECT count(*) FROM enrollments`)
			e, err := a.Enrollments.Enroll(ctx, tc.by, tc.class, tc.claims)
			require.ErrorIs(t, err, tc.want)
			if tc.want != nil {
				var after int
				a.get(t, &after, `SELECT count(*) FROM enrollments`)
				assert.Equal(t, before, after, "a refused enrollment stores nothing")
				return
			}
			assert.Equal(t, tc.status, e.Status)
			assert.Equal(t, tc.by.UserID, *e.UserID)
			assert.Equal(t, tc.class, e.ClassID)
			assert.Equal(t, "25000", e.Price.String())
			if tc.position == 0 {
				assert.Nil(t, e.WaitlistPosition)
			} else if assert.NotNil(t, e.WaitlistPosition) {
				assert.Equal(t, tc.position, *e.WaitlistPosition)
			}
			got := a.enrollment(t, e.ID)
			got.Paid = e.Paid
			assert.Equal(t, got, e, "the enrollment as stored")
			var n int
			a.get(t, &n, `SELECT count(*) FROM payments WHERE enrollment_id = $1 AND NOT status`, e.ID)
			assert.Equal(t, len(tc.claims), n, "each claim is a pending payment")
		})
	}
	var n int
	a.get(t, &n, `SELECT count(*) FROM payments`)
	assert.Equal(t, 2, n, "a refused enrollment claims nothing")
}

func TestEnrollments_Add(t *testing.T) {
	t.Parallel()
	a := newAcademy(t)
	ctx := t.Context()
	c := a.newClass(t, a.input(a.coach.UserID, a.courtA, 10), nil)
	small := a.campClass(t, 10)
	others := a.newClass(t, a.input(a.other.UserID, a.courtA, 12), nil)
	cancelled := a.newClass(t, a.input(a.coach.UserID, a.courtA, 14), nil)
	_, err := a.Classes.Cancel(ctx, a.desk, cancelled.ID)
	require.NoError(t, err)
	ana, bob, cara, dan := a.client(t, "Ana", "Ruiz"), a.client(t, "Bob", "Paz"), a.client(t, "Cara", "Gil"), a.client(t, "Dan", "Mora")
	a.enroll(t, ana, c.ID)
	a.enroll(t, cara, others.ID)
	nico := a.clientBy(t, "Nico", a.coach)

	for _, tc := range []struct {
		name   string
		by     clubhouse.Actor
		class  int64
		client int64
		want   error
		status string
	}{
		{"a client", ana.by, c.ID, ana.id, clubhouse.ErrForbidden, ""},
		{"client id 0", a.desk, c.ID, 0, clubhouse.ErrInvalidReference, ""},
		{"no such client", a.desk, c.ID, 9999, clubhouse.ErrInvalidReference, ""},
		{"no such class", a.desk, 9999, bob.id, classes.ErrClassNotOpen, ""},
		{"a cancelled class", a.desk, cancelled.ID, bob.id, classes.ErrClassNotOpen, ""},
		{"staff, any client", a.desk, c.ID, bob.id, nil, classes.EnrollmentPending},
		{"enrolled already", a.desk, c.ID, bob.id, classes.ErrAlreadyEnrolled, ""},
		{"a trainer, a client they created", a.coach, small.ID, nico, nil, classes.EnrollmentPending},
		{"a trainer, a student of theirs in their other class", a.coach, small.ID, ana.id, nil, classes.EnrollmentPending},
		{"a trainer, another trainer's student", a.coach, small.ID, cara.id, classes.ErrStudentNotFound, ""},
		{"a trainer, a client no class of theirs holds", a.coach, small.ID, dan.id, classes.ErrStudentNotFound, ""},
		{"a trainer, no such client", a.coach, small.ID, 9999, classes.ErrStudentNotFound, ""},
		{"a trainer, another trainer's class", a.coach, others.ID, nico, classes.ErrClassNotOpen, ""},
		{"staff in the trainer area, another's class", a.head, c.ID, dan.id, classes.ErrClassNotOpen, ""},
		{"a full class: the waitlist", a.desk, small.ID, dan.id, nil, classes.EnrollmentWaitlisted},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var before int
			a.get(t, &before, `SELECT count(*) FROM enrollments`)
			e, err := a.Enrollments.Add(ctx, tc.by, tc.class, tc.client)
			require.ErrorIs(t, err, tc.want)
			if tc.want != nil {
				var after int
				a.get(t, &after, `SELECT count(*) FROM enrollments`)
				assert.Equal(t, before, after, "a refused enrollment stores nothing")
				return
			}
			assert.Equal(t, tc.status, e.Status)
			assert.Equal(t, tc.client, e.ClientID)
			assert.Equal(t, tc.class, e.ClassID)
		})
	}
}

func TestEnrollments_List(t *testing.T) {
	t.Parallel()
	a := newAcademy(t)
	ctx := t.Context()
	c := a.newClass(t, a.input(a.coach.UserID, a.courtA, 10), nil)
	others := a.newClass(t, a.input(a.other.UserID, a.courtB, 10), nil)
	ana, bob, cara := a.client(t, "Ana", "Ruiz"), a.client(t, "Bob", "Paz"), a.client(t, "Cara", "Gil")
	anas, bobs, caras := a.enroll(t, ana, c.ID), a.enroll(t, bob, c.ID), a.enroll(t, cara, others.ID)
	_, err := a.Enrollments.Reject(ctx, a.desk, bobs.ID)
	require.NoError(t, err)

	for _, tc := range []struct {
		name string
		by   clubhouse.Actor
		f    classes.EnrollmentFilter
		want error
		ids  []int64
	}{
		{"staff: every enrollment, in the order made", a.desk, classes.EnrollmentFilter{}, nil, []int64{anas.ID, bobs.ID, caras.ID}},
		{"staff, of a class", a.desk, classes.EnrollmentFilter{ClassID: others.ID}, nil, []int64{caras.ID}},
		{"staff, by status", a.desk, classes.EnrollmentFilter{Status: classes.EnrollmentRejected}, nil, []int64{bobs.ID}},
		{"staff, of a client", a.desk, classes.EnrollmentFilter{ClientID: ana.id}, nil, []int64{anas.ID}},
		{"staff, of a trainer", a.desk, classes.EnrollmentFilter{TrainerID: a.other.UserID}, nil, []int64{caras.ID}},
		{"a trainer: their classes'", a.coach, classes.EnrollmentFilter{}, nil, []int64{anas.ID, bobs.ID}},
		{"a trainer asking for another's: their own still", a.coach, classes.EnrollmentFilter{TrainerID: a.other.UserID}, nil,
			[]int64{anas.ID, bobs.ID}},
		{"a trainer, another trainer's class", a.coach, classes.EnrollmentFilter{ClassID: others.ID}, nil, []int64{}},
		{"staff in the trainer area: their own classes'", a.head, classes.EnrollmentFilter{}, nil, []int64{}},
		{"a client", ana.by, classes.EnrollmentFilter{}, clubhouse.ErrForbidden, nil},
		{"an unknown status", a.desk, classes.EnrollmentFilter{Status: "done"}, clubhouse.ErrInvalidQuery, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := a.Enrollments.List(ctx, tc.by, tc.f)
			require.ErrorIs(t, err, tc.want)
			if tc.want == nil {
				assert.Equal(t, tc.ids, enrollmentIDs(got))
			}
		})
	}
}

func TestEnrollments_Mine(t *testing.T) {
	t.Parallel()
	a := newAcademy(t)
	ctx := t.Context()
	c := a.newClass(t, a.input(a.coach.UserID, a.courtA, 10), nil)
	others := a.newClass(t, a.input(a.other.UserID, a.courtB, 10), nil)
	ana, bob := a.client(t, "Ana", "Ruiz"), a.client(t, "Bob", "Paz")
	first, second, bobs := a.enroll(t, ana, c.ID), a.enroll(t, ana, others.ID), a.enroll(t, bob, c.ID)

	for _, tc := range []struct {
		name string
		by   clubhouse.Actor
		ids  []int64
	}{
		{"a client: their own", ana.by, []int64{first.ID, second.ID}},
		{"another client", bob.by, []int64{bobs.ID}},
		{"a user without a client record: none", a.nobody, []int64{}},
		{"a program: none", a.desk, []int64{}},
		{"anonymous: none", clubhouse.Actor{}, []int64{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := a.Enrollments.Mine(ctx, tc.by)
			require.NoError(t, err)
			assert.Equal(t, tc.ids, enrollmentIDs(got))
		})
	}
}

func TestEnrollments_Get(t *testing.T) {
	t.Parallel()
	a := newAcademy(t)
	ctx := t.Context()
	c := a.newClass(t, a.input(a.coach.UserID, a.courtA, 10), nil)
	ana := a.client(t, "Ana", "Ruiz")
	e, err := a.Enrollments.Enroll(ctx, ana.by, c.ID, []payments.Input{a.claim("10000", "A-1"), a.claim("5000", "A-2")})
	require.NoError(t, err)
	a.confirm(t, "A-1")

	for _, tc := range []struct {
		name string
		by   clubhouse.Actor
		id   int64
		want error
	}{
		{"staff", a.desk, e.ID, nil},
		{"its class's trainer", a.coach, e.ID, nil},
		{"another trainer", a.other, e.ID, classes.ErrEnrollmentNotFound},
		{"staff in the trainer area, another's class", a.head, e.ID, classes.ErrEnrollmentNotFound},
		{"a client, even their own", ana.by, e.ID, clubhouse.ErrForbidden},
		{"no such enrollment", a.desk, 9999, classes.ErrEnrollmentNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := a.Enrollments.Get(ctx, tc.by, tc.id)
			require.ErrorIs(t, err, tc.want)
			if tc.want == nil {
				assert.Equal(t, e.ID, got.ID)
				assert.Equal(t, "10000", got.Paid.String(), "what the completed payments paid")
				assert.Equal(t, "15000", got.Amount().Debt().String())
			}
		})
	}
}

// moves is an academy for the tests of Accept, Reject and Remove: the
// coach's camp class (two places) with ana and bob holding them and cara,
// dan and eve waiting in that order, fay who withdrew, and another
// trainer's class where gus holds a place.
type moves struct {
	*academy
	class                         classes.Class
	ana, bob, cara, dan, eve, fay classes.Enrollment
	gus                           classes.Enrollment
}

func newMoves(t *testing.T) moves {
	a := newAcademy(t)
	m := moves{academy: a, class: a.campClass(t, 10)}
	others := a.newClass(t, a.input(a.other.UserID, a.courtA, 10), nil)
	for _, e := range []struct {
		dst   *classes.Enrollment
		name  string
		class int64
	}{{&m.ana, "Ana", m.class.ID}, {&m.bob, "Bob", m.class.ID}, {&m.fay, "Fay", m.class.ID}, {&m.cara, "Cara", m.class.ID},
		{&m.dan, "Dan", m.class.ID}, {&m.eve, "Eve", m.class.ID}, {&m.gus, "Gus", others.ID}} {
		*e.dst = a.enroll(t, a.client(t, e.name, "Test"), e.class)
		if e.name == "Fay" {
			_, err := a.Enrollments.Remove(t.Context(), a.desk, m.fay.ID)
			require.NoError(t, err)
		}
	}
	a.events.Take()
	return m
}

func TestEnrollments_Accept(t *testing.T) {
	t.Parallel()
	m := newMoves(t)
	ctx := t.Context()
	_, err := m.Enrollments.Reject(ctx, m.desk, m.eve.ID)
	require.NoError(t, err)
	m.events.Take()

	for _, tc := range []struct {
		name string
		by   clubhouse.Actor
		id   int64
		want error
	}{
		{"a client, even their own", clubhouse.Actor{UID: "Ana", UserID: *m.ana.UserID}, m.ana.ID, clubhouse.ErrForbidden},
		{"another trainer", m.other, m.ana.ID, classes.ErrEnrollmentNotFound},
		{"staff in the trainer area, another's class", m.head, m.ana.ID, classes.ErrEnrollmentNotFound},
		{"no such enrollment", m.desk, 9999, classes.ErrEnrollmentNotFound},
		{"its trainer, a pending one", m.coach, m.ana.ID, nil},
		{"accepted already", m.coach, m.ana.ID, classes.ErrEnrollmentMove},
		{"staff, a pending one", m.desk, m.bob.ID, nil},
		{"a waitlisted one", m.desk, m.cara.ID, classes.ErrEnrollmentMove},
		{"a cancelled one", m.desk, m.fay.ID, classes.ErrEnrollmentMove},
		{"a rejected one", m.desk, m.eve.ID, classes.ErrEnrollmentMove},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := m.Enrollments.Accept(ctx, tc.by, tc.id)
			require.ErrorIs(t, err, tc.want)
			if tc.want != nil {
				return
			}
			assert.Equal(t, classes.EnrollmentAccepted, got.Status)
			assert.NotNil(t, got.AcceptedAt)
			assert.Equal(t, m.enrollment(t, tc.id), got)
			assert.Equal(t, classes.EnrollmentWaitlisted, m.enrollment(t, m.cara.ID).Status, "accepting frees no place")
			m.nonePromoted(t)
		})
	}
}

func TestEnrollments_Reject(t *testing.T) {
	t.Parallel()
	m := newMoves(t)
	ctx := t.Context()
	_, err := m.Enrollments.Accept(ctx, m.desk, m.bob.ID)
	require.NoError(t, err)
	m.events.Take()

	for _, tc := range []struct {
		name     string
		by       clubhouse.Actor
		id       int64
		want     error
		promoted int64 // the enrollment that takes the place freed; 0: none
	}{
		{"a client", clubhouse.Actor{UID: "Ana", UserID: *m.ana.UserID}, m.ana.ID, clubhouse.ErrForbidden, 0},
		{"another trainer", m.other, m.ana.ID, classes.ErrEnrollmentNotFound, 0},
		{"staff in the trainer area, another's class", m.head, m.ana.ID, classes.ErrEnrollmentNotFound, 0},
		{"no such enrollment", m.desk, 9999, classes.ErrEnrollmentNotFound, 0},
		{"its trainer, a pending one: the first waiting takes the place", m.coach, m.ana.ID, nil, m.cara.ID},
		{"rejected already", m.coach, m.ana.ID, classes.ErrEnrollmentMove, 0},
		{"a cancelled one", m.desk, m.fay.ID, classes.ErrEnrollmentMove, 0},
		{"a waitlisted one: no place is freed", m.desk, m.eve.ID, nil, 0},
		{"staff, an accepted one: the next waiting takes the place", m.desk, m.bob.ID, nil, m.dan.ID},
		{"the class's trainer in another class", m.other, m.gus.ID, nil, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := m.Enrollments.Reject(ctx, tc.by, tc.id)
			require.ErrorIs(t, err, tc.want)
			if tc.want != nil {
				m.nonePromoted(t)
				return
			}
			assert.Equal(t, classes.EnrollmentRejected, got.Status)
			require.NotNil(t, got.RejectedAt)
			assert.Equal(t, m.enrollment(t, tc.id), got)
			if tc.promoted == 0 {
				m.nonePromoted(t)
				return
			}
			m.promotedWith(t, tc.promoted, *got.RejectedAt)
		})
	}
	c := m.academy.class(t, m.class.ID)
	assert.Equal(t, 2, c.EnrolledCount, "cara and dan hold the places")

	t.Run("a cancelled class: no one is promoted", func(t *testing.T) {
		full := m.campClass(t, 12)
		holding := m.enroll(t, m.client(t, "Hal", "Test"), full.ID)
		m.enroll(t, m.client(t, "Ivy", "Test"), full.ID)
		waiting := m.enroll(t, m.client(t, "Jon", "Test"), full.ID)
		_, err := m.Classes.Cancel(ctx, m.desk, full.ID)
		require.NoError(t, err)
		m.events.Take()
		_, err = m.Enrollments.Reject(ctx, m.desk, holding.ID)
		require.NoError(t, err)
		assert.Equal(t, classes.EnrollmentWaitlisted, m.enrollment(t, waiting.ID).Status)
		m.nonePromoted(t)
	})
}

func TestEnrollments_Remove(t *testing.T) {
	t.Parallel()
	m := newMoves(t)
	ctx := t.Context()
	_, err := m.Enrollments.Accept(ctx, m.desk, m.bob.ID)
	require.NoError(t, err)
	_, err = m.Enrollments.Reject(ctx, m.desk, m.eve.ID)
	require.NoError(t, err)
	paid := m.client(t, "Kim", "Test")
	claimed, err := m.Enrollments.Enroll(ctx, paid.by, m.class.ID, []payments.Input{m.claim("1000", "K-1")})
	require.NoError(t, err)
	m.events.Take()

	for _, tc := range []struct {
		name     string
		by       clubhouse.Actor
		id       int64
		want     error
		promoted int64
	}{
		{"a client", clubhouse.Actor{UID: "Ana", UserID: *m.ana.UserID}, m.ana.ID, clubhouse.ErrForbidden, 0},
		{"another trainer", m.other, m.ana.ID, classes.ErrEnrollmentNotFound, 0},
		{"staff in the trainer area, another's class", m.head, m.ana.ID, classes.ErrEnrollmentNotFound, 0},
		{"no such enrollment", m.desk, 9999, classes.ErrEnrollmentNotFound, 0},
		{"its trainer, a pending one: the first waiting takes the place", m.coach, m.ana.ID, nil, m.cara.ID},
		{"removed already", m.coach, m.ana.ID, classes.ErrEnrollmentMove, 0},
		{"a rejected one", m.desk, m.eve.ID, classes.ErrEnrollmentMove, 0},
		{"a waitlisted one, with its claim: no place is freed", m.desk, claimed.ID, nil, 0},
		{"staff, an accepted one: the next waiting takes the place", m.desk, m.bob.ID, nil, m.dan.ID},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := m.Enrollments.Remove(ctx, tc.by, tc.id)
			require.ErrorIs(t, err, tc.want)
			if tc.want != nil {
				m.nonePromoted(t)
				return
			}
			assert.Equal(t, classes.EnrollmentCancelled, got.Status)
			require.NotNil(t, got.CancelledAt)
			assert.Equal(t, m.enrollment(t, tc.id), got, "the row stays")
			if tc.promoted == 0 {
				m.nonePromoted(t)
				return
			}
			m.promotedWith(t, tc.promoted, *got.CancelledAt)
		})
	}
	var n int
	m.get(t, &n, `SELECT count(*) FROM payments WHERE enrollment_id = $1`, claimed.ID)
	assert.Equal(t, 1, n, "a removed enrollment keeps its payments")
}

func TestEnrollments_Withdraw(t *testing.T) {
	t.Parallel()
	m := newMoves(t)
	ctx := t.Context()
	as := func(e classes.Enrollment) clubhouse.Actor {
		return clubhouse.Actor{UID: e.Student.FirstName, UserID: *e.UserID}
	}
	_, err := m.Enrollments.Reject(ctx, m.desk, m.bob.ID)
	require.NoError(t, err)
	m.promotedWith(t, m.cara.ID, *m.enrollment(t, m.bob.ID).RejectedAt)

	for _, tc := range []struct {
		name     string
		by       clubhouse.Actor
		class    int64
		want     error
		promoted int64
	}{
		{"a program, not a user", m.desk, m.class.ID, booking.ErrNoClient, 0},
		{"a user without a client record", m.nobody, m.class.ID, booking.ErrNoClient, 0},
		{"a client not enrolled there", as(m.gus), m.class.ID, classes.ErrEnrollmentNotFound, 0},
		{"no such class", as(m.ana), 9999, classes.ErrEnrollmentNotFound, 0},
		{"a client whose enrollment was rejected", as(m.bob), m.class.ID, classes.ErrEnrollmentNotFound, 0},
		{"a client who withdrew", as(m.fay), m.class.ID, classes.ErrEnrollmentNotFound, 0},
		{"a client holding a place: the first waiting takes it", as(m.ana), m.class.ID, nil, m.dan.ID},
		{"withdrawn already", as(m.ana), m.class.ID, classes.ErrEnrollmentNotFound, 0},
		{"a client waiting: no place is freed", as(m.eve), m.class.ID, nil, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := m.Enrollments.Withdraw(ctx, tc.by, tc.class)
			require.ErrorIs(t, err, tc.want)
			if tc.want != nil {
				m.nonePromoted(t)
				return
			}
			assert.Equal(t, classes.EnrollmentCancelled, got.Status)
			assert.Equal(t, tc.by.UserID, *got.UserID)
			require.NotNil(t, got.CancelledAt)
			if tc.promoted == 0 {
				m.nonePromoted(t)
				return
			}
			m.promotedWith(t, tc.promoted, *got.CancelledAt)
		})
	}
}

func TestEnrollments_MarkAttendance(t *testing.T) {
	t.Parallel()
	m := newMoves(t)
	ctx := t.Context()
	ana := clubhouse.Actor{UID: "Ana", UserID: *m.ana.UserID}

	for _, tc := range []struct {
		name   string
		by     clubhouse.Actor
		id     int64
		date   string
		status string
		want   error
	}{
		{"a client", ana, m.ana.ID, "2026-03-03 00:00", classes.AttendancePresent, clubhouse.ErrForbidden},
		{"an unknown mark", m.coach, m.ana.ID, "2026-03-03 00:00", "asleep", clubhouse.ErrInvalidData},
		{"another trainer", m.other, m.ana.ID, "2026-03-03 00:00", classes.AttendancePresent, classes.ErrEnrollmentNotFound},
		{"staff in the trainer area, another's class", m.head, m.ana.ID, "2026-03-03 00:00", classes.AttendancePresent, classes.ErrEnrollmentNotFound},
		{"no such enrollment", m.desk, 9999, "2026-03-03 00:00", classes.AttendancePresent, classes.ErrEnrollmentNotFound},
		{"a date that is not a session", m.coach, m.ana.ID, "2026-03-04 00:00", classes.AttendancePresent, clubhouse.ErrInvalidDate},
		{"a waitlisted enrollment", m.coach, m.cara.ID, "2026-03-03 00:00", classes.AttendancePresent, classes.ErrEnrollmentMove},
		{"a cancelled enrollment", m.coach, m.fay.ID, "2026-03-03 00:00", classes.AttendancePresent, classes.ErrEnrollmentMove},
		{"its trainer", m.coach, m.ana.ID, "2026-03-03 00:00", classes.AttendancePresent, nil},
		{"the same session again: the mark is replaced", m.coach, m.ana.ID, "2026-03-03 00:00", classes.AttendanceLate, nil},
		{"another session: the latest mark", m.desk, m.ana.ID, "2026-03-05 00:00", classes.AttendanceAbsent, nil},
		{"a time of day: its date", m.coach, m.bob.ID, "2026-03-05 17:30", classes.AttendanceExcused, nil},
		{"the other trainer, their class", m.other, m.gus.ID, "2026-03-10 00:00", classes.AttendancePresent, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := m.Enrollments.MarkAttendance(ctx, tc.by, tc.id, at(t, tc.date), tc.status)
			require.ErrorIs(t, err, tc.want)
			if tc.want != nil {
				return
			}
			require.NotNil(t, got.AttendanceStatus)
			assert.Equal(t, tc.status, *got.AttendanceStatus, "the enrollment keeps the latest mark")
			assert.NotNil(t, got.AttendanceMarkedAt)
			assert.Equal(t, m.enrollment(t, tc.id), got)
		})
	}
	var n int
	m.get(t, &n, `SELECT count(*) FROM enrollment_attendance`)
	assert.Equal(t, 4, n, "one mark per enrollment and session")
	c := m.academy.class(t, m.class.ID)
	require.Len(t, c.Attendance, 4)
	assert.Equal(t, classes.Attendance{Date: date("2026-03-03"), Late: 1}, c.Attendance[0])
	assert.Equal(t, classes.Attendance{Date: date("2026-03-05"), Absent: 1, Excused: 1}, c.Attendance[1])
}

func TestEnrollments_studentsAndClients(t *testing.T) {
	t.Parallel()
	a := newAcademy(t)
	ctx := t.Context()
	c := a.newClass(t, a.input(a.coach.UserID, a.courtA, 10), nil)
	others := a.newClass(t, a.input(a.other.UserID, a.courtB, 10), nil)
	ana, bob, cara, dan := a.client(t, "Ana", "Ruiz"), a.client(t, "Bob", "Paz"), a.client(t, "Cara", "Gil"), a.client(t, "Dan", "Mora")
	a.enroll(t, ana, c.ID)
	_, err := a.Enrollments.Reject(ctx, a.desk, a.enroll(t, bob, c.ID).ID)
	require.NoError(t, err)
	a.enroll(t, dan, c.ID)
	a.enroll(t, cara, others.ID)
	nico := a.clientBy(t, "Nico", a.coach)
	zoe := a.clientBy(t, "Zoe", a.head)

	t.Run("Students", func(t *testing.T) {
		for _, tc := range []struct {
			name string
			by   clubhouse.Actor
			want error
			ids  []int64
		}{
			{"a trainer: their students, by name", a.coach, nil, []int64{dan.id, ana.id}},
			{"another trainer", a.other, nil, []int64{cara.id}},
			{"staff: every class's", a.desk, nil, []int64{cara.id, dan.id, ana.id}},
			{"staff in the trainer area: their own classes'", a.head, nil, []int64{}},
			{"a client", ana.by, clubhouse.ErrForbidden, nil},
		} {
			t.Run(tc.name, func(t *testing.T) {
				got, err := a.Enrollments.Students(ctx, tc.by)
				require.ErrorIs(t, err, tc.want)
				ids := []int64{}
				for _, s := range got {
					ids = append(ids, s.ClientID)
				}
				if tc.want == nil {
					assert.Equal(t, tc.ids, ids)
				}
			})
		}
	})
	t.Run("Student", func(t *testing.T) {
		for _, tc := range []struct {
			name string
			by   clubhouse.Actor
			id   int64
			want error
		}{
			{"a trainer, their student", a.coach, ana.id, nil},
			{"a trainer, a client they rejected", a.coach, bob.id, classes.ErrStudentNotFound},
			{"a trainer, another trainer's student", a.coach, cara.id, classes.ErrStudentNotFound},
			{"a trainer, a client they created and never enrolled", a.coach, nico, classes.ErrStudentNotFound},
			{"staff, any class's student", a.desk, cara.id, nil},
			{"staff in the trainer area, another's student", a.head, ana.id, classes.ErrStudentNotFound},
			{"a client", ana.by, ana.id, clubhouse.ErrForbidden},
		} {
			t.Run(tc.name, func(t *testing.T) {
				got, err := a.Enrollments.Student(ctx, tc.by, tc.id)
				require.ErrorIs(t, err, tc.want)
				if tc.want == nil {
					assert.Equal(t, tc.id, got.ClientID)
				}
			})
		}
	})
	t.Run("Clients", func(t *testing.T) {
		for _, tc := range []struct {
			name string
			by   clubhouse.Actor
			want error
			ids  []int64
		}{
			{"a trainer: their students and the clients they created, by id", a.coach, nil, []int64{ana.id, dan.id, nico}},
			{"another trainer", a.other, nil, []int64{cara.id}},
			{"staff in the trainer area: the clients they created", a.head, nil, []int64{zoe}},
			{"staff: every class's students", a.desk, nil, []int64{ana.id, cara.id, dan.id}},
			{"a client", ana.by, clubhouse.ErrForbidden, nil},
		} {
			t.Run(tc.name, func(t *testing.T) {
				got, err := a.Enrollments.Clients(ctx, tc.by)
				require.ErrorIs(t, err, tc.want)
				ids := []int64{}
				for _, c := range got {
					ids = append(ids, c.ID)
				}
				if tc.want == nil {
					assert.Equal(t, tc.ids, ids)
				}
			})
		}
	})
	t.Run("Client", func(t *testing.T) {
		for _, tc := range []struct {
			name string
			by   clubhouse.Actor
			id   int64
			want error
		}{
			{"a trainer, a client they created", a.coach, nico, nil},
			{"a trainer, their student", a.coach, ana.id, nil},
			{"another trainer, that client", a.other, nico, classes.ErrStudentNotFound},
			{"no such client", a.coach, 9999, classes.ErrStudentNotFound},
			{"staff in the trainer area, a client they created", a.head, zoe, nil},
			{"a client", ana.by, ana.id, clubhouse.ErrForbidden},
		} {
			t.Run(tc.name, func(t *testing.T) {
				got, err := a.Enrollments.Client(ctx, tc.by, tc.id)
				require.ErrorIs(t, err, tc.want)
				if tc.want == nil {
					assert.Equal(t, tc.id, got.ID)
				}
			})
		}
	})
}

func TestEnrollments_Dashboard(t *testing.T) {
	t.Parallel()
	a := newAcademy(t)
	ctx := t.Context()
	c := a.newClass(t, a.input(a.coach.UserID, a.courtA, 10), nil)
	small := a.campClass(t, 10)
	cancelled := a.newClass(t, a.input(a.coach.UserID, a.courtA, 12), nil)
	_, err := a.Classes.Cancel(ctx, a.desk, cancelled.ID)
	require.NoError(t, err)
	completed := a.begun(t, a.coach.UserID, a.courtA, 14)
	_, err = a.Classes.Complete(ctx, a.desk, completed.ID)
	require.NoError(t, err)
	others := a.newClass(t, a.input(a.other.UserID, a.courtB, 12), nil)
	ana, bob := a.client(t, "Ana", "Ruiz"), a.client(t, "Bob", "Paz")
	anas, err := a.Enrollments.Enroll(ctx, ana.by, c.ID, []payments.Input{a.claim("25000", "A-1")})
	require.NoError(t, err)
	a.confirm(t, "A-1")
	bobs, err := a.Enrollments.Enroll(ctx, bob.by, c.ID, []payments.Input{a.claim("10000", "B-1")})
	require.NoError(t, err)
	for _, s := range []student{ana, bob, a.client(t, "Cara", "Gil")} {
		a.enroll(t, s, small.ID)
	}
	a.enroll(t, a.client(t, "Gus", "Test"), others.ID)
	for _, mark := range []struct {
		e      int64
		date   string
		status string
	}{{anas.ID, "2026-03-03 00:00", "present"}, {anas.ID, "2026-03-05 00:00", "late"}, {bobs.ID, "2026-03-03 00:00", "absent"}} {
		_, err := a.Enrollments.MarkAttendance(ctx, a.desk, mark.e, at(t, mark.date), mark.status)
		require.NoError(t, err)
	}

	// figures is what the rows compare of a Dashboard.
	type figures struct {
		Scheduled, Completed, Cancelled, Students, Pending, Waitlisted int
		Rate                                                           string // "" before any mark
		Income                                                         []string
	}
	for _, tc := range []struct {
		name string
		by   clubhouse.Actor
		want error
		fig  figures
	}{
		{"a trainer: their figures", a.coach, nil, figures{2, 1, 1, 3, 4, 1, "0.6667", []string{
			fmt.Sprintf("%d paid 25000 pending 10000", c.ID), fmt.Sprintf("%d paid 0 pending 0", small.ID),
			fmt.Sprintf("%d paid 0 pending 0", cancelled.ID), fmt.Sprintf("%d paid 0 pending 0", completed.ID)}}},
		{"another trainer: theirs", a.other, nil, figures{1, 0, 0, 1, 1, 0, "", []string{fmt.Sprintf("%d paid 0 pending 0", others.ID)}}},
		{"staff: every class's", a.desk, nil, figures{3, 1, 1, 4, 5, 1, "0.6667", []string{
			fmt.Sprintf("%d paid 25000 pending 10000", c.ID), fmt.Sprintf("%d paid 0 pending 0", small.ID),
			fmt.Sprintf("%d paid 0 pending 0", cancelled.ID), fmt.Sprintf("%d paid 0 pending 0", completed.ID),
			fmt.Sprintf("%d paid 0 pending 0", others.ID)}}},
		{"staff in the trainer area: their own, none", a.head, nil, figures{Income: []string{}}},
		{"a client", ana.by, clubhouse.ErrForbidden, figures{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := a.Enrollments.Dashboard(ctx, tc.by)
			require.ErrorIs(t, err, tc.want)
			if tc.want != nil {
				return
			}
			got := figures{d.Scheduled, d.Completed, d.Cancelled, d.Students, d.Pending, d.Waitlisted, "", []string{}}
			if d.AttendanceRate != nil {
				got.Rate = d.AttendanceRate.String()
			}
			for _, in := range d.Income {
				got.Income = append(got.Income, fmt.Sprintf("%d paid %s pending %s", in.ClassID, in.Paid, in.Pending))
			}
			assert.Equal(t, tc.fig, got)
		})
	}
}

// TestEnrollments_racing: clients racing for a class's five places, by
// each way of enrolling at once, hold five and no more, and the others
// wait in line, each in a place of their own; places freed at once go to
// the first in line, in order, however the moves interleave; and one
// client's enrollments racing in one class give one enrollment.
func TestEnrollments_racing(t *testing.T) {
	t.Parallel()
	a := newAcademy(t)
	ctx := t.Context()
	_, err := a.Tariffs.Update(ctx, a.desk, a.clinicTariff, classes.TariffInput{MaxCapacity: clubhouse.Some(5)})
	require.NoError(t, err)
	c := a.newClass(t, a.input(a.coach.UserID, a.courtA, 10), nil)
	const racers = 40
	clients := make([]student, racers)
	for i := range clients {
		clients[i] = a.client(t, fmt.Sprintf("Racer%02d", i), "Test")
	}
	// line returns the enrollments of the class by status, the waiting
	// ones in their order in line.
	line := func(t *testing.T) map[string][]classes.Enrollment {
		rows, err := a.Enrollments.List(ctx, a.desk, classes.EnrollmentFilter{ClassID: c.ID})
		require.NoError(t, err)
		out := map[string][]classes.Enrollment{}
		for _, e := range rows {
			out[e.Status] = append(out[e.Status], e)
		}
		slices.SortFunc(out[classes.EnrollmentWaitlisted], func(x, y classes.Enrollment) int { return *x.WaitlistPosition - *y.WaitlistPosition })
		for i, e := range out[classes.EnrollmentWaitlisted] {
			assert.Equal(t, i+1, *e.WaitlistPosition, "every waiting client has a place in line of their own")
		}
		assert.Equal(t, len(out[classes.EnrollmentPending])+len(out[classes.EnrollmentAccepted]), a.class(t, c.ID).EnrolledCount)
		return out
	}
	race := func(n int, do func(i int) error) []error {
		start := make(chan struct{})
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				<-start
				errs[i] = do(i)
			})
		}
		close(start)
		wg.Wait()
		return errs
	}

	t.Run("for the places", func(t *testing.T) {
		errs := race(racers, func(i int) error {
			var err error
			switch i % 4 {
			case 0:
				_, err = a.Enrollments.Enroll(ctx, clients[i].by, c.ID, []payments.Input{a.claim("1000", fmt.Sprint("R-", i))})
			case 1:
				_, err = a.Enrollments.Add(ctx, a.desk, c.ID, clients[i].id)
			default:
				_, err = a.Enrollments.Enroll(ctx, clients[i].by, c.ID, nil)
			}
			return err
		})
		for i, err := range errs {
			assert.NoError(t, err, "racer %d", i)
		}
		got := line(t)
		assert.Len(t, got[classes.EnrollmentPending], 5, "five places, five holders")
		assert.Len(t, got[classes.EnrollmentWaitlisted], racers-5)
	})

	t.Run("for the places freed", func(t *testing.T) {
		before := line(t)
		holders, waiting := before[classes.EnrollmentPending], before[classes.EnrollmentWaitlisted]
		// The holders are removed while the last five in line withdraw.
		leaving := waiting[len(waiting)-5:]
		errs := race(10, func(i int) error {
			var err error
			if i < 5 {
				_, err = a.Enrollments.Remove(ctx, a.desk, holders[i].ID)
			} else {
				_, err = a.Enrollments.Withdraw(ctx, clubhouse.Actor{UID: "racer", UserID: *leaving[i-5].UserID}, c.ID)
			}
			return err
		})
		for i, err := range errs {
			assert.NoError(t, err, "move %d", i)
		}
		got := line(t)
		assert.ElementsMatch(t, enrollmentIDs(waiting[:5]), enrollmentIDs(got[classes.EnrollmentPending]), "the first five in line hold the places")
		assert.Equal(t, enrollmentIDs(waiting[5:len(waiting)-5]), enrollmentIDs(got[classes.EnrollmentWaitlisted]), "the others wait in order")
	})

	t.Run("one client, many clicks", func(t *testing.T) {
		twice := a.client(t, "Twice", "Test")
		errs := race(8, func(i int) error {
			var claims []payments.Input
			if i%2 == 0 {
				claims = []payments.Input{a.claim("1000", fmt.Sprint("T-", i))}
			}
			_, err := a.Enrollments.Enroll(ctx, twice.by, c.ID, claims)
			return err
		})
		won := 0
		for _, err := range errs {
			if err == nil {
				won++
				continue
			}
			require.ErrorIs(t, err, classes.ErrAlreadyEnrolled)
		}
		assert.Equal(t, 1, won)
	})
}
