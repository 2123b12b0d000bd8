// Package tickets owns the operator's ticketed activities: ticket programs
// (such as "Open play") with their catalog of packages, each a number of
// tickets at a unit price, and the events (a court booked for a title and a
// number of places) whose participants are clients or holders of tickets.
//
// Events live here, beside the tickets, because a participant uses a
// ticket: seating one and using the ticket are one transaction of this
// package, and an event books its court through booking.Bookings.Reserve,
// as a class's sessions do. The package imports booking; booking never
// imports it.
//
// Programs (programs.go; pure rules in program.go, SQL in
// program_store.go) keeps the catalog: programs and packages are created,
// changed and deactivated, never deleted, since a package quoted or sold
// must keep existing; SetPrices changes many prices in one transaction, all
// or none; Quote prices tickets of an active package of an active program
// and stores the quote, a promise held for QuoteValidity (15 minutes) under
// a random UUID, so that a sale naming it gets its figures and no client
// can make one up. Every method takes the acting clubhouse.Actor and
// refuses one without the panel permission; on a database migrated with
// migrations.Main():
//
//	catalog := tickets.New(db, tickets.Options{Zone: bogota}).Programs
//	q, err := catalog.Quote(ctx, clubhouse.Staff("front-desk"), tickets.QuoteInput{PackageID: ten.ID})
//
// Sales (sales.go; the pure input rules in sale.go, the SQL in
// sale_store.go) sells: Sell makes the sale, its strips (cards of at most
// the package's ticket count), its tickets and its payment in one
// transaction, at the package's price or at the figures of the quote it
// names (once, while the quote is valid). Each ticket has an unguessable
// code (CodeLength characters, 60 random bits; ParseCode reads it as
// people type it, FormatCode groups it for printing) and expires at the
// end of the package's ValidDays after the day of the sale, if it has
// them. List pages the sales, Get reads one with its strips and where each
// ticket sits, Ticket finds a code at the door, and Refund gives back the
// available tickets of a sale:
//
//	sale, err := svc.Sales.Sell(ctx, desk, tickets.SaleInput{QuoteID: clubhouse.Some(q.ID),
//		Buyer:   tickets.BuyerInput{Name: clubhouse.Some("Marta Gómez"), Document: clubhouse.Some("CC 52123456")},
//		Payment: &tickets.SalePaymentInput{PaymentTypeID: clubhouse.Some(cash), Amount: clubhouse.Some(q.Total)}})
//
// Events (events.go; the pure rules in event.go, the SQL in
// event_store.go) are for staff. An event's booking has the event's
// reservation type, one with is_event set, and the club's rules judge it as
// any staff booking (EventInput.OverrideRules books against them, recorded
// on the booking). Its status moves once: scheduled to cancelled, before it
// ends, which cancels its booking and frees the court, or to completed,
// once it has started. A participant is a client or a ticket (by its id
// or its code, as ParseCode reads it); participants join a scheduled event
// until it ends, in the slot asked for or the lowest free one, and leave it
// only before it starts. Seating a ticket uses it in the same transaction:
// the ticket's row is locked and judged (ErrTicketNotFound, ErrTicketUsed
// naming the event it sits in, ErrTicketExpired, ErrTicketRefunded), and a
// trigger on the participant row marks it used and writes the ledger
// outbox's ticket_use posting; deleting the row returns the ticket
// (available again) and writes the reversal. So removing a ticket's
// participant returns its ticket, cancelling an event removes its ticket
// participants and returns their tickets (its client participants stay, as
// the record of who was to come), and deleting an event returns the
// tickets of all its participants. The database holds the places and the
// tickets: a slot holds one participant, a client sits once in an event, a
// ticket sits in one participant row at most and only an available ticket
// that has not expired is used, and every participant row carries the
// event's capacity through its foreign key, so no slot lies beyond it; an
// event's booking is held by the event (booking.Hold, of kind HoldKind),
// so it is neither changed, deleted, retyped nor cancelled but through
// the event (booking.ErrHeld).
// Deleting an event that has not started deletes its booking too; one that
// has started is not deleted, it stays as history.
//
// Accounting: a ticket sold is service owed, so its price is deferred
// revenue, a liability, until the service is given. The sale's payment is
// posted as cash (its payment type's account) against the liability
// (Deferred, payments.TicketsDeferred, 2.8.10); each ticket used in an
// event moves its price from the liability to ticket income (Income,
// 4.1.15), and its return (the participant removed) moves it back; a
// ticket that expires unused moves its price to breakage income
// (Breakage, 4.1.20), recognized when the buyer's right lapses (IFRS 15
// B46); a refund pays the price of its tickets back from the liability to
// the payment type's account. Triggers write each of these to the ledger
// outbox in the transaction of the change (sources SourceUse, SourceExpiry
// and SourceRefund), Postings (postings.go, the payments.Producer of those
// sources) makes their entries, and payments.LedgerPoster, given
// Postings, posts each exactly once. Expirer (expiry.go)
// expires the tickets whose time is up; clubd runs it every minute, and a
// ticket is refused in an event from its expiry on even before it runs.
package tickets
