package mail

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
)

// A Letter is a notice made into what its recipient reads: a plain-text
// and an HTML body of the same words, in the recipient's language.
type Letter struct {
	To      string // the recipient's address
	Name    string // the recipient's name; "": none
	Subject string
	Text    string
	HTML    string
}

// Composer makes a queued notice into its letter when the sender sends
// it: it finds the recipient's address and language and reads what the
// notice tells of as it is then. A notice with nothing to send (a
// recipient without an address, a record gone) is an error wrapping
// ErrNoLetter, and its message is dropped with that error's text; any
// other error is tried again, as a mail server's would be.
type Composer interface {
	Compose(ctx context.Context, n Notice) (Letter, error)
}

// ErrNoLetter is wrapped by a Composer's error for a notice with nothing
// to send.
var ErrNoLetter = clubhouse.Errorf(clubhouse.NotFound, "nothing to send", "The message has no recipient with an address, or what it tells of is gone.")

// An Envelope is a letter as a Transport sends it: with the message's
// Message-ID, the same on every attempt, and its date.
type Envelope struct {
	Letter
	MessageID string // without angle brackets
	Date      time.Time
}

// Transport delivers envelopes. Name is what the messages it sends record
// as their via ("smtp", "log"). An error that wraps ErrRefused is a
// refusal of this message for good (its recipient refused): the message
// fails at once; any other is tried again.
type Transport interface {
	Send(ctx context.Context, e Envelope) error
	Name() string
}

// ErrRefused is wrapped by a Transport's error for a message the mail
// server refused for good.
var ErrRefused = clubhouse.Errorf(clubhouse.Invalid, "refused", "The mail server refused the message for good.")

// SenderOptions are what NewSender needs besides the database.
type SenderOptions struct {
	Composer  Composer  // required
	Transport Transport // required
	// Pool opens the connection on which Job listens for messages
	// queued (migration 00035's notification at each commit); nil: Job
	// sends at its interval alone.
	Pool *pgxpool.Pool
	Now  func() time.Time // nil: time.Now
	// Domain is the right-hand side of the messages' Message-IDs (the
	// domain of MAIL_FROM); "": "clubhouse.invalid".
	Domain string
	// MaxAttempts bounds the attempts of a message that keeps failing;
	// 0: 20, which with Retry's default spans about half a day.
	MaxAttempts int
	// Retry is the wait before the second attempt; each later one waits
	// twice as long as the one before, up to an hour. 0: 30 seconds.
	Retry time.Duration
	// Workers bounds the messages sent at once; 0: 4.
	Workers int
}

// Sender sends the queued messages: SendDue, and Job, which calls it.
type Sender struct {
	db   *sqlx.DB
	o    SenderOptions
	wake chan struct{}
}

const (
	// lease is how long a claimed message stays out of other senders'
	// reach; its attempt is cut off at sendTimeout, well before, and its
	// record is fenced by the attempt it claimed. So no two senders send
	// one message: only a sender that stops between the mail server's
	// acceptance and its record (a crash) leaves a message that is sent
	// again after the lease, with the same Message-ID.
	lease       = 5 * time.Minute
	sendTimeout = time.Minute
	// recordTimeout bounds the record of an attempt, which runs to its
	// end when the job stops meanwhile.
	recordTimeout = 10 * time.Second
	maxRetry      = time.Hour
	// maxErrorText bounds the failure text recorded.
	maxErrorText = 1000
)

// NewSender returns the sender of db's queued messages.
func NewSender(db *sqlx.DB, o SenderOptions) *Sender {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Domain == "" {
		o.Domain = "clubhouse.invalid"
	}
	if o.MaxAttempts <= 0 {
		o.MaxAttempts = 20
	}
	if o.Retry <= 0 {
		o.Retry = 30 * time.Second
	}
	if o.Workers <= 0 {
		o.Workers = 4
	}
	return &Sender{db: db, o: o, wake: make(chan struct{}, 1)}
}

// claimed is a message claimed for sending.
type claimed struct {
	Notice
	ID        int64     `db:"id"`
	Attempts  int       `db:"attempts"` // this attempt's number
	CreatedAt time.Time `db:"created_at"`
}

// outcome is what one attempt of a message came to.
type outcome struct {
	status  string
	next    *time.Time // the next attempt, while pending
	err     *string
	to      *string
	subject *string
	via     *string
}

// SendDue sends every message that is due, up to Options.Workers at once,
// and returns how many attempts it made. A message the transport takes is
// sent; one with nothing to send (ErrNoLetter) is dropped; one refused
// for good (ErrRefused) fails; any other failure (the server unreachable,
// a temporary answer, a failure of the composer) is tried again later,
// with a doubling wait, until Options.MaxAttempts, and then fails with the
// last answer.
func (s *Sender) SendDue(ctx context.Context) (int, error) {
	total := 0
	for {
		batch, err := s.claim(ctx)
		if err != nil {
			return total, err
		}
		errs := make([]error, len(batch))
		var wg sync.WaitGroup
		for i, c := range batch {
			wg.Go(func() {
				sendCtx, cancel := context.WithTimeout(ctx, sendTimeout)
				defer cancel()
				// The outcome is recorded even when the job is stopping:
				// a message the server took must not stay pending.
				recordCtx, cancelRecord := context.WithTimeout(context.WithoutCancel(ctx), recordTimeout)
				defer cancelRecord()
				errs[i] = s.record(recordCtx, c, s.attempt(sendCtx, c))
			})
		}
		wg.Wait()
		total += len(batch)
		if err := errors.Join(errs...); err != nil {
			return total, err
		}
		if len(batch) < s.o.Workers {
			return total, nil
		}
	}
}

// claim takes up to Workers pending messages due now that no other sender
// holds, counts the attempt and moves their next attempt past the lease.
func (s *Sender) claim(ctx context.Context) ([]claimed, error) {
	now := s.o.Now()
	var out []claimed
	err := s.db.SelectContext(ctx, &out, `WITH due AS (
			SELECT id FROM mail_outbox WHERE status = 'pending' AND next_attempt_at <= $1
			ORDER BY next_attempt_at, id LIMIT $3 FOR UPDATE SKIP LOCKED)
		UPDATE mail_outbox m SET attempts = m.attempts + 1, next_attempt_at = $2, last_attempt_at = $1
		FROM due WHERE m.id = due.id
		RETURNING m.id, m.attempts, m.created_at, m.kind, COALESCE(m.user_id, 0) AS userid,
			COALESCE(m.client_id, 0) AS clientid, CASE WHEN m.user_id IS NULL AND m.client_id IS NULL THEN m.to_address ELSE '' END AS address,
			COALESCE(m.language, '') AS language, COALESCE(m.ref_id, 0) AS ref, COALESCE(m.link, '') AS link`,
		now, now.Add(lease), s.o.Workers)
	if err != nil {
		return nil, fmt.Errorf("claim messages: %w", err)
	}
	return out, nil
}

// attempt makes and sends message c once and says what came of it.
func (s *Sender) attempt(ctx context.Context, c claimed) outcome {
	n := c.Notice
	n.Queued = c.CreatedAt
	letter, err := s.o.Composer.Compose(ctx, n)
	if errors.Is(err, ErrNoLetter) {
		text := cut(err.Error())
		return outcome{status: StatusDropped, err: &text}
	}
	if err != nil {
		return s.retry(c, outcome{}, "the message could not be made: "+err.Error())
	}
	made := outcome{to: &letter.To, subject: &letter.Subject}
	env := Envelope{Letter: letter, Date: s.o.Now(),
		MessageID: fmt.Sprintf("clubhouse.%d.%d@%s", c.ID, c.CreatedAt.UnixMicro(), s.o.Domain)}
	err = s.o.Transport.Send(ctx, env)
	switch {
	case err == nil:
		via := s.o.Transport.Name()
		made.status, made.via = StatusSent, &via
		return made
	case errors.Is(err, ErrRefused):
		text := cut(err.Error())
		made.status, made.err = StatusFailed, &text
		return made
	}
	return s.retry(c, made, err.Error())
}

// retry is the outcome of an attempt of c that may succeed later: pending
// again after a wait that doubles with each attempt, or failed once the
// attempts are used up.
func (s *Sender) retry(c claimed, o outcome, text string) outcome {
	text = cut(text)
	if c.Attempts >= s.o.MaxAttempts {
		text = cut(fmt.Sprintf("gave up after %d attempts: %s", c.Attempts, text))
		o.status, o.err = StatusFailed, &text
		return o
	}
	wait := s.o.Retry
	for i := 1; i < c.Attempts && wait < maxRetry; i++ {
		wait *= 2
	}
	next := s.o.Now().Add(min(wait, maxRetry))
	o.status, o.next, o.err = StatusPending, &next, &text
	return o
}

// record stores the outcome o of an attempt of c, unless c was claimed
// again meanwhile (its lease ran out): a message's link goes with its
// last attempt.
func (s *Sender) record(ctx context.Context, c claimed, o outcome) error {
	var sentAt *time.Time
	if o.status == StatusSent {
		now := s.o.Now()
		sentAt = &now
	}
	_, err := s.db.ExecContext(ctx, `UPDATE mail_outbox SET status = $3, next_attempt_at = $4, last_error = $5,
			to_address = COALESCE($6, to_address), subject = COALESCE($7, subject), via = $8, sent_at = $9,
			link = CASE WHEN $3 = 'pending' THEN link END
		WHERE id = $1 AND status = 'pending' AND attempts = $2`,
		c.ID, c.Attempts, o.status, o.next, o.err, o.to, o.subject, o.via, sentAt)
	if err != nil {
		return fmt.Errorf("record message %d: %w", c.ID, err)
	}
	return nil
}

// cut bounds a failure text to maxErrorText bytes of valid UTF-8.
func cut(s string) string {
	s = strings.ReplaceAll(s, "\x00", "")
	if len(s) > maxErrorText {
		s = strings.ToValidUTF8(s[:maxErrorText], "")
	}
	return s
}

// queued is the channel on which the database announces messages queued,
// at the commit of each transaction that queued some (migration 00035).
const queued = "mail_outbox"

// Job is the job "mail_sender": it sends the due messages (SendDue) at
// once, every interval, and whenever a commit queues some, which it
// listens for on a connection of its own (Options.Pool). It fails with
// the first error of a round, or when the listening connection is lost,
// and its supervisor runs it again; the messages wait meanwhile.
func (s *Sender) Job(interval time.Duration) clubhouse.Job {
	return clubhouse.NewJob("mail_sender", func(ctx context.Context) error {
		parent := ctx
		ctx, stop := context.WithCancel(ctx)
		defer stop()
		var wg sync.WaitGroup
		var lost error // the listening connection's, when it ends the job
		if s.o.Pool != nil {
			wg.Go(func() {
				nudge := func() {
					select {
					case s.wake <- struct{}{}:
					default:
					}
				}
				lost = sqldb.Listen(ctx, s.o.Pool, queued, func(up bool) {
					if up {
						nudge() // what was queued before listening
					}
				}, func(string) { nudge() })
				stop()
			})
		}
		err := clubhouse.Repeat(ctx, interval, s.wake, func(ctx context.Context) error {
			_, err := s.SendDue(ctx)
			return err
		})
		stop()
		wg.Wait()
		if err == nil && parent.Err() == nil {
			err = lost
		}
		return err
	})
}
