package mail

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	netmail "net/mail"
	"net/url"
	"strconv"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"
)

// From is the sender of the club's messages: MAIL_FROM, "Club name
// <address>". Its name is the club's name in every message.
type From struct {
	Name    string
	Address string
}

// ParseFrom reads a From from "Club name <address>" (an address alone
// names no club). Errors: one naming MAIL_FROM's form.
func ParseFrom(s string) (From, error) {
	a, err := netmail.ParseAddress(strings.TrimSpace(s))
	if err != nil {
		return From{}, fmt.Errorf(`MAIL_FROM must be "Club name <address>", not %q: %w`, s, err)
	}
	return From{Name: a.Name, Address: a.Address}, nil
}

// Domain is the domain of the address, for the Message-IDs.
func (f From) Domain() string {
	_, domain, _ := strings.Cut(f.Address, "@")
	return domain
}

// SMTP is the Transport of a mail server (github.com/wneessen/go-mail): a
// connection per message, STARTTLS when the server offers it (smtp://) or
// TLS from the start (smtps://), and authentication when the URL names a
// user.
type SMTP struct {
	from   From
	host   string
	opts   []gomail.Option
	target string // the URL without its password, for the log
}

// smtpTimeout bounds the connection and each command of a session.
const smtpTimeout = 30 * time.Second

// NewSMTP returns the transport of rawURL (SMTP_URL:
// smtp://user:password@host:port, or smtps:// for implicit TLS; the port
// defaults to 587 and 465) sending from from. Errors: one naming
// SMTP_URL's form.
func NewSMTP(rawURL string, from From) (*SMTP, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "smtp" && u.Scheme != "smtps") || u.Hostname() == "" || (u.Path != "" && u.Path != "/") {
		return nil, errors.New("SMTP_URL must be smtp://user:password@host:port or smtps://user:password@host:port")
	}
	port := 587
	opts := []gomail.Option{gomail.WithTimeout(smtpTimeout)}
	if u.Scheme == "smtps" {
		port = 465
		opts = append(opts, gomail.WithSSL())
	} else {
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSOpportunistic))
	}
	if p := u.Port(); p != "" {
		port, err = strconv.Atoi(p)
		if err != nil || port < 1 || port > 65535 {
			return nil, fmt.Errorf("SMTP_URL's port must be a number from 1 to 65535, not %q", p)
		}
	}
	opts = append(opts, gomail.WithPort(port))
	if user := u.User.Username(); user != "" {
		pass, _ := u.User.Password()
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthAutoDiscover), gomail.WithUsername(user), gomail.WithPassword(pass))
	}
	if from.Address == "" {
		return nil, errors.New(`MAIL_FROM must be set with SMTP_URL: "Club name <address>"`)
	}
	shown := *u
	shown.User = nil
	return &SMTP{from: from, host: u.Hostname(), opts: opts, target: shown.String()}, nil
}

// String is the server's URL without its credentials.
func (t *SMTP) String() string { return t.target }

// Name implements Transport.
func (t *SMTP) Name() string { return "smtp" }

// Send implements Transport: a refusal of the recipient for good (5xx at
// RCPT TO) wraps ErrRefused; every other failure may pass.
func (t *SMTP) Send(ctx context.Context, e Envelope) error {
	m := gomail.NewMsg()
	if err := m.FromFormat(t.from.Name, t.from.Address); err != nil {
		return fmt.Errorf("%w: the sender %q: %v", ErrRefused, t.from.Address, err)
	}
	if err := m.AddToFormat(e.Name, e.To); err != nil {
		return fmt.Errorf("%w: the address %q: %v", ErrRefused, e.To, err)
	}
	m.Subject(e.Subject)
	m.SetMessageIDWithValue(e.MessageID)
	m.SetDateWithValue(e.Date)
	m.SetGenHeader(gomail.Header("Auto-Submitted"), "auto-generated")
	m.SetBodyString(gomail.TypeTextPlain, e.Text)
	m.AddAlternativeString(gomail.TypeTextHTML, e.HTML)
	c, err := gomail.NewClient(t.host, t.opts...)
	if err != nil {
		return err
	}
	err = c.DialAndSendWithContext(ctx, m)
	var sendErr *gomail.SendError
	if errors.As(err, &sendErr) && sendErr.Reason == gomail.ErrSMTPRcptTo && !sendErr.IsTemp() {
		return fmt.Errorf("%w: %v", ErrRefused, err)
	}
	return err
}

// Log is the Transport of a server without SMTP_URL: it writes each
// message to the log, links included, and sends nothing.
type Log struct{ Log *slog.Logger }

// Name implements Transport.
func (Log) Name() string { return "log" }

// Send implements Transport.
func (l Log) Send(ctx context.Context, e Envelope) error {
	l.Log.InfoContext(ctx, "mail (not sent: SMTP_URL is not set)", "to", e.To, "subject", e.Subject, "text", e.Text)
	return nil
}
