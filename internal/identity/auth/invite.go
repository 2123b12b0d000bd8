package auth

import (
	"context"
	"net/url"

	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse/mail"
	"github.com/clubhouse-go/clubhouse/users"
)

// NewClientUser creates, in tx, a user without roles and with a random
// password for a client created by staff or a trainer (users.Service.Add),
// and queues, in tx, the message that gives its set-password link
// (mail.KindSetPassword, on Options.Mail), so that the link leaves when
// the client's creation commits. It returns the user's id. Errors:
// users.ErrInvalidEmail, users.ErrEmailTaken.
func (s *Service) NewClientUser(ctx context.Context, tx *sqlx.Tx, email string, displayName *string) (int64, error) {
	u, err := s.users.Add(ctx, tx, users.Input{Email: email, DisplayName: deref(displayName)})
	if err != nil {
		return 0, err
	}
	tok, err := s.NewPasswordToken(ctx, tx, u.ID)
	if err != nil {
		return 0, err
	}
	link := s.o.PublicBaseURL + "/set-password?token=" + url.QueryEscape(tok)
	if err := s.o.Mail.Queue(ctx, tx, mail.Notice{Kind: mail.KindSetPassword, UserID: u.ID, Link: link}); err != nil {
		return 0, err
	}
	return u.ID, nil
}
