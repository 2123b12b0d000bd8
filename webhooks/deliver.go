package webhooks

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/eventlog"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/outbound"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/mail"
)

// Delivering in the background. Follow reads the event log from the
// deliverer's cursor (webhook_cursor, locked by the one instance that
// follows at a time) and makes each event into one message per enabled
// endpoint that receives it, in the transaction that moves the cursor, so
// that an event is made into messages once, by whichever instance. Each
// endpoint with due messages then gets a worker of its own (up to
// Options.Workers on an instance), which claims its due messages one at a
// time (FOR UPDATE SKIP LOCKED, moving the next attempt past the lease),
// sends each and records the attempt, fenced by the claim: an endpoint
// that is slow or dead holds up its own worker alone. The job
// (DeliveryJob) does this every interval without waiting for the workers
// it started, and DeliverDue does it once, waiting for them.

const (
	// lease is how long a claimed message stays out of other deliverers'
	// reach; its attempt is cut off at Options.Timeout, well before, and
	// a deliverer whose lease ran out records nothing.
	lease = 2 * time.Minute
	// followPage is the most events Follow reads at a time.
	followPage = 500
	// maxDrain bounds what is read of an answer's body beyond what is
	// kept, so that the connection may be used again.
	maxDrain = 16 << 10
)

// payload is a message's body, as the specification shapes it: the
// event's type, its time and its data.
type payload struct {
	Type      string          `json:"type"`
	Timestamp string          `json:"timestamp"`
	Data      json.RawMessage `json:"data"`
}

// newMessage is the message of event ev for endpoint.
func newMessage(endpoint int64, ev eventlog.Event) (message, error) {
	data := ev.Payload
	if len(data) == 0 {
		data = json.RawMessage(`{}`)
	}
	b, err := json.Marshal(payload{Type: ev.Type, Timestamp: ev.At.UTC().Format(time.RFC3339Nano), Data: data})
	if err != nil {
		return message{}, fmt.Errorf("the payload of event %s: %w", ev.ID, err)
	}
	return message{endpoint: endpoint, eventID: ev.ID, eventType: ev.Type, eventAt: ev.At, body: string(b)}, nil
}

// subscriber is an enabled endpoint as Follow matches events to it.
type subscriber struct {
	ID         int64     `db:"id"`
	EventTypes string    `db:"event_types"`
	CreatedAt  time.Time `db:"created_at"`
	types      []string
}

// Follow makes the events recorded since the last reading into messages:
// one per enabled endpoint that receives the event (Matches), created
// before it was recorded. It returns how many messages it queued; while
// another instance follows, it does nothing. A cursor into the part of
// the log purged (the deliverer was stopped longer than the log's
// retention) reads from the oldest event kept. Errors: the database's and
// the event log's.
func (s *Service) Follow(ctx context.Context) (int, error) {
	total := 0
	for {
		n, full, err := s.followPage(ctx)
		total += n
		if err != nil || !full {
			return total, err
		}
	}
}

// followPage makes a page of the log into messages, and says whether the
// page was full (more may follow).
func (s *Service) followPage(ctx context.Context) (queued int, full bool, err error) {
	err = sqldb.Transact(ctx, s.db, func(tx *sqlx.Tx) error {
		queued, full = 0, false
		var text string
		err := tx.GetContext(ctx, &text, `SELECT cursor FROM webhook_cursor FOR UPDATE SKIP LOCKED`)
		if errors.Is(err, sql.ErrNoRows) {
			return nil // another instance follows
		}
		if err != nil {
			return fmt.Errorf("read the webhooks' cursor: %w", err)
		}
		after, err := eventlog.ParseCursor(text)
		if err != nil {
			return fmt.Errorf("the webhooks' cursor: %w", err)
		}
		page, err := s.o.Log.List(ctx, asReader, eventlog.Query{After: after, Limit: followPage})
		if errors.Is(err, eventlog.ErrCursorExpired) {
			page, err = s.o.Log.List(ctx, asReader, eventlog.Query{Limit: followPage})
		}
		if err != nil {
			return fmt.Errorf("follow the event log: %w", err)
		}
		var subs []subscriber
		if err := tx.SelectContext(ctx, &subs, `SELECT id, to_json(event_types)::text AS event_types, created_at
			FROM webhook_endpoints WHERE enabled ORDER BY id`); err != nil {
			return fmt.Errorf("read the endpoints: %w", err)
		}
		for i := range subs {
			if err := json.Unmarshal([]byte(subs[i].EventTypes), &subs[i].types); err != nil {
				return fmt.Errorf("read endpoint %d's event types: %w", subs[i].ID, err)
			}
		}
		var msgs []message
		for _, ev := range page.Events {
			for _, sub := range subs {
				if ev.At.Before(sub.CreatedAt) || !Matches(sub.types, ev.Type) {
					continue
				}
				m, err := newMessage(sub.ID, ev)
				if err != nil {
					return err
				}
				msgs = append(msgs, m)
			}
		}
		if queued, err = (store{}).queue(ctx, tx, msgs, s.o.Now(), false); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE webhook_cursor SET cursor = $1`, page.Next.String()); err != nil {
			return fmt.Errorf("move the webhooks' cursor: %w", err)
		}
		full = len(page.Events) == followPage
		return nil
	})
	return queued, full, err
}

// replay queues again, for endpoint e, each event of its types recorded
// from since to until (excluded).
func (s *Service) replay(ctx context.Context, e Endpoint, since, until time.Time) (int, error) {
	var after eventlog.Cursor
	total := 0
	for {
		page, err := s.o.Log.List(ctx, asReader, eventlog.Query{After: after, Limit: eventlog.MaxLimit})
		if err != nil {
			return total, err
		}
		var msgs []message
		for _, ev := range page.Events {
			if ev.At.Before(since) || !ev.At.Before(until) || !Matches(e.EventTypes, ev.Type) {
				continue
			}
			m, err := newMessage(e.ID, ev)
			if err != nil {
				return total, err
			}
			msgs = append(msgs, m)
		}
		n, err := store{}.queue(ctx, s.db, msgs, s.o.Now(), true)
		total += n
		if err != nil {
			return total, sqldb.Map(err, nil, sqldb.Mapping{"webhook_messages_endpoint_id_fkey": ErrEndpointNotFound})
		}
		if len(page.Events) < eventlog.MaxLimit {
			return total, nil
		}
		after = page.Next
	}
}

// dispatcher keeps the endpoints that have a worker on this instance, and
// bounds the workers.
type dispatcher struct {
	mu    sync.Mutex
	busy  map[int64]bool
	slots chan struct{}
}

func newDispatcher(workers int) *dispatcher {
	return &dispatcher{busy: map[int64]bool{}, slots: make(chan struct{}, workers)}
}

// take reserves a worker for endpoint: false when it has one already, or
// every worker is busy.
func (d *dispatcher) take(endpoint int64) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.busy[endpoint] {
		return false
	}
	select {
	case d.slots <- struct{}{}:
	default:
		return false
	}
	d.busy[endpoint] = true
	return true
}

// done frees endpoint's worker.
func (d *dispatcher) done(endpoint int64) {
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.busy, endpoint)
	<-d.slots
}

// start starts a worker for each endpoint with due messages that has none
// here, as many as there are free workers, each counted in wg and
// reporting what it did to report.
func (s *Service) start(ctx context.Context, wg *sync.WaitGroup, report func(n int, err error)) error {
	var due []int64
	err := s.db.SelectContext(ctx, &due, `SELECT DISTINCT m.endpoint_id FROM webhook_messages m
		JOIN webhook_endpoints e ON e.id = m.endpoint_id AND e.enabled
		WHERE m.status = 'pending' AND m.next_attempt_at <= $1 ORDER BY 1`, s.o.Now())
	if err != nil {
		return fmt.Errorf("find the endpoints with messages due: %w", err)
	}
	for _, id := range due {
		if !s.work.take(id) {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer s.work.done(id)
			report(s.worker(ctx, id))
		}()
	}
	return nil
}

// worker delivers endpoint's due messages, one at a time, until none is
// due, and returns how many attempts it made.
func (s *Service) worker(ctx context.Context, endpoint int64) (int, error) {
	n := 0
	for ctx.Err() == nil {
		c, ok, err := store{}.claim(ctx, s.db, endpoint, s.o.Now(), lease)
		if err != nil || !ok {
			return n, err
		}
		o := s.attempt(ctx, c)
		if ctx.Err() != nil {
			// Stopped mid-attempt: not the endpoint's failure. The claim's
			// lease runs out and the message goes again.
			return n, nil
		}
		if err := s.record(ctx, c, o); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// DeliverDue follows the event log (Follow), then delivers every message
// that is due, each endpoint's by a worker of its own (up to
// Options.Workers at once; an endpoint whose worker the job runs is left
// to it), and returns how many attempts it made once every worker it
// started is done. Errors: the first of the database's and the event
// log's.
func (s *Service) DeliverDue(ctx context.Context) (int, error) {
	if _, err := s.Follow(ctx); err != nil {
		return 0, err
	}
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		total int
		first error
	)
	err := s.start(ctx, &wg, func(n int, err error) {
		mu.Lock()
		defer mu.Unlock()
		total += n
		if first == nil {
			first = err
		}
	})
	wg.Wait()
	if err != nil {
		return total, err
	}
	return total, first
}

// DeliveryJob is the job "webhook_delivery": every interval, and as soon
// as a replay, a resend or an endpoint enabled queues messages on this
// service, it follows the event log and starts a worker for each endpoint
// with due messages that has none, without waiting for those at work. It
// fails with the first error of a round or of a worker; a worker stopped
// with it leaves its claimed message to go again once its lease is over.
func (s *Service) DeliveryJob(interval time.Duration) clubhouse.Job {
	return clubhouse.NewJob("webhook_delivery", func(ctx context.Context) error {
		ctx, cancel := context.WithCancel(ctx)
		var wg sync.WaitGroup
		defer wg.Wait()
		defer cancel()
		failed := make(chan error, 1)
		report := func(_ int, err error) {
			if err != nil && ctx.Err() == nil {
				select {
				case failed <- err:
				default:
				}
			}
		}
		return clubhouse.Repeat(ctx, interval, s.wake, func(ctx context.Context) error {
			select {
			case err := <-failed:
				return err
			default:
			}
			if _, err := s.Follow(ctx); err != nil {
				return err
			}
			return s.start(ctx, &wg, report)
		})
	})
}

// claimed is a message claimed for an attempt, with what sending it needs.
type claimed struct {
	ID         int64  `db:"id"`
	EndpointID int64  `db:"endpoint_id"`
	EventID    string `db:"event_id"`
	Body       string `db:"body"`
	Attempts   int    `db:"attempts"` // with this one: the claim that fences its record
	URL        string `db:"url"`
	Secret     []byte `db:"secret"`
	Previous   []byte `db:"previous_secret"` // nil unless it still signs
}

// claim takes endpoint's next due message, if any, for lease.
func (store) claim(ctx context.Context, db *sqlx.DB, endpoint int64, now time.Time, lease time.Duration) (claimed, bool, error) {
	var c claimed
	err := db.GetContext(ctx, &c, `WITH due AS (
			SELECT m.id FROM webhook_messages m
			WHERE m.endpoint_id = $1 AND m.status = 'pending' AND m.next_attempt_at <= $2
				AND EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.id = $1 AND e.enabled)
			ORDER BY m.next_attempt_at, m.id LIMIT 1 FOR UPDATE SKIP LOCKED),
		taken AS (
			UPDATE webhook_messages m SET attempts = m.attempts + 1, next_attempt_at = $3
			FROM due WHERE m.id = due.id
			RETURNING m.id, m.endpoint_id, m.event_id, m.body, m.attempts)
		SELECT t.id, t.endpoint_id, t.event_id::text AS event_id, t.body, t.attempts, e.url, e.secret,
			CASE WHEN e.previous_until > $2 THEN e.previous_secret END AS previous_secret
		FROM taken t JOIN webhook_endpoints e ON e.id = t.endpoint_id`, endpoint, now, now.Add(lease))
	if errors.Is(err, sql.ErrNoRows) {
		return claimed{}, false, nil
	}
	if err != nil {
		return claimed{}, false, fmt.Errorf("claim a message of endpoint %d: %w", endpoint, err)
	}
	return c, true, nil
}

// outcome is what came of an attempt.
type outcome struct {
	at       time.Time
	took     time.Duration
	code     *int
	response string
	err      *string
	result   string     // one of the Outcome constants
	next     *time.Time // the next attempt, for OutcomeRetry
}

// The failures of an attempt that got no answer, as recorded: what went
// wrong, not what the connection met (a resolver's answer, the state of a
// port on another machine).
const (
	errNotPublic   = "the endpoint's address is not a public one (OUTBOUND_ALLOW_PRIVATE_NETWORKS opens private networks)"
	errTimeout     = "the endpoint did not answer in time"
	errUnreachable = "the endpoint could not be reached"
	errRedirect    = "the endpoint answered a redirect, which is not followed: give the endpoint its final URL"
)

// attempt sends c once, signed at this instant, and says what came of it.
func (s *Service) attempt(ctx context.Context, c claimed) outcome {
	at := s.o.Now()
	o := outcome{at: at}
	ctx, cancel := context.WithTimeout(ctx, s.o.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.URL, strings.NewReader(c.Body))
	if err != nil {
		return s.failed(c, o, fmt.Sprintf("the request could not be made: %v", err), 0)
	}
	keys := [][]byte{c.Secret}
	if c.Previous != nil {
		keys = append(keys, c.Previous)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Clubhouse-Webhooks/1")
	req.Header.Set("webhook-id", c.EventID)
	req.Header.Set("webhook-timestamp", strconv.FormatInt(at.Unix(), 10))
	req.Header.Set("webhook-signature", sign(keys, c.EventID, at, []byte(c.Body)))
	started := time.Now() // a duration measured, not a time the logic reads
	resp, err := s.client.Do(req)
	o.took = time.Since(started)
	if err != nil {
		var nerr net.Error
		switch {
		case errors.Is(err, outbound.ErrRefused):
			return s.failed(c, o, errNotPublic, 0)
		case errors.Is(err, context.DeadlineExceeded) || errors.As(err, &nerr) && nerr.Timeout():
			return s.failed(c, o, errTimeout, 0)
		}
		return s.failed(c, o, errUnreachable, 0)
	}
	defer resp.Body.Close()
	first, _ := io.ReadAll(io.LimitReader(resp.Body, MaxResponse))
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxDrain))
	o.took = time.Since(started)
	code := resp.StatusCode
	o.code, o.response = &code, cutText(string(first), MaxResponse)
	switch {
	case code >= 200 && code < 300:
		o.result = OutcomeDelivered
		return o
	case code == http.StatusGone:
		text := "the endpoint answered 410 Gone: it is disabled"
		o.result, o.err = OutcomeGone, &text
		return o
	case code >= 300 && code < 400:
		return s.failed(c, o, errRedirect, 0)
	case code == http.StatusTooManyRequests || code >= 500:
		return s.failed(c, o, "the endpoint answered "+strconv.Itoa(code), retryAfter(resp.Header, at))
	}
	return s.failed(c, o, "the endpoint answered "+strconv.Itoa(code), 0)
}

// failed is the outcome o of a failed attempt of c: tried again after the
// schedule's wait (at least asked), or failed once its attempts are used
// up.
func (s *Service) failed(c claimed, o outcome, text string, asked time.Duration) outcome {
	d, again := wait(c.Attempts, asked)
	if !again {
		text = fmt.Sprintf("gave up after %d attempts: %s", c.Attempts, text)
		o.result, o.err = OutcomeFailed, &text
		return o
	}
	next := o.at.Add(d)
	o.result, o.err, o.next = OutcomeRetry, &text, &next
	return o
}

// record keeps the attempt o of c and its consequences, unless c's claim
// no longer holds (its lease ran out and another deliverer took it, or the
// message or its endpoint is gone): the message delivered, tried again or
// failed; the endpoint's failures; an endpoint that answered 410, or whose
// attempts all failed for FailingLimit, disabled, and the admins told.
func (s *Service) record(ctx context.Context, c claimed, o outcome) error {
	return sqldb.Transact(ctx, s.db, func(tx *sqlx.Tx) error {
		// The endpoint first, then the message: the order in which
		// deleting an endpoint takes them.
		var ep struct {
			Enabled      bool       `db:"enabled"`
			FailingSince *time.Time `db:"failing_since"`
		}
		err := tx.GetContext(ctx, &ep, `SELECT enabled, failing_since FROM webhook_endpoints WHERE id = $1 FOR UPDATE`, c.EndpointID)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("lock endpoint %d: %w", c.EndpointID, err)
		}
		status, delivered := "pending", (*time.Time)(nil)
		switch o.result {
		case OutcomeDelivered:
			status, delivered = "delivered", &o.at
		case OutcomeFailed, OutcomeGone:
			status = "failed"
		}
		res, err := tx.ExecContext(ctx, `UPDATE webhook_messages SET status = $2, next_attempt_at = $3, delivered_at = $4
			WHERE id = $1 AND status = 'pending' AND attempts = $5`, c.ID, status, o.next, delivered, c.Attempts)
		if err != nil {
			return fmt.Errorf("record message %d: %w", c.ID, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil // no longer ours to record
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO webhook_attempts
				(message_id, endpoint_id, attempted_at, status_code, duration_ms, response, error, outcome)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
			c.ID, c.EndpointID, o.at, o.code, o.took.Milliseconds(), o.response, o.err, o.result); err != nil {
			return fmt.Errorf("record an attempt of message %d: %w", c.ID, err)
		}
		failing, reason := ep.FailingSince, ""
		switch {
		case o.result == OutcomeDelivered:
			failing = nil
		case o.result == OutcomeGone:
			reason = DisabledGone
		default:
			if failing == nil {
				failing = &o.at
			}
			if o.at.Sub(*failing) >= FailingLimit {
				reason = DisabledFailing
			}
		}
		if reason != "" && !ep.Enabled {
			reason = ""
		}
		if _, err := tx.ExecContext(ctx, `UPDATE webhook_endpoints SET failing_since = $2,
				enabled = enabled AND $3 = '', disabled_reason = CASE WHEN $3 = '' THEN disabled_reason ELSE $3 END,
				updated_at = CASE WHEN $3 = '' THEN updated_at ELSE $4 END
			WHERE id = $1`, c.EndpointID, failing, reason, o.at); err != nil {
			return fmt.Errorf("record endpoint %d: %w", c.EndpointID, err)
		}
		if reason != "" {
			return s.tellAdmins(ctx, tx, c.EndpointID)
		}
		return nil
	})
}

// tellAdmins queues, for each admin with an address, the message that the
// club disabled endpoint.
func (s *Service) tellAdmins(ctx context.Context, tx *sqlx.Tx, endpoint int64) error {
	if s.o.Mail == nil {
		return nil
	}
	var ids []int64
	if err := tx.SelectContext(ctx, &ids, `SELECT id FROM users WHERE (admin OR sudo) AND NOT disabled AND email IS NOT NULL ORDER BY id`); err != nil {
		return fmt.Errorf("find the admins: %w", err)
	}
	notices := make([]mail.Notice, len(ids))
	for i, id := range ids {
		notices[i] = mail.Notice{Kind: mail.KindWebhookDisabled, UserID: id, Ref: endpoint}
	}
	return s.o.Mail.Queue(ctx, tx, notices...)
}
