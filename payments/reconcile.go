package payments

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/wiretext"
)

// The statuses of a reconciled event.
const (
	ResultProcessed = "processed" // the event's payment was found or created
	ResultQueued    = "queued"    // nothing to attach the event to: kept in the inbox
)

// Result is what Reconcile did with an event.
type Result struct {
	Status  string  // ResultProcessed or ResultQueued
	Payment Payment // the event's payment; zero when queued
	// Changed is true when the payment was created or its state or gateway
	// response changed: once per change, however often the event arrives.
	Changed bool
	// InboxID is the inbox entry that keeps the event for an operator: the
	// queued event, or a processed one the payment did not fully take (a
	// different amount or booking, a status that would move it back); 0
	// when none. Note says why.
	InboxID int64
	Note    string
	// TransactionID is the event's transaction_id, trimmed, for the log.
	TransactionID string
}

// Deliver takes one delivery of the payment webhook as it arrived: its raw
// body, its X-Webhook-Signature header and the time it arrived. It reads
// at most MaxDelivery bytes of body, checks the signature against
// Options.WebhookSecrets (see VerifySignature), reads the event (see
// ParseEvent) and reconciles it (see Reconcile); nothing is stored unless
// all of that passes. Errors: ErrWebhookOff without a secret, before body
// is read; ErrDeliveryTooLarge; the Unauthenticated errors of
// VerifySignature; Invalid for a body that cannot be read and as
// ParseEvent and Reconcile; as Reconcile.
func (s *Service) Deliver(ctx context.Context, body io.Reader, signature string, at time.Time) (Result, error) {
	if len(s.secrets) == 0 {
		return Result{}, ErrWebhookOff
	}
	raw, err := io.ReadAll(io.LimitReader(body, MaxDelivery+1))
	if err != nil {
		return Result{}, clubhouse.ErrInvalidJSON.Withf("The delivery could not be read: %v.", err)
	}
	if len(raw) > MaxDelivery {
		return Result{}, ErrDeliveryTooLarge
	}
	if err := VerifySignature(signature, raw, s.secrets, at); err != nil {
		return Result{}, err
	}
	e, err := ParseEvent(raw)
	if err != nil {
		return Result{}, err
	}
	return s.Reconcile(ctx, e)
}

// Reconcile applies a gateway event, in one transaction:
//
//   - a payment with the event's transaction_id takes the event's status
//     when it advances the payment (see Advances) and its gateway_response
//     when that differs; a duplicate changes nothing. An event that
//     disagrees with the payment (another amount, booking or enrollment)
//     changes nothing: it is kept in the inbox with a note for staff, and
//     the result is queued.
//   - without such a payment, an event naming an existing reservation_id
//     (or enrollment_id) confirms the client's claim on that booking (or
//     class enrollment) with the same transaction_id and amount (see
//     ClientCreate and ClaimEnrollment), or else creates the payment there,
//     dated with the event's date; a claim there with the same id and
//     another amount stays unconfirmed and the event is noted in the inbox. Concurrent deliveries of one event create or
//     confirm one payment, and only one of them reports Changed.
//   - any other event (naming neither, or a booking or enrollment that
//     does not exist) is kept in the inbox, one entry per
//     transaction_id counting its deliveries and holding the latest one.
//
// A client's claim on another booking, or with another amount, never takes
// an event. A payment created or changed records its events (EventCreated,
// EventCompleted...), their actor "webhook", and its message in the same
// transaction.
// Errors: Invalid for bad event data (see Event.Validate).
func (s *Service) Reconcile(ctx context.Context, e Event) (Result, error) {
	status, detail, err := e.Validate()
	if err != nil {
		return Result{}, err
	}
	date := s.now()
	if e.Date != nil {
		date = *e.Date
	}
	if len(e.Payload) == 0 {
		if e.Payload, err = json.Marshal(eventJSON(e, date)); err != nil {
			return Result{}, fmt.Errorf("reconcile: encode event: %w", err)
		}
	}
	in := inboxRow{TransactionID: e.TransactionID, Amount: e.Amount, Status: detail, GatewayResponse: e.GatewayResponse,
		EventDate: date, Payload: string(e.Payload)}
	var res Result
	err = sqldb.Transact(ctx, s.db, func(tx *sqlx.Tx) error {
		if res, err = s.reconcileTx(ctx, tx, webhookActor, e, in, status, detail, date); err != nil || !res.Changed {
			return err
		}
		return s.Announce(ctx, tx, res.Payment)
	})
	if err != nil {
		return Result{}, fmt.Errorf("reconcile %s: %w", e.TransactionID, err)
	}
	res.TransactionID = e.TransactionID
	return res, nil
}

// reconcileTx is Reconcile in tx, for the validated event e, kept as in
// when the inbox takes it; the payment's events are by's.
func (s *Service) reconcileTx(ctx context.Context, tx *sqlx.Tx, by string, e Event, in inboxRow, status bool, detail string, date time.Time) (Result, error) {
	p, err := s.store.byTransactionLocked(ctx, tx, e.TransactionID)
	switch {
	case err == nil:
		return s.applyRecorded(ctx, tx, by, p, p, e, in, status, detail)
	case !errors.Is(err, ErrNotFound):
		return Result{}, err
	}
	if o, ok := ownerOf(e); !ok {
		in.Note = "The event names no known transaction_id and no reservation_id or enrollment_id."
	} else {
		res, done, err := s.confirmOrCreate(ctx, tx, by, o, e, in, status, detail, date)
		if err != nil || done {
			return res, err
		}
		in.Note = fmt.Sprintf("%s %d does not name an existing %s.", o.field(), o.id, o.what())
	}
	claims, err := s.store.claimsOf(ctx, tx, e.TransactionID)
	if err != nil {
		return Result{}, err
	}
	if len(claims) > 0 {
		in.Note += fmt.Sprintf(" Unconfirmed client claims report this transaction_id: payment ids %s.", joinIDs(claims))
	}
	id, err := s.store.upsertInbox(ctx, tx, in)
	return Result{Status: ResultQueued, InboxID: id, Note: in.Note}, err
}

// confirmOrCreate applies event e, which names a booking and a transaction
// id no payment holds: it confirms the client's claim of that id on the
// booking when the amounts agree, and otherwise creates the payment (see
// create), noting a disagreeing claim in the inbox. done is false when the
// booking does not exist. The payment's events are by's.
func (s *Service) confirmOrCreate(ctx context.Context, tx *sqlx.Tx, by string, o owner, e Event, in inboxRow, status bool, detail string, date time.Time) (res Result, done bool, err error) {
	claim, err := s.store.claimLocked(ctx, tx, o, e.TransactionID)
	switch {
	case err == nil && claim.Amount.Equal(e.Amount):
		var confirmed Payment
		if confirmed, err = s.store.confirmClaim(ctx, tx, claim.ID, e.TransactionID); err != nil {
			return Result{}, false, err
		}
		res, err = s.applyRecorded(ctx, tx, by, claim, confirmed, e, in, status, detail)
		res.Changed = true
		return res, true, err
	case err != nil && !errors.Is(err, ErrNotFound):
		return Result{}, false, err
	}
	if res, done, err = s.create(ctx, tx, by, o, e, in, status, detail, date); err != nil || !done || claim.ID == 0 || res.InboxID != 0 {
		return res, done, err
	}
	in.Note = fmt.Sprintf("The client's claim (payment %d) reports this transaction_id with amount %s; the gateway's amount is %s. The gateway's payment was recorded; the claim stays unconfirmed.",
		claim.ID, claim.Amount, e.Amount)
	in.PaymentID = &res.Payment.ID
	if res.InboxID, err = s.store.upsertInbox(ctx, tx, in); err != nil {
		return Result{}, false, err
	}
	res.Note = in.Note
	return res, true, nil
}

// create creates the payment of event e on o, or applies e to the payment
// a concurrent delivery created first, with its events, by's. created is
// false when o does not exist.
func (s *Service) create(ctx context.Context, tx *sqlx.Tx, by string, o owner, e Event, in inboxRow, status bool, detail string, date time.Time) (res Result, created bool, err error) {
	// An earlier delivery without o may wait in the inbox: the new
	// payment closes its entry.
	id, found, err := s.store.insertFromEvent(ctx, tx, o, Payment{Amount: e.Amount,
		TransactionID: &e.TransactionID, GatewayResponse: e.GatewayResponse, Status: status, StatusDetail: detail, Date: date},
		s.now(), fmt.Sprintf("Attached by a later delivery naming %s %d.", o.field(), o.id))
	switch {
	case err != nil || !found:
		return Result{}, false, err
	case id == 0: // a concurrent delivery created it and committed
		p, err := s.store.byTransactionLocked(ctx, tx, e.TransactionID)
		if err != nil {
			return Result{}, false, err
		}
		res, err = s.applyRecorded(ctx, tx, by, p, p, e, in, status, detail)
		return res, true, err
	}
	p, err := s.store.get(ctx, tx, id, false)
	if err == nil {
		err = s.record(ctx, tx, by, nil, p)
	}
	return Result{Status: ResultProcessed, Payment: p, Changed: true}, true, err
}

// applyRecorded applies event e to the locked payment p (see apply) and
// records the events, by's, of what the transaction changed of the
// payment: from before, as it found it (p itself, or the claim p
// confirms), to the payment apply leaves.
func (s *Service) applyRecorded(ctx context.Context, tx *sqlx.Tx, by string, before, p Payment, e Event, in inboxRow, status bool, detail string) (Result, error) {
	res, err := s.apply(ctx, tx, p, e, in, status, detail)
	if err != nil || res.Payment.ID == 0 {
		return res, err
	}
	return res, s.record(ctx, tx, by, &before, res.Payment)
}

// apply applies event e to the locked payment p (see Reconcile). An event
// that disagrees with p's amount, booking or enrollment changes nothing and
// is kept in the inbox.
func (s *Service) apply(ctx context.Context, tx *sqlx.Tx, p Payment, e Event, in inboxRow, status bool, detail string) (Result, error) {
	var notes []string
	if !p.Amount.Equal(e.Amount) {
		notes = append(notes, fmt.Sprintf("The event's amount %s differs from the payment's %s.", e.Amount, p.Amount))
	}
	if e.ReservationID != nil && (p.ReservationID == nil || *p.ReservationID != *e.ReservationID) {
		notes = append(notes, fmt.Sprintf("The event names reservation_id %d; the payment belongs elsewhere.", *e.ReservationID))
	}
	if e.EnrollmentID != nil && (p.EnrollmentID == nil || *p.EnrollmentID != *e.EnrollmentID) {
		notes = append(notes, fmt.Sprintf("The event names enrollment_id %d; the payment belongs elsewhere.", *e.EnrollmentID))
	}
	if len(notes) > 0 {
		notes = append(notes, fmt.Sprintf("Payment %d was left unchanged; staff decide.", p.ID))
		return s.hold(ctx, tx, in, p.ID, Result{Status: ResultQueued}, notes)
	}
	res := Result{Status: ResultProcessed, Payment: p}
	next, changed := p, false
	switch {
	case p.TicketSaleID != nil && detail != p.StatusDetail:
		notes = append(notes, fmt.Sprintf("Status %s was not applied: the payment pays ticket sale %d, whose money does not change on its own; refund the sale's unused tickets (POST /api/admin/tickets/sales/%d/refund).",
			detail, *p.TicketSaleID, *p.TicketSaleID))
	case Advances(p.StatusDetail, detail):
		next.Status, next.StatusDetail, changed = status, detail, true
	case detail != p.StatusDetail:
		notes = append(notes, fmt.Sprintf("Status %s after %s was not applied: events only move a payment forward (pending, failed, completed, refunded).", detail, p.StatusDetail))
	}
	// The gateway's response goes with the state it describes: a stale
	// event's response does not replace the current one.
	if detail == next.StatusDetail && e.GatewayResponse != nil && (p.GatewayResponse == nil || *p.GatewayResponse != *e.GatewayResponse) {
		next.GatewayResponse, changed = e.GatewayResponse, true
	}
	if changed {
		updated, err := s.store.setState(ctx, tx, next)
		if err != nil {
			return Result{}, err
		}
		res.Payment, res.Changed = updated, true
	}
	if len(notes) > 0 {
		return s.hold(ctx, tx, in, p.ID, res, notes)
	}
	return res, nil
}

// hold keeps event in in the inbox with notes, linked to the payment with
// paymentID, and returns res with the entry.
func (s *Service) hold(ctx context.Context, tx *sqlx.Tx, in inboxRow, paymentID int64, res Result, notes []string) (Result, error) {
	in.Note, in.PaymentID = strings.Join(notes, " "), &paymentID
	id, err := s.store.upsertInbox(ctx, tx, in)
	if err != nil {
		return Result{}, err
	}
	res.InboxID, res.Note = id, in.Note
	return res, nil
}

func joinIDs(ids []int64) string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = strconv.FormatInt(id, 10)
	}
	return strings.Join(out, ", ")
}

// eventJSON is the inbox payload of an event that came without its raw JSON.
func eventJSON(e Event, date time.Time) map[string]any {
	return map[string]any{"transaction_id": e.TransactionID, "amount": e.Amount, "status": e.Status,
		"gateway_response": e.GatewayResponse, "date": date, "reservation_id": e.ReservationID, "enrollment_id": e.EnrollmentID}
}

// InboxEntry is a gateway event kept for an operator: it matched no payment
// and named nothing to attach to, or a payment did not fully take it.
type InboxEntry struct {
	ID              int64            `db:"id"`
	TransactionID   string           `db:"transaction_id"`
	Amount          *decimal.Decimal `db:"amount"`
	Status          string           `db:"status"` // the status detail the event stands for
	GatewayResponse *string          `db:"gateway_response"`
	EventDate       *time.Time       `db:"event_date"`
	Payload         []byte           `db:"payload"` // the latest delivery's JSON
	Deliveries      int              `db:"deliveries"`
	ReceivedAt      time.Time        `db:"received_at"` // the first delivery
	ResolvedAt      *time.Time       `db:"resolved_at"`
	Resolution      *string          `db:"resolution"` // attached or dismissed; nil while open
	PaymentID       *int64           `db:"payment_id"`
	Note            *string          `db:"note"`
}

// InboxFilter selects inbox entries: the open ones, oldest first, or the
// resolved ones, latest resolved first.
type InboxFilter struct {
	Open          bool
	Limit, Offset int
}

// Inbox lists the page of the entries of the inbox that f selects. Errors:
// clubhouse.ErrForbidden, ErrInvalidQuery for a page out of InboxPaging.
func (s *Service) Inbox(ctx context.Context, by clubhouse.Actor, f InboxFilter) ([]InboxEntry, error) {
	if err := by.RequirePanel(); err != nil {
		return nil, err
	}
	var err error
	if f.Limit, f.Offset, err = InboxPaging.Page(f.Limit, f.Offset); err != nil {
		return nil, err
	}
	return s.store.listInbox(ctx, s.db, f)
}

// The actions of ResolveInbox.
const (
	ActionAttach  = "attach"
	ActionDismiss = "dismiss"
)

// The resolutions an inbox entry ends with.
const (
	ResolutionAttached  = "attached"
	ResolutionDismissed = "dismissed"
)

// Resolution is an operator's decision on an inbox entry.
type Resolution struct {
	Action        string // ActionAttach or ActionDismiss
	ReservationID int64  // attach: the booking the payment belongs to, or
	EnrollmentID  int64  // the class enrollment it belongs to (one of the two)
	Note          string // why; required to dismiss
}

// Errors of the inbox.
var (
	ErrInboxNotFound = clubhouse.Errorf(clubhouse.NotFound, "inbox entry not found", "The inbox entry does not exist.")
	ErrInboxResolved = clubhouse.Errorf(clubhouse.Conflict, "already resolved", "The inbox entry was already resolved.")
)

// MaxInboxNote is the most characters of the note that resolves an inbox
// entry.
const MaxInboxNote = 2000

// ResolveInbox closes the inbox entry with id, in one transaction. Attach
// creates the entry's payment on the booking r.ReservationID or the class
// enrollment r.EnrollmentID from the stored event (its amount, status,
// gateway response and date), or confirms the client's claim of it there,
// and records it on the entry, with the payment's events; dismiss records
// r.Note. It returns the entry and, for attach, the payment. Errors: ErrInboxNotFound, ErrInboxResolved,
// Invalid ("invalid data" for an unknown action, both ids or a note over
// MaxInboxNote, "incomplete data" without the id or note the action needs,
// "invalid reference" for a booking or enrollment that does not exist),
// ErrTransactionUsed when a payment with the entry's transaction_id exists.
func (s *Service) ResolveInbox(ctx context.Context, by clubhouse.Actor, id int64, r Resolution) (InboxEntry, Payment, error) {
	if err := by.RequirePanel(); err != nil {
		return InboxEntry{}, Payment{}, err
	}
	if err := wiretext.Check("note", r.Note, MaxInboxNote); err != nil {
		return InboxEntry{}, Payment{}, err
	}
	r.Note = strings.TrimSpace(r.Note)
	switch {
	case r.Action != ActionAttach && r.Action != ActionDismiss:
		return InboxEntry{}, Payment{}, clubhouse.ErrInvalidData.Withf("action must be attach or dismiss, not %q.", r.Action)
	case r.Action == ActionAttach && r.ReservationID == 0 && r.EnrollmentID == 0:
		return InboxEntry{}, Payment{}, clubhouse.ErrIncomplete.Withf("Missing required fields: reservation_id or enrollment_id.")
	case r.Action == ActionAttach && r.ReservationID != 0 && r.EnrollmentID != 0:
		return InboxEntry{}, Payment{}, clubhouse.ErrInvalidData.Withf("Send reservation_id or enrollment_id, not both.")
	case r.Action == ActionAttach && (r.ReservationID < 0 || r.EnrollmentID < 0):
		return InboxEntry{}, Payment{}, clubhouse.ErrInvalidReference.Withf("reservation_id and enrollment_id must be positive integers.")
	case r.Action == ActionDismiss && r.Note == "":
		return InboxEntry{}, Payment{}, clubhouse.ErrIncomplete.Withf("Missing required fields: note.")
	}
	var entry InboxEntry
	var pay Payment
	err := sqldb.Transact(ctx, s.db, func(tx *sqlx.Tx) error {
		pay = Payment{}
		e, err := s.store.inboxLocked(ctx, tx, id)
		if err != nil {
			return err
		}
		if e.ResolvedAt != nil {
			return ErrInboxResolved
		}
		var note *string
		if r.Note != "" {
			note = &r.Note
		}
		resolution := ResolutionDismissed
		if r.Action == ActionAttach {
			o := owner{id: r.ReservationID}
			if r.EnrollmentID != 0 {
				o = owner{enrollment: true, id: r.EnrollmentID}
			}
			if pay, err = s.attach(ctx, tx, by.Name(), e, o); err != nil {
				return err
			}
			resolution, e.PaymentID = ResolutionAttached, &pay.ID
		}
		if entry, err = s.store.resolveInbox(ctx, tx, id, resolution, e.PaymentID, note, s.now()); err != nil || pay.ID == 0 {
			return err
		}
		return s.Announce(ctx, tx, pay)
	})
	if err != nil {
		return InboxEntry{}, Payment{}, fmt.Errorf("resolve inbox entry %d: %w", id, err)
	}
	return entry, pay, nil
}

// attach creates the payment of inbox entry e on o, or confirms the
// client's claim of it there, with the payment's events, by's.
func (s *Service) attach(ctx context.Context, tx *sqlx.Tx, by string, e InboxEntry, o owner) (Payment, error) {
	if e.Amount == nil {
		return Payment{}, clubhouse.ErrInvalidAmount.Withf("The stored event has no amount.")
	}
	status, detail, err := ParseStatus(e.Status)
	if err != nil {
		return Payment{}, err
	}
	// The client's claim of this transaction on o, with the same amount, is
	// the payment staff attach the event to.
	claim, err := s.store.claimLocked(ctx, tx, o, e.TransactionID)
	switch {
	case err == nil && claim.Amount.Equal(*e.Amount):
		confirmed, err := s.store.confirmClaim(ctx, tx, claim.ID, e.TransactionID)
		if err != nil {
			return Payment{}, err
		}
		confirmed.Status, confirmed.StatusDetail, confirmed.GatewayResponse = status, detail, e.GatewayResponse
		if confirmed, err = s.store.setState(ctx, tx, confirmed); err != nil {
			return Payment{}, err
		}
		return confirmed, s.record(ctx, tx, by, &claim, confirmed)
	case err != nil && !errors.Is(err, ErrNotFound):
		return Payment{}, err
	}
	date := s.now()
	if e.EventDate != nil {
		date = *e.EventDate
	}
	id, found, err := s.store.insertFromEvent(ctx, tx, o, Payment{Amount: *e.Amount,
		TransactionID: &e.TransactionID, GatewayResponse: e.GatewayResponse, Status: status, StatusDetail: detail, Date: date}, s.now(), "")
	switch {
	case err != nil:
		return Payment{}, err
	case !found:
		return Payment{}, clubhouse.ErrInvalidReference.Withf("%s %d does not name an existing %s.", o.field(), o.id, o.what())
	case id == 0:
		return Payment{}, ErrTransactionUsed
	}
	p, err := s.store.get(ctx, tx, id, false)
	if err != nil {
		return Payment{}, err
	}
	return p, s.record(ctx, tx, by, nil, p)
}
