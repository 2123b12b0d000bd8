package calendar

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
)

// DefaultPast is how long a feed keeps showing what has happened: the
// entries that started within it, cancelled ones too.
const DefaultPast = 90 * 24 * time.Hour

// Options configure the feeds.
type Options struct {
	// Key is the server's secret the tokens are derived from (at least 32
	// bytes). A feed made under another key keeps working, but its URL
	// cannot be shown again (ErrFeedKeyChanged). nil: a random key for the
	// life of the process.
	Key  []byte
	Host string           // the domain of the entries' UIDs (the club's public host); "" : "clubhouse"
	Zone *time.Location   // the club's zone, of the wall times and of TZID; nil: UTC
	Now  func() time.Time // nil: time.Now
	Past time.Duration    // how far back a feed shows; 0: DefaultPast
	Rate Rate             // how often one feed may be read; zero: DefaultRate
}

// Feeds makes, shows, revokes and serves the calendar feeds.
type Feeds struct {
	db    *sqlx.DB
	o     Options
	store store
	limit *limiter
}

// New returns the feeds over db, the club's main database.
func New(db *sqlx.DB, o Options) *Feeds {
	clubhouse.SetDefaults(&o.Zone, &o.Now)
	if len(o.Key) == 0 {
		o.Key = make([]byte, 32)
		_, _ = rand.Read(o.Key) // never fails (crypto/rand)
	}
	if o.Host == "" {
		o.Host = "clubhouse"
	}
	if o.Past <= 0 {
		o.Past = DefaultPast
	}
	return &Feeds{db: db, o: o, limit: newLimiter(o.Rate)}
}

// Own returns by's own feed, of their client record. Errors:
// booking.ErrClientNotFound when by has none, ErrFeedNotFound when they
// made none or revoked it, ErrFeedKeyChanged.
func (f *Feeds) Own(ctx context.Context, by clubhouse.Actor) (Feed, error) {
	client, err := f.ownClient(ctx, by)
	if err != nil {
		return Feed{}, err
	}
	return f.show(ctx, KindMember, client)
}

// RenewOwn gives by's own feed a new token, which ends the old one, or
// makes it. Errors: booking.ErrClientNotFound when by has no client record.
func (f *Feeds) RenewOwn(ctx context.Context, by clubhouse.Actor) (Feed, error) {
	client, err := f.ownClient(ctx, by)
	if err != nil {
		return Feed{}, err
	}
	return f.renew(ctx, by, KindMember, client)
}

// RevokeOwn ends by's own feed: its URL answers not found. Errors:
// booking.ErrClientNotFound, ErrFeedNotFound when there is none.
func (f *Feeds) RevokeOwn(ctx context.Context, by clubhouse.Actor) error {
	client, err := f.ownClient(ctx, by)
	if err != nil {
		return err
	}
	return f.store.remove(ctx, f.db, KindMember, client)
}

// OwnTrainer returns the feed of the classes by gives, for a trainer
// (acting in the trainer area: clubhouse.AreaTrainer), the one the staff
// see as the trainer's (Get with KindTrainer). Errors:
// clubhouse.ErrForbidden for a caller who is not a trainer with a user,
// ErrFeedNotFound, ErrFeedKeyChanged.
func (f *Feeds) OwnTrainer(ctx context.Context, by clubhouse.Actor) (Feed, error) {
	if err := trainer(by); err != nil {
		return Feed{}, err
	}
	return f.show(ctx, KindTrainer, by.UserID)
}

// RenewOwnTrainer gives the feed of by's classes a new token, which ends
// the old one, or makes it, for a trainer. Errors: as OwnTrainer's
// refusal.
func (f *Feeds) RenewOwnTrainer(ctx context.Context, by clubhouse.Actor) (Feed, error) {
	if err := trainer(by); err != nil {
		return Feed{}, err
	}
	return f.renew(ctx, by, KindTrainer, by.UserID)
}

// RevokeOwnTrainer ends the feed of by's classes, for a trainer. Errors:
// as OwnTrainer's refusal, ErrFeedNotFound when there is none.
func (f *Feeds) RevokeOwnTrainer(ctx context.Context, by clubhouse.Actor) error {
	if err := trainer(by); err != nil {
		return err
	}
	return f.store.remove(ctx, f.db, KindTrainer, by.UserID)
}

// trainer refuses a caller who is not a trainer with a user of their own.
func trainer(by clubhouse.Actor) error {
	if !by.Has(clubhouse.RoleTrainer) || by.UserID == 0 {
		return clubhouse.ErrForbidden
	}
	return nil
}

// Get returns the feed of a court or a trainer (kind KindCourt or
// KindTrainer; subject the court's or the trainer's user id), for the
// staff. Errors: clubhouse.ErrForbidden without the panel permission,
// ErrFeedKind for a member's feed (the member's own), ErrFeedNotFound,
// ErrFeedKeyChanged.
func (f *Feeds) Get(ctx context.Context, by clubhouse.Actor, kind Kind, subject int64) (Feed, error) {
	if err := staffKind(by, kind); err != nil {
		return Feed{}, err
	}
	return f.show(ctx, kind, subject)
}

// Renew gives the feed of a court or a trainer a new token, or makes it,
// for the staff. Errors: as Get, and ErrSubjectNotFound when the court or
// user does not exist.
func (f *Feeds) Renew(ctx context.Context, by clubhouse.Actor, kind Kind, subject int64) (Feed, error) {
	if err := staffKind(by, kind); err != nil {
		return Feed{}, err
	}
	return f.renew(ctx, by, kind, subject)
}

// Revoke ends the feed of a court or a trainer, for the staff. Errors: as
// Get.
func (f *Feeds) Revoke(ctx context.Context, by clubhouse.Actor, kind Kind, subject int64) error {
	if err := staffKind(by, kind); err != nil {
		return err
	}
	return f.store.remove(ctx, f.db, kind, subject)
}

// Serve returns the feed whose token is token, as a calendar reads it. The
// token is the credential: Serve takes no actor. Errors: ErrFeedNotFound
// for a token no feed has (never made, revoked, replaced), a
// *TooManyRequests (ErrTooManyRequests) when the feed was read more often
// than Options.Rate allows.
func (f *Feeds) Serve(ctx context.Context, token string) (Document, error) {
	if !wellFormed(token) {
		return Document{}, ErrFeedNotFound
	}
	row, err := f.store.byToken(ctx, f.db, hashToken(token))
	if err != nil {
		return Document{}, err
	}
	now := f.o.Now()
	if wait, ok := f.limit.take(row.ID, now); !ok {
		return Document{}, &TooManyRequests{Wait: wait}
	}
	since := now.In(f.o.Zone).Add(-f.o.Past).Format(time.DateOnly)
	entries, err := f.store.entries(ctx, f.db, row.Kind, row.Subject, since, f.o.Host)
	if err != nil {
		return Document{}, err
	}
	return Render(row.Name, f.o.Zone, entries)
}

func (f *Feeds) ownClient(ctx context.Context, by clubhouse.Actor) (int64, error) {
	if err := by.RequireSignedIn(); err != nil {
		return 0, err
	}
	client, err := booking.ClientOf(ctx, f.db, by)
	if err != nil {
		return 0, err
	}
	if client == 0 {
		return 0, booking.ErrClientNotFound
	}
	return client, nil
}

// staffKind refuses a caller without the panel permission, and a kind
// of feed the staff do not make.
func staffKind(by clubhouse.Actor, kind Kind) error {
	if err := by.RequirePanel(); err != nil {
		return err
	}
	if kind != KindCourt && kind != KindTrainer {
		return ErrFeedKind
	}
	return nil
}

// show reads the feed of kind and subject and rebuilds its token.
func (f *Feeds) show(ctx context.Context, kind Kind, subject int64) (Feed, error) {
	row, err := f.store.bySubject(ctx, f.db, kind, subject)
	if err != nil {
		return Feed{}, err
	}
	token := deriveToken(f.o.Key, kind, subject, row.Nonce)
	if !hmac.Equal(hashToken(token), row.TokenHash) {
		return Feed{}, ErrFeedKeyChanged
	}
	return Feed{Kind: kind, Subject: subject, Token: token, CreatedBy: row.CreatedBy, CreatedAt: row.CreatedAt}, nil
}

// renew stores a new nonce for the feed of kind and subject and returns
// the feed with its token.
func (f *Feeds) renew(ctx context.Context, by clubhouse.Actor, kind Kind, subject int64) (Feed, error) {
	nonce := make([]byte, nonceSize)
	if _, err := rand.Read(nonce); err != nil {
		return Feed{}, fmt.Errorf("calendar feed nonce: %w", err)
	}
	token := deriveToken(f.o.Key, kind, subject, nonce)
	at := f.o.Now().UTC().Truncate(time.Microsecond)
	if err := f.store.put(ctx, f.db, kind, subject, nonce, hashToken(token), by.Name(), at); err != nil {
		return Feed{}, err
	}
	return Feed{Kind: kind, Subject: subject, Token: token, CreatedBy: by.Name(), CreatedAt: at}, nil
}
