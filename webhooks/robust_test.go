package webhooks_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/webhooks"
)

// waitLocked waits until a session of the test's database waits for a
// lock.
func (c *club) waitLocked() {
	c.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var n int
		require.NoError(c.t, c.db.GetContext(c.t.Context(), &n, `SELECT count(*) FROM pg_stat_activity
			WHERE datname = current_database() AND wait_event_type = 'Lock'`))
		if n > 0 {
			return
		}
		require.True(c.t, time.Now().Before(deadline), "nothing waits for a lock")
		time.Sleep(5 * time.Millisecond)
	}
}

// TestFollow_endpointDeleted: an endpoint deleted while Follow makes the
// log's events into messages gets none, and is no error; the others get
// theirs.
func TestFollow_endpointDeleted(t *testing.T) {
	t.Parallel()
	c := newClub(t)
	s := c.open()
	doomed := newReceiver(t, c.clock).endpoint(s)
	kept := newReceiver(t, c.clock).endpoint(s)
	c.record("booking.created", 1)
	tx, err := c.db.BeginTxx(t.Context(), nil)
	require.NoError(t, err)
	defer func() { _ = tx.Rollback() }()
	_, err = tx.ExecContext(t.Context(), `DELETE FROM webhook_endpoints WHERE id = $1`, doomed.ID)
	require.NoError(t, err)
	type result struct {
		n   int
		err error
	}
	done := make(chan result, 1)
	go func() {
		n, err := s.Follow(t.Context())
		done <- result{n, err}
	}()
	c.waitLocked() // Follow meets the deletion under way
	require.NoError(t, tx.Commit())
	got := <-done
	require.NoError(t, got.err)
	assert.Equal(t, 1, got.n)
	var endpoints []int64
	require.NoError(t, c.db.SelectContext(t.Context(), &endpoints, `SELECT endpoint_id FROM webhook_messages`))
	assert.Equal(t, []int64{kept.ID}, endpoints)
}

// TestDeliveryJob_failureLetsAttemptsFinish: when the job fails (here,
// recording one endpoint's attempt), the attempt at work for another
// endpoint is not cut off: it finishes and is recorded before the job
// returns.
func TestDeliveryJob_failureLetsAttemptsFinish(t *testing.T) {
	t.Parallel()
	c := newClub(t)
	s := c.open()
	release := make(chan struct{})
	var waiting atomic.Int32
	slow := newReceiver(t, c.clock)
	slow.answer = func(delivery, http.ResponseWriter) int {
		waiting.Add(1)
		<-release
		return http.StatusOK
	}
	slowEndpoint := slow.endpoint(s)
	broken := newReceiver(t, c.clock)
	brokenEndpoint := broken.endpoint(s)
	// Recording an attempt of the broken endpoint fails.
	_, err := c.db.ExecContext(t.Context(), `CREATE FUNCTION refuse_attempt() RETURNS trigger LANGUAGE plpgsql AS $$
		BEGIN IF NEW.endpoint_id = `+strconv.FormatInt(brokenEndpoint.ID, 10)+` THEN RAISE EXCEPTION 'refused'; END IF; RETURN NEW; END $$;
		CREATE TRIGGER refuse_attempt BEFORE INSERT ON webhook_attempts FOR EACH ROW EXECUTE FUNCTION refuse_attempt()`)
	require.NoError(t, err)
	c.record("booking.created", 1)
	done := make(chan error, 1)
	go func() { done <- s.DeliveryJob(20 * time.Millisecond).Run(t.Context()) }()
	deadline := time.Now().Add(10 * time.Second)
	for waiting.Load() == 0 || len(broken.deliveries()) == 0 {
		require.True(t, time.Now().Before(deadline), "both endpoints get their message")
		time.Sleep(5 * time.Millisecond)
	}
	select {
	case err := <-done:
		close(release)
		t.Fatalf("the job returned (%v) with an attempt at work", err)
	case <-time.After(300 * time.Millisecond):
	}
	close(release)
	select {
	case err := <-done:
		require.ErrorContains(t, err, "refused")
	case <-time.After(10 * time.Second):
		t.Fatal("the job does not return")
	}
	var status string
	require.NoError(t, c.db.GetContext(t.Context(), &status, `SELECT status FROM webhook_messages WHERE endpoint_id = $1`, slowEndpoint.ID))
	assert.Equal(t, "delivered", status, "the attempt at work was recorded")
}

// TestDeliveryJob_followFails: while following the event log fails, the
// job goes on delivering the messages already queued.
func TestDeliveryJob_followFails(t *testing.T) {
	t.Parallel()
	c := newClub(t)
	s := c.open()
	var down atomic.Bool
	down.Store(true)
	r := newReceiver(t, c.clock)
	r.answer = func(delivery, http.ResponseWriter) int {
		if down.Load() {
			return http.StatusServiceUnavailable
		}
		return http.StatusOK
	}
	r.endpoint(s)
	c.record("booking.created", 1)
	deliver(t, s) // the first attempt fails
	down.Store(false)
	_, err := c.db.ExecContext(t.Context(), `ALTER TABLE webhook_cursor RENAME TO webhook_cursor_gone`)
	require.NoError(t, err)
	_, err = s.Follow(t.Context())
	require.Error(t, err, "following fails")
	c.clock.Advance(time.Hour)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- s.DeliveryJob(20 * time.Millisecond).Run(ctx) }()
	deadline := time.Now().Add(10 * time.Second)
	for len(r.taken()) == 0 {
		select {
		case err := <-done:
			cancel()
			t.Fatalf("the job failed (%v) before delivering", err)
		default:
		}
		require.True(t, time.Now().Before(deadline), "the retry goes")
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	require.NoError(t, <-done)
}

// TestDeliver_turns: with more dead endpoints than workers, each holding
// many messages, a healthy endpoint's messages still go at once: a worker
// gives its endpoint's place back after a failed attempt.
func TestDeliver_turns(t *testing.T) {
	t.Parallel()
	c := newClub(t)
	s := c.service(webhooks.Options{AllowPrivateNetworks: true, Workers: 2, Timeout: 300 * time.Millisecond})
	dead := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body) // so that the server sees the connection close
		<-r.Context().Done()               // never answers
	}))
	t.Cleanup(dead.Close)
	for range 3 {
		_, err := s.Create(t.Context(), admin, webhooks.Input{URL: dead.URL + "/hook"})
		require.NoError(t, err)
	}
	healthy := newReceiver(t, c.clock)
	healthy.endpoint(s)
	const events = 10 // a dead endpoint's are 3 s of attempts
	for i := range events {
		c.record("booking.created", i)
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- s.DeliveryJob(20 * time.Millisecond).Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		require.NoError(t, <-done)
	})
	began := time.Now()
	for len(healthy.taken()) < events {
		require.Less(t, time.Since(began), 2*time.Second, "the healthy endpoint waits for the dead ones")
		time.Sleep(5 * time.Millisecond)
	}
}

// TestUpdate_urlClearsFailures: an endpoint failing whose URL changes
// starts afresh: the old URL's failures do not count toward disabling it.
func TestUpdate_urlClearsFailures(t *testing.T) {
	t.Parallel()
	c := newClub(t)
	s := c.open()
	r := newReceiver(t, c.clock)
	r.answer = func(delivery, http.ResponseWriter) int { return http.StatusInternalServerError }
	created := r.endpoint(s)
	c.record("booking.created", 1)
	deliver(t, s)
	e, err := s.Get(t.Context(), admin, created.ID)
	require.NoError(t, err)
	require.NotNil(t, e.FailingSince)
	description := "same URL"
	e, err = s.Update(t.Context(), admin, created.ID, webhooks.Change{Description: clubhouse.Some(description)})
	require.NoError(t, err)
	assert.NotNil(t, e.FailingSince, "another field leaves the failures")
	fixed := newReceiver(t, c.clock).URL() + "?v=2"
	e, err = s.Update(t.Context(), admin, created.ID, webhooks.Change{URL: clubhouse.Some(fixed)})
	require.NoError(t, err)
	assert.Nil(t, e.FailingSince, "a new URL clears the failures")
}

// TestPurge: the messages delivered or failed whose event is past the
// retention go, with their attempts; those pending and those recent stay;
// a previous secret whose overlap ended is forgotten.
func TestPurge(t *testing.T) {
	t.Parallel()
	c := newClub(t)
	s := c.service(webhooks.Options{AllowPrivateNetworks: true, Retention: 48 * time.Hour})
	ok := newReceiver(t, c.clock)
	okEndpoint := ok.endpoint(s, "booking.created")
	gone := newReceiver(t, c.clock)
	gone.answer = func(delivery, http.ResponseWriter) int { return http.StatusGone }
	gone.endpoint(s, "booking.created")
	down := newReceiver(t, c.clock)
	down.answer = func(delivery, http.ResponseWriter) int { return http.StatusServiceUnavailable }
	down.endpoint(s, "booking.created")
	c.record("booking.created", 1) // delivered, failed (410) and pending (503)
	deliver(t, s)
	_, err := s.RotateSecret(t.Context(), admin, okEndpoint.ID)
	require.NoError(t, err)
	c.clock.Advance(49 * time.Hour)
	c.record("booking.created", 2) // recent: delivered to ok, pending for down
	_, err = s.Follow(t.Context())
	require.NoError(t, err)
	_, err = c.db.ExecContext(t.Context(), `UPDATE webhook_messages SET status = 'delivered', next_attempt_at = NULL, delivered_at = $1
		WHERE endpoint_id = $2 AND status = 'pending'`, c.clock.Now(), okEndpoint.ID)
	require.NoError(t, err)
	var before int
	require.NoError(t, c.db.GetContext(t.Context(), &before, `SELECT count(*) FROM webhook_attempts`))
	require.Equal(t, 3, before)

	n, err := s.Purge(t.Context())
	require.NoError(t, err)
	assert.EqualValues(t, 2, n, "the old delivered and failed messages")
	var left []struct {
		Endpoint int64  `db:"endpoint_id"`
		Status   string `db:"status"`
	}
	require.NoError(t, c.db.SelectContext(t.Context(), &left, `SELECT endpoint_id, status FROM webhook_messages ORDER BY id`))
	assert.Len(t, left, 3, "the old pending one and the two recent ones")
	var attempts int
	require.NoError(t, c.db.GetContext(t.Context(), &attempts, `SELECT count(*) FROM webhook_attempts`))
	assert.Equal(t, 1, attempts, "the pending message's attempt stays")
	var previous int
	require.NoError(t, c.db.GetContext(t.Context(), &previous, `SELECT count(*) FROM webhook_endpoints WHERE previous_secret IS NOT NULL OR previous_until IS NOT NULL`))
	assert.Zero(t, previous, "the previous secret past its overlap is forgotten")
	assert.Equal(t, "webhook_purge", s.PurgeJob(time.Hour).Name)
}
