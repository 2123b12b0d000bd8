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
	"sort"
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
// retention) reads from the oldest event kept. An endpoint deleted while
// it follows gets no message, and is no error. Errors: the database's and
// the event log's.
func (s *Service) Follow(ctx context.Context) (int, error) {
	total, gone := 0, 0
	for {
		n, full, err := s.followPage(ctx)
		total += n
		if err != nil && endpointGone(err) && gone < 3 {
			// The page's endpoints are locked before its messages are
			// written, so this does not happen; should it, the page is
			// read again, without the endpoint deleted.
			gone++
			continue
		}
		if err != nil || !full {
			return total, err
		}
	}
}

// endpointGone says whether err is the foreign key of a message to an
// endpoint deleted meanwhile.
func endpointGone(err error) bool {
	return sqldb.Code(err) == "23503" && sqldb.Constraint(err) == "webhook_messages_endpoint_id_fkey"
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
		// The endpoints are locked (FOR KEY SHARE: an admin's change waits
		// for nothing, a deletion for this transaction), so that each one
		// read is there when its messages are written; one deleted
		// meanwhile is not read.
		var subs []subscriber
		if err := tx.SelectContext(ctx, &subs, `SELECT id, to_json(event_types)::text AS event_types, created_at
			FROM webhook_endpoints WHERE enabled ORDER BY id FOR KEY SHARE`); err != nil {
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

// replaySlack is how far an event's time may lie before that of an event
// before it in the log (eventlog.Log.Seek): longer than a change's
// transaction lasts. Replay reads the log from this much before its
// range, and until its events are this much past it.
const replaySlack = 10 * time.Minute

// replay queues again, for endpoint e, each event of its types recorded
// from since to until (excluded).
func (s *Service) replay(ctx context.Context, e Endpoint, since, until time.Time) (int, error) {
	after, err := s.o.Log.Seek(ctx, asReader, since.Add(-replaySlack))
	if err != nil {
		return 0, err
	}
	total := 0
	for {
		page, err := s.o.Log.List(ctx, asReader, eventlog.Query{After: after, Limit: eventlog.MaxLimit})
		if err != nil {
			return total, err
		}
		var msgs []message
		past := false
		for _, ev := range page.Events {
			if !ev.At.Before(until.Add(replaySlack)) {
				past = true
				break
			}
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
		if past || len(page.Events) < eventlog.MaxLimit {
			return total, nil
		}
		after = page.Next
	}
}

// The bounds of a worker's turn: it gives its endpoint's place back after
// a failed attempt, turnAttempts attempts or turnTime, whichever comes
// first, so that endpoints with due messages take turns on the workers
// (those served longest ago first) and a slow or dead one holds a worker
// for about one attempt (Options.Timeout) at a time.
const (
	turnAttempts = 100
	turnTime     = 10 * time.Second
)

// dispatcher keeps the endpoints that have a worker on this instance, and
// bounds the workers.
type dispatcher struct {
	mu    sync.Mutex
	busy  map[int64]bool
	last  map[int64]time.Time // when each endpoint's last turn here ended
	slots chan struct{}
}

func newDispatcher(workers int) *dispatcher {
	return &dispatcher{busy: map[int64]bool{}, last: map[int64]time.Time{}, slots: make(chan struct{}, workers)}
}

// order sorts the endpoints with due messages for their turns: those whose
// last turn here ended longest ago (or that had none) first. It forgets
// the endpoints that have nothing due and no worker.
func (d *dispatcher) order(due []int64) {
	d.mu.Lock()
	defer d.mu.Unlock()
	keep := make(map[int64]bool, len(due))
	for _, id := range due {
		keep[id] = true
	}
	for id := range d.last {
		if !keep[id] && !d.busy[id] {
			delete(d.last, id)
		}
	}
	sort.SliceStable(due, func(i, j int) bool { return d.last[due[i]].Before(d.last[due[j]]) })
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
	d.last[endpoint] = time.Now() // an order of turns, not a time the logic reads
	<-d.slots
}

// turn is what a worker did in its turn: its attempts, whether its
// endpoint may have more due (the turn ended on its bounds), and its
// error.
type turn struct {
	attempts int
	more     bool
	err      error
}

// start starts a worker for each enabled endpoint with due messages that
// has none here, as many as there are free workers, those served longest
// ago first, each counted in wg, claiming nothing once stop is closed,
// and reporting its turn to report.
func (s *Service) start(ctx context.Context, stop <-chan struct{}, wg *sync.WaitGroup, report func(turn)) error {
	// The endpoints are few, the messages many: each enabled endpoint
	// probes its own part of the due index (webhook_messages_due_idx), so
	// that the messages of a disabled endpoint, and those not yet due,
	// are never read.
	var due []int64
	err := s.db.SelectContext(ctx, &due, `SELECT e.id FROM webhook_endpoints e
		WHERE e.enabled AND EXISTS (SELECT 1 FROM webhook_messages m
			WHERE m.endpoint_id = e.id AND m.status = 'pending' AND m.next_attempt_at <= $1)
		ORDER BY e.id`, s.o.Now())
	if err != nil {
		return fmt.Errorf("find the endpoints with messages due: %w", err)
	}
	s.work.order(due)
	for _, id := range due {
		if !s.work.take(id) {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer s.work.done(id)
			report(s.worker(ctx, stop, id))
		}()
	}
	return nil
}

// worker delivers endpoint's due messages, one at a time, for a turn: until
// none is due, an attempt fails, or the turn's bounds; it claims nothing
// once stop is closed, and leaves the attempt at work, if any, to finish
// and be recorded. When ctx ends mid-attempt, the attempt is given back
// (release).
func (s *Service) worker(ctx context.Context, stop <-chan struct{}, endpoint int64) turn {
	var t turn
	began := time.Now() // a duration measured, not a time the logic reads
	for ctx.Err() == nil {
		select {
		case <-stop:
			return t
		default:
		}
		if t.attempts >= turnAttempts || time.Since(began) >= turnTime {
			t.more = true
			return t
		}
		c, ok, err := store{}.claim(ctx, s.db, endpoint, s.o.Now(), lease)
		if err != nil || !ok {
			t.err = err
			return t
		}
		o := s.attempt(ctx, c)
		if ctx.Err() != nil {
			// Stopped mid-attempt: not the endpoint's failure. The claim
			// is given back, and the message goes again.
			s.release(context.WithoutCancel(ctx), c)
			return t
		}
		if err := s.record(ctx, c, o); err != nil {
			t.err = err
			return t
		}
		t.attempts++
		if o.result != OutcomeDelivered {
			t.more = o.result == OutcomeRetry || o.result == OutcomeFailed
			return t
		}
	}
	return t
}

// releaseTime bounds the giving back of a claim at shutdown.
const releaseTime = 5 * time.Second

// release gives back c's claim, unless it no longer holds: the message is
// due at once, and the attempt stopped is not counted. Its error is
// dropped: the claim's lease runs out anyway.
func (s *Service) release(ctx context.Context, c claimed) {
	ctx, cancel := context.WithTimeout(ctx, releaseTime)
	defer cancel()
	_, _ = s.db.ExecContext(ctx, `UPDATE webhook_messages SET attempts = attempts - 1, next_attempt_at = $3
		WHERE id = $1 AND status = 'pending' AND attempts = $2`, c.ID, c.Attempts, s.o.Now())
}

// DeliverDue follows the event log (Follow), then delivers every message
// that is due, each endpoint's by a worker of its own (up to
// Options.Workers at once, endpoints taking turns; an endpoint whose
// worker the job runs is left to it), and returns how many attempts it
// made once every worker it started is done. A failure to follow does not
// keep it from delivering. Errors: the first of the database's and the
// event log's.
func (s *Service) DeliverDue(ctx context.Context) (int, error) {
	_, first := s.Follow(ctx)
	var (
		mu    sync.Mutex
		total int
	)
	for {
		var wg sync.WaitGroup
		more := false
		err := s.start(ctx, nil, &wg, func(t turn) {
			mu.Lock()
			defer mu.Unlock()
			total += t.attempts
			more = more || t.more
			if first == nil {
				first = t.err
			}
		})
		wg.Wait()
		if first == nil {
			first = err
		}
		if first != nil || !more || ctx.Err() != nil {
			return total, first
		}
	}
}

// followGrace is how long the delivery job delivers the messages queued
// while following the event log fails, before it fails with that error.
const followGrace = time.Minute

// DeliveryJob is the job "webhook_delivery": every interval, and as soon
// as a replay, a resend or an endpoint enabled queues messages on this
// service or a worker's turn ends with more due, it follows the event log
// and starts a worker for each endpoint with due messages that has none,
// without waiting for those at work. While following fails, it goes on
// delivering what is queued, and fails with that error after followGrace;
// it fails with a worker's error or a round's. Failing, it starts no
// attempt more, and returns once the attempts at work are done and
// recorded; stopped (ctx ended), it cuts them off and gives their claims
// back.
func (s *Service) DeliveryJob(interval time.Duration) clubhouse.Job {
	return clubhouse.NewJob("webhook_delivery", func(ctx context.Context) error {
		stop := make(chan struct{})
		var wg sync.WaitGroup
		defer wg.Wait()
		defer close(stop)
		failed := make(chan error, 1)
		report := func(t turn) {
			if t.err != nil && ctx.Err() == nil {
				select {
				case failed <- t.err:
				default:
				}
			}
			if t.more {
				s.poke()
			}
		}
		var failingSince time.Time // when following began to fail; zero: it does not
		return clubhouse.Repeat(ctx, interval, s.wake, func(ctx context.Context) error {
			select {
			case err := <-failed:
				return err
			default:
			}
			_, ferr := s.Follow(ctx)
			if err := s.start(ctx, stop, &wg, report); err != nil {
				return err
			}
			switch {
			case ferr == nil:
				failingSince = time.Time{}
			case failingSince.IsZero():
				failingSince = time.Now() // a duration measured, not a time the logic reads
			case time.Since(failingSince) >= followGrace:
				return ferr
			}
			return nil
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
		err := tx.GetContext(ctx, &ep, `SELECT enabled, failing_since FROM webhook_endpoints WHERE id = $1 FOR NO KEY UPDATE`, c.EndpointID)
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
