// Package letters makes the club's queued messages into the e-mails
// people read (a mail.Composer): the words of each mail.Kind in the
// recipient's language, from the web kit's catalogs (keys "mail.*"),
// with the club's name, as a plain-text and an HTML body made from one
// content by two templates.
//
// It reads what a message tells of when the message is sent, through the
// club's services, acting as the club (clubhouse.Staff): the recipient
// (a user, or a client and their login) and their language, and the
// record the message names.
package letters

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	htmltemplate "html/template"
	"strings"
	texttemplate "text/template"
	"time"

	"golang.org/x/text/language"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/internal/compose/club"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/web"
	"github.com/clubhouse-go/clubhouse/internal/identity/auth"
	"github.com/clubhouse-go/clubhouse/mail"
	"github.com/clubhouse-go/clubhouse/users"
)

//go:embed templates/letter.html templates/letter.txt
var templates embed.FS

// Options are what New needs.
type Options struct {
	Services *club.Services // the club's services: the recipients, and what the messages tell of
	Club     string         // the club's name (MAIL_FROM's); "": Clubhouse
	Catalog  *web.Catalog   // nil: the web kit's (web.LoadCatalog)
	// Now is the clock a link's expiry is judged by; nil: time.Now.
	Now func() time.Time
	// App is the address of the members' app ("https://club.example/app/"):
	// a letter of a booking, a class or tickets links the app's page of
	// it. "": no such link.
	App string
}

// Composer is the mail.Composer of the club's messages.
type Composer struct {
	o    Options
	html *htmltemplate.Template
	text *texttemplate.Template
}

// New returns the composer. Errors: the catalog's or the templates',
// which the tests prove sound.
func New(o Options) (*Composer, error) {
	if o.Club == "" {
		o.Club = "Clubhouse"
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Catalog == nil {
		cat, err := web.LoadCatalog()
		if err != nil {
			return nil, err
		}
		o.Catalog = cat
	}
	html, err := htmltemplate.ParseFS(templates, "templates/letter.html")
	if err != nil {
		return nil, fmt.Errorf("letters: %w", err)
	}
	text, err := texttemplate.ParseFS(templates, "templates/letter.txt")
	if err != nil {
		return nil, fmt.Errorf("letters: %w", err)
	}
	return &Composer{o: o, html: html, text: text}, nil
}

// asClub is who the composer reads as: the club itself.
var asClub = clubhouse.Staff("mail")

// content is what a letter says, which both templates lay out.
type content struct {
	Lang       string
	Club       string
	Subject    string
	Greeting   string
	Lines      []string
	Details    []detail
	ItemsTitle string   // the heading of Items
	Items      []string // a list, such as a sale's ticket codes
	Action     *action
	Note       string
	Footer     string
}

// detail is a labelled value of a letter (a date, a court, a price).
type detail struct{ Label, Value string }

// action is a letter's link, shown as a button.
type action struct{ Label, URL, Fallback string }

// recipient is who a letter goes to, with the printer of their language.
type recipient struct {
	to, name string
	p        *web.Printer
}

// Compose implements mail.Composer.
func (c *Composer) Compose(ctx context.Context, n mail.Notice) (mail.Letter, error) {
	switch n.Kind {
	case mail.KindSetPassword:
		return c.link(ctx, n, "mail.set_password", auth.PasswordLinkTTL)
	case mail.KindVerify:
		return c.link(ctx, n, "mail.verify", auth.SignUpTTL)
	case mail.KindReset:
		return c.link(ctx, n, "mail.reset", auth.ResetLinkTTL)
	case mail.KindBookingConfirmed, mail.KindBookingCancelled, mail.KindBookingHeld, mail.KindBookingReleased:
		return c.booking(ctx, n)
	case mail.KindEnrollmentAccepted, mail.KindWaitlistPromoted, mail.KindClassCancelled:
		return c.enrollment(ctx, n)
	case mail.KindTicketReceipt:
		return c.receipt(ctx, n)
	case mail.KindWebhookDisabled:
		return c.webhookDisabled(ctx, n)
	case mail.KindBookingReminder:
		return c.reminder(ctx, n)
	}
	return mail.Letter{}, fmt.Errorf("%w: this server has no words for a %s message", mail.ErrNoLetter, n.Kind)
}

// link is the letter of a kind whose message is a link to follow, valid
// for ttl: its words are the catalog's key+".subject", ".body" and
// ".action". A link that has expired since the message was queued (its
// sending failed until then) is not sent (mail.ErrNoLetter): the person
// asks for a new one.
func (c *Composer) link(ctx context.Context, n mail.Notice, key string, ttl time.Duration) (mail.Letter, error) {
	if !n.Queued.IsZero() && c.o.Now().After(n.Queued.Add(ttl)) {
		return mail.Letter{}, fmt.Errorf("%w: its link expired at %s, before it could be sent", mail.ErrNoLetter,
			n.Queued.Add(ttl).UTC().Format(time.RFC3339))
	}
	r, err := c.recipient(ctx, n, "")
	if err != nil {
		return mail.Letter{}, err
	}
	hours := int(ttl.Hours())
	return c.write(r, content{
		Subject: r.p.T(key+".subject", "club", c.o.Club),
		Lines:   []string{r.p.T(key+".body", "club", c.o.Club)},
		Action:  &action{Label: r.p.T(key + ".action"), URL: n.Link},
		Note:    r.p.T("mail.link_note", "count", hours),
	})
}

// user is the recipient that is the user with id: their address, name
// and language. A user without an address, disabled or gone has nothing
// to receive (mail.ErrNoLetter).
func (c *Composer) user(ctx context.Context, id int64) (recipient, error) {
	u, err := c.o.Services.Users.ByID(ctx, asClub, id)
	if errors.Is(err, users.ErrUserNotFound) {
		return recipient{}, fmt.Errorf("%w: user %d is gone", mail.ErrNoLetter, id)
	}
	if err != nil {
		return recipient{}, err
	}
	if u.Email == nil || *u.Email == "" {
		return recipient{}, fmt.Errorf("%w: user %d has no e-mail address", mail.ErrNoLetter, id)
	}
	if u.Disabled {
		return recipient{}, fmt.Errorf("%w: user %d is disabled", mail.ErrNoLetter, id)
	}
	name := ""
	if u.DisplayName != nil {
		name = strings.TrimSpace(*u.DisplayName)
	}
	return recipient{to: *u.Email, name: name, p: c.printer(u.Language)}, nil
}

// client is the recipient that is the client with id: their address (or
// their login's), first name, and their login's language. A client
// without an address or gone has nothing to receive (mail.ErrNoLetter).
func (c *Composer) client(ctx context.Context, id int64) (recipient, error) {
	cl, err := c.o.Services.Clients.Get(ctx, asClub, id)
	if errors.Is(err, booking.ErrClientNotFound) {
		return recipient{}, fmt.Errorf("%w: client %d is gone", mail.ErrNoLetter, id)
	}
	if err != nil {
		return recipient{}, err
	}
	r := recipient{name: cl.FirstName, p: c.printer(nil)}
	if cl.Email != nil {
		r.to = *cl.Email
	}
	if cl.UserID != nil {
		u, err := c.user(ctx, *cl.UserID)
		if err != nil && !errors.Is(err, mail.ErrNoLetter) {
			return recipient{}, err
		}
		if err == nil {
			r.p = u.p
			if r.to == "" {
				r.to = u.to
			}
		}
	}
	if r.to == "" {
		return recipient{}, fmt.Errorf("%w: client %d has no e-mail address", mail.ErrNoLetter, id)
	}
	return r, nil
}

// recipient is who n goes to: its user, its client, or its address (in
// Spanish, named name).
func (c *Composer) recipient(ctx context.Context, n mail.Notice, name string) (recipient, error) {
	switch {
	case n.UserID != 0:
		return c.user(ctx, n.UserID)
	case n.ClientID != 0:
		return c.client(ctx, n.ClientID)
	}
	return recipient{to: n.Address, name: name, p: c.printer(&n.Language)}, nil
}

// printer is the printer of a person's language (es when none is known).
func (c *Composer) printer(lang *string) *web.Printer {
	tag := web.Spanish
	if lang != nil && *lang == "en" {
		tag = language.English
	}
	return c.o.Catalog.Printer(tag, c.o.Services.Zone)
}

// write lays out body for r: the greeting, footer, language and club are
// the same in every letter.
func (c *Composer) write(r recipient, body content) (mail.Letter, error) {
	body.Lang, body.Club = r.p.Lang(), c.o.Club
	body.Greeting = r.p.T("mail.greeting_plain")
	if r.name != "" {
		body.Greeting = r.p.T("mail.greeting", "name", r.name)
	}
	if body.Action != nil {
		body.Action.Fallback = r.p.T("mail.link_fallback")
	}
	body.Footer = r.p.T("mail.footer", "club", c.o.Club)
	var html, text bytes.Buffer
	if err := c.html.Execute(&html, body); err != nil {
		return mail.Letter{}, fmt.Errorf("letters: %w", err)
	}
	if err := c.text.Execute(&text, body); err != nil {
		return mail.Letter{}, fmt.Errorf("letters: %w", err)
	}
	return mail.Letter{To: r.to, Name: r.name, Subject: body.Subject, Text: text.String(), HTML: html.String()}, nil
}
