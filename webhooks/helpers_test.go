package webhooks_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/eventlog"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
	"github.com/clubhouse-go/clubhouse/webhooks"
)

var (
	admin    = clubhouse.Staff("admin")
	operator = clubhouse.Actor{UID: "desk", Bot: true, Roles: map[clubhouse.Role]bool{clubhouse.RoleOperator: true}}
)

// clock is a clock a test moves.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Now().UTC().Truncate(time.Second)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}

func (c *clock) Advance(d time.Duration) { c.Set(c.Now().Add(d)) }

// club is a database with its event log, on a clock the test moves.
type club struct {
	t     *testing.T
	db    *sqldb.DB
	clock *clock
	log   *eventlog.Log
}

func newClub(t *testing.T) *club {
	t.Helper()
	db := dbtest.New(t)
	c := newClock()
	return &club{t: t, db: db, clock: c, log: eventlog.New(db.DB, eventlog.Options{Now: c.Now})}
}

// service is a deliverer of the club (an instance of clubd), private
// networks open unless o says otherwise through closed.
func (c *club) service(o webhooks.Options) *webhooks.Service {
	o.Now, o.Log = c.clock.Now, c.log
	return webhooks.New(c.db.DB, o)
}

func (c *club) open() *webhooks.Service {
	return c.service(webhooks.Options{AllowPrivateNetworks: true})
}

// record writes an event of type typ whose payload names n, committed.
func (c *club) record(typ string, n int) {
	c.t.Helper()
	tx, err := c.db.BeginTxx(c.t.Context(), nil)
	require.NoError(c.t, err)
	require.NoError(c.t, c.log.Record(c.t.Context(), tx, eventlog.Entry{Type: typ, Actor: "desk@club.test", Payload: map[string]any{"id": n}}))
	require.NoError(c.t, tx.Commit())
}

// events reads the whole log.
func (c *club) events() []eventlog.Event {
	c.t.Helper()
	page, err := c.log.List(c.t.Context(), admin, eventlog.Query{Limit: eventlog.MaxLimit})
	require.NoError(c.t, err)
	return page.Events
}

// nextDue is the earliest next attempt of a pending message of an
// enabled endpoint; false when none is pending.
func (c *club) nextDue() (time.Time, bool) {
	c.t.Helper()
	var next *time.Time
	require.NoError(c.t, c.db.GetContext(c.t.Context(), &next, `SELECT min(m.next_attempt_at) FROM webhook_messages m
		JOIN webhook_endpoints e ON e.id = m.endpoint_id AND e.enabled WHERE m.status = 'pending'`))
	if next == nil {
		return time.Time{}, false
	}
	return *next, true
}

// deliver runs rounds of s.DeliverDue.
func deliver(t *testing.T, s *webhooks.Service) int {
	t.Helper()
	n, err := s.DeliverDue(t.Context())
	require.NoError(t, err)
	return n
}

// delivery is a request a receiver got, verified.
type delivery struct {
	ID        string
	Timestamp int64
	Signature string
	Body      struct {
		Type      string          `json:"type"`
		Timestamp time.Time       `json:"timestamp"`
		Data      json.RawMessage `json:"data"`
	}
	Raw    []byte
	Status int // what the receiver answered
}

// receiver is an endpoint's server: it verifies every delivery with the
// Standard Webhooks reference library under each of its secrets
// (webhook-timestamp within the library's tolerance of the club's
// clock), records it, and answers as answer says (200 when nil).
type receiver struct {
	t     *testing.T
	clock *clock
	srv   *httptest.Server

	mu      sync.Mutex
	secrets []string
	got     []delivery
	answer  func(d delivery, w http.ResponseWriter) int
}

func newReceiver(t *testing.T, c *clock) *receiver {
	r := &receiver{t: t, clock: c}
	r.srv = httptest.NewServer(http.HandlerFunc(r.serve))
	t.Cleanup(r.srv.Close)
	return r
}

// URL is the receiver's address.
func (r *receiver) URL() string { return r.srv.URL + "/hook" }

// trust makes secret one that every delivery must verify under.
func (r *receiver) trust(secrets ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.secrets = secrets
}

func (r *receiver) serve(w http.ResponseWriter, req *http.Request) {
	body, err := io.ReadAll(req.Body)
	if !assert.NoError(r.t, err) {
		return
	}
	r.mu.Lock()
	secrets, answer := r.secrets, r.answer
	r.mu.Unlock()
	assert.Equal(r.t, http.MethodPost, req.Method)
	assert.Equal(r.t, "application/json", req.Header.Get("Content-Type"))
	ts, err := strconv.ParseInt(req.Header.Get("webhook-timestamp"), 10, 64)
	assert.NoError(r.t, err)
	// The library's own tolerance, against the club's clock.
	assert.InDelta(r.t, r.clock.Now().Unix(), ts, 300, "webhook-timestamp is the attempt's time")
	for _, s := range secrets {
		wh, err := standardwebhooks.NewWebhook(s)
		require.NoError(r.t, err)
		assert.NoError(r.t, wh.VerifyIgnoringTimestamp(body, req.Header), "signature under %s", s)
	}
	d := delivery{ID: req.Header.Get("webhook-id"), Timestamp: ts, Signature: req.Header.Get("webhook-signature"), Raw: body, Status: http.StatusOK}
	assert.NoError(r.t, json.Unmarshal(body, &d.Body))
	if answer != nil {
		d.Status = answer(d, w)
	}
	r.mu.Lock()
	r.got = append(r.got, d)
	r.mu.Unlock()
	w.WriteHeader(d.Status)
	_, _ = io.WriteString(w, "thanks")
}

// deliveries are what the receiver got, in order.
func (r *receiver) deliveries() []delivery {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]delivery(nil), r.got...)
}

// taken counts the deliveries the receiver answered 2xx, per webhook-id.
func (r *receiver) taken() map[string]int {
	out := map[string]int{}
	for _, d := range r.deliveries() {
		if d.Status >= 200 && d.Status < 300 {
			out[d.ID]++
		}
	}
	return out
}

// endpoint creates an endpoint at r, trusted by r.
func (r *receiver) endpoint(s *webhooks.Service, types ...string) webhooks.Created {
	r.t.Helper()
	created, err := s.Create(context.Background(), admin, webhooks.Input{URL: r.URL(), EventTypes: types})
	require.NoError(r.t, err)
	r.trust(created.Secret)
	return created
}

// ids are the events' ids.
func ids(events []eventlog.Event) []string {
	out := make([]string, len(events))
	for i, e := range events {
		out[i] = e.ID
	}
	return out
}
