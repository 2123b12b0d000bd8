package app

import (
	"fmt"
	"strings"
	"time"

	"github.com/clubhouse-go/clubhouse/internal/frontdoor/letters"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/mail"
	"github.com/clubhouse-go/clubhouse/members"
)

// MailInterval is how often the mail sender looks for messages due again
// (retries); a commit that queues messages wakes it at once.
const MailInterval = 10 * time.Second

// sender builds the sender of the club's messages: the letters of the
// club's services, over SMTP_URL from MAIL_FROM, or, without SMTP_URL,
// to the log, which it says.
func (a *App) sender(cfg Config, db *sqldb.DB, now func() time.Time) (*mail.Sender, error) {
	composer, err := letters.New(letters.Options{Services: a.Services, Club: cfg.MailFrom.Name, Now: now,
		App: strings.TrimSuffix(cfg.PublicBaseURL, "/") + members.Prefix})
	if err != nil {
		return nil, err
	}
	var transport mail.Transport = mail.Log{Log: a.Log}
	if cfg.SMTPURL != "" {
		smtp, err := mail.NewSMTP(cfg.SMTPURL, cfg.MailFrom)
		if err != nil {
			return nil, fmt.Errorf("SMTP_URL: %w", err)
		}
		transport = smtp
		a.Log.Info("mail goes out over SMTP", "server", smtp.String(), "from", cfg.MailFrom.Address)
	} else {
		a.Log.Info("mail is not sent: SMTP_URL is not set, so each message is written to this log instead")
	}
	return mail.NewSender(db.DB, mail.SenderOptions{Composer: composer, Transport: transport, Pool: db.Pool, Now: now,
		Domain: cfg.MailFrom.Domain()}), nil
}
