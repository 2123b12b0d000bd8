package auth

import (
	"context"
	"log/slog"
	"net/url"

	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse/users"
)

// LinkSender delivers a set-password link to a new user.
type LinkSender interface {
	SendPasswordLink(ctx context.Context, email, link string)
}

// LogLinks is the development LinkSender: it writes the link to the log.
type LogLinks struct{ Log *slog.Logger }

// SendPasswordLink implements LinkSender.
func (l LogLinks) SendPasswordLink(ctx context.Context, email, link string) {
	l.Log.InfoContext(ctx, "set-password link (development: not mailed)", "email", email, "link", link)
}

// NewClientUser creates, in tx, a user without roles and with a random
// password for a client created by staff (users.Service.Add), and returns
// its id and a function that sends the set-password link; call it after
// the transaction commits. Errors: users.ErrInvalidEmail,
// users.ErrEmailTaken.
func (s *Service) NewClientUser(ctx context.Context, tx *sqlx.Tx, email string, displayName *string) (int64, func(), error) {
	u, err := s.users.Add(ctx, tx, users.Input{Email: email, DisplayName: deref(displayName)})
	if err != nil {
		return 0, nil, err
	}
	tok, err := s.NewPasswordToken(ctx, tx, u.ID)
	if err != nil {
		return 0, nil, err
	}
	link := s.o.PublicBaseURL + "/set-password?token=" + url.QueryEscape(tok)
	return u.ID, func() {
		if s.o.Links != nil {
			s.o.Links.SendPasswordLink(context.WithoutCancel(ctx), email, link)
		}
	}, nil
}
