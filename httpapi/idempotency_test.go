package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/idem"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/objtest"
)

// rowCount counts the rows of table in the app's database.
func rowCount(t *testing.T, app *apptest.App, table string) int {
	t.Helper()
	var n int
	require.NoError(t, app.DB.GetContext(context.Background(), &n, "SELECT count(*) FROM "+table))
	return n
}

// withKey returns c sending Idempotency-Key: key.
func withKey(c *apptest.Client, key string) *apptest.Client {
	return c.WithHeader("Idempotency-Key", key)
}

// TestIdempotency_replay: on each route, a repeat with the same key and
// body answers the first answer again, marked, and writes nothing; other
// input with that key is a 422.
func TestIdempotency_replay(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	c := newClub(t, app)
	admin := app.AsAdmin()
	ana, _ := withClient(t, app, "ana@test.club")
	card := admin.Post("/api/admin/payment-types", map[string]any{"name": "Card"}).Status(t, http.StatusCreated).ID(t)
	booking := admin.Post("/api/admin/booking", c.slot(c.courtA, "2030-03-04 10:00", "2030-03-04 11:00")).Status(t, http.StatusCreated).ID(t)
	anaBooking := ana.Post("/api/account/bookings", c.slot(c.courtB, "2030-03-04T10:00:00", "2030-03-04T11:00:00")).Status(t, http.StatusCreated).ID(t)
	ev := newEventClub(t, app, c)

	for _, tc := range []struct {
		name        string
		caller      *apptest.Client
		path        string
		body, other any
		table       string
		topic       string
	}{
		{"admin booking", admin, "/api/admin/booking",
			c.slot(c.courtA, "2030-03-05 10:00", "2030-03-05 11:00"), c.slot(c.courtA, "2030-03-05 11:00", "2030-03-05 12:00"),
			"reservations", "booking:changed"},
		{"account booking", ana, "/api/account/bookings",
			c.slot(c.courtB, "2030-03-05T10:00:00", "2030-03-05T11:00:00"), c.slot(c.courtB, "2030-03-05T11:00:00", "2030-03-05T12:00:00"),
			"reservations", "booking:changed"},
		{"admin payment", admin, "/api/admin/payments",
			map[string]any{"reservation_id": booking, "amount": 100}, map[string]any{"reservation_id": booking, "amount": 200},
			"payments", "payment:updated"},
		{"booking payment", admin, path("/api/admin/booking/%d/payment", booking),
			map[string]any{"amount": 100, "transaction_id": "TX-idem-1"}, map[string]any{"amount": 150, "transaction_id": "TX-idem-1"},
			"payments", "payment:updated"},
		{"account payment", ana, "/api/account/payments",
			map[string]any{"reservation_id": anaBooking, "payment_type_id": card, "amount": 100, "transaction_id": "BANK-1"},
			map[string]any{"reservation_id": anaBooking, "payment_type_id": card, "amount": 120, "transaction_id": "BANK-1"},
			"payments", "payment:updated"},
		{"event", admin, "/api/admin/events",
			ev.body(c.courtA, "18:00:00", "20:00:00", 8), ev.body(c.courtA, "18:00:00", "20:00:00", 10),
			"events", "booking:changed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			caller := withKey(tc.caller, "retry-"+strings.ReplaceAll(tc.name, " ", "-"))
			rows := rowCount(t, app, tc.table)
			first := caller.Post(tc.path, tc.body).Status(t, http.StatusCreated)
			assert.Empty(t, first.Header.Get("Idempotent-Replayed"), "the first answer is not a replay")
			events := len(app.Events.Topic(tc.topic))

			again := caller.Post(tc.path, tc.body).Status(t, http.StatusCreated)
			assert.Equal(t, "true", again.Header.Get("Idempotent-Replayed"))
			assert.Equal(t, string(first.Body), string(again.Body), "the same body, byte for byte")
			assert.Equal(t, first.Header.Get("Content-Type"), again.Header.Get("Content-Type"))
			assert.Equal(t, rows+1, rowCount(t, app, tc.table), "one row for both")
			assert.Len(t, app.Events.Topic(tc.topic), events, "a replay publishes nothing")

			caller.Post(tc.path, tc.other).Status(t, http.StatusUnprocessableEntity).Error(t, "idempotency key reused")
			assert.Equal(t, rows+1, rowCount(t, app, tc.table))
			assert.Equal(t, string(first.Body), string(caller.Post(tc.path, tc.body).Status(t, http.StatusCreated).Body),
				"the refusal changed nothing")
		})
	}
}

// TestIdempotency_keysAreTheCallers: two users' keys, and one user's keys
// on two routes, never meet.
func TestIdempotency_keysAreTheCallers(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	c := newClub(t, app)
	ana, _ := withClient(t, app, "ana@test.club")
	bob, _ := withClient(t, app, "bob@test.club")
	const key = "my-first-booking"
	a := withKey(ana, key).Post("/api/account/bookings", c.slot(c.courtA, "2030-03-04T10:00:00", "2030-03-04T11:00:00")).
		Status(t, http.StatusCreated)
	b := withKey(bob, key).Post("/api/account/bookings", c.slot(c.courtB, "2030-03-04T10:00:00", "2030-03-04T11:00:00")).
		Status(t, http.StatusCreated)
	assert.Empty(t, b.Header.Get("Idempotent-Replayed"))
	assert.NotEqual(t, a.ID(t), b.ID(t))

	admin := withKey(app.AsAdmin(), key)
	admin.Post("/api/admin/booking", c.slot(c.courtA, "2030-03-05 10:00", "2030-03-05 11:00")).Status(t, http.StatusCreated)
	admin.Post("/api/admin/payments", map[string]any{"reservation_id": a.ID(t), "amount": 100}).Status(t, http.StatusCreated)
	assert.Equal(t, 3, rowCount(t, app, "reservations"))
	assert.Equal(t, 1, rowCount(t, app, "payments"))
}

// TestIdempotency_multipartRetryReplays: a retried upload has another
// boundary (and here its fields in another order), and still replays; one
// payment, one stored receipt. Another file with the key is a 422.
func TestIdempotency_multipartRetryReplays(t *testing.T) {
	t.Parallel()
	f := newReceiptFixture(t)
	payments := f.paymentsPath(f.booking)
	send := func(fields []string, file formFile) *apptest.Response {
		body, ct := form(t, fields, file)
		return withKey(f.app.AsAdmin(), "upload-1").WithHeader("Content-Type", ct).Post(payments, body)
	}
	fields := []string{"amount", "100", "transaction_id", "TX-upload"}
	first := send(fields, foto(jpegImage, "a.jpg", "image/jpeg")).Status(t, http.StatusCreated)
	again := send([]string{"transaction_id", "TX-upload", "amount", "100"}, foto(jpegImage, "renamed.jpg", "image/jpeg")).
		Status(t, http.StatusCreated)
	assert.Equal(t, "true", again.Header.Get("Idempotent-Replayed"))
	assert.Equal(t, string(first.Body), string(again.Body))
	assert.Equal(t, 1, rowCount(t, f.app, "payments"))
	assert.Len(t, f.keys(t), 1, "one receipt stored")

	send(fields, foto(pngImage, "a.png", "image/png")).Status(t, http.StatusUnprocessableEntity).Error(t, "idempotency key reused")
	send([]string{"amount", "100", "transaction_id", "TX-other"}, foto(jpegImage, "a.jpg", "image/jpeg")).
		Status(t, http.StatusUnprocessableEntity)
	assert.Equal(t, 1, rowCount(t, f.app, "payments"))
	assert.Len(t, f.keys(t), 1)

	// Refused uploads keep nothing under their key, and get the answers
	// they get without a key: a body over 6 MiB, declared or not, and a
	// malformed one.
	admin := withKey(f.app.AsAdmin(), "upload-2")
	big, ct := form(t, fields, foto(append(append([]byte{}, jpegImage...), make([]byte, 7<<20)...), "big.jpg", "image/jpeg"))
	admin.WithHeader("Content-Type", ct).Post(payments, big).Status(t, http.StatusRequestEntityTooLarge).Error(t, "request too large")
	req, err := http.NewRequest(http.MethodPost, f.app.URL+payments, io.MultiReader(bytes.NewReader(big)))
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+f.app.Token(f.app.User("admin@test.club")))
	req.Header.Set("Content-Type", ct)
	req.Header.Set("Idempotency-Key", "upload-2")
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, http.StatusRequestEntityTooLarge, res.StatusCode, "without Content-Length")
	admin.WithHeader("Content-Type", "multipart/form-data; boundary=xyz").
		Post(payments, "--xyz\r\nContent-Disposition: form-data; name=\"amount\"\r\n\r\n12").
		Status(t, http.StatusBadRequest).Error(t, "invalid multipart")
	body, ct := form(t, []string{"amount", "50", "transaction_id", "TX-upload-2"}, foto(pngImage, "b.png", "image/png"))
	admin.WithHeader("Content-Type", ct).Post(payments, body).Status(t, http.StatusCreated)
	assert.Equal(t, 2, rowCount(t, f.app, "payments"))
	assert.Len(t, f.keys(t), 2)
}

// TestIdempotency_expiredKeyRunsAgain: after 24 hours a key is free: the
// same request writes again.
func TestIdempotency_expiredKeyRunsAgain(t *testing.T) {
	t.Parallel()
	clock := apptest.NewClock()
	app := apptest.New(t, apptest.WithClock(clock))
	c := newClub(t, app)
	booking := app.AsAdmin().Post("/api/admin/booking", c.slot(c.courtA, "2026-03-02 10:00", "2026-03-02 11:00")).
		Status(t, http.StatusCreated).ID(t)
	pay := map[string]any{"reservation_id": booking, "amount": 100}
	withKey(app.AsAdmin(), "daily").Post("/api/admin/payments", pay).Status(t, http.StatusCreated)

	clock.Advance(24*time.Hour - time.Minute)
	withKey(app.AsAdmin(), "daily").Post("/api/admin/payments", pay).Status(t, http.StatusCreated)
	assert.Equal(t, 1, rowCount(t, app, "payments"), "still replayed within 24 hours")

	clock.Advance(time.Minute)
	res := withKey(app.AsAdmin(), "daily").Post("/api/admin/payments", pay).Status(t, http.StatusCreated)
	assert.Empty(t, res.Header.Get("Idempotent-Replayed"))
	assert.Equal(t, 2, rowCount(t, app, "payments"), "the expired key ran again")
}

// TestIdempotency_racingRetries: many clients sending one key and body at
// once make one booking (one payment); every answer is the first one,
// replayed or not, or 409 request in progress with Retry-After.
func TestIdempotency_racingRetries(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	c := newClub(t, app)
	booking := app.AsAdmin().Post("/api/admin/booking", c.slot(c.courtB, "2026-03-02 10:00", "2026-03-02 11:00")).
		Status(t, http.StatusCreated).ID(t)
	for _, tc := range []struct {
		path  string
		body  any
		table string
	}{
		{"/api/admin/booking", c.slot(c.courtA, "2026-03-02 10:00", "2026-03-02 11:00"), "reservations"},
		// Without a transaction id, nothing but the key stops a second payment.
		{"/api/admin/payments", map[string]any{"reservation_id": booking, "amount": 100}, "payments"},
	} {
		t.Run(tc.table, func(t *testing.T) {
			rows := rowCount(t, app, tc.table)
			caller := withKey(app.AsAdmin(), "race-"+tc.table)
			const n = 12
			answers := make(chan *apptest.Response, n)
			var wg sync.WaitGroup
			for range n {
				wg.Go(func() { answers <- caller.Post(tc.path, tc.body) })
			}
			wg.Wait()
			close(answers)
			var fresh, inProgress int
			var created []string
			for res := range answers {
				switch res.Code {
				case http.StatusCreated:
					created = append(created, string(res.Body))
					if res.Header.Get("Idempotent-Replayed") == "" {
						fresh++
					}
				case http.StatusConflict:
					res.Error(t, "request in progress")
					assert.Equal(t, "1", res.Header.Get("Retry-After"))
					inProgress++
				default:
					t.Errorf("unexpected answer: %s", res)
				}
			}
			t.Logf("%d created (%d fresh), %d in progress", len(created), fresh, inProgress)
			assert.Equal(t, 1, fresh, "one request wrote")
			for _, b := range created {
				assert.Equal(t, created[0], b)
			}
			assert.Equal(t, rows+1, rowCount(t, app, tc.table), "exactly one row")
		})
	}
}

// TestIdempotency_inProgressAndCrashedOwner: while a request with the key
// runs, a retry answers 409 with Retry-After; a request whose server died
// holds the key for a minute at most, then a retry runs.
func TestIdempotency_inProgressAndCrashedOwner(t *testing.T) {
	t.Parallel()
	clock := apptest.NewClock()
	app := apptest.New(t, apptest.WithClock(clock))
	c := newClub(t, app)
	booking := app.AsAdmin().Post("/api/admin/booking", c.slot(c.courtA, "2026-03-02 10:00", "2026-03-02 11:00")).
		Status(t, http.StatusCreated).ID(t)
	body, err := json.Marshal(map[string]any{"reservation_id": booking, "amount": 100})
	require.NoError(t, err)

	// The attempt of a server that hangs: the key as the route takes it
	// (the caller's uid, the route's pattern, the method, path and body).
	uid := app.User("admin@test.club", clubhouse.RoleAdmin, clubhouse.RoleOperator).LocalID
	key := idem.Key{Owner: uid, Scope: "POST /api/admin/payments", Key: "hung"}
	fp := idem.Fingerprint([]byte("POST"), []byte("/api/admin/payments"), []byte("body"), body)
	hung, started, stopped := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	go func() {
		_, _, err := app.Keys.Do(context.Background(), key, fp, func(context.Context) (idem.Outcome, error) {
			close(started)
			<-hung
			return idem.Outcome{Status: http.StatusCreated, Body: []byte("{}")}, nil
		})
		stopped <- err
	}()
	<-started

	retry := func() *apptest.Response { return withKey(app.AsAdmin(), "hung").Post("/api/admin/payments", body) }
	res := retry().Status(t, http.StatusConflict).Error(t, "request in progress")
	assert.Equal(t, "1", res.Header.Get("Retry-After"))
	withKey(app.AsAdmin(), "hung").Post("/api/admin/payments", map[string]any{"reservation_id": booking, "amount": 5}).
		Status(t, http.StatusUnprocessableEntity)

	clock.Advance(time.Minute)
	res = retry().Status(t, http.StatusCreated)
	assert.Empty(t, res.Header.Get("Idempotent-Replayed"), "the retry took the key over and ran")
	assert.Equal(t, 1, rowCount(t, app, "payments"))
	close(hung)
	require.NoError(t, <-stopped)
	assert.Contains(t, app.LogText(), "taken over", "the late attempt's outcome is not recorded, and logged")
	assert.Equal(t, string(res.Body), string(retry().Status(t, http.StatusCreated).Body), "the retry's answer is the one kept")
}

// TestIdempotency_badKey: a key that is empty, too long, not printable
// ASCII or sent twice is a 400 naming the header, and nothing is written.
func TestIdempotency_badKey(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	c := newClub(t, app)
	slot := c.slot(c.courtA, "2026-03-02 10:00", "2026-03-02 11:00")
	for name, key := range map[string]string{
		"empty":     "",
		"space":     "two words",
		"non-ASCII": "clé",
		"too long":  strings.Repeat("k", 256),
	} {
		t.Run(name, func(t *testing.T) {
			res := withKey(app.AsAdmin(), key).Post("/api/admin/booking", slot).Status(t, http.StatusBadRequest).Error(t, "invalid data")
			assert.Contains(t, res.Object(t)["message"], "Idempotency-Key")
		})
	}
	t.Run("twice", func(t *testing.T) {
		body, err := json.Marshal(slot)
		require.NoError(t, err)
		req, err := http.NewRequest(http.MethodPost, app.URL+"/api/admin/booking", strings.NewReader(string(body)))
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bearer "+app.Token(app.User("admin@test.club", clubhouse.RoleAdmin, clubhouse.RoleOperator)))
		req.Header.Add("Idempotency-Key", "one")
		req.Header.Add("Idempotency-Key", "two")
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer res.Body.Close()
		var e errorBody
		require.NoError(t, json.NewDecoder(res.Body).Decode(&e))
		assert.Equal(t, http.StatusBadRequest, res.StatusCode)
		assert.Contains(t, e.Message, "Idempotency-Key")
	})
	assert.Equal(t, 0, rowCount(t, app, "reservations"))
}

// TestIdempotency_failedAttemptFreesKey: a request that fails (409 slot
// taken, 400 bad input) keeps nothing under its key: the corrected retry
// runs, and is then replayed.
func TestIdempotency_failedAttemptFreesKey(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	c := newClub(t, app)
	app.AsAdmin().Post("/api/admin/booking", c.slot(c.courtA, "2026-03-02 10:00", "2026-03-02 11:00")).Status(t, http.StatusCreated)
	caller := withKey(app.AsAdmin(), "book-once")
	caller.Post("/api/admin/booking", c.slot(c.courtA, "2026-03-02 10:00", "2026-03-02 11:00")).
		Status(t, http.StatusConflict).Error(t, "court occupied")
	caller.Post("/api/admin/booking", c.slot(c.courtA, "2026-03-02 11:00", "2026-03-02 11:10")).Status(t, http.StatusBadRequest)
	fixed := c.slot(c.courtA, "2026-03-02 11:00", "2026-03-02 12:00")
	first := caller.Post("/api/admin/booking", fixed).Status(t, http.StatusCreated)
	assert.Empty(t, first.Header.Get("Idempotent-Replayed"))
	again := caller.Post("/api/admin/booking", fixed).Status(t, http.StatusCreated)
	assert.Equal(t, "true", again.Header.Get("Idempotent-Replayed"))
	assert.Equal(t, first.ID(t), again.ID(t))
	assert.Equal(t, 2, rowCount(t, app, "reservations"))
}

// TestIdempotency_answerLost: each route's write marks its key in its own
// transaction. A server that dies after the write and before keeping the
// answer leaves the key running (here: the kept answer is taken back to
// that state); within the minute's lease a retry is in progress, after it
// the retry answers 409 request already applied, naming the GET that finds
// the record, and writes nothing.
func TestIdempotency_answerLost(t *testing.T) {
	t.Parallel()
	clock := apptest.NewClock()
	app := apptest.New(t, apptest.WithClock(clock), apptest.WithObjects(objtest.Store(t, objtest.New(t))))
	c := newClub(t, app)
	admin := app.AsAdmin()
	ana, _ := withClient(t, app, "ana@test.club")
	card := admin.Post("/api/admin/payment-types", map[string]any{"name": "Card"}).Status(t, http.StatusCreated).ID(t)
	booking := admin.Post("/api/admin/booking", c.slot(c.courtA, "2030-03-04 10:00", "2030-03-04 11:00")).Status(t, http.StatusCreated).ID(t)
	anaBooking := ana.Post("/api/account/bookings", c.slot(c.courtB, "2030-03-04T10:00:00", "2030-03-04T11:00:00")).Status(t, http.StatusCreated).ID(t)
	upload, ct := form(t, []string{"amount", "100", "transaction_id", "TX-lost-upload"}, foto(jpegImage, "a.jpg", "image/jpeg"))
	ev := newEventClub(t, app, c)

	for i, tc := range []struct {
		name   string
		caller *apptest.Client
		path   string
		body   any
		ct     string // the Content-Type when not JSON
		table  string
	}{
		{"admin booking", admin, "/api/admin/booking", c.slot(c.courtA, "2030-03-05 10:00", "2030-03-05 11:00"), "", "reservations"},
		{"account booking", ana, "/api/account/bookings", c.slot(c.courtB, "2030-03-05T10:00:00", "2030-03-05T11:00:00"), "", "reservations"},
		{"admin payment", admin, "/api/admin/payments", map[string]any{"reservation_id": booking, "amount": 100}, "", "payments"},
		{"booking payment", admin, path("/api/admin/booking/%d/payment", booking),
			map[string]any{"amount": 100, "transaction_id": "TX-lost"}, "", "payments"},
		{"booking payment upload", admin, path("/api/admin/booking/%d/payment", booking), upload, ct, "payments"},
		{"account payment", ana, "/api/account/payments",
			map[string]any{"reservation_id": anaBooking, "payment_type_id": card, "amount": 100, "transaction_id": "BANK-lost"},
			"", "payments"},
		{"event", admin, "/api/admin/events", ev.body(c.courtB, "18:00:00", "20:00:00", 8), "", "events"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			key := path("lost-%d", i)
			send := func() *apptest.Response {
				caller := withKey(tc.caller, key)
				if tc.ct != "" {
					caller = caller.WithHeader("Content-Type", tc.ct)
				}
				return caller.Post(tc.path, tc.body)
			}
			id := send().Status(t, http.StatusCreated).ID(t)
			rows := rowCount(t, app, tc.table)
			res, err := app.DB.ExecContext(t.Context(), `UPDATE idempotency_keys
				SET state = 'running', status = 0, content_type = '', location = '', body = '', started_at = $2
				WHERE key = $1 AND state = 'done' AND written`, key, clock.Now())
			require.NoError(t, err)
			n, err := res.RowsAffected()
			require.NoError(t, err)
			require.EqualValues(t, 1, n, "the write marked its key")

			send().Status(t, http.StatusConflict).Error(t, "request in progress")
			clock.Advance(time.Minute)
			lost := send().Status(t, http.StatusConflict).Error(t, "request already applied")
			assert.Empty(t, lost.Header.Get("Retry-After"), "retrying does not help")
			assert.Contains(t, lost.Object(t)["message"], "GET "+tc.path)
			assert.Equal(t, rows, rowCount(t, app, tc.table), "nothing written again")
			assert.Contains(t, string(tc.caller.Get(tc.path).Status(t, http.StatusOK).Body), path(`"id":%d,`, id),
				"the GET the answer names finds the record")
		})
	}
}
