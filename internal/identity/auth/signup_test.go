package auth_test

import (
	"context"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/identity/auth"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/mail"
	"github.com/clubhouse-go/clubhouse/users"
)

// mailService is localService with an outbox for its links, under
// https://club.test.
func mailService(t *testing.T, clk *clock) (*auth.Service, *sqldb.DB) {
	t.Helper()
	return localService(t, clk, func(o *auth.Options) {
		o.PublicBaseURL = "https://club.test"
		o.Mail = mail.NewOutbox(o.DB.DB, clk.Now)
	})
}

// queued is a message of the outbox as the tests read it.
type queued struct {
	Kind     string  `db:"kind"`
	UserID   *int64  `db:"user_id"`
	Address  *string `db:"to_address"`
	Language *string `db:"language"`
	Link     string  `db:"link"`
}

func outbox(t *testing.T, db *sqldb.DB) []queued {
	t.Helper()
	var out []queued
	require.NoError(t, db.SelectContext(t.Context(), &out, `SELECT kind, user_id, to_address, language, link FROM mail_outbox ORDER BY id`))
	return out
}

// token is the token of a queued link of path.
func token(t *testing.T, q queued, path string) string {
	t.Helper()
	u, err := url.Parse(q.Link)
	require.NoError(t, err)
	require.Equal(t, "https://club.test"+path, u.Scheme+"://"+u.Host+u.Path)
	return u.Query().Get("token")
}

// TestSignUp_verifiedByTheLink: a sign-up takes no address until its
// link is followed, which makes a client's user with the e-mail verified,
// who signs in with the password chosen; the link works once.
func TestSignUp_verifiedByTheLink(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clk := newClock()
	s, db := mailService(t, clk)
	in := auth.SignUp{Email: " Ana@Example.com ", Name: " Ana Gómez ", Password: "a long secret", Language: "en"}
	require.NoError(t, s.SignUp(ctx, in, "10.0.0.1"))
	got := outbox(t, db)
	require.Len(t, got, 1)
	assert.Equal(t, "verify_signup", got[0].Kind)
	assert.Equal(t, "Ana@Example.com", *got[0].Address)
	assert.Equal(t, "en", *got[0].Language)
	_, _, err := s.StartSession(ctx, "ana@example.com", "a long secret", "10.0.0.1", "")
	assert.ErrorIs(t, err, auth.ErrBadCredentials, "no account before the link")

	// Signing up again replaces the link.
	require.NoError(t, s.SignUp(ctx, in, "10.0.0.1"))
	got = outbox(t, db)
	require.Len(t, got, 2)
	_, err = s.ConfirmSignUp(ctx, token(t, got[0], auth.VerifyPath))
	assert.ErrorIs(t, err, auth.ErrBadSignUpLink, "the first link was replaced")

	u, err := s.ConfirmSignUp(ctx, token(t, got[1], auth.VerifyPath))
	require.NoError(t, err)
	assert.Equal(t, "Ana@Example.com", *u.Email)
	assert.Equal(t, "Ana Gómez", *u.DisplayName)
	assert.Equal(t, "en", *u.Language)
	assert.True(t, u.EmailVerified)
	assert.Equal(t, "client", u.PrimaryRole())
	_, _, err = s.StartSession(ctx, "ana@example.com", "a long secret", "10.0.0.1", "")
	require.NoError(t, err)
	_, err = s.ConfirmSignUp(ctx, token(t, got[1], auth.VerifyPath))
	assert.ErrorIs(t, err, auth.ErrBadSignUpLink, "a link works once")
}

// TestSignUp_sameAnswer: signing up with an address that has an account
// answers as for a new one, and sends its owner a reset link instead.
func TestSignUp_sameAnswer(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clk := newClock()
	s, db := mailService(t, clk)
	eva := createUser(t, s, db, "eva@example.com", "eva's password")
	require.NoError(t, s.SignUp(ctx, auth.SignUp{Email: "EVA@example.com", Name: "Not Eva", Password: "another secret"}, "10.0.0.2"))
	got := outbox(t, db)
	require.Len(t, got, 1)
	assert.Equal(t, "reset_password", got[0].Kind)
	assert.Equal(t, eva.ID, *got[0].UserID)
	var signups int
	require.NoError(t, db.GetContext(ctx, &signups, `SELECT count(*) FROM signups`))
	assert.Zero(t, signups)
	_, _, err := s.StartSession(ctx, "eva@example.com", "eva's password", "10.0.0.2", "")
	require.NoError(t, err, "her password stands")

	_, err = db.ExecContext(ctx, `UPDATE users SET disabled = true WHERE id = $1`, eva.ID)
	require.NoError(t, err)
	require.NoError(t, s.SignUp(ctx, auth.SignUp{Email: "eva@example.com", Name: "Not Eva", Password: "another secret"}, "10.0.0.3"))
	assert.Len(t, outbox(t, db), 1, "a disabled user's address gets no link of any kind")
	require.NoError(t, db.GetContext(ctx, &signups, `SELECT count(*) FROM signups`))
	assert.Zero(t, signups)
}

func TestSignUp_expiresAndRefuses(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clk := newClock()
	s, db := mailService(t, clk)
	require.NoError(t, s.SignUp(ctx, auth.SignUp{Email: "leo@example.com", Name: "Leo", Password: "a long secret"}, ""))
	clk.Advance(auth.SignUpTTL)
	_, err := s.ConfirmSignUp(ctx, token(t, outbox(t, db)[0], auth.VerifyPath))
	assert.ErrorIs(t, err, auth.ErrBadSignUpLink, "a day later the link has expired")
	_, err = s.ConfirmSignUp(ctx, "forged")
	assert.ErrorIs(t, err, auth.ErrBadSignUpLink)

	for name, c := range map[string]struct {
		in   auth.SignUp
		want error
	}{
		"email":          {auth.SignUp{Email: "leo", Name: "Leo", Password: "a long secret"}, users.ErrInvalidEmail},
		"blank name":     {auth.SignUp{Email: "leo@example.com", Name: "  ", Password: "a long secret"}, auth.ErrInvalidName},
		"long name":      {auth.SignUp{Email: "leo@example.com", Name: string(make([]rune, 256)), Password: "a long secret"}, auth.ErrInvalidName},
		"short password": {auth.SignUp{Email: "leo@example.com", Name: "Leo", Password: "short"}, users.ErrPasswordTooWeak},
	} {
		assert.ErrorIs(t, s.SignUp(ctx, c.in, ""), c.want, name)
	}
	assert.Len(t, outbox(t, db), 1, "nothing more was queued")
}

// TestRequestReset: a reset link to a user the club signs in with a
// password, spent by SetPassword; nothing, and the same answer, for an
// unknown address or a disabled user.
func TestRequestReset(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clk := newClock()
	s, db := mailService(t, clk)
	createUser(t, s, db, "ana@example.com", "old password")
	require.NoError(t, s.RequestReset(ctx, "ANA@example.com", "10.0.0.1"))
	require.NoError(t, s.RequestReset(ctx, "nobody@example.com", "10.0.0.1"))
	_, err := db.ExecContext(ctx, `INSERT INTO users (email, disabled) VALUES ('off@example.com', true)`)
	require.NoError(t, err)
	require.NoError(t, s.RequestReset(ctx, "off@example.com", "10.0.0.1"))
	assert.ErrorIs(t, s.RequestReset(ctx, "not an address", "10.0.0.1"), users.ErrInvalidEmail)

	got := outbox(t, db)
	require.Len(t, got, 1, "one link, to Ana")
	tok := token(t, got[0], auth.ResetPath)
	require.NoError(t, s.SetPassword(ctx, tok, "a new password"))
	_, _, err = s.StartSession(ctx, "ana@example.com", "a new password", "10.0.0.1", "")
	require.NoError(t, err)
	assert.ErrorIs(t, s.SetPassword(ctx, tok, "again a password"), auth.ErrBadPasswordToken, "a link works once")

	require.NoError(t, s.RequestReset(ctx, "ana@example.com", "10.0.0.1"))
	clk.Advance(auth.ResetLinkTTL)
	assert.ErrorIs(t, s.SetPassword(ctx, token(t, outbox(t, db)[1], auth.ResetPath), "a new password"), auth.ErrBadPasswordToken,
		"an hour later the link has expired")
}

// TestMailLimits: each e-mail gets MailPerEmail messages an hour, each
// address MailPerAddress, whatever the racing clients; the refusal says
// how long to wait.
func TestMailLimits(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clk := newClock()
	s, db := mailService(t, clk)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Go(func() { errs <- s.RequestReset(ctx, "flood@example.com", "") })
	}
	wg.Wait()
	close(errs)
	refused := 0
	for err := range errs {
		if err != nil {
			var tm *auth.TooManyMails
			require.ErrorAs(t, err, &tm)
			assert.ErrorIs(t, err, auth.ErrTooManyMails)
			assert.Positive(t, tm.RetryAfter())
			refused++
		}
	}
	assert.Equal(t, 8-auth.MailPerEmail, refused, "three a hour per e-mail")

	addresses := 0
	for i := range 20 {
		err := s.SignUp(ctx, auth.SignUp{Email: "p" + string(rune('a'+i)) + "@example.com", Name: "P", Password: "a long secret"}, "10.9.9.9")
		if err == nil {
			addresses++
		}
	}
	assert.Equal(t, auth.MailPerAddress, addresses, "ten an hour per address")
	assert.Len(t, outbox(t, db), auth.MailPerAddress)

	clk.Advance(time.Hour)
	assert.NoError(t, s.SignUp(ctx, auth.SignUp{Email: "later@example.com", Name: "P", Password: "a long secret"}, "10.9.9.9"),
		"an hour later the address may ask again")
}

func TestPurgeSignUps(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clk := newClock()
	s, db := mailService(t, clk)
	require.NoError(t, s.SignUp(ctx, auth.SignUp{Email: "old@example.com", Name: "Old", Password: "a long secret"}, ""))
	clk.Advance(auth.SignUpTTL / 2)
	require.NoError(t, s.SignUp(ctx, auth.SignUp{Email: "new@example.com", Name: "New", Password: "a long secret"}, ""))
	clk.Advance(auth.SignUpTTL / 2)
	n, err := s.PurgeSignUps(ctx)
	require.NoError(t, err)
	assert.EqualValues(t, 1, n, "the expired one")
	_, err = s.ConfirmSignUp(ctx, token(t, outbox(t, db)[1], auth.VerifyPath))
	require.NoError(t, err, "the live one stays")
}
