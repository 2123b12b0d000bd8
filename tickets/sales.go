package tickets

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/eventlog"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/wiretext"
	"github.com/clubhouse-go/clubhouse/mail"
	"github.com/clubhouse-go/clubhouse/payments"
)

// codeAttempts bounds the tries of a sale whose new ticket codes collide
// with existing ones.
const codeAttempts = 3

// Sales are the sales of ticket packages, their tickets and refunds.
// Every method takes the acting clubhouse.Actor and refuses one without
// the panel permission with clubhouse.ErrForbidden: selling is the front
// desk's.
type Sales struct {
	db       *sqlx.DB
	zone     *time.Location
	now      func() time.Time
	mail     *mail.Outbox
	log      *eventlog.Log
	payments *payments.Service
	store    saleStore
	programs programStore
}

// Sell makes a sale, in one transaction: the sale with its figures, its
// strips (as many as it takes to hold the tickets, each at most the
// package's ticket count), its tickets, each with a new unguessable code,
// and its payment, completed. The figures are those of the quote the sale
// names (while it is valid, once), or else the package's price now. The
// tickets expire at the end of the package's ValidDays after the day of
// the sale, in the club's calendar.
//
// Errors: clubhouse.ErrForbidden; Invalid (a missing or bad field, see
// SaleInput; ErrQuoteMismatch; ErrPaymentAmount; a payment missing on a
// total above 0 or sent on a total of 0; an unknown payment type);
// ErrPackageNotFound, ErrQuoteNotFound; ErrProgramInactive,
// ErrPackageInactive, ErrQuoteExpired, ErrQuoteUsed,
// payments.ErrTransactionUsed. With a log, the sale's transaction records
// payment:updated for the sale's payment, to the staff, which the realtime
// relay sends once it commits.
func (s *Sales) Sell(ctx context.Context, by clubhouse.Actor, in SaleInput) (Sale, error) {
	if err := by.RequirePanel(); err != nil {
		return Sale{}, err
	}
	c, err := in.check()
	if err != nil {
		return Sale{}, err
	}
	var soldBy *int64
	if by.UserID != 0 {
		soldBy = &by.UserID
	}
	var out Sale
	for attempt := 1; ; attempt++ {
		err = sqldb.Transact(ctx, s.db, func(tx *sqlx.Tx) error {
			n, err := s.prepare(ctx, tx, c)
			if err != nil {
				return err
			}
			n.soldBy, n.label = soldBy, by.Label()
			id, err := s.store.insert(ctx, tx, n)
			if err != nil {
				return err
			}
			if out, err = s.store.get(ctx, tx, id); err != nil {
				return err
			}
			if err := s.log.Record(ctx, tx, eventlog.Entries(EventTicketSold, by.Name(), s.inZone(out))...); err != nil {
				return err
			}
			if p := out.Payment; p != nil {
				if s.payments != nil {
					if err := s.payments.RecordNew(ctx, tx, by.Name(), p.ID); err != nil {
						return err
					}
				}
				if err := s.log.Announce(ctx, tx, eventlog.Message{Topic: payments.TopicUpdated, Payload: payments.Updated{ID: p.ID,
					TicketSaleID: &out.ID, Status: true, StatusDetail: payments.DetailCompleted}}); err != nil {
					return err
				}
			}
			if out.Buyer.Email == nil || *out.Buyer.Email == "" {
				return nil
			}
			return s.mail.Queue(ctx, tx, mail.Notice{Kind: mail.KindTicketReceipt, Address: *out.Buyer.Email, Ref: id})
		})
		if !errors.Is(err, errCodeTaken) || attempt == codeAttempts {
			break
		}
	}
	if err != nil {
		return Sale{}, fmt.Errorf("sell tickets: %w", err)
	}
	return s.inZone(out), nil
}

// prepare settles the figures, the expiry and the payment of the sale c
// describes, in tx.
func (s *Sales) prepare(ctx context.Context, tx *sqlx.Tx, c checked) (newSale, error) {
	now := s.now().Truncate(time.Microsecond)
	n := newSale{buyer: c.buyer, phones: c.phones, now: now, payType: c.paymentType, amount: c.amount, txID: c.transaction}
	if c.quoteID != "" {
		q, used, err := s.store.quote(ctx, tx, c.quoteID)
		switch {
		case err != nil:
			return n, err
		case used:
			return n, ErrQuoteUsed
		case !q.ValidUntil.After(now):
			return n, ErrQuoteExpired.Withf("The quote was valid until %s; ask for a new one.", q.ValidUntil.In(s.zone).Format(time.RFC3339))
		case c.packageID != 0 && c.packageID != q.PackageID,
			c.count.Present() && *c.count.Value != q.TicketCount:
			return n, ErrQuoteMismatch.Withf("The quote is for %d tickets of package %d; send those, or leave package_id and ticket_count out.",
				q.TicketCount, q.PackageID)
		}
		c.packageID, n.quote = q.PackageID, q
	}
	k, err := s.programs.pkg(ctx, tx, c.packageID, false)
	if err != nil {
		return n, err
	}
	// The package's state at the sale decides: a package or a program
	// deactivated since the quote sells no more.
	priced, err := k.Price(c.count, now)
	if err != nil {
		return n, err
	}
	if n.quote.ID == "" {
		n.quote = priced
	}
	n.stripSize = k.TicketCount
	if k.ValidDays != nil {
		day := now.In(s.zone)
		end := time.Date(day.Year(), day.Month(), day.Day()+*k.ValidDays+1, 0, 0, 0, 0, s.zone)
		n.expiresAt = &end
	}
	switch {
	case n.quote.Total.IsPositive() && c.payment == nil:
		return n, clubhouse.ErrIncomplete.Withf("Missing required fields: payment (the sale's total is %s).", n.quote.Total.StringFixed(2))
	case !n.quote.Total.IsPositive() && c.payment != nil:
		return n, clubhouse.ErrInvalidData.Withf("The sale's total is 0: send no payment.")
	case c.payment != nil && !c.amount.Equal(n.quote.Total):
		return n, ErrPaymentAmount.Withf("payment.amount must be the sale's total, %s, not %s.",
			n.quote.Total.StringFixed(2), c.amount.StringFixed(2))
	}
	n.paymentFor = c.payment != nil
	return n, nil
}

// List returns a page of the sales that match f, newest first, without
// their strips, and how many sales match in all. Errors:
// clubhouse.ErrForbidden, ErrInvalidQuery for a page out of SalePaging, a
// To before From or a long search.
func (s *Sales) List(ctx context.Context, by clubhouse.Actor, f SaleFilter) ([]Sale, int, error) {
	if err := by.RequirePanel(); err != nil {
		return nil, 0, err
	}
	var err error
	if f.Limit, f.Offset, err = SalePaging.Page(f.Limit, f.Offset); err != nil {
		return nil, 0, err
	}
	if !f.From.IsZero() && !f.To.IsZero() && f.To.Before(f.From) {
		return nil, 0, clubhouse.ErrInvalidQuery.Withf("to must not be before from.")
	}
	if wiretext.Check("search", f.Search, MaxNameLength) != nil {
		return nil, 0, clubhouse.ErrInvalidQuery.Withf("search must be UTF-8 text without NUL, at most %d characters.", MaxNameLength)
	}
	rows, total, err := s.store.list(ctx, s.db, f, s.zone)
	if err != nil {
		return nil, 0, err
	}
	for i := range rows {
		rows[i] = s.inZone(rows[i])
	}
	return rows, total, nil
}

// Get returns the sale with id with its payment, strips and tickets, and
// where each used ticket sits. Errors: clubhouse.ErrForbidden,
// ErrSaleNotFound.
func (s *Sales) Get(ctx context.Context, by clubhouse.Actor, id int64) (Sale, error) {
	if err := by.RequirePanel(); err != nil {
		return Sale{}, err
	}
	out, err := s.store.get(ctx, s.db, id)
	if err != nil {
		return Sale{}, err
	}
	return s.inZone(out), nil
}

// Ticket finds the ticket with code, as people type it (see ParseCode):
// the door's lookup. Errors: clubhouse.ErrForbidden, ErrInvalidData for a
// malformed code, ErrTicketNotFound.
func (s *Sales) Ticket(ctx context.Context, by clubhouse.Actor, code string) (Ticket, error) {
	if err := by.RequirePanel(); err != nil {
		return Ticket{}, err
	}
	c, err := ParseCode(code)
	if err != nil {
		return Ticket{}, err
	}
	t, err := s.store.ticket(ctx, s.db, c)
	if err != nil {
		return Ticket{}, err
	}
	return ticketInZone(t, s.zone), nil
}

// Refund gives back unused tickets of the sale with id, in one
// transaction: those in.TicketIDs names that are available, or every
// available one. They become refunded; the refund's amount, their price,
// is paid back by the sale's payment type (the ledger moves it from the
// tickets' liability to that account). Used, expired and refunded tickets
// stay as they are. It returns the sale.
//
// Errors: clubhouse.ErrForbidden, ErrSaleNotFound; ErrIncomplete without
// a reason, ErrInvalidData for a long reason or more than MaxRefundTickets
// ticket ids, ErrInvalidReference for a ticket id not of the sale;
// ErrNothingToRefund when none is available.
func (s *Sales) Refund(ctx context.Context, by clubhouse.Actor, id int64, in RefundInput) (Sale, error) {
	if err := by.RequirePanel(); err != nil {
		return Sale{}, err
	}
	if !in.Reason.Present() {
		return Sale{}, clubhouse.ErrIncomplete.Withf("Missing required fields: reason.")
	}
	if len(in.TicketIDs) > MaxRefundTickets {
		return Sale{}, clubhouse.ErrInvalidData.Withf("ticket_ids holds at most %d tickets, not %d.", MaxRefundTickets, len(in.TicketIDs))
	}
	reason, err := requiredText("reason", *in.Reason.Value, MaxReason)
	if err != nil {
		return Sale{}, err
	}
	var refundedBy *int64
	if by.UserID != 0 {
		refundedBy = &by.UserID
	}
	var out Sale
	err = sqldb.Transact(ctx, s.db, func(tx *sqlx.Tx) error {
		payType, err := s.store.lockSale(ctx, tx, id)
		if err != nil {
			return err
		}
		ts, unknown, err := s.store.refundable(ctx, tx, id, in.TicketIDs, s.now())
		switch {
		case err != nil:
			return err
		case len(unknown) > 0:
			return clubhouse.ErrInvalidReference.Withf("ticket_ids: ticket %d is not a ticket of sale %d.", unknown[0], id)
		case len(ts) == 0:
			return ErrNothingToRefund
		}
		if err := s.store.refund(ctx, tx, id, ts, payType, reason, refundedBy, by.Label(), s.now()); err != nil {
			return err
		}
		if out, err = s.store.get(ctx, tx, id); err != nil {
			return err
		}
		return s.log.Record(ctx, tx, eventlog.Entries(EventTicketRefunded, by.Name(), among(s.inZone(out), ts)...)...)
	})
	if err != nil {
		return Sale{}, fmt.Errorf("refund tickets: %w", err)
	}
	return s.inZone(out), nil
}

// among returns the tickets of sale that are among ts, as sale has them.
func among(sale Sale, ts []Ticket) []Ticket {
	ids := make(map[int64]bool, len(ts))
	for _, t := range ts {
		ids[t.ID] = true
	}
	var out []Ticket
	for _, st := range sale.Strips {
		for _, t := range st.Tickets {
			if ids[t.ID] {
				out = append(out, t)
			}
		}
	}
	return out
}

// inZone returns sale with its times in the club's zone.
func (s *Sales) inZone(sale Sale) Sale {
	sale.CreatedAt = sale.CreatedAt.In(s.zone)
	if sale.ExpiresAt != nil {
		t := sale.ExpiresAt.In(s.zone)
		sale.ExpiresAt = &t
	}
	if sale.Payment != nil {
		sale.Payment.Date = sale.Payment.Date.In(s.zone)
	}
	for i := range sale.Strips {
		for j, t := range sale.Strips[i].Tickets {
			sale.Strips[i].Tickets[j] = ticketInZone(t, s.zone)
		}
	}
	return sale
}

// ticketInZone returns t with its times in zone.
func ticketInZone(t Ticket, zone *time.Location) Ticket {
	for _, p := range []**time.Time{&t.ExpiresAt, &t.UsedAt, &t.ExpiredAt} {
		if *p != nil {
			v := (*p).In(zone)
			*p = &v
		}
	}
	return t
}
