package reminders_test

import (
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/testkit/fixture"
	"github.com/clubhouse-go/clubhouse/reminders"
)

// model is what the test expects of one booking.
type model struct {
	start  time.Time // wall time
	alive  bool      // neither cancelled nor deleted
	gone   bool      // deleted, with its reminders
	login  bool      // its client has a login
	dirty  bool      // changed since the planner last ran
	plan   map[int]time.Time
	sentAt map[int]time.Time
	due    map[int]time.Time // of each sent: its booking's start then, less the offset
}

// TestReminders_randomMoves makes many bookings, moves, cancels and
// deletes them at random (seeded) while the clock runs across the days,
// running the planner after each round of changes and the sender after
// each step of the clock: exactly the expected reminders go, once per
// booking and offset, at the time of the booking's last start, none for
// those cancelled, deleted or of a client without a login, and none late.
func TestReminders_randomMoves(t *testing.T) {
	t.Parallel()
	c := newTestClub(t, 8)
	zone := c.Zone
	rem := c.services.Reminders
	offsets := []int{1440, 120, 30}
	_, err := rem.SetSettings(ctx, staff, reminders.Settings{Offsets: offsets})
	require.NoError(t, err)

	members := []int64{c.Member("Ana", "Ruiz").Client.ID, c.Member("Luis", "Gil").Client.ID, c.Member("Eva", "Paz").Client.ID}
	walkIn := c.Client("Sin", "Login").ID
	rng := rand.New(rand.NewPCG(31, 2026))
	day0 := fixture.Wall(t, "2026-03-02 00:00")
	slot := func() time.Time { // a wall time in the next five days, on the half hour
		return day0.Add(time.Duration(rng.IntN(5))*24*time.Hour + time.Duration(14+rng.IntN(28))*30*time.Minute)
	}
	bookings := map[int64]*model{}
	var ids []int64
	for len(ids) < 60 {
		client, login := members[rng.IntN(len(members))], true
		if rng.IntN(6) == 0 {
			client, login = walkIn, false
		}
		start := slot()
		b, err := c.book(t, c.courts[rng.IntN(len(c.courts))], client, start)
		if err != nil {
			continue // the court is taken then: another try
		}
		ids = append(ids, b.ID)
		bookings[b.ID] = &model{start: start, alive: true, login: login, dirty: true, plan: map[int]time.Time{}, sentAt: map[int]time.Time{}, due: map[int]time.Time{}}
	}
	due := func(start time.Time, offset int) time.Time {
		return time.Date(start.Year(), start.Month(), start.Day(), start.Hour(), start.Minute(), 0, 0, zone).Add(-time.Duration(offset) * time.Minute)
	}
	plan := func() {
		_, err := rem.Plan(ctx)
		require.NoError(t, err)
		now := c.Clock.Now()
		for _, m := range bookings {
			if !m.dirty {
				continue
			}
			m.dirty = false
			for _, off := range offsets {
				if _, sent := m.sentAt[off]; sent {
					continue
				}
				delete(m.plan, off)
				if d := due(m.start, off); m.alive && m.login && d.After(now) {
					m.plan[off] = d
				}
			}
		}
	}
	send := func() {
		_, err := rem.SendDue(ctx)
		require.NoError(t, err)
		now := c.Clock.Now()
		for _, m := range bookings {
			for off, d := range m.plan {
				if !d.After(now) {
					delete(m.plan, off)
					if due(m.start, 0).After(now) {
						m.sentAt[off], m.due[off] = now, d
					}
				}
			}
		}
	}
	plan()
	step := 23 * time.Minute
	end := fixture.Wall(t, "2026-03-08 00:00")
	for due(c.Clock.Now().In(zone), 0).Before(due(end, 0)) {
		for range rng.IntN(4) {
			id := ids[rng.IntN(len(ids))]
			m := bookings[id]
			if !m.alive || !due(m.start, 0).After(c.Clock.Now()) {
				continue
			}
			switch op := rng.IntN(10); {
			case op < 7:
				start := slot()
				if rng.IntN(3) == 0 { // soon: some reminders already past
					now := c.Clock.Now().In(zone)
					start = time.Date(now.Year(), now.Month(), now.Day(), now.Hour(), 0, 0, 0, time.UTC).Add(time.Duration(1+rng.IntN(6)) * 30 * time.Minute)
				}
				if c.move(id, start) == nil {
					m.start, m.dirty = start, true
				}
			case op < 9:
				_, err := c.services.Bookings.Cancel(ctx, staff, id, "test")
				require.NoError(t, err)
				m.alive, m.dirty = false, true
			default:
				require.NoError(t, c.services.Bookings.Delete(ctx, staff, id))
				m.alive, m.dirty, m.gone = false, true, true
			}
		}
		plan()
		c.Clock.Advance(step)
		send()
	}

	got := c.sent(t)
	want := map[key]time.Time{}
	for id, m := range bookings {
		if m.gone {
			continue
		}
		for off, at := range m.sentAt {
			want[key{id, off}] = at
		}
		assert.Empty(t, m.plan, "booking %d has reminders still to send", id)
	}
	require.NotEmpty(t, want)
	assert.Len(t, got, len(want))
	for k, at := range want {
		r, ok := got[k]
		if assert.True(t, ok, "reminder %v was not sent", k) {
			assert.True(t, r.SentAt.Equal(at), "reminder %v sent at %s, not %s", k, r.SentAt, at)
			assert.True(t, r.DueAt.Equal(bookings[k.booking].due[k.offset]), "reminder %v due at its booking's start when sent", k)
			assert.False(t, r.SentAt.Before(r.DueAt))
			assert.Less(t, r.SentAt.Sub(r.DueAt), step)
		}
	}
	for k := range got {
		_, ok := want[k]
		assert.True(t, ok, "reminder %v was sent but not expected", k)
	}
	emails, pushes := c.queued(t)
	for id, m := range bookings {
		if m.gone {
			continue
		}
		n := 0
		for _, off := range offsets {
			if _, ok := want[key{id, off}]; ok {
				n++
			}
		}
		assert.Equal(t, n, emails[id], "the e-mails of booking %d", id)
		assert.Equal(t, n, pushes[id], "the push notifications of booking %d", id)
	}
}

// TestReminders_twoInstances runs two planners and two senders at once,
// as two clubd instances do, while the clock runs: each reminder goes
// once.
func TestReminders_twoInstances(t *testing.T) {
	t.Parallel()
	c := newTestClub(t, 4)
	other := reminders.New(c.DB, reminders.Options{Zone: c.Zone, Now: c.Clock.Now, Log: c.services.EventLog,
		Mail: c.services.Mail, Push: c.services.Push, App: "https://club.example/app/"})
	instances := []*reminders.Service{c.services.Reminders, other}
	ana := c.Member("Ana", "Ruiz").Client.ID
	var ids []int64
	for i := range 40 {
		start := fixture.Wall(t, "2026-03-03 10:00").Add(time.Duration(i/4) * time.Hour)
		b, err := c.book(t, c.courts[i%4], ana, start)
		require.NoError(t, err)
		ids = append(ids, b.ID)
	}
	for range 60 {
		var wg sync.WaitGroup
		for _, s := range instances {
			wg.Go(func() {
				_, err := s.Plan(ctx)
				assert.NoError(t, err)
			})
			wg.Go(func() {
				_, err := s.SendDue(ctx)
				assert.NoError(t, err)
			})
		}
		wg.Wait()
		c.Clock.Advance(time.Hour)
	}
	emails, pushes := c.queued(t)
	got := c.sent(t)
	assert.Len(t, got, 2*len(ids), "every booking is reminded a day and two hours before")
	for _, id := range ids {
		assert.Equal(t, 2, emails[id], "the e-mails of booking %d", id)
		assert.Equal(t, 2, pushes[id], "the push notifications of booking %d", id)
	}
}

// TestReminders_preferences: a member who turned e-mail or push off gets
// none by that channel; the reminder is still sent once by the other.
func TestReminders_preferences(t *testing.T) {
	t.Parallel()
	c := newTestClub(t, 3)
	rem := c.services.Reminders
	noMail, noPush, none := c.Member("Ana", "Ruiz"), c.Member("Luis", "Gil"), c.Member("Eva", "Paz")
	for _, p := range []struct {
		m    fixture.Member
		pref reminders.Preferences
	}{{noMail, reminders.Preferences{Push: true}}, {noPush, reminders.Preferences{Email: true}}, {none, reminders.Preferences{}}} {
		_, err := rem.SetPreferences(ctx, p.m.Actor, p.pref)
		require.NoError(t, err)
		got, err := rem.Preferences(ctx, p.m.Actor)
		require.NoError(t, err)
		assert.Equal(t, p.pref, got)
	}
	start := fixture.Wall(t, "2026-03-04 18:00")
	var ids []int64
	for i, m := range []fixture.Member{noMail, noPush, none} {
		b, err := c.book(t, c.courts[i], m.Client.ID, start)
		require.NoError(t, err)
		ids = append(ids, b.ID)
	}
	_, err := rem.Plan(ctx)
	require.NoError(t, err)
	c.Clock.Set(t, "2026-03-04 17:00")
	n, err := rem.SendDue(ctx)
	require.NoError(t, err)
	assert.Equal(t, 6, n)
	emails, pushes := c.queued(t)
	assert.Equal(t, map[int64]int{ids[1]: 2}, emails)
	assert.Equal(t, map[int64]int{ids[0]: 2}, pushes)
}

// TestService_Settings: the admins set the club's reminder times within
// their bounds; others may not.
func TestService_Settings(t *testing.T) {
	t.Parallel()
	c := newTestClub(t, 0)
	rem := c.services.Reminders
	got, err := rem.Settings(ctx, staff)
	require.NoError(t, err)
	assert.Equal(t, []int{1440, 120}, got.Offsets)
	for _, tc := range []struct {
		name string
		by   clubhouse.Actor
		in   []int
		want []int
		err  error
	}{
		{"sorted latest first", staff, []int{15, 10080, 60}, []int{10080, 60, 15}, nil},
		{"none", staff, nil, []int{}, nil},
		{"too close", staff, []int{14}, nil, reminders.ErrInvalidOffsets},
		{"too far", staff, []int{10081}, nil, reminders.ErrInvalidOffsets},
		{"twice", staff, []int{60, 60}, nil, reminders.ErrInvalidOffsets},
		{"too many", staff, []int{15, 30, 45, 60, 75}, nil, reminders.ErrInvalidOffsets},
		{"not an admin", c.Member("Ana", "Ruiz").Actor, []int{60}, nil, clubhouse.ErrForbidden},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := rem.SetSettings(ctx, tc.by, reminders.Settings{Offsets: tc.in})
			require.ErrorIs(t, err, tc.err)
			if tc.err == nil {
				assert.Equal(t, tc.want, got.Offsets)
			}
		})
	}
	_, err = rem.Preferences(ctx, staff)
	require.ErrorIs(t, err, reminders.ErrNoLogin)
}
