package letters

import (
	"context"
	"fmt"
	"strconv"

	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/mail"
)

// reminder is the letter that reminds a member of their booking before
// its start (package reminders): its day and hours in the club's zone and
// its court, and, while the club's cancellation window is still open, a
// link to cancel it in the members' app. A booking cancelled or gone since
// has nothing to remind of.
func (c *Composer) reminder(ctx context.Context, n mail.Notice) (mail.Letter, error) {
	s := c.o.Services
	b, err := c.bookingOf(ctx, n)
	if err != nil {
		return mail.Letter{}, err
	}
	if b.CancelledAt != nil {
		return mail.Letter{}, fmt.Errorf("%w: booking %d was cancelled", mail.ErrNoLetter, n.Ref)
	}
	r, err := c.recipient(ctx, n, "")
	if err != nil {
		return mail.Letter{}, err
	}
	p := r.p
	when, at := p.WallDate(b.Checking), p.WallTime(b.Checking)
	body := content{
		Subject: p.T("mail.booking_reminder.subject", "club", c.o.Club, "date", when, "time", at),
		Lines:   []string{p.T("mail.booking_reminder.body", "id", b.ID, "date", when, "time", at, "court", b.CourtName)},
		Details: []detail{
			{p.T("mail.booking.court"), b.CourtName},
			{p.T("mail.booking.date"), when},
			{p.T("mail.booking.hours"), p.T("mail.booking.from_to", "start", at, "end", p.WallTime(b.Checkout))},
		},
	}
	deadlines, err := s.Bookings.Deadlines(ctx, asClub, []booking.Reservation{b})
	if err != nil {
		return mail.Letter{}, err
	}
	if until := deadlines[b.ID]; until.After(s.Bookings.Now()) {
		body.Note = p.T("mail.booking.cancel_until", "date", p.WallDate(until), "time", p.WallTime(until))
		body.Action = c.appLink(p.T("mail.booking_reminder.action"), "bookings/"+strconv.FormatInt(b.ID, 10))
	} else {
		body.Note = p.T("mail.booking.cancel_closed")
	}
	return c.write(r, body)
}
