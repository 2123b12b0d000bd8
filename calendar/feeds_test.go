package calendar_test

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
	"github.com/clubhouse-go/clubhouse/calendar"
	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/fixture"
	"github.com/clubhouse-go/clubhouse/internal/testkit/icaltest"
	"github.com/clubhouse-go/clubhouse/tickets"
)

var key = []byte(strings.Repeat("s", 32))

// club is a club with a court, a class of a trainer on it and an event on
// another court.
type club struct {
	fix          *fixture.Club
	feeds        *calendar.Feeds
	court, other int64
	rental       int64
	trainer      clubhouse.Actor
	class        int64
	event        tickets.Event
}

func newClub(t *testing.T, o calendar.Options) club {
	t.Helper()
	db := dbtest.New(t)
	bogota := zone(t, "America/Bogota")
	fix := fixture.New(t, db.DB, fixture.Options{Zone: bogota, Start: "2026-03-01 09:00"})
	ct := fix.CourtType("Padel").ID
	c := club{fix: fix, court: fix.Court(ct, "Cancha Ñ").ID, other: fix.Court(ct, "Cancha 2").ID, rental: fix.ReservationType("Alquiler").ID,
		trainer: fix.Trainer("Tina")}
	classType := fix.ClassType("Clase").ID
	fix.ClassTariff(ct, classType, 4)
	c.class = fix.Class(c.trainer.UserID, c.court, classType).ID
	c.event = fix.Event(c.other, fix.EventType("Evento").ID)
	o.Zone, o.Now, o.Host = bogota, fix.Clock.Now, "club.test"
	if o.Key == nil {
		o.Key = key
	}
	c.feeds = calendar.New(db.DB, o)
	return c
}

func (c club) serve(t *testing.T, token string) icaltest.Calendar {
	t.Helper()
	doc, err := c.feeds.Serve(context.Background(), token)
	require.NoError(t, err)
	return icaltest.Parse(t, doc.Body)
}

func TestFeeds_member(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := newClub(t, calendar.Options{})
	fix := c.fix
	m := fix.Member("Ana", "Gómez")
	moved := fix.Reservation(c.court, c.rental, m.Client.ID, "2026-03-02 18:00", "2026-03-02 19:00")
	_, err := fix.Booking.Bookings.Update(ctx, fix.Staff, moved.ID, booking.BookingInput{
		Checking: clubhouse.Some(fixture.Wall(t, "2026-03-02 19:00")), Checkout: clubhouse.Some(fixture.Wall(t, "2026-03-02 20:30"))})
	require.NoError(t, err)
	cancelled := fix.Reservation(c.court, c.rental, m.Client.ID, "2026-03-03 10:00", "2026-03-03 11:00")
	_, err = fix.Booking.Bookings.Cancel(ctx, fix.Staff, cancelled.ID, "rain")
	require.NoError(t, err)
	fix.Reservation(c.court, c.rental, fix.Client("Bob", "Ruiz").ID, "2026-03-04 10:00", "2026-03-04 11:00") // another client's
	fix.Enrollment(m, c.class)
	_, err = fix.Tickets.Events.AddParticipant(ctx, fix.Staff, c.event.ID, tickets.ParticipantInput{ClientID: clubhouse.Some(m.Client.ID)})
	require.NoError(t, err)

	_, err = c.feeds.Own(ctx, m.Actor)
	require.ErrorIs(t, err, calendar.ErrFeedNotFound, "no feed until one is made")
	f, err := c.feeds.RenewOwn(ctx, m.Actor)
	require.NoError(t, err)
	assert.Len(t, f.Token, 43)
	assert.Equal(t, calendar.KindMember, f.Kind)
	shown, err := c.feeds.Own(ctx, m.Actor)
	require.NoError(t, err)
	assert.Equal(t, f.Token, shown.Token, "the same URL is shown again")

	cal := c.serve(t, f.Token)
	assert.Equal(t, "Ana Gómez", cal.Name)
	assert.Equal(t, []string{"America/Bogota"}, cal.Timezones)
	require.Len(t, cal.Events, 5, "two bookings, two class sessions, one event: %+v", cal.Events)
	b := cal.ByUID[fmt.Sprintf("booking-%d@club.test", moved.ID)]
	assert.Equal(t, "America/Bogota", b.TZID)
	assert.Equal(t, "2026-03-02 19:00", b.Start.Format("2006-01-02 15:04"))
	assert.Equal(t, "2026-03-03 01:30", b.End.UTC().Format("2006-01-02 15:04"), "20:30 in Bogota")
	assert.Equal(t, 1, b.Sequence, "moved once")
	assert.Equal(t, "CONFIRMED", b.Status)
	assert.Equal(t, "Cancha Ñ · Alquiler", b.Summary)
	assert.Equal(t, "Cancha Ñ", b.Location)
	x := cal.ByUID[fmt.Sprintf("booking-%d@club.test", cancelled.ID)]
	assert.Equal(t, "CANCELLED", x.Status, "a cancelled booking stays, cancelled")
	assert.Equal(t, 1, x.Sequence)
	var sessions []icaltest.Event
	for _, e := range cal.Events {
		if strings.HasPrefix(e.UID, fmt.Sprintf("class-%d-", c.class)) {
			sessions = append(sessions, e)
		}
	}
	require.Len(t, sessions, 2)
	assert.Equal(t, "Basics", sessions[0].Summary)
	assert.Equal(t, "10:00", sessions[0].Start.Format("15:04"))
	ev := cal.ByUID[fmt.Sprintf("event-%d@club.test", c.event.ID)]
	assert.Equal(t, "Open day", ev.Summary)
	assert.Equal(t, "Cancha 2", ev.Location)
	assert.Equal(t, "CONFIRMED", ev.Status)

	// A cancelled class and event stay, cancelled, each change counted.
	_, err = fix.Classes.Classes.Cancel(ctx, fix.Staff, c.class)
	require.NoError(t, err)
	_, err = fix.Tickets.Events.Cancel(ctx, fix.Staff, c.event.ID)
	require.NoError(t, err)
	after := c.serve(t, f.Token)
	require.Len(t, after.Events, 5)
	for _, s := range sessions {
		got := after.ByUID[s.UID]
		assert.Equal(t, "CANCELLED", got.Status, s.UID)
		assert.Greater(t, got.Sequence, s.Sequence, "SEQUENCE rises with the change")
	}
	assert.Equal(t, "CANCELLED", after.ByUID[ev.UID].Status)
	assert.Greater(t, after.ByUID[ev.UID].Sequence, ev.Sequence)
	assert.Equal(t, b, after.ByUID[b.UID], "an unchanged entry stays the same")

	// Another key can no longer show the URL, which still works.
	other := calendar.New(fix.DB, calendar.Options{Key: []byte(strings.Repeat("o", 32)), Zone: fix.Zone, Now: fix.Clock.Now})
	_, err = other.Own(ctx, m.Actor)
	require.ErrorIs(t, err, calendar.ErrFeedKeyChanged)
	_, err = other.Serve(ctx, f.Token)
	require.NoError(t, err)

	// A new token ends the old one; a revoked feed is gone.
	renewed, err := c.feeds.RenewOwn(ctx, m.Actor)
	require.NoError(t, err)
	assert.NotEqual(t, f.Token, renewed.Token)
	_, err = c.feeds.Serve(ctx, f.Token)
	require.ErrorIs(t, err, calendar.ErrFeedNotFound)
	c.serve(t, renewed.Token)
	require.NoError(t, c.feeds.RevokeOwn(ctx, m.Actor))
	_, err = c.feeds.Serve(ctx, renewed.Token)
	require.ErrorIs(t, err, calendar.ErrFeedNotFound)
	require.ErrorIs(t, c.feeds.RevokeOwn(ctx, m.Actor), calendar.ErrFeedNotFound)
	_, err = c.feeds.Own(ctx, m.Actor)
	require.ErrorIs(t, err, calendar.ErrFeedNotFound)
}

func TestFeeds_ownRefusals(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := newClub(t, calendar.Options{})
	for _, tc := range []struct {
		name string
		by   clubhouse.Actor
		want error
	}{
		{"anonymous", clubhouse.Actor{}, clubhouse.ErrUnauthorized},
		{"a user without a client record", c.fix.User("nobody"), booking.ErrClientNotFound},
		{"a bot", clubhouse.Staff("bot"), booking.ErrClientNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.feeds.RenewOwn(ctx, tc.by)
			require.ErrorIs(t, err, tc.want)
			_, err = c.feeds.Own(ctx, tc.by)
			require.ErrorIs(t, err, tc.want)
			require.ErrorIs(t, c.feeds.RevokeOwn(ctx, tc.by), tc.want)
		})
	}
	for _, bad := range []string{"", "x", strings.Repeat("A", 43), strings.Repeat("A", 44), "../../etc/passwd"} {
		_, err := c.feeds.Serve(ctx, bad)
		require.ErrorIs(t, err, calendar.ErrFeedNotFound, bad)
	}
}

func TestFeeds_courtAndTrainer(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := newClub(t, calendar.Options{})
	fix := c.fix
	m := fix.Member("Ana", "Gómez")
	fix.Reservation(c.court, c.rental, m.Client.ID, "2026-03-02 18:00", "2026-03-02 19:00")
	op := fix.Operator("desk")

	for _, tc := range []struct {
		name    string
		by      clubhouse.Actor
		kind    calendar.Kind
		subject int64
		want    error
	}{
		{"a court, by an operator", op, calendar.KindCourt, c.court, nil},
		{"a trainer, by staff", fix.Staff, calendar.KindTrainer, c.trainer.UserID, nil},
		{"by a member", m.Actor, calendar.KindCourt, c.court, clubhouse.ErrForbidden},
		{"by the trainer", c.trainer, calendar.KindTrainer, c.trainer.UserID, clubhouse.ErrForbidden},
		{"a member's, by staff", op, calendar.KindMember, m.Client.ID, calendar.ErrFeedKind},
		{"no such court", op, calendar.KindCourt, 99999, calendar.ErrSubjectNotFound},
		{"no such trainer", op, calendar.KindTrainer, 99999, calendar.ErrSubjectNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.feeds.Renew(ctx, tc.by, tc.kind, tc.subject)
			require.ErrorIs(t, err, tc.want)
		})
	}

	court, err := c.feeds.Get(ctx, op, calendar.KindCourt, c.court)
	require.NoError(t, err)
	cal := c.serve(t, court.Token)
	assert.Equal(t, "Cancha Ñ", cal.Name)
	require.Len(t, cal.Events, 3, "the member's booking and the class's two sessions: %+v", cal.Events)
	var summaries []string
	for _, e := range cal.Events {
		assert.True(t, strings.HasPrefix(e.UID, "booking-"), e.UID)
		summaries = append(summaries, e.Summary)
		assert.NotContains(t, e.Summary, "Ana", "a court's feed names no client")
	}
	assert.Equal(t, []string{"Basics", "Alquiler", "Basics"}, summaries, "by start: the first session is on the 2nd at 10:00")

	trainer, err := c.feeds.Get(ctx, fix.Staff, calendar.KindTrainer, c.trainer.UserID)
	require.NoError(t, err)
	tcal := c.serve(t, trainer.Token)
	require.Len(t, tcal.Events, 2)
	for _, e := range tcal.Events {
		assert.Equal(t, "Basics", e.Summary)
		assert.Equal(t, "Cancha Ñ", e.Location)
		assert.Equal(t, "CONFIRMED", e.Status)
	}

	require.ErrorIs(t, c.feeds.Revoke(ctx, m.Actor, calendar.KindCourt, c.court), clubhouse.ErrForbidden)
	require.NoError(t, c.feeds.Revoke(ctx, op, calendar.KindCourt, c.court))
	_, err = c.feeds.Serve(ctx, court.Token)
	require.ErrorIs(t, err, calendar.ErrFeedNotFound)
	_, err = c.feeds.Get(ctx, op, calendar.KindCourt, c.court)
	require.ErrorIs(t, err, calendar.ErrFeedNotFound)
	c.serve(t, trainer.Token)
}

func TestFeeds_rate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := newClub(t, calendar.Options{Rate: calendar.Rate{Every: time.Minute, Burst: 2}})
	m := c.fix.Member("Ana", "Gómez")
	f, err := c.feeds.RenewOwn(ctx, m.Actor)
	require.NoError(t, err)
	c.serve(t, f.Token)
	c.serve(t, f.Token)
	_, err = c.feeds.Serve(ctx, f.Token)
	require.ErrorIs(t, err, calendar.ErrTooManyRequests)
	var limited *calendar.TooManyRequests
	require.ErrorAs(t, err, &limited)
	assert.Equal(t, time.Minute, limited.RetryAfter())
	c.fix.Clock.Advance(time.Minute)
	c.serve(t, f.Token)
}

// TestFeeds_window: entries that started before Options.Past are left out.
func TestFeeds_window(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := newClub(t, calendar.Options{Past: 24 * time.Hour})
	m := c.fix.Member("Ana", "Gómez")
	old := c.fix.Reservation(c.court, c.rental, m.Client.ID, "2026-03-02 18:00", "2026-03-02 19:00")
	f, err := c.feeds.RenewOwn(ctx, m.Actor)
	require.NoError(t, err)
	require.Contains(t, c.serve(t, f.Token).ByUID, fmt.Sprintf("booking-%d@club.test", old.ID))
	c.fix.Clock.Advance(3 * 24 * time.Hour)
	assert.NotContains(t, c.serve(t, f.Token).ByUID, fmt.Sprintf("booking-%d@club.test", old.ID))
}
