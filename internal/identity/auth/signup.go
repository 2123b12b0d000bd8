package auth

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/mail"
	"github.com/clubhouse-go/clubhouse/users"
)

// Signing up and resetting a password by e-mail, the two forms anyone may
// send: each answers the same whether or not the address has an account,
// and is limited per address and per e-mail (MailPerAddress,
// MailPerEmail), in the transaction that queues its message.

// The links of these messages open pages of the members' app, under
// PublicBaseURL.
const (
	VerifyPath = "/app/verify"   // ?token=: follows a sign-up's link
	ResetPath  = "/app/password" // ?token=: chooses a new password
)

// How long the links stay valid: a sign-up's a day, a reset's an hour.
const (
	SignUpTTL    = 24 * time.Hour
	ResetLinkTTL = time.Hour
)

// The limits of the forms that send mail: a bucket per address (an IPv4
// address or an IPv6 /64) of MailPerAddress and one per e-mail of
// MailPerEmail, each refilling in an hour. They share the login limits'
// table (keys "ma:" and "me:") and its purge.
const (
	MailPerAddress = 10
	MailPerEmail   = 3
)

// MaxName bounds a name given at sign-up.
const MaxName = 255

// SignUp is an account asked for: the user's e-mail, name and password
// (the API's rules: 8 to 72 bytes), and the language of their messages
// (es or en; "": es).
type SignUp struct {
	Email    string
	Name     string
	Password string
	Language string
}

// Errors of the forms that send mail.
var (
	ErrInvalidName   = clubhouse.Errorf(clubhouse.Invalid, "invalid name", "Give a name of 1 to 255 characters.")
	ErrBadSignUpLink = clubhouse.Errorf(clubhouse.Invalid, "invalid token",
		"The sign-up link is invalid, used or expired: sign up again to get a new one.")
	// ErrTooManyMails is the error of a refused form; the error returned
	// is a *TooManyMails.
	ErrTooManyMails = clubhouse.Errorf(clubhouse.RateLimited, "too many requests",
		"Too many messages were asked for from this address or for this e-mail; wait and try again.")
)

// TooManyMails is a refused form with the wait before the next one can
// pass.
type TooManyMails struct {
	Wait time.Duration
}

func (e *TooManyMails) err() *clubhouse.Error {
	return ErrTooManyMails.Withf("Too many messages were asked for from this address or for this e-mail; try again in %d minutes.",
		(ceilSeconds(e.Wait)+59)/60)
}

func (e *TooManyMails) Error() string { return e.err().Error() }

// Unwrap returns ErrTooManyMails with the wait in its message.
func (e *TooManyMails) Unwrap() error { return e.err() }

// RetryAfter is the wait, for the Retry-After header.
func (e *TooManyMails) RetryAfter() time.Duration { return e.Wait }

// language is a form's language as the messages take it.
func language(l string) string {
	if l == "en" {
		return "en"
	}
	return "es"
}

// SignUp asks for an account for in, from the network address addr (""
// for a program without one: not limited by address). A new address
// waits, with the hash of its password, for the link e-mailed to it
// (mail.KindVerify, valid SignUpTTL), which makes the user
// (ConfirmSignUp); signing up again replaces the link. An address that
// already has an account is sent a reset link instead (mail.KindReset;
// nothing, when its user is disabled or signs in elsewhere), so its owner
// learns of it and nobody else does: the answer is nil either way. Errors: users.ErrInvalidEmail, ErrInvalidName,
// users.ErrPasswordTooWeak, *TooManyMails.
func (s *Service) SignUp(ctx context.Context, in SignUp, addr string) error {
	email, err := users.ValidEmail(normalizeEmail(in.Email))
	if err != nil {
		return err
	}
	name := strings.TrimSpace(in.Name)
	if name == "" || utf8.RuneCountInString(name) > MaxName {
		return ErrInvalidName
	}
	hash, err := s.users.HashPassword(in.Password)
	if err != nil {
		return err
	}
	lang := language(in.Language)
	return sqldb.Transact(ctx, s.o.DB.DB, func(tx *sqlx.Tx) error {
		now := s.o.Now()
		if err := s.chargeMail(ctx, tx, addr, email, now); err != nil {
			return err
		}
		if exists, err := s.queueReset(ctx, tx, email, now); err != nil || exists {
			return err
		}
		tok := randomToken()
		_, err := tx.ExecContext(ctx, `INSERT INTO signups (email, display_name, password_hash, language, token_hash, expires_at, created_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7)
			ON CONFLICT (lower(email)) DO UPDATE SET email = EXCLUDED.email, display_name = EXCLUDED.display_name,
				password_hash = EXCLUDED.password_hash, language = EXCLUDED.language, token_hash = EXCLUDED.token_hash,
				expires_at = EXCLUDED.expires_at, created_at = EXCLUDED.created_at`,
			email, name, hash, lang, hashToken(tok), now.Add(SignUpTTL), now)
		if err != nil {
			return fmt.Errorf("sign up: %w", err)
		}
		return s.o.Mail.Queue(ctx, tx, mail.Notice{Kind: mail.KindVerify, Address: email, Language: lang,
			Link: s.link(VerifyPath, tok)})
	})
}

// ConfirmSignUp follows a sign-up's link: in one transaction it spends
// the sign-up of token and makes its user, a client of the club with the
// e-mail verified, who then signs in with the password they chose.
// Errors: ErrBadSignUpLink for an unknown, used or expired link;
// users.ErrEmailTaken when the address got an account meanwhile (sign in,
// or reset its password).
func (s *Service) ConfirmSignUp(ctx context.Context, token string) (users.User, error) {
	var out users.User
	err := sqldb.Transact(ctx, s.o.DB.DB, func(tx *sqlx.Tx) error {
		var row struct {
			Email    string `db:"email"`
			Name     string `db:"display_name"`
			Hash     string `db:"password_hash"`
			Language string `db:"language"`
		}
		err := tx.GetContext(ctx, &row, `DELETE FROM signups WHERE token_hash = $1 AND expires_at > $2
			RETURNING email, display_name, password_hash, language`, hashToken(token), s.o.Now())
		if errors.Is(err, sql.ErrNoRows) {
			return ErrBadSignUpLink
		}
		if err != nil {
			return fmt.Errorf("confirm sign-up: %w", err)
		}
		out, err = s.users.AddVerified(ctx, tx, row.Email, row.Name, row.Language, row.Hash)
		return err
	})
	return out, err
}

// RequestReset sends a link to choose a new password (mail.KindReset,
// valid ResetLinkTTL, spent by SetPassword) to the user with email, from
// the network address addr ("": not limited by address), when the club
// signs them in with a password and they are not disabled; the answer is
// nil whether or not it sends one. Errors: users.ErrInvalidEmail,
// *TooManyMails.
func (s *Service) RequestReset(ctx context.Context, email, addr string) error {
	email, err := users.ValidEmail(normalizeEmail(email))
	if err != nil {
		return err
	}
	return sqldb.Transact(ctx, s.o.DB.DB, func(tx *sqlx.Tx) error {
		now := s.o.Now()
		if err := s.chargeMail(ctx, tx, addr, email, now); err != nil {
			return err
		}
		_, err := s.queueReset(ctx, tx, email, now)
		return err
	})
}

// queueReset queues, in tx, a reset link to the user with email, when
// the club signs them in with a password and they are not disabled, and
// reports whether a user has the address (a sign-up of it then sends
// nothing more).
func (s *Service) queueReset(ctx context.Context, tx *sqlx.Tx, email string, now time.Time) (bool, error) {
	u, err := s.store.ByEmail(ctx, tx, email)
	if errors.Is(err, users.ErrUserNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if u.Issuer != "" || u.Disabled {
		return true, nil
	}
	tok := randomToken()
	if err := s.store.InsertPasswordToken(ctx, tx, u.ID, tok, now.Add(ResetLinkTTL)); err != nil {
		return false, fmt.Errorf("reset token: %w", err)
	}
	return true, s.o.Mail.Queue(ctx, tx, mail.Notice{Kind: mail.KindReset, UserID: u.ID, Link: s.link(ResetPath, tok)})
}

// link is the URL of path with token, under PublicBaseURL.
func (s *Service) link(path, token string) string {
	return s.o.PublicBaseURL + path + "?token=" + url.QueryEscape(token)
}

// chargeMail charges one message to the buckets of addr and email in tx,
// or returns a *TooManyMails with the wait of the fuller one.
func (s *Service) chargeMail(ctx context.Context, tx *sqlx.Tx, addr, email string, now time.Time) error {
	sum := sha256.Sum256([]byte(strings.ToLower(email)))
	keys := []string{"me:" + hex.EncodeToString(sum[:16])}
	burst := map[string]float64{keys[0]: MailPerEmail}
	if addr != "" {
		k := "ma:" + addressKey(addr)
		keys, burst[k] = append(keys, k), MailPerAddress
	}
	cs, err := s.store.lockCounters(ctx, tx, keys, now)
	if err != nil {
		return err
	}
	var charged []counter
	var wait time.Duration
	for _, k := range keys {
		c, w := drain(cs[k], burst[k], burst[k]/time.Hour.Seconds(), now)
		charged, wait = append(charged, c), max(wait, w)
	}
	if wait > 0 {
		return &TooManyMails{Wait: wait}
	}
	return s.store.saveCounters(ctx, tx, charged...)
}

// PurgeSignUps deletes the sign-ups whose link has expired and returns how
// many it deleted; the job auth_purge calls it.
func (s *Service) PurgeSignUps(ctx context.Context) (int64, error) {
	res, err := s.o.DB.ExecContext(ctx, `DELETE FROM signups WHERE expires_at <= $1`, s.o.Now())
	if err != nil {
		return 0, fmt.Errorf("purge sign-ups: %w", err)
	}
	return res.RowsAffected()
}
