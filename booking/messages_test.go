package booking_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/eventlog"
	"github.com/clubhouse-go/clubhouse/internal/testkit/relaytest"
)

// staffOnly, staffAnd and ownerOnly are the audiences of booking:changed.
func staffOnly() clubhouse.Audience { return clubhouse.Audience{Rooms: []string{clubhouse.RoomPanel}} }

func staffAnd(user int64) clubhouse.Audience {
	return clubhouse.Audience{Users: []int64{user}, Rooms: []string{clubhouse.RoomPanel}}
}

func ownerOnly(user int64) clubhouse.Audience { return clubhouse.Audience{Users: []int64{user}} }

// changedMsg is the booking:changed message naming ids for audience a.
func changedMsg(a clubhouse.Audience, ids ...int64) published {
	return published{Topic: booking.TopicChanged, JSON: fmt.Sprintf(`{"ids":%s}`, jsonInts(ids)), Audience: a}
}

// availMsg is the availability:updated message of court on date.
func availMsg(court int64, date string) published {
	return published{Topic: booking.TopicAvailability, JSON: fmt.Sprintf(`{"court_id":%d,"date":"%s"}`, court, date),
		Audience: clubhouse.Audience{Rooms: []string{clubhouse.RoomPanel, clubhouse.RoomApp}}}
}

func jsonInts(ids []int64) string {
	s := "["
	for i, id := range ids {
		if i > 0 {
			s += ","
		}
		s += fmt.Sprint(id)
	}
	return s + "]"
}

// held is a booking as Reserve returns it, for the pure tests of Changes.
func held(tb testing.TB, id, court int64, owner int64, from, to string) booking.Reservation {
	tb.Helper()
	r := booking.Reservation{ID: id, CourtID: court, Checking: wall(tb, from), Checkout: wall(tb, to)}
	if owner != 0 {
		r.ClientUserID = &owner
	}
	return r
}

// TestChanges_Publish: the messages of one commit's changes, without a
// database: one booking:changed for the staff and the owner, split when the
// bookings have several owners, and one availability:updated per court and
// date.
func TestChanges_Publish(t *testing.T) {
	t.Parallel()
	weeks := make([]booking.Reservation, 8)
	var weekIDs []int64
	for i := range weeks {
		day := time.Date(2026, 3, 3+7*i, 0, 0, 0, 0, time.UTC).Format(time.DateOnly)
		weeks[i] = held(t, int64(10+i), 1, 7, day+" 18:00", day+" 19:00")
		weekIDs = append(weekIDs, int64(10+i))
	}
	weekDays := make([]published, 0, 8)
	for _, r := range weeks {
		weekDays = append(weekDays, availMsg(1, r.Checking.Format(time.DateOnly)))
	}
	tests := []struct {
		name    string
		changes func() booking.Changes
		want    []published
	}{
		{name: "nothing", changes: func() booking.Changes { return booking.Changes{} }},
		{name: "a booking of nobody", changes: func() booking.Changes {
			return booking.Reserved(held(t, 1, 2, 0, "2026-03-03 10:00", "2026-03-03 11:00"))
		}, want: []published{changedMsg(staffOnly(), 1), availMsg(2, "2026-03-03")}},
		{name: "a client's booking: one message for the staff and the client", changes: func() booking.Changes {
			return booking.Reserved(held(t, 1, 2, 7, "2026-03-03 10:00", "2026-03-03 11:00"))
		}, want: []published{changedMsg(staffAnd(7), 1), availMsg(2, "2026-03-03")}},
		{name: "across midnight: two dates", changes: func() booking.Changes {
			return booking.Reserved(held(t, 1, 2, 7, "2026-03-03 23:00", "2026-03-04 01:00"))
		}, want: []published{changedMsg(staffAnd(7), 1), availMsg(2, "2026-03-03"), availMsg(2, "2026-03-04")}},
		{name: "ending at midnight: one date", changes: func() booking.Changes {
			return booking.Reserved(held(t, 1, 2, 7, "2026-03-03 22:00", "2026-03-04 00:00"))
		}, want: []published{changedMsg(staffAnd(7), 1), availMsg(2, "2026-03-03")}},
		{name: "a series of 8 weeks: one message, 8 dates", changes: func() booking.Changes {
			return booking.Reserved(weeks...)
		}, want: append([]published{changedMsg(staffAnd(7), weekIDs...)}, weekDays...)},
		{name: "one court and date booked twice: one date", changes: func() booking.Changes {
			return booking.Reserved(held(t, 1, 2, 7, "2026-03-03 10:00", "2026-03-03 11:00"),
				held(t, 2, 2, 7, "2026-03-03 12:00", "2026-03-03 13:00"))
		}, want: []published{changedMsg(staffAnd(7), 1, 2), availMsg(2, "2026-03-03")}},
		{name: "several owners: the staff's message, then each owner's own", changes: func() booking.Changes {
			return booking.Reserved(held(t, 1, 2, 7, "2026-03-03 10:00", "2026-03-03 11:00"),
				held(t, 2, 2, 8, "2026-03-03 11:00", "2026-03-03 12:00"),
				held(t, 3, 3, 0, "2026-03-04 11:00", "2026-03-04 12:00"),
				held(t, 4, 3, 7, "2026-03-05 11:00", "2026-03-05 12:00"))
		}, want: []published{changedMsg(staffOnly(), 1, 2, 3, 4), changedMsg(ownerOnly(7), 1, 4), changedMsg(ownerOnly(8), 2),
			availMsg(2, "2026-03-03"), availMsg(3, "2026-03-04"), availMsg(3, "2026-03-05")}},
		{name: "an owner's booking beside one of nobody: split", changes: func() booking.Changes {
			return booking.Reserved(held(t, 1, 2, 7, "2026-03-03 10:00", "2026-03-03 11:00"),
				held(t, 2, 2, 0, "2026-03-03 11:00", "2026-03-03 12:00"))
		}, want: []published{changedMsg(staffOnly(), 1, 2), changedMsg(ownerOnly(7), 1), availMsg(2, "2026-03-03")}},
		{name: "joined: each booking and date once", changes: func() booking.Changes {
			a := booking.Reserved(held(t, 1, 2, 7, "2026-03-03 10:00", "2026-03-03 11:00"))
			b := booking.Reserved(held(t, 1, 2, 7, "2026-03-03 10:00", "2026-03-03 11:00"),
				held(t, 2, 2, 7, "2026-03-04 10:00", "2026-03-04 11:00"))
			return a.Join(b)
		}, want: []published{changedMsg(staffAnd(7), 1, 2), availMsg(2, "2026-03-03"), availMsg(2, "2026-03-04")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var ms eventlog.Messages
			tt.changes().Publish(&ms)
			var got []relaytest.Message
			for _, m := range ms {
				got = append(got, relaytest.Of(m.Topic, m.Payload))
			}
			assert.Equal(t, tt.want, publishedOf(got))
		})
	}
}

// TestBookings_messages: each write path of the booking services publishes,
// after its commit, booking:changed for the staff and the bookings' owners
// and availability:updated for each court and date whose booked time
// changed; a refused write publishes nothing. Each row books on its own
// dates, and returns the messages it expects.
func TestBookings_messages(t *testing.T) {
	t.Parallel()
	c := newTestClub(t)
	club := booking.New(c.db.DB, booking.Options{Zone: time.UTC, Now: func() time.Time { return clubNow }, Log: c.log})
	ctx := t.Context()
	ana, bob := c.ana.UserID, c.bob.UserID
	tests := []struct {
		name string
		run  func(t *testing.T) []published
	}{
		{name: "staff book for a client", run: func(t *testing.T) []published {
			in := c.input(t, c.court, "2026-03-03 10:00", "2026-03-03 11:00")
			in.ClientID = clubhouse.Some(c.anaClient)
			r, err := c.b.Create(ctx, c.staff, in)
			require.NoError(t, err)
			return []published{changedMsg(staffAnd(ana), r.ID), availMsg(c.court, "2026-03-03")}
		}},
		{name: "staff book for nobody", run: func(t *testing.T) []published {
			r, err := c.b.Create(ctx, c.staff, c.input(t, c.court, "2026-03-03 11:00", "2026-03-03 12:00"))
			require.NoError(t, err)
			return []published{changedMsg(staffOnly(), r.ID), availMsg(c.court, "2026-03-03")}
		}},
		{name: "a client books across midnight", run: func(t *testing.T) []published {
			r, err := c.b.ClientCreate(ctx, c.bob, c.input(t, c.court2, "2026-03-04 23:00", "2026-03-05 01:00"))
			require.NoError(t, err)
			return []published{changedMsg(staffAnd(bob), r.ID), availMsg(c.court2, "2026-03-04"), availMsg(c.court2, "2026-03-05")}
		}},
		{name: "a taken slot publishes nothing", run: func(t *testing.T) []published {
			c.book(t, c.court, c.anaClient, "2026-03-06 10:00", "2026-03-06 11:00")
			_, err := c.b.Create(ctx, c.staff, c.input(t, c.court, "2026-03-06 10:30", "2026-03-06 11:30"))
			require.ErrorIs(t, err, booking.ErrCourtTaken)
			return nil
		}},
		{name: "a change of status: no availability", run: func(t *testing.T) []published {
			r := c.book(t, c.court, c.anaClient, "2026-03-09 10:00", "2026-03-09 11:00")
			_, err := c.b.Update(ctx, c.staff, r.ID, booking.BookingInput{ReservationStatusID: clubhouse.Some(c.confirmed)})
			require.NoError(t, err)
			return []published{changedMsg(staffAnd(ana), r.ID)}
		}},
		{name: "a move to another court and date: the old and the new", run: func(t *testing.T) []published {
			r := c.book(t, c.court, c.anaClient, "2026-03-10 10:00", "2026-03-10 11:00")
			in := c.input(t, c.court2, "2026-03-11 10:00", "2026-03-11 11:00")
			_, err := c.b.Update(ctx, c.staff, r.ID, in)
			require.NoError(t, err)
			return []published{changedMsg(staffAnd(ana), r.ID), availMsg(c.court, "2026-03-10"), availMsg(c.court2, "2026-03-11")}
		}},
		{name: "a client's move within the day: one date", run: func(t *testing.T) []published {
			r := c.book(t, c.court, c.anaClient, "2026-03-12 10:00", "2026-03-12 11:00")
			in := c.input(t, c.court, "2026-03-12 12:00", "2026-03-12 13:00")
			_, err := c.b.ClientUpdate(ctx, c.ana, r.ID, in)
			require.NoError(t, err)
			return []published{changedMsg(staffAnd(ana), r.ID), availMsg(c.court, "2026-03-12")}
		}},
		{name: "a move onto a taken slot publishes nothing", run: func(t *testing.T) []published {
			r := c.book(t, c.court, c.anaClient, "2026-03-13 10:00", "2026-03-13 11:00")
			c.book(t, c.court, 0, "2026-03-13 12:00", "2026-03-13 13:00")
			_, err := c.b.Update(ctx, c.staff, r.ID, c.input(t, c.court, "2026-03-13 12:00", "2026-03-13 13:00"))
			require.ErrorIs(t, err, booking.ErrCourtTaken)
			return nil
		}},
		{name: "a booking given to another client: each owner on their own", run: func(t *testing.T) []published {
			r := c.book(t, c.court, c.anaClient, "2026-03-16 10:00", "2026-03-16 11:00")
			_, err := c.b.Update(ctx, c.staff, r.ID, booking.BookingInput{ClientID: clubhouse.Some(c.bobClient)})
			require.NoError(t, err)
			return []published{changedMsg(staffOnly(), r.ID), changedMsg(ownerOnly(ana), r.ID), changedMsg(ownerOnly(bob), r.ID)}
		}},
		{name: "a client cancels: the court is free", run: func(t *testing.T) []published {
			r := c.book(t, c.court, c.anaClient, "2026-03-17 10:00", "2026-03-17 11:00")
			_, err := c.b.ClientCancel(ctx, c.ana, r.ID)
			require.NoError(t, err)
			return []published{changedMsg(staffAnd(ana), r.ID), availMsg(c.court, "2026-03-17")}
		}},
		{name: "cancelling a cancelled booking publishes nothing", run: func(t *testing.T) []published {
			r := c.book(t, c.court, c.anaClient, "2026-03-18 10:00", "2026-03-18 11:00")
			_, err := c.b.Cancel(ctx, c.staff, r.ID, "")
			require.NoError(t, err)
			c.events.take()
			_, err = c.b.Cancel(ctx, c.staff, r.ID, "")
			require.NoError(t, err)
			return nil
		}},
		{name: "another client's cancellation publishes nothing", run: func(t *testing.T) []published {
			r := c.book(t, c.court, c.anaClient, "2026-03-19 10:00", "2026-03-19 11:00")
			_, err := c.b.ClientCancel(ctx, c.bob, r.ID)
			require.ErrorIs(t, err, booking.ErrBookingNotFound)
			return nil
		}},
		{name: "a no-show keeps the court", run: func(t *testing.T) []published {
			r := c.book(t, c.court, c.anaClient, "2026-03-02 10:00", "2026-03-02 11:00")
			_, err := c.b.MarkNoShow(ctx, c.staff, r.ID)
			require.NoError(t, err)
			return []published{changedMsg(staffAnd(ana), r.ID)}
		}},
		{name: "a coupon", run: func(t *testing.T) []published {
			r := c.book(t, c.court, c.anaClient, "2026-03-20 10:00", "2026-03-20 11:00")
			_, err := club.Discounts.CreateCoupon(ctx, desk, booking.DiscountInput{Code: clubhouse.Some("TEN"), Kind: clubhouse.Some(booking.KindPercent),
				Value: clubhouse.Some(dec("10"))})
			require.NoError(t, err)
			_, err = club.Discounts.ApplyCoupon(ctx, desk, r.ID, "ten")
			require.NoError(t, err)
			_, err = club.Discounts.RemoveCoupon(ctx, desk, r.ID)
			require.NoError(t, err)
			_, err = club.Discounts.RemoveCoupon(ctx, desk, r.ID)
			require.ErrorIs(t, err, booking.ErrNoCoupon)
			return []published{changedMsg(staffAnd(ana), r.ID), changedMsg(staffAnd(ana), r.ID)}
		}},
		{name: "a contract", run: func(t *testing.T) []published {
			r := c.book(t, c.court, c.bobClient, "2026-03-23 10:00", "2026-03-23 11:00")
			k, err := club.Discounts.CreateContract(ctx, desk, booking.DiscountInput{Name: clubhouse.Some("Season"), Kind: clubhouse.Some(booking.KindPercent),
				Value: clubhouse.Some(dec("20"))})
			require.NoError(t, err)
			_, err = club.Discounts.SetContract(ctx, desk, r.ID, &k.ID)
			require.NoError(t, err)
			return []published{changedMsg(staffAnd(bob), r.ID)}
		}},
		{name: "a delete", run: func(t *testing.T) []published {
			r := c.book(t, c.court, c.anaClient, "2026-03-24 10:00", "2026-03-24 11:00")
			require.NoError(t, c.b.Delete(ctx, c.staff, r.ID))
			return []published{changedMsg(staffAnd(ana), r.ID), availMsg(c.court, "2026-03-24")}
		}},
		{name: "a bulk delete of several clients' bookings", run: func(t *testing.T) []published {
			a := c.book(t, c.court, c.anaClient, "2026-03-25 10:00", "2026-03-25 11:00")
			b := c.book(t, c.court, c.bobClient, "2026-03-25 11:00", "2026-03-25 12:00")
			n := c.book(t, c.court2, 0, "2026-03-26 11:00", "2026-03-26 12:00")
			cancelled := c.book(t, c.court2, c.anaClient, "2026-03-27 11:00", "2026-03-27 12:00")
			_, err := c.b.Cancel(ctx, c.staff, cancelled.ID, "")
			require.NoError(t, err)
			c.events.take()
			_, err = c.b.DeleteMany(ctx, c.staff, []int64{a.ID, b.ID, n.ID, cancelled.ID, unknown})
			require.NoError(t, err)
			return []published{changedMsg(staffOnly(), a.ID, b.ID, n.ID, cancelled.ID),
				changedMsg(ownerOnly(ana), a.ID, cancelled.ID), changedMsg(ownerOnly(bob), b.ID),
				availMsg(c.court, "2026-03-25"), availMsg(c.court2, "2026-03-26")}
		}},
		{name: "a bulk delete refused by a payment publishes nothing", run: func(t *testing.T) []published {
			a := c.book(t, c.court, c.anaClient, "2026-03-30 10:00", "2026-03-30 11:00")
			paid := c.book(t, c.court, c.bobClient, "2026-03-30 11:00", "2026-03-30 12:00")
			c.pay(t, paid.ID, "60000", true)
			_, err := c.b.DeleteMany(ctx, c.staff, []int64{a.ID, paid.ID})
			require.ErrorIs(t, err, clubhouse.ErrInUse)
			_, err = c.b.Get(ctx, desk, a.ID)
			require.NoError(t, err, "rolled back")
			return nil
		}},
		{name: "a series of 8 weeks on one court, then its deletion", run: func(t *testing.T) []published {
			in := c.seriesInput(t, c.court2, "FREQ=WEEKLY;COUNT=8", "2026-04-06 18:00", "2026-04-06 19:00")
			in.ClientID = clubhouse.Some(c.anaClient)
			res, err := c.b.CreateSeries(ctx, c.staff, in)
			require.NoError(t, err)
			require.Len(t, res.Created, 8)
			var ids []int64
			var days []published
			for _, r := range res.Created {
				ids = append(ids, r.ID)
				days = append(days, availMsg(c.court2, r.Checking.Format(time.DateOnly)))
			}
			want := append([]published{changedMsg(staffAnd(ana), ids...)}, days...)
			assert.Equal(t, want, c.events.takeAll())
			_, err = c.b.DeleteSeries(ctx, c.staff, res.Series.ID, nil)
			require.NoError(t, err)
			return want
		}},
		{name: "a series refused by a taken date publishes nothing", run: func(t *testing.T) []published {
			c.book(t, c.court2, 0, "2026-06-08 18:00", "2026-06-08 19:00")
			_, err := c.b.CreateSeries(ctx, c.staff, c.seriesInput(t, c.court2, "FREQ=WEEKLY;COUNT=3", "2026-06-01 18:00", "2026-06-01 19:00"))
			require.ErrorIs(t, err, booking.ErrCourtTaken)
			return nil
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c.events.take()
			want := tt.run(t)
			assert.Equal(t, want, c.events.takeAll())
		})
	}
}

// TestBookings_messagesRace: twenty clients' bookings race for one slot
// and twenty moves for another: one of each commits, and only the winners
// are announced, each once; the losers' rolled-back writes announce
// nothing.
func TestBookings_messagesRace(t *testing.T) {
	t.Parallel()
	c := newTestClub(t)
	ctx := t.Context()
	const n = 20
	movers := make([]booking.Reservation, n)
	for i := range movers {
		day := time.Date(2026, 3, 10+i, 0, 0, 0, 0, time.UTC).Format(time.DateOnly)
		movers[i] = c.book(t, c.court2, c.bobClient, day+" 10:00", day+" 11:00")
	}
	var wg sync.WaitGroup
	made := make([]booking.Reservation, n)
	moved := make([]booking.Reservation, n)
	errs := make([]error, 2*n)
	for i := range n {
		wg.Go(func() {
			in := c.input(t, c.court, "2026-03-04 10:00", "2026-03-04 11:00")
			in.ClientID = clubhouse.Some(c.anaClient)
			made[i], errs[i] = c.b.Create(ctx, c.staff, in)
		})
		wg.Go(func() {
			moved[i], errs[n+i] = c.b.Update(ctx, c.staff, movers[i].ID, c.input(t, c.court, "2026-03-05 10:00", "2026-03-05 11:00"))
		})
	}
	wg.Wait()
	var want []published
	for i, err := range errs {
		if err != nil {
			require.ErrorIs(t, err, booking.ErrCourtTaken)
			continue
		}
		if i < n {
			want = append(want, changedMsg(staffAnd(c.ana.UserID), made[i].ID), availMsg(c.court, "2026-03-04"))
			continue
		}
		from := movers[i-n].Checking.Format(time.DateOnly)
		want = append(want, changedMsg(staffAnd(c.bob.UserID), moved[i-n].ID), availMsg(c.court2, from), availMsg(c.court, "2026-03-05"))
	}
	assert.Len(t, want, 5, "one booking and one move won")
	assert.ElementsMatch(t, want, c.events.takeAll())
}
