package webhooks_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/mail"
	"github.com/clubhouse-go/clubhouse/webhooks"
)

// TestDeliver_signed: each event of the types an endpoint receives is
// POSTed once as {type, timestamp, data}, with the event's id as
// webhook-id, and the reference library verifies its signature, the
// timestamp included, against the real clock; events of other types and
// those recorded before the endpoint existed are not sent.
func TestDeliver_signed(t *testing.T) {
	t.Parallel()
	c := newClub(t)
	s := c.open()
	c.record("booking.created", 0) // before the endpoint: not sent
	c.clock.Advance(time.Second)
	var strict atomic.Int32
	r := newReceiver(t, c.clock)
	created := r.endpoint(s, "booking.*", "payment.completed")
	r.answer = func(d delivery, _ http.ResponseWriter) int {
		// The library's Verify, as a receiver calls it: the real clock's
		// tolerance too.
		wh, err := standardwebhooks.NewWebhook(created.Secret)
		require.NoError(t, err)
		h := http.Header{}
		h.Set("webhook-id", d.ID)
		h.Set("webhook-timestamp", fmt.Sprint(d.Timestamp))
		h.Set("webhook-signature", d.Signature)
		assert.NoError(t, wh.Verify(d.Raw, h))
		strict.Add(1)
		return http.StatusNoContent
	}
	assert.True(t, strings.HasPrefix(created.Secret, webhooks.SecretPrefix))
	c.record("booking.created", 1)
	c.record("payment.failed", 2)
	c.record("payment.completed", 3)
	c.record("booking.cancelled", 4)
	assert.Equal(t, 3, deliver(t, s))
	assert.Zero(t, deliver(t, s), "nothing is sent twice")

	events := c.events()
	got := r.deliveries()
	require.Len(t, got, 3)
	assert.EqualValues(t, 3, strict.Load())
	for i, want := range []int{1, 3, 4} {
		ev := events[want]
		assert.Equal(t, ev.ID, got[i].ID)
		assert.Equal(t, ev.Type, got[i].Body.Type)
		assert.True(t, ev.At.Equal(got[i].Body.Timestamp))
		assert.JSONEq(t, string(ev.Payload), string(got[i].Body.Data))
		var top map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(got[i].Raw, &top))
		assert.Len(t, top, 3, "the body is {type, timestamp, data}")
	}

	attempts, total, err := s.Attempts(t.Context(), admin, created.ID, 0, 0)
	require.NoError(t, err)
	require.Equal(t, 3, total)
	assert.Equal(t, webhooks.OutcomeDelivered, attempts[0].Outcome)
	assert.Equal(t, 204, *attempts[0].StatusCode)
	assert.Equal(t, events[4].ID, attempts[0].EventID, "the latest first")
}

// TestRotateSecret: after a rotation each delivery carries two
// signatures, one verifying under the old secret and one under the new;
// after RotationOverlap only the new one signs.
func TestRotateSecret(t *testing.T) {
	t.Parallel()
	c := newClub(t)
	s := c.open()
	r := newReceiver(t, c.clock)
	created := r.endpoint(s)
	c.record("booking.created", 1)
	deliver(t, s)

	rotated, err := s.RotateSecret(t.Context(), admin, created.ID)
	require.NoError(t, err)
	assert.NotEqual(t, created.Secret, rotated.Secret)
	assert.Equal(t, c.clock.Now().Add(webhooks.RotationOverlap), rotated.PreviousUntil)
	r.trust(created.Secret, rotated.Secret) // each alone verifies every delivery
	c.record("booking.created", 2)
	deliver(t, s)
	got := r.deliveries()
	require.Len(t, got, 2)
	assert.Len(t, strings.Split(got[0].Signature, " "), 1)
	assert.Len(t, strings.Split(got[1].Signature, " "), 2, "both secrets sign while rotating")
	e, err := s.Get(t.Context(), admin, created.ID)
	require.NoError(t, err)
	require.NotNil(t, e.PreviousSecretUntil)

	c.clock.Advance(webhooks.RotationOverlap + time.Second)
	r.trust(rotated.Secret)
	c.record("booking.created", 3)
	deliver(t, s)
	got = r.deliveries()
	require.Len(t, got, 3)
	assert.Len(t, strings.Split(got[2].Signature, " "), 1)
	old, err := standardwebhooks.NewWebhook(created.Secret)
	require.NoError(t, err)
	h := http.Header{}
	h.Set("webhook-id", got[2].ID)
	h.Set("webhook-timestamp", fmt.Sprint(got[2].Timestamp))
	h.Set("webhook-signature", got[2].Signature)
	assert.ErrorIs(t, old.VerifyIgnoringTimestamp(got[2].Raw, h), standardwebhooks.ErrNoMatchingSignature, "the old secret no longer signs")
	e, err = s.Get(t.Context(), admin, created.ID)
	require.NoError(t, err)
	assert.Nil(t, e.PreviousSecretUntil)
}

// drive delivers on the club's clock until nothing is pending or until
// until, moving the clock to each next attempt; it returns the rounds.
func drive(t *testing.T, c *club, s *webhooks.Service, until time.Time) int {
	t.Helper()
	rounds := 0
	for {
		deliver(t, s)
		rounds++
		require.Less(t, rounds, 1000)
		next, ok := c.nextDue()
		if !ok || next.After(until) {
			return rounds
		}
		if next.After(c.clock.Now()) {
			c.clock.Set(next)
		}
	}
}

// TestDeliver_receiverDownThreeDays: a receiver that answers 503 for
// three days (the club's clock moved to each attempt) gets every event
// once it is back, each with its id, and the endpoint stays enabled.
func TestDeliver_receiverDownThreeDays(t *testing.T) {
	t.Parallel()
	c := newClub(t)
	s := c.open()
	start := c.clock.Now()
	back := start.Add(72 * time.Hour)
	r := newReceiver(t, c.clock)
	r.answer = func(delivery, http.ResponseWriter) int {
		if c.clock.Now().Before(back) {
			return http.StatusServiceUnavailable
		}
		return http.StatusOK
	}
	created := r.endpoint(s)
	for i, at := range []time.Duration{time.Second, time.Hour, 30 * time.Hour, 60 * time.Hour, 71 * time.Hour} {
		c.clock.Set(start.Add(at))
		c.record("booking.created", i)
		drive(t, c, s, start.Add(at+time.Hour))
	}
	drive(t, c, s, start.Add(10*24*time.Hour))

	events := c.events()
	require.Len(t, events, 5)
	taken := r.taken()
	for _, id := range ids(events) {
		assert.Equal(t, 1, taken[id], "event %s delivered once", id)
	}
	assert.Len(t, taken, 5)
	for _, d := range r.deliveries() {
		if d.Status == http.StatusOK {
			assert.GreaterOrEqual(t, d.Timestamp, back.Unix())
		}
	}
	e, err := s.Get(t.Context(), admin, created.ID)
	require.NoError(t, err)
	assert.True(t, e.Enabled)
	assert.Nil(t, e.FailingSince, "a success ends the failures")
}

// TestDeliver_failingFiveDays: an endpoint whose every attempt fails for
// five days is disabled, and each admin is told by e-mail; a message that
// used up its attempts has failed.
func TestDeliver_failingFiveDays(t *testing.T) {
	t.Parallel()
	c := newClub(t)
	_, err := c.db.ExecContext(t.Context(), `INSERT INTO users (email, admin) VALUES ('boss@club.test', true), ('desk@club.test', false)`)
	require.NoError(t, err)
	s := c.service(webhooks.Options{AllowPrivateNetworks: true, Mail: mail.NewOutbox(c.db.DB, c.clock.Now)})
	start := c.clock.Now()
	r := newReceiver(t, c.clock)
	r.answer = func(delivery, http.ResponseWriter) int { return http.StatusInternalServerError }
	created := r.endpoint(s)
	for day := range 7 {
		c.clock.Set(start.Add(time.Duration(day) * 24 * time.Hour))
		c.record("booking.created", day)
		drive(t, c, s, start.Add(time.Duration(day+1)*24*time.Hour))
	}
	e, err := s.Get(t.Context(), admin, created.ID)
	require.NoError(t, err)
	assert.False(t, e.Enabled)
	assert.Equal(t, webhooks.DisabledFailing, e.DisabledReason)
	var failed int
	require.NoError(t, c.db.GetContext(t.Context(), &failed, `SELECT count(*) FROM webhook_messages WHERE status = 'failed'`))
	assert.Positive(t, failed, "the first day's message used up its attempts")
	var notices []struct {
		Kind string `db:"kind"`
		User int64  `db:"user_id"`
		Ref  int64  `db:"ref_id"`
	}
	require.NoError(t, c.db.SelectContext(t.Context(), &notices, `SELECT kind, user_id, ref_id FROM mail_outbox`))
	require.Len(t, notices, 1, "the admin, not the operator")
	assert.Equal(t, string(mail.KindWebhookDisabled), notices[0].Kind)
	assert.Equal(t, created.ID, notices[0].Ref)
	for _, d := range r.deliveries() {
		assert.Less(t, d.Timestamp, start.Add(webhooks.FailingLimit+24*time.Hour).Unix())
	}
}

// TestDeliver_gone: a 410 disables the endpoint at once; its message
// has failed and later events make none.
func TestDeliver_gone(t *testing.T) {
	t.Parallel()
	c := newClub(t)
	s := c.open()
	r := newReceiver(t, c.clock)
	r.answer = func(delivery, http.ResponseWriter) int { return http.StatusGone }
	created := r.endpoint(s)
	c.record("booking.created", 1)
	c.record("booking.created", 2)
	deliver(t, s)
	c.clock.Advance(time.Hour)
	c.record("booking.created", 3)
	deliver(t, s)
	assert.Len(t, r.deliveries(), 1)
	e, err := s.Get(t.Context(), admin, created.ID)
	require.NoError(t, err)
	assert.False(t, e.Enabled)
	assert.Equal(t, webhooks.DisabledGone, e.DisabledReason)
	attempts, _, err := s.Attempts(t.Context(), admin, created.ID, 0, 0)
	require.NoError(t, err)
	require.Len(t, attempts, 1)
	assert.Equal(t, webhooks.OutcomeGone, attempts[0].Outcome)

	// Enabled again, it gets what is pending and what comes.
	r.mu.Lock()
	r.answer = nil
	r.mu.Unlock()
	e, err = s.Update(t.Context(), admin, created.ID, webhooks.Change{Enabled: clubhouse.Some(true)})
	require.NoError(t, err)
	assert.True(t, e.Enabled)
	assert.Empty(t, e.DisabledReason)
	c.record("booking.created", 4)
	deliver(t, s)
	assert.Len(t, r.taken(), 2, "the pending second event and the fourth")
}

// TestDeliver_retryAfter: a 503 with Retry-After is not tried again
// before it, though the schedule's wait is shorter; a 429's HTTP date
// likewise.
func TestDeliver_retryAfter(t *testing.T) {
	t.Parallel()
	c := newClub(t)
	s := c.open()
	r := newReceiver(t, c.clock)
	var calls atomic.Int32
	r.answer = func(_ delivery, w http.ResponseWriter) int {
		switch calls.Add(1) {
		case 1:
			w.Header().Set("Retry-After", "3600")
			return http.StatusServiceUnavailable
		case 2:
			w.Header().Set("Retry-After", c.clock.Now().Add(2*time.Hour).Format(http.TimeFormat))
			return http.StatusTooManyRequests
		}
		return http.StatusOK
	}
	r.endpoint(s)
	start := c.clock.Now()
	c.record("booking.created", 1)
	assert.Equal(t, 1, deliver(t, s))
	c.clock.Set(start.Add(30 * time.Minute))
	assert.Zero(t, deliver(t, s), "not before Retry-After")
	c.clock.Set(start.Add(time.Hour))
	assert.Equal(t, 1, deliver(t, s))
	c.clock.Set(start.Add(2*time.Hour + 59*time.Minute))
	assert.Zero(t, deliver(t, s), "not before Retry-After's date")
	c.clock.Set(start.Add(3 * time.Hour))
	assert.Equal(t, 1, deliver(t, s))
	assert.Len(t, r.taken(), 1)
}

// TestDeliver_redirectNotFollowed: a 3xx is a failure, recorded, and its
// Location is never requested.
func TestDeliver_redirectNotFollowed(t *testing.T) {
	t.Parallel()
	c := newClub(t)
	s := c.open()
	var elsewhere atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { elsewhere.Add(1) }))
	t.Cleanup(other.Close)
	r := newReceiver(t, c.clock)
	r.answer = func(_ delivery, w http.ResponseWriter) int {
		w.Header().Set("Location", other.URL)
		return http.StatusTemporaryRedirect
	}
	created := r.endpoint(s)
	c.record("booking.created", 1)
	deliver(t, s)
	assert.Zero(t, elsewhere.Load(), "the redirect is not followed")
	attempts, _, err := s.Attempts(t.Context(), admin, created.ID, 0, 0)
	require.NoError(t, err)
	require.Len(t, attempts, 1)
	assert.Equal(t, webhooks.OutcomeRetry, attempts[0].Outcome)
	assert.Equal(t, http.StatusTemporaryRedirect, *attempts[0].StatusCode)
	assert.Contains(t, *attempts[0].Error, "redirect")
	assert.Equal(t, "thanks", attempts[0].Response, "the answer's first bytes")
}

// TestReplay: a replay of a range queues each event of it once, with its
// original id, for an endpoint that got them and for one created after
// them; one asked again while they are pending queues nothing more.
func TestReplay(t *testing.T) {
	t.Parallel()
	c := newClub(t)
	s := c.open()
	start := c.clock.Now()
	a := newReceiver(t, c.clock)
	ea := a.endpoint(s, "booking.*")
	for i := range 6 {
		c.clock.Set(start.Add(time.Duration(i+1) * time.Hour))
		c.record("booking.created", i)
		c.record("payment.completed", i)
	}
	deliver(t, s)
	require.Len(t, a.deliveries(), 6)
	events := c.events()

	n, err := s.Replay(t.Context(), admin, ea.ID, start.Add(2*time.Hour), start.Add(5*time.Hour))
	require.NoError(t, err)
	assert.Equal(t, 3, n)
	n, err = s.Replay(t.Context(), admin, ea.ID, start, start.Add(5*time.Hour))
	require.NoError(t, err)
	assert.Equal(t, 1, n, "the first hour's only: those of hours 2 to 4 are pending")
	deliver(t, s)
	got := a.deliveries()[6:]
	var replayed []string
	for _, d := range got {
		replayed = append(replayed, d.ID)
	}
	assert.ElementsMatch(t, []string{events[0].ID, events[2].ID, events[4].ID, events[6].ID}, replayed)

	b := newReceiver(t, c.clock)
	eb := b.endpoint(s)
	c.clock.Advance(time.Hour)
	n, err = s.Replay(t.Context(), admin, eb.ID, start, c.clock.Now())
	require.NoError(t, err)
	assert.Equal(t, 12, n)
	deliver(t, s)
	taken := b.taken()
	assert.Len(t, taken, 12)
	for _, id := range ids(events) {
		assert.Equal(t, 1, taken[id])
	}

	// Resend: an event's messages again, to both endpoints.
	n, err = s.Resend(t.Context(), admin, events[2].ID)
	require.NoError(t, err)
	assert.Equal(t, 2, n)
	deliver(t, s)
	assert.Equal(t, events[2].ID, a.deliveries()[len(a.deliveries())-1].ID)
	assert.Equal(t, 2, b.taken()[events[2].ID])
	_, err = s.Resend(t.Context(), admin, "00000000-0000-8000-8000-000000000000")
	require.ErrorIs(t, err, webhooks.ErrMessageNotFound)
	_, err = s.Replay(t.Context(), admin, ea.ID, start.Add(time.Hour), start)
	require.ErrorIs(t, err, webhooks.ErrInvalidRange)
}

// TestDeliver_twoInstances: two deliverers on one database, following
// and delivering at once while events are recorded, deliver each event
// to each endpoint once.
func TestDeliver_twoInstances(t *testing.T) {
	t.Parallel()
	c := newClub(t)
	one, two := c.open(), c.open()
	var receivers []*receiver
	for range 3 {
		r := newReceiver(t, c.clock)
		r.answer = func(delivery, http.ResponseWriter) int {
			time.Sleep(time.Millisecond) // a receiver's work, so that the two overlap
			return http.StatusOK
		}
		r.endpoint(one)
		receivers = append(receivers, r)
	}
	const events = 60
	ctx, cancel := context.WithCancel(t.Context())
	var wg sync.WaitGroup
	errs := make(chan error, 2)
	for _, s := range []*webhooks.Service{one, two} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				if _, err := s.DeliverDue(ctx); err != nil && ctx.Err() == nil {
					errs <- err
					return
				}
			}
		}()
	}
	for i := range events {
		c.record("booking.created", i)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		done := true
		for _, r := range receivers {
			done = done && len(r.taken()) == events
		}
		if done || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	for _, r := range receivers {
		taken := r.taken()
		assert.Len(t, taken, events)
		for id, n := range taken {
			assert.Equal(t, 1, n, "event %s delivered %d times", id, n)
		}
		assert.Len(t, r.deliveries(), events, "no second attempt")
	}
}

// TestDeliver_slowEndpoint: while one endpoint does not answer, the job
// delivers another's events as they come.
func TestDeliver_slowEndpoint(t *testing.T) {
	t.Parallel()
	c := newClub(t)
	s := c.open()
	release := make(chan struct{})
	slow := newReceiver(t, c.clock)
	var waiting atomic.Int32
	slow.answer = func(delivery, http.ResponseWriter) int {
		waiting.Add(1)
		<-release
		return http.StatusOK
	}
	fast := newReceiver(t, c.clock)
	slow.endpoint(s)
	fast.endpoint(s)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- s.DeliveryJob(20 * time.Millisecond).Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		require.NoError(t, <-done)
	})
	defer close(release)
	for i := range 5 {
		c.record("booking.created", i)
		deadline := time.Now().Add(10 * time.Second)
		for len(fast.taken()) < i+1 {
			require.True(t, time.Now().Before(deadline), "the fast endpoint waits for the slow one")
			time.Sleep(5 * time.Millisecond)
		}
	}
	assert.EqualValues(t, 1, waiting.Load(), "the slow endpoint still holds its first message")
}

// TestPrivateAddresses: without private networks open, a URL naming a
// private or loopback address is refused, and a delivery does not connect
// to one (the address is checked at connect time, after resolution).
func TestPrivateAddresses(t *testing.T) {
	t.Parallel()
	c := newClub(t)
	closed := c.service(webhooks.Options{})
	r := newReceiver(t, c.clock)
	for _, u := range []string{r.URL(), strings.Replace(r.URL(), "http:", "https:", 1), "https://localhost/hook", "https://10.0.0.1/hook"} {
		_, err := closed.Create(t.Context(), admin, webhooks.Input{URL: u})
		require.ErrorIs(t, err, webhooks.ErrInvalidURL, u)
	}
	created := r.endpoint(c.open()) // made where private networks are open
	c.record("booking.created", 1)
	deliver(t, closed)
	assert.Empty(t, r.deliveries(), "no connection to a loopback address")
	attempts, _, err := closed.Attempts(t.Context(), admin, created.ID, 0, 0)
	require.NoError(t, err)
	require.Len(t, attempts, 1)
	assert.Nil(t, attempts[0].StatusCode)
	assert.Contains(t, *attempts[0].Error, "not a public one")
}

// TestEndpoints: admins alone manage endpoints; each outcome of the
// service's methods.
func TestEndpoints(t *testing.T) {
	t.Parallel()
	c := newClub(t)
	s := c.open()
	_, err := s.Create(t.Context(), operator, webhooks.Input{URL: "https://hooks.example.com/"})
	require.ErrorIs(t, err, clubhouse.ErrForbidden)
	_, err = s.List(t.Context(), operator)
	require.ErrorIs(t, err, clubhouse.ErrForbidden)
	_, err = s.Create(t.Context(), admin, webhooks.Input{})
	require.ErrorIs(t, err, clubhouse.ErrIncomplete)
	_, err = s.Create(t.Context(), admin, webhooks.Input{URL: "https://hooks.example.com/", EventTypes: []string{"Booking"}})
	require.ErrorIs(t, err, webhooks.ErrInvalidEventType)

	created, err := s.Create(t.Context(), admin, webhooks.Input{URL: "https://hooks.example.com/", Description: "Accounting", EventTypes: []string{"payment.*"}})
	require.NoError(t, err)
	assert.True(t, created.Enabled)
	assert.Equal(t, []string{"payment.*"}, created.EventTypes)
	list, err := s.List(t.Context(), admin)
	require.NoError(t, err)
	require.Len(t, list, 1)
	assert.Equal(t, created.Endpoint, list[0])

	changed, err := s.Update(t.Context(), admin, created.ID, webhooks.Change{Description: clubhouse.Some("Books"), EventTypes: clubhouse.Some([]string{})})
	require.NoError(t, err)
	assert.Equal(t, "Books", changed.Description)
	assert.Empty(t, changed.EventTypes)
	assert.Equal(t, created.URL, changed.URL)
	_, err = s.Update(t.Context(), admin, created.ID, webhooks.Change{URL: clubhouse.Some("https://127.0.0.1/")})
	assert.NoError(t, err, "private networks are open here")
	_, err = s.Update(t.Context(), admin, created.ID, webhooks.Change{URL: clubhouse.Optional[string]{Set: true}})
	require.ErrorIs(t, err, clubhouse.ErrInvalidData)
	_, err = s.Update(t.Context(), admin, 999, webhooks.Change{})
	require.ErrorIs(t, err, webhooks.ErrEndpointNotFound)
	_, err = s.RotateSecret(t.Context(), admin, 999)
	require.ErrorIs(t, err, webhooks.ErrEndpointNotFound)

	disabled, err := s.Update(t.Context(), admin, created.ID, webhooks.Change{Enabled: clubhouse.Some(false)})
	require.NoError(t, err)
	assert.False(t, disabled.Enabled)
	_, err = s.Replay(t.Context(), admin, created.ID, c.clock.Now().Add(-time.Hour), c.clock.Now())
	require.ErrorIs(t, err, webhooks.ErrEndpointDisabled)

	require.NoError(t, s.Delete(t.Context(), admin, created.ID))
	_, err = s.Get(t.Context(), admin, created.ID)
	require.ErrorIs(t, err, webhooks.ErrEndpointNotFound)
	require.ErrorIs(t, s.Delete(t.Context(), admin, created.ID), webhooks.ErrEndpointNotFound)
	require.True(t, errors.Is(webhooks.ErrInvalidURL, clubhouse.ErrInvalidData))
}
