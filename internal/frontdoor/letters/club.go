package letters

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/classes"
	"github.com/clubhouse-go/clubhouse/mail"
	"github.com/clubhouse-go/clubhouse/tickets"
)

// The letters of the club's records: a booking made or cancelled, an
// enrollment accepted, a place taken from the waitlist, a class
// cancelled, a ticket sale's receipt. Each reads its record as it is when
// the message is sent; a record gone has nothing to send.

// bookingOf reads the booking n tells of, as it is now; one gone has
// nothing to send (mail.ErrNoLetter).
func (c *Composer) bookingOf(ctx context.Context, n mail.Notice) (booking.Reservation, error) {
	b, err := c.o.Services.Bookings.Get(ctx, asClub, n.Ref)
	if errors.Is(err, booking.ErrBookingNotFound) {
		return booking.Reservation{}, fmt.Errorf("%w: booking %d is gone", mail.ErrNoLetter, n.Ref)
	}
	return b, err
}

// booking is the letter of a booking confirmed, awaiting its payment
// (until when, with a link to pay it in the app), cancelled, or released
// because it was not paid in time: its court, day and hours, price and
// what was paid, and, when confirmed and still open, until when its client
// may cancel it.
func (c *Composer) booking(ctx context.Context, n mail.Notice) (mail.Letter, error) {
	s := c.o.Services
	b, err := c.bookingOf(ctx, n)
	if err != nil {
		return mail.Letter{}, err
	}
	r, err := c.recipient(ctx, n, "")
	if err != nil {
		return mail.Letter{}, err
	}
	amounts, err := s.Bookings.Amounts(ctx, asClub, []booking.Reservation{b})
	if err != nil {
		return mail.Letter{}, err
	}
	if n.Kind == mail.KindBookingHeld && b.HoldExpiresAt == nil {
		return mail.Letter{}, fmt.Errorf("%w: booking %d no longer awaits its payment", mail.ErrNoLetter, n.Ref)
	}
	a, p := amounts[b.ID], r.p
	key := "mail." + string(n.Kind)
	when := p.WallDate(b.Checking)
	var until []any
	if b.HoldExpiresAt != nil {
		until = []any{"until_date", p.Date(*b.HoldExpiresAt), "until_time", p.Time(*b.HoldExpiresAt)}
	}
	body := content{
		Subject: p.T(key+".subject", append([]any{"club", c.o.Club, "date", when, "time", p.WallTime(b.Checking)}, until...)...),
		Lines:   []string{p.T(key+".body", append([]any{"id", b.ID}, until...)...)},
		Details: []detail{
			{p.T("mail.booking.court"), b.CourtName},
			{p.T("mail.booking.date"), when},
			{p.T("mail.booking.hours"), p.T("mail.booking.from_to", "start", p.WallTime(b.Checking), "end", p.WallTime(b.Checkout))},
			{p.T("mail.booking.price"), p.Money(a.FinalPrice)},
			{p.T("mail.booking.paid"), p.Money(a.Paid)},
		},
	}
	label := p.T("mail.booking.action")
	if n.Kind == mail.KindBookingHeld {
		label = p.T("mail.booking_held.action")
	}
	body.Action = c.appLink(label, "bookings/"+strconv.FormatInt(b.ID, 10))
	if n.Kind == mail.KindBookingConfirmed && b.CancelledAt == nil {
		deadlines, err := s.Bookings.Deadlines(ctx, asClub, []booking.Reservation{b})
		if err != nil {
			return mail.Letter{}, err
		}
		until := deadlines[b.ID]
		if until.After(s.Bookings.Now()) {
			body.Note = p.T("mail.booking.cancel_until", "date", p.WallDate(until), "time", p.WallTime(until))
		} else {
			body.Note = p.T("mail.booking.cancel_closed")
		}
	}
	return c.write(r, body)
}

// enrollment is the letter of an enrollment accepted, of a place taken
// from the waitlist, or of a class cancelled: the class, its trainer,
// court, schedule, dates and price.
func (c *Composer) enrollment(ctx context.Context, n mail.Notice) (mail.Letter, error) {
	s := c.o.Services
	e, err := s.Classes.Enrollments.Get(ctx, asClub, n.Ref)
	if errors.Is(err, classes.ErrEnrollmentNotFound) {
		return mail.Letter{}, fmt.Errorf("%w: enrollment %d is gone", mail.ErrNoLetter, n.Ref)
	}
	if err != nil {
		return mail.Letter{}, err
	}
	cl, err := s.Classes.Classes.Get(ctx, asClub, e.ClassID)
	if errors.Is(err, classes.ErrClassNotFound) {
		return mail.Letter{}, fmt.Errorf("%w: class %d is gone", mail.ErrNoLetter, e.ClassID)
	}
	if err != nil {
		return mail.Letter{}, err
	}
	r, err := c.recipient(ctx, n, "")
	if err != nil {
		return mail.Letter{}, err
	}
	p, key := r.p, "mail."+string(n.Kind)
	return c.write(r, content{
		Subject: p.T(key+".subject", "club", c.o.Club, "class", cl.Title),
		Lines:   []string{p.T(key+".body", "class", cl.Title)},
		Details: []detail{
			{p.T("mail.class.title"), cl.Title},
			{p.T("mail.class.trainer"), cl.TrainerName},
			{p.T("mail.class.court"), cl.CourtName},
			{p.T("mail.class.schedule"), p.Schedule(cl.Days, cl.StartTime, cl.EndTime)},
			{p.T("mail.class.dates"), p.T("mail.class.from_to", "start", p.WallDate(cl.StartDate), "end", p.WallDate(cl.EndDate))},
			{p.T("mail.class.price"), p.Money(cl.SinglePrice)},
		},
		Action: c.appLink(p.T("mail.class.action"), "classes"),
	})
}

// appLink is the button to the members' app's page at path (under
// Options.App), labelled label; nil without the app's address.
func (c *Composer) appLink(label, path string) *action {
	if c.o.App == "" {
		return nil
	}
	return &action{Label: label, URL: c.o.App + path}
}

// receipt is the letter of a ticket sale: what was bought, its total, when
// the tickets expire, and every ticket's code.
func (c *Composer) receipt(ctx context.Context, n mail.Notice) (mail.Letter, error) {
	sale, err := c.o.Services.Tickets.Sales.Get(ctx, asClub, n.Ref)
	if errors.Is(err, tickets.ErrSaleNotFound) {
		return mail.Letter{}, fmt.Errorf("%w: ticket sale %d is gone", mail.ErrNoLetter, n.Ref)
	}
	if err != nil {
		return mail.Letter{}, err
	}
	r, err := c.recipient(ctx, n, sale.Buyer.Name)
	if err != nil {
		return mail.Letter{}, err
	}
	p := r.p
	expires := p.T("mail.receipt.never")
	if sale.ExpiresAt != nil {
		expires = p.Date(*sale.ExpiresAt)
	}
	body := content{
		Subject: p.T("mail.receipt.subject", "club", c.o.Club, "program", sale.ProgramName),
		Lines:   []string{p.T("mail.receipt.body", "id", sale.ID)},
		Details: []detail{
			{p.T("mail.receipt.program"), sale.ProgramName},
			{p.T("mail.receipt.package"), sale.PackageName},
			{p.T("mail.receipt.count"), strconv.Itoa(sale.TicketCount)},
			{p.T("mail.receipt.total"), p.Money(sale.Total)},
			{p.T("mail.receipt.expires"), expires},
		},
		ItemsTitle: p.T("mail.receipt.codes"),
		Action:     c.appLink(p.T("mail.receipt.action"), "tickets"),
	}
	for _, strip := range sale.Strips {
		for _, t := range strip.Tickets {
			body.Items = append(body.Items, tickets.FormatCode(t.Code))
		}
	}
	return c.write(r, body)
}
