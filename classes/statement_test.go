package classes_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/payments"
)

// TestEnrollments_Statement: a client's statement lists their bookings
// ahead soonest first and those over latest first, cancelled ones too,
// their enrollments and the payments of both, and sums what they owe: the
// debts of the bookings not cancelled and of the enrollments that hold a
// place. Another client's bookings and payments are not theirs; only the
// staff read it, and a client that does not exist is not found.
func TestEnrollments_Statement(t *testing.T) {
	t.Parallel()
	a := newAcademy(t)
	ctx := t.Context()
	ana, bob := a.client(t, "Ana", "Ruiz"), a.client(t, "Bob", "Paz")

	// 60,000 an hour: 60,000 owed over, 90,000 less 30,000 paid ahead, and
	// a cancelled one ahead that owes nothing.
	over := a.fix.Reservation(a.courtA, a.rental, ana.id, "2026-03-01 10:00", "2026-03-01 11:00")
	ahead := a.fix.Reservation(a.courtA, a.rental, ana.id, "2026-03-05 16:00", "2026-03-05 17:30")
	later := a.fix.Reservation(a.courtB, a.rental, ana.id, "2026-03-04 16:00", "2026-03-04 17:00")
	_, err := a.club.Bookings.Cancel(ctx, a.desk, later.ID, "")
	require.NoError(t, err)
	_, err = a.pay.CreateForBooking(ctx, a.desk, ahead.ID, payments.Input{PaymentTypeID: clubhouse.Some(a.card),
		Amount: money("30000"), Status: clubhouse.Some(true)}, nil)
	require.NoError(t, err)
	a.fix.Reservation(a.courtA, a.rental, bob.id, "2026-03-06 10:00", "2026-03-06 11:00")

	// 25,000 a place: 10,000 paid of the pending one, nothing owed by the
	// rejected one.
	pending := a.newClass(t, a.input(a.coach.UserID, a.courtA, 8), nil)
	rejected := a.newClass(t, a.input(a.coach.UserID, a.courtB, 8), nil)
	held, err := a.Enrollments.Enroll(ctx, ana.by, pending.ID, []payments.Input{a.claim("10000", "TX-1")})
	require.NoError(t, err)
	a.confirm(t, "TX-1")
	gone := a.enroll(t, ana, rejected.ID)
	_, err = a.Enrollments.Reject(ctx, a.desk, gone.ID)
	require.NoError(t, err)

	st, err := a.Enrollments.Statement(ctx, a.desk, ana.id)
	require.NoError(t, err)
	assert.Equal(t, ana.id, st.Client.ID)
	assert.Equal(t, []int64{later.ID, ahead.ID}, bookingIDs(st.Account.Upcoming), "soonest first, cancelled too")
	assert.Equal(t, 2, st.Account.UpcomingCount)
	assert.Equal(t, []int64{over.ID}, bookingIDs(st.Account.Past))
	assert.Equal(t, 1, st.Account.PastCount)
	assert.Equal(t, "60000", st.Account.Upcoming[1].Amount.Debt().String())
	assert.Equal(t, "120000", st.Account.Owed.String(), "the bookings' debts")
	assert.Equal(t, []int64{held.ID, gone.ID}, enrollmentIDs(st.Enrollments))
	assert.Equal(t, "10000", st.Enrollments[0].Paid.String())
	assert.Equal(t, "135000", st.Owed.String(), "the bookings' and the held place's debts")
	require.Len(t, st.Account.Payments, 2)
	assert.Equal(t, 2, st.Account.PaymentCount)
	for _, p := range st.Account.Payments {
		assert.True(t, (p.ReservationID != nil && *p.ReservationID == ahead.ID) || (p.EnrollmentID != nil && *p.EnrollmentID == held.ID), p)
	}

	empty, err := a.Enrollments.Statement(ctx, a.desk, a.fix.Client("Cleo", "Sin").ID)
	require.NoError(t, err)
	assert.Empty(t, empty.Account.Upcoming)
	assert.Empty(t, empty.Enrollments)
	assert.True(t, empty.Owed.IsZero())

	for name, by := range map[string]clubhouse.Actor{"a trainer": a.coach, "staff in the trainer area": a.head, "the client": ana.by} {
		_, err := a.Enrollments.Statement(ctx, by, ana.id)
		require.ErrorIs(t, err, clubhouse.ErrForbidden, name)
	}
	_, err = a.Enrollments.Statement(ctx, a.desk, 1_000_000)
	require.ErrorIs(t, err, booking.ErrClientNotFound)
}

// bookingIDs are the ids of rows, in order.
func bookingIDs(rows []booking.Priced) []int64 {
	ids := []int64{}
	for _, r := range rows {
		ids = append(ids, r.ID)
	}
	return ids
}
