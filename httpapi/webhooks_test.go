package httpapi_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
)

// hookReceiver is a receiver of the club's webhooks that verifies every
// delivery with the Standard Webhooks reference library (signature and
// timestamp, against the real clock) under the secret it is given.
type hookReceiver struct {
	t   *testing.T
	srv *httptest.Server

	mu     sync.Mutex
	secret string
	got    []hookDelivery
}

type hookDelivery struct {
	ID   string
	Body struct {
		Type      string
		Timestamp time.Time
		Data      map[string]any
	}
}

func newHookReceiver(t *testing.T) *hookReceiver {
	h := &hookReceiver{t: t}
	h.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		require.NoError(t, err)
		h.mu.Lock()
		defer h.mu.Unlock()
		wh, err := standardwebhooks.NewWebhook(h.secret)
		require.NoError(t, err)
		assert.NoError(t, wh.Verify(body, r.Header), "every delivery verifies")
		var d hookDelivery
		d.ID = r.Header.Get("webhook-id")
		assert.NoError(t, json.Unmarshal(body, &d.Body))
		h.got = append(h.got, d)
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(h.srv.Close)
	return h
}

func (h *hookReceiver) trust(secret string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.secret = secret
}

// wait returns the deliveries once there are n.
func (h *hookReceiver) wait(n int) []hookDelivery {
	h.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		h.mu.Lock()
		got := append([]hookDelivery(nil), h.got...)
		h.mu.Unlock()
		if len(got) >= n {
			return got
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("%d deliveries, not %d", len(got), n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestWebhooks_endpoints: an admin creates, reads, lists, changes,
// rotates and deletes endpoints; the secret shows only when made; an
// operator is refused; bad input is a 400 naming what is wrong.
func TestWebhooks_endpoints(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	admin := app.AsAdmin()
	const path = "/api/admin/webhooks/endpoints"
	res := admin.Post(path, map[string]any{"url": "https://hooks.example.com/club", "description": "Books",
		"event_types": []string{"payment.*", "booking.created"}}).Status(t, http.StatusCreated)
	assert.Equal(t, "no-store", res.Header.Get("Cache-Control"))
	created := res.Object(t)
	secret, _ := created["secret"].(string)
	assert.True(t, strings.HasPrefix(secret, "whsec_"))
	id := int64(created["id"].(float64))
	one := admin.Get(fmt.Sprint(path, "/", id)).Status(t, http.StatusOK).Object(t)
	assert.NotContains(t, one, "secret")
	assert.Equal(t, []any{"payment.*", "booking.created"}, one["event_types"])
	assert.Equal(t, true, one["enabled"])
	assert.Nil(t, one["disabled_reason"])
	list := admin.Get(path).Status(t, http.StatusOK).Array(t)
	require.Len(t, list, 1)
	assert.NotContains(t, list[0], "secret")

	changed := admin.Patch(fmt.Sprint(path, "/", id), map[string]any{"enabled": false, "event_types": []string{}}).Status(t, http.StatusOK).Object(t)
	assert.Equal(t, false, changed["enabled"])
	assert.Equal(t, []any{}, changed["event_types"])
	assert.Equal(t, "Books", changed["description"])

	rotated := admin.Post(fmt.Sprint(path, "/", id, "/rotate-secret"), nil).Status(t, http.StatusOK).Object(t)
	assert.NotEqual(t, secret, rotated["secret"])
	assert.NotEmpty(t, rotated["previous_secret_until"])

	app.AsOperator().Get(path).Status(t, http.StatusForbidden)
	app.AsOperator().Post(path, map[string]any{"url": "https://hooks.example.com/"}).Status(t, http.StatusForbidden)
	app.AsClient().Get(path).Status(t, http.StatusForbidden)
	app.Anonymous().Get(path).Status(t, http.StatusUnauthorized)
	admin.Post(path, map[string]any{"url": "http://127.0.0.1:9/x"}).Status(t, http.StatusBadRequest).Error(t, "invalid url")
	admin.Post(path, map[string]any{"url": "https://hooks.example.com/", "event_types": []string{"Booking"}}).
		Status(t, http.StatusBadRequest).Error(t, "invalid event type")
	admin.Post(path, map[string]any{}).Status(t, http.StatusBadRequest)
	admin.Patch(fmt.Sprint(path, "/", id), map[string]any{"url": nil}).Status(t, http.StatusBadRequest)
	admin.Post(fmt.Sprint(path, "/", id, "/replay"), map[string]any{"since": "yesterday", "until": "2026-03-02T00:00:00Z"}).
		Status(t, http.StatusBadRequest).Error(t, "invalid data")
	admin.Post(fmt.Sprint(path, "/", id, "/replay"), map[string]any{"since": "2026-03-02T00:00:00Z", "until": "2026-03-03T00:00:00Z"}).
		Status(t, http.StatusConflict).Error(t, "endpoint disabled")
	admin.Post("/api/admin/webhooks/messages/not-an-id/resend", nil).Status(t, http.StatusNotFound).Error(t, "message not found")
	admin.Get(fmt.Sprint(path, "/", id, "/attempts?limit=501")).Status(t, http.StatusBadRequest)

	admin.Delete(fmt.Sprint(path, "/", id), nil).Status(t, http.StatusNoContent)
	admin.Get(fmt.Sprint(path, "/", id)).Status(t, http.StatusNotFound).Error(t, "endpoint not found")
	admin.Get(fmt.Sprint(path, "/", id, "/attempts")).Status(t, http.StatusNotFound)
}

// TestWebhooks_delivery: with the deliverer running as clubd runs it, a
// booking made through the API reaches the endpoint as booking.created,
// its data the booking as the API answered it, verified by the reference
// library; the attempts route shows the delivery, and a replay and a
// resend send it again with its id.
func TestWebhooks_delivery(t *testing.T) {
	t.Parallel()
	app := apptest.New(t, apptest.WithPrivateNetworks())
	app.RunJobs(app.Job("webhook_delivery"))
	c := newClub(t, app)
	admin := app.AsAdmin()
	recv := newHookReceiver(t)
	start := time.Now().Add(-time.Second)
	created := admin.Post("/api/admin/webhooks/endpoints", map[string]any{"url": recv.srv.URL + "/hook", "event_types": []string{"booking.*"}}).
		Status(t, http.StatusCreated).Object(t)
	recv.trust(created["secret"].(string))
	id := int64(created["id"].(float64))
	made := admin.Post("/api/admin/booking", c.slot(c.courtA, "2026-03-02 10:00", "2026-03-02 11:00")).Status(t, http.StatusCreated).Object(t)

	got := recv.wait(1)
	assert.Equal(t, "booking.created", got[0].Body.Type)
	assert.Equal(t, made["id"], got[0].Body.Data["id"])
	assert.Equal(t, made["checking"], got[0].Body.Data["checking"])
	// An attempt is recorded once its answer is in: recorded waits for
	// the n-th.
	recorded := func(n int) (*apptest.Response, []any) {
		var (
			attempts *apptest.Response
			list     []any
		)
		for deadline := time.Now().Add(10 * time.Second); len(list) < n && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			attempts = admin.Get(fmt.Sprint("/api/admin/webhooks/endpoints/", id, "/attempts")).Status(t, http.StatusOK)
			list = attempts.Array(t)
		}
		require.Len(t, list, n, attempts.String())
		return attempts, list
	}
	attempts, list := recorded(1)
	assert.Equal(t, "1", attempts.Header.Get("X-Total-Count"))
	first := list[0].(map[string]any)
	assert.Equal(t, "delivered", first["outcome"])
	assert.EqualValues(t, 204, first["status_code"])
	assert.Equal(t, got[0].ID, first["event_id"])

	admin.Post(fmt.Sprint("/api/admin/webhooks/endpoints/", id, "/replay"),
		map[string]any{"since": start.Format(time.RFC3339Nano), "until": time.Now().Add(time.Minute).Format(time.RFC3339Nano)}).
		Status(t, http.StatusAccepted).JSONHas(t, "queued")
	again := recv.wait(2)
	assert.Equal(t, got[0].ID, again[1].ID, "a replay keeps the event's id")
	recorded(2) // a message still pending is not queued again
	admin.Post("/api/admin/webhooks/messages/"+got[0].ID+"/resend", nil).Status(t, http.StatusAccepted).JSONHas(t, "queued")
	assert.Equal(t, got[0].ID, recv.wait(3)[2].ID)
}
