package mail_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/fixture"
	"github.com/clubhouse-go/clubhouse/internal/testkit/mailtest"
	"github.com/clubhouse-go/clubhouse/mail"
)

var desk = clubhouse.Staff("front-desk")

// words is the test's Composer: a letter per user, to the address the
// fixture gave them, naming the notice; a user it does not know has
// nothing to receive.
type words struct{ to map[int64]string }

func (w words) Compose(_ context.Context, n mail.Notice) (mail.Letter, error) {
	to, ok := w.to[n.UserID]
	if !ok {
		return mail.Letter{}, fmt.Errorf("%w: user %d has no address", mail.ErrNoLetter, n.UserID)
	}
	return mail.Letter{To: to, Name: "Ana Ruiz", Subject: "Choose your password",
		Text: "Follow " + n.Link, HTML: `<p>Follow <a href="` + n.Link + `">the link</a></p>`}, nil
}

// mailClub is a database with two users, a Mailpit, the outbox and a
// sender that sends over SMTP to the Mailpit.
type mailClub struct {
	db       *sqldb.DB
	outbox   *mail.Outbox
	clock    *fixture.Clock
	server   *mailtest.Server
	words    words
	ana, eva int64 // user ids
}

func newMailClub(t *testing.T) *mailClub {
	t.Helper()
	db := dbtest.New(t)
	club := fixture.New(t, db.DB, fixture.Options{})
	f := &mailClub{db: db, clock: club.Clock, server: mailtest.New(t), outbox: mail.NewOutbox(db.DB, club.Clock.Now)}
	f.ana, f.eva = club.User("Ana").UserID, club.User("Eva").UserID
	f.words = words{to: map[int64]string{f.ana: "ana@test.club", f.eva: "eva@test.club"}}
	return f
}

// sender returns a sender of the club's outbox, as one more clubd would
// run.
func (f *mailClub) sender(t *testing.T, edits ...func(*mail.SenderOptions)) *mail.Sender {
	t.Helper()
	smtp, err := mail.NewSMTP(f.server.SMTPURL, mail.From{Name: "Club Los Andes", Address: "reservas@losandes.test"})
	require.NoError(t, err)
	o := mail.SenderOptions{Composer: f.words, Transport: smtp, Now: f.clock.Now, Domain: "losandes.test", Pool: f.db.Pool}
	for _, e := range edits {
		e(&o)
	}
	return mail.NewSender(f.db.DB, o)
}

// queue queues notices in a transaction of their own, as a change would.
func (f *mailClub) queue(t *testing.T, notices ...mail.Notice) {
	t.Helper()
	require.NoError(t, sqldb.Transact(t.Context(), f.db.DB, func(tx *sqlx.Tx) error {
		return f.outbox.Queue(t.Context(), tx, notices...)
	}))
}

func link(user int64) mail.Notice {
	return mail.Notice{Kind: mail.KindSetPassword, UserID: user, Link: fmt.Sprintf("https://club.test/set-password?token=t%d", user)}
}

func (f *mailClub) messages(t *testing.T, status string) []mail.Message {
	t.Helper()
	list, _, err := f.outbox.List(t.Context(), desk, mail.Filter{Status: status})
	require.NoError(t, err)
	return list
}

func send(t *testing.T, s *mail.Sender) int {
	t.Helper()
	n, err := s.SendDue(t.Context())
	require.NoError(t, err)
	return n
}

func TestSender_sendsOverSMTP(t *testing.T) {
	t.Parallel()
	f := newMailClub(t)
	f.queue(t, link(f.ana), link(f.eva))
	assert.Equal(t, 2, send(t, f.sender(t)))

	got := f.server.Wait(t, "ana@test.club", 1, 5*time.Second)
	require.Len(t, got, 1)
	m := got[0]
	assert.Equal(t, "Choose your password", m.Subject)
	assert.Equal(t, mailtest.Address{Name: "Club Los Andes", Address: "reservas@losandes.test"}, m.From)
	assert.Equal(t, []mailtest.Address{{Name: "Ana Ruiz", Address: "ana@test.club"}}, m.To)
	assert.Contains(t, m.Text, "https://club.test/set-password?token=t", "a plain-text part")
	assert.Contains(t, m.HTML, `<a href="https://club.test/set-password?token=t`, "and an HTML part")
	assert.Regexp(t, `^clubhouse\.\d+\.\d+@losandes\.test$`, m.MessageID)
	f.server.Wait(t, "eva@test.club", 1, 5*time.Second)

	sent := f.messages(t, mail.StatusSent)
	require.Len(t, sent, 2)
	for _, m := range sent {
		assert.Equal(t, "smtp", *m.Via)
		assert.Equal(t, 1, m.Attempts)
		assert.NotNil(t, m.SentAt)
		assert.Equal(t, "Choose your password", *m.Subject)
	}
	var links int
	require.NoError(t, f.db.GetContext(t.Context(), &links, `SELECT count(link) FROM mail_outbox`))
	assert.Zero(t, links, "a link stays only until its message is sent")
	assert.Zero(t, send(t, f.sender(t)), "nothing is due twice")
}

func TestOutbox_queueRollsBackWithTheChange(t *testing.T) {
	t.Parallel()
	f := newMailClub(t)
	err := sqldb.Transact(t.Context(), f.db.DB, func(tx *sqlx.Tx) error {
		require.NoError(t, f.outbox.Queue(t.Context(), tx, link(f.ana)))
		return errors.New("the change fails")
	})
	require.Error(t, err)
	assert.Empty(t, f.messages(t, ""), "a change that rolls back sends nothing")

	for name, n := range map[string]mail.Notice{
		"unknown kind":   {Kind: "postcard", UserID: f.ana, Ref: 1},
		"no recipient":   {Kind: mail.KindSetPassword, Link: "https://x.test"},
		"two recipients": {Kind: mail.KindSetPassword, UserID: f.ana, ClientID: 1, Link: "https://x.test"},
		"no link":        {Kind: mail.KindSetPassword, UserID: f.ana},
		"link too long":  {Kind: mail.KindSetPassword, UserID: f.ana, Link: strings.Repeat("x", mail.MaxLink+1)},
		"a user missing": {Kind: mail.KindSetPassword, UserID: 999999, Link: "https://x.test"},
	} {
		err := sqldb.Transact(t.Context(), f.db.DB, func(tx *sqlx.Tx) error { return f.outbox.Queue(t.Context(), tx, n) })
		assert.Error(t, err, name)
	}
	assert.Empty(t, f.messages(t, ""))
	var nilOutbox *mail.Outbox
	require.NoError(t, sqldb.Transact(t.Context(), f.db.DB, func(tx *sqlx.Tx) error {
		return nilOutbox.Queue(t.Context(), tx, link(f.ana))
	}), "a nil outbox queues nothing")
	assert.Empty(t, f.messages(t, ""))
}

// TestSender_retriesThroughChaos: a mail server that answers 451 (try
// later) to every recipient keeps the messages pending with its answer;
// once it takes mail again, each message arrives once.
func TestSender_retriesThroughChaos(t *testing.T) {
	t.Parallel()
	f := newMailClub(t)
	f.server.Chaos(t, 451)
	f.queue(t, link(f.ana))
	s := f.sender(t)
	assert.Equal(t, 1, send(t, s))
	pending := f.messages(t, mail.StatusPending)
	require.Len(t, pending, 1)
	assert.Contains(t, *pending[0].LastError, "451", "the mail server's answer is kept")
	assert.Equal(t, f.clock.Now().Add(30*time.Second), *pending[0].NextAttemptAt, "tried again after Retry")
	assert.Zero(t, send(t, s), "not before its time")

	f.clock.Advance(30 * time.Second)
	assert.Equal(t, 1, send(t, s), "the second attempt, the server still refusing")
	pending = f.messages(t, mail.StatusPending)
	require.Len(t, pending, 1)
	assert.Equal(t, f.clock.Now().Add(time.Minute), *pending[0].NextAttemptAt, "the wait doubles")

	f.server.Chaos(t, 0)
	f.clock.Advance(time.Minute)
	assert.Equal(t, 1, send(t, s))
	require.Len(t, f.messages(t, mail.StatusSent), 1)
	assert.Len(t, f.server.Wait(t, "ana@test.club", 1, 5*time.Second), 1)
	assert.Len(t, f.server.Messages(t), 1, "the message arrived once")
}

// TestSender_serverDown: a stopped mail server loses no message: it is
// sent when the server is back.
func TestSender_serverDown(t *testing.T) {
	t.Parallel()
	f := newMailClub(t)
	f.server.Stop(t)
	f.queue(t, link(f.ana), link(f.eva))
	s := f.sender(t)
	assert.Equal(t, 2, send(t, s))
	for _, m := range f.messages(t, mail.StatusPending) {
		assert.NotEmpty(t, *m.LastError)
		assert.Equal(t, 1, m.Attempts)
	}
	f.server.Start(t)
	f.clock.Advance(30 * time.Second)
	assert.Equal(t, 2, send(t, s))
	assert.Len(t, f.messages(t, mail.StatusSent), 2)
	assert.Len(t, f.server.Messages(t), 2)
}

// TestSender_failures: a recipient refused for good fails at once, with
// the server's answer; a message that keeps failing fails after
// MaxAttempts; one with nothing to send is dropped. None keeps its link.
func TestSender_failures(t *testing.T) {
	t.Parallel()
	f := newMailClub(t)
	f.server.Chaos(t, 550)
	f.queue(t, link(f.ana))
	s := f.sender(t, func(o *mail.SenderOptions) { o.MaxAttempts = 2 })
	assert.Equal(t, 1, send(t, s))
	failed := f.messages(t, mail.StatusFailed)
	require.Len(t, failed, 1)
	assert.Contains(t, *failed[0].LastError, "550")
	assert.Equal(t, "ana@test.club", *failed[0].To, "staff see to whom")

	f.server.Chaos(t, 451)
	f.queue(t, link(f.eva))
	assert.Equal(t, 1, send(t, s))
	f.clock.Advance(30 * time.Second)
	assert.Equal(t, 1, send(t, s))
	failed = f.messages(t, mail.StatusFailed)
	require.Len(t, failed, 2)
	assert.Contains(t, *failed[0].LastError, "gave up after 2 attempts")
	assert.Contains(t, *failed[0].LastError, "451")

	f.words.to = map[int64]string{}
	f.server.Chaos(t, 0)
	f.queue(t, link(f.ana))
	assert.Equal(t, 1, send(t, f.sender(t)))
	dropped := f.messages(t, mail.StatusDropped)
	require.Len(t, dropped, 1)
	assert.Contains(t, *dropped[0].LastError, "has no address")

	var links int
	require.NoError(t, f.db.GetContext(t.Context(), &links, `SELECT count(link) FROM mail_outbox`))
	assert.Zero(t, links)
	assert.Empty(t, f.server.Messages(t))
	pending, failedN, err := f.outbox.Backlog(t.Context())
	require.NoError(t, err)
	assert.Equal(t, [2]int{0, 2}, [2]int{pending, failedN})
}

// TestSender_neverTwice: four senders (four clubd instances) racing over
// one outbox send each message once.
func TestSender_neverTwice(t *testing.T) {
	t.Parallel()
	f := newMailClub(t)
	var notices []mail.Notice
	for range 20 {
		notices = append(notices, link(f.ana))
	}
	f.queue(t, notices...)
	var wg sync.WaitGroup
	for range 4 {
		s := f.sender(t, func(o *mail.SenderOptions) { o.Workers = 2 })
		wg.Go(func() {
			for range 5 {
				_, err := s.SendDue(t.Context())
				assert.NoError(t, err)
			}
		})
	}
	wg.Wait()
	assert.Len(t, f.messages(t, mail.StatusSent), 20)
	assert.Len(t, f.server.Wait(t, "ana@test.club", 20, 5*time.Second), 20)
	ids := map[string]bool{}
	for _, m := range f.server.Messages(t) {
		assert.False(t, ids[m.MessageID], "each row is one message")
		ids[m.MessageID] = true
	}
	assert.Len(t, ids, 20)
}

// TestSender_jobWakesAtCommit: the job sends a message as soon as the
// change that queued it commits, not at its next round.
func TestSender_jobWakesAtCommit(t *testing.T) {
	t.Parallel()
	f := newMailClub(t)
	f.clock.SetTime(time.Now())
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- f.sender(t).Job(time.Hour).Run(ctx) }()
	time.Sleep(100 * time.Millisecond) // listening
	f.queue(t, link(f.ana))
	f.server.Wait(t, "ana@test.club", 1, 5*time.Second)
	cancel()
	require.NoError(t, <-done, "the job returns nil when its context ends")
}

func TestOutbox_list(t *testing.T) {
	t.Parallel()
	f := newMailClub(t)
	f.queue(t, link(f.ana), link(f.eva))
	list, total, err := f.outbox.List(t.Context(), desk, mail.Filter{Limit: 1})
	require.NoError(t, err)
	assert.Equal(t, 2, total)
	require.Len(t, list, 1)
	assert.Equal(t, mail.StatusPending, list[0].Status)
	assert.Equal(t, f.eva, *list[0].UserID, "newest first")

	_, _, err = f.outbox.List(t.Context(), clubhouse.Actor{UID: "ana", UserID: f.ana}, mail.Filter{})
	assert.ErrorIs(t, err, clubhouse.ErrForbidden)
	_, _, err = f.outbox.List(t.Context(), desk, mail.Filter{Status: "lost"})
	assert.ErrorIs(t, err, mail.ErrInvalidStatus)
	_, _, err = f.outbox.List(t.Context(), desk, mail.Filter{Limit: mail.Paging.Max + 1})
	assert.ErrorIs(t, err, clubhouse.ErrInvalidQuery)
}

func TestParseFromAndSMTPURL(t *testing.T) {
	t.Parallel()
	from, err := mail.ParseFrom(`Club Los Andes <reservas@losandes.test>`)
	require.NoError(t, err)
	assert.Equal(t, mail.From{Name: "Club Los Andes", Address: "reservas@losandes.test"}, from)
	assert.Equal(t, "losandes.test", from.Domain())
	for _, bad := range []string{"", "Club Los Andes", "<>", "a@b, c@d"} {
		_, err := mail.ParseFrom(bad)
		assert.ErrorContains(t, err, "MAIL_FROM", bad)
	}
	for raw, shown := range map[string]string{
		"smtp://mail.test":                  "smtp://mail.test",
		"smtp://user:s3cret@mail.test:2525": "smtp://mail.test:2525",
		"smtps://user:s3cret@mail.test":     "smtps://mail.test",
		"smtp://user:p%40ss@mail.test:587/": "smtp://mail.test:587/",
	} {
		s, err := mail.NewSMTP(raw, from)
		require.NoError(t, err, raw)
		assert.Equal(t, shown, s.String(), "never the password")
	}
	for _, bad := range []string{"http://mail.test", "smtp://", "smtp://mail.test:0", "smtp://mail.test:99999", "smtp://mail.test/x", "mail.test:25"} {
		_, err := mail.NewSMTP(bad, from)
		assert.ErrorContains(t, err, "SMTP_URL", bad)
	}
	_, err = mail.NewSMTP("smtp://mail.test", mail.From{})
	assert.ErrorContains(t, err, "MAIL_FROM")
}

// stopping is a Transport that stops the job's context once the mail
// server took the message: the job is being stopped at that moment.
type stopping struct {
	mail.Transport
	stop context.CancelFunc
}

func (s stopping) Send(ctx context.Context, e mail.Envelope) error {
	err := s.Transport.Send(ctx, e)
	s.stop()
	return err
}

// TestSender_stoppedWhileSending: a message the server took while the job
// was stopping is recorded sent, never left pending to go again.
func TestSender_stoppedWhileSending(t *testing.T) {
	t.Parallel()
	f := newMailClub(t)
	f.queue(t, link(f.ana))
	ctx, stop := context.WithCancel(t.Context())
	s := f.sender(t, func(o *mail.SenderOptions) { o.Transport = stopping{Transport: o.Transport, stop: stop} })
	_, err := s.SendDue(ctx)
	require.NoError(t, err)
	assert.Len(t, f.messages(t, mail.StatusSent), 1)
	assert.Len(t, f.server.Wait(t, "ana@test.club", 1, 5*time.Second), 1)
}
