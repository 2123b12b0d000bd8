package payments

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/eventlog"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
)

// Service manages payments. Its receipts live in Objects; a nil Objects
// means receipt storage is not configured.
type Service struct {
	db       *sqlx.DB
	objects  ObjectStore
	now      func() time.Time
	log      *eventlog.Log
	bookings *booking.Bookings
	secrets  []string
	zone     *time.Location
	store    store
	// The online checkout's (checkout.go).
	gateway              Gateway
	checkoutTTL          time.Duration
	returnURL, notifyURL string
	wake                 chan struct{} // a gateway's notification was kept: settle now
}

// Options configure the payments service. The zero value is usable: no
// receipt storage, the system clock, nothing recorded, days read in UTC.
type Options struct {
	Objects ObjectStore      // the receipts' bucket; nil: the receipt operations answer ErrStorageOff
	Now     func() time.Time // the clock; nil: time.Now
	Zone    *time.Location   // the club's, in which a day's takings begin and end (Takings); nil: UTC
	// Log records, in each change's transaction, the change's events
	// (EventCreated and the others) and its realtime message
	// (payment:updated); nil: none.
	Log *eventlog.Log
	// Bookings are the club's bookings, which the views that join a
	// booking with its payments (Booking, ClientBookings, Dashboard, ...)
	// read; nil: those views fail.
	Bookings *booking.Bookings
	// WebhookSecrets are the keys of the webhook's signatures (see
	// VerifySignature), several while one is rotated; empty ones are
	// ignored. None: Deliver answers ErrWebhookOff.
	WebhookSecrets []string
	// Gateway is the club's online payment gateway; nil: checkout answers
	// ErrNoGateway.
	Gateway Gateway
	// CheckoutTTL is how long a checkout stays open; 0: CheckoutTTL.
	CheckoutTTL time.Duration
	// ReturnURL is where a payer's browser comes back from the gateway
	// (the members' app's page of the result); NotifyURL is where the
	// gateway tells of the payment, for a gateway that takes it with each
	// checkout (Mercado Pago).
	ReturnURL, NotifyURL string
}

// New returns the payments stored in db, a database migrated with
// migrations.Main.
func New(db *sqlx.DB, o Options) *Service {
	clubhouse.SetDefaults(&o.Zone, &o.Now)
	var secrets []string
	for _, k := range o.WebhookSecrets {
		if k != "" {
			secrets = append(secrets, k)
		}
	}
	if o.CheckoutTTL <= 0 {
		o.CheckoutTTL = CheckoutTTL
	}
	return &Service{db: db, objects: o.Objects, now: o.Now, log: o.Log, bookings: o.Bookings, secrets: secrets, zone: o.Zone,
		gateway: o.Gateway, checkoutTTL: o.CheckoutTTL, returnURL: o.ReturnURL, notifyURL: o.NotifyURL, wake: make(chan struct{}, 1)}
}

// List returns the page of the payments that match f: pending first, then
// latest first. Errors: clubhouse.ErrForbidden, ErrInvalidQuery for a page
// out of PaymentPaging.
func (s *Service) List(ctx context.Context, by clubhouse.Actor, f Filter) ([]Payment, error) {
	if err := by.RequirePanel(); err != nil {
		return nil, err
	}
	var err error
	if f.Limit, f.Offset, err = PaymentPaging.Page(f.Limit, f.Offset); err != nil {
		return nil, err
	}
	return s.store.list(ctx, s.db, f)
}

// The page sizes of the lists of payments (a filter's Limit of 0 means
// Default): PaymentPaging for List, InboxPaging for Inbox.
var (
	PaymentPaging = clubhouse.Paging{Default: 100, Max: 1000}
	InboxPaging   = clubhouse.Paging{Default: 100, Max: 1000}
)

// Get returns the payment with id. Errors: ErrNotFound.
func (s *Service) Get(ctx context.Context, by clubhouse.Actor, id int64) (Payment, error) {
	if err := by.RequirePanel(); err != nil {
		return Payment{}, err
	}
	return s.store.get(ctx, s.db, id, false)
}

// ByTransaction returns the payment whose transaction id, as the views of
// payments show it (Payment.Reference), is txid: the payment that holds it
// as its gateway id, or, when none does, a client's unconfirmed claim that
// reports it (the first reported, when several do; List with Search finds
// them all). A claim confirmed with another gateway id is found by that
// id. Errors: clubhouse.ErrForbidden without the panel permission,
// ErrNotFound.
func (s *Service) ByTransaction(ctx context.Context, by clubhouse.Actor, txid string) (Payment, error) {
	if err := by.RequirePanel(); err != nil {
		return Payment{}, err
	}
	return s.store.byTransaction(ctx, s.db, txid)
}

// Create stores a payment of a booking, pending unless Status says
// completed, with its events (EventCreated, and EventCompleted for a
// completed one). Errors: Invalid (incomplete data, invalid amount or
// reference), ErrTransactionUsed.
func (s *Service) Create(ctx context.Context, by clubhouse.Actor, in Input) (Payment, error) {
	if err := by.RequirePanel(); err != nil {
		return Payment{}, err
	}
	var p Payment
	if err := in.apply(&p, "reservation_id", "amount"); err != nil {
		return Payment{}, err
	}
	out, err := s.insert(ctx, by, p)
	if err != nil {
		return Payment{}, fmt.Errorf("create payment: %w", err)
	}
	return out, nil
}

// insert stores p for by with its events and its message, in one
// transaction.
func (s *Service) insert(ctx context.Context, by clubhouse.Actor, p Payment) (Payment, error) {
	var out Payment
	err := sqldb.Transact(ctx, s.db, func(tx *sqlx.Tx) error {
		var err error
		if out, err = s.store.insert(ctx, tx, p); err != nil {
			return err
		}
		if err := s.record(ctx, tx, by.Name(), nil, out); err != nil {
			return err
		}
		return s.Announce(ctx, tx, out)
	})
	return out, err
}

// CreateForBooking stores a payment of the booking with bookingID, with its
// receipt image when rc is not nil (stored first, and removed again when
// the row cannot be inserted); the booking in in is ignored. Errors: as
// Create, and booking.ErrBookingNotFound; with a receipt also ErrStorageOff
// and ErrStorageFailed.
func (s *Service) CreateForBooking(ctx context.Context, by clubhouse.Actor, bookingID int64, in Input, rc *Receipt) (Payment, error) {
	if err := by.RequirePanel(); err != nil {
		return Payment{}, err
	}
	if rc != nil {
		return s.createWithReceipt(ctx, by, bookingID, in, rc)
	}
	if _, err := s.store.bookingClient(ctx, s.db, bookingID); err != nil {
		return Payment{}, err
	}
	in.ReservationID = clubhouse.Some(bookingID)
	return s.Create(ctx, by, in)
}

// Update changes the fields set in in, with the change's event
// (EventCompleted, EventUpdated...; none when nothing changed); Status true
// validates a pending payment. Staff validating a client's unconfirmed
// claim confirm it: it takes the claimed transaction id as its gateway id
// unless in sets another. Errors: as Create, ErrNotFound, and
// ErrTransactionUsed when a gateway payment holds the claimed id.
func (s *Service) Update(ctx context.Context, by clubhouse.Actor, id int64, in Input) (Payment, error) {
	if err := by.RequirePanel(); err != nil {
		return Payment{}, err
	}
	return s.update(ctx, by, id, 0, in)
}

// UpdateForBooking is Update for a payment that must belong to the booking
// with bookingID; with rc it also adds or replaces the payment's receipt
// (the new image replaces the old only when the row is updated). Errors:
// as Update; ErrNotFound for another booking's payment; with a receipt also
// ErrStorageOff and ErrStorageFailed.
func (s *Service) UpdateForBooking(ctx context.Context, by clubhouse.Actor, bookingID, id int64, in Input, rc *Receipt) (Payment, error) {
	if err := by.RequirePanel(); err != nil {
		return Payment{}, err
	}
	if rc != nil {
		return s.updateWithReceipt(ctx, by, bookingID, id, in, rc)
	}
	in.ReservationID = clubhouse.Optional[int64]{}
	return s.update(ctx, by, id, bookingID, in)
}

func (s *Service) update(ctx context.Context, by clubhouse.Actor, id, bookingID int64, in Input) (Payment, error) {
	var out Payment
	err := sqldb.Transact(ctx, s.db, func(tx *sqlx.Tx) error {
		p, err := s.store.get(ctx, tx, id, true)
		if err != nil {
			return err
		}
		if bookingID != 0 && (p.ReservationID == nil || *p.ReservationID != bookingID) {
			return ErrNotFound
		}
		before := p
		if err := in.change(&p); err != nil {
			return err
		}
		if out, err = s.store.update(ctx, tx, p); err != nil {
			return err
		}
		if err := s.record(ctx, tx, by.Name(), &before, out); err != nil {
			return err
		}
		return s.Announce(ctx, tx, out)
	})
	if err != nil {
		return Payment{}, fmt.Errorf("update payment: %w", err)
	}
	return out, nil
}

// ForBooking returns the payments of the booking with id, latest first.
// Errors: booking.ErrBookingNotFound.
func (s *Service) ForBooking(ctx context.Context, by clubhouse.Actor, bookingID int64) ([]Payment, error) {
	if err := by.RequirePanel(); err != nil {
		return nil, err
	}
	if _, err := s.store.bookingClient(ctx, s.db, bookingID); err != nil {
		return nil, err
	}
	return s.store.list(ctx, s.db, Filter{ReservationID: bookingID, LatestFirst: true, Limit: 10_000})
}

// GetForBooking returns the payment with id of the booking with bookingID.
// Errors: ErrNotFound, also for another booking's payment.
func (s *Service) GetForBooking(ctx context.Context, by clubhouse.Actor, bookingID, id int64) (Payment, error) {
	if err := by.RequirePanel(); err != nil {
		return Payment{}, err
	}
	return s.getForBooking(ctx, bookingID, id)
}

// getForBooking is GetForBooking for an actor already judged.
func (s *Service) getForBooking(ctx context.Context, bookingID, id int64) (Payment, error) {
	p, err := s.store.get(ctx, s.db, id, false)
	if err != nil {
		return Payment{}, err
	}
	if p.ReservationID == nil || *p.ReservationID != bookingID {
		return Payment{}, ErrNotFound
	}
	return p, nil
}

// OfBookings returns the payments of each booking of ids, pending first,
// then latest first, in one query. Errors: clubhouse.ErrForbidden for an
// actor without the panel permission.
func (s *Service) OfBookings(ctx context.Context, by clubhouse.Actor, ids []int64) (map[int64][]Payment, error) {
	if err := by.RequirePanel(); err != nil {
		return nil, err
	}
	return s.ofBookings(ctx, ids)
}

// ofBookings is OfBookings for an actor already judged.
func (s *Service) ofBookings(ctx context.Context, ids []int64) (map[int64][]Payment, error) {
	out := make(map[int64][]Payment, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := s.store.list(ctx, s.db, Filter{ReservationIDs: ids, Limit: 100_000})
	if err != nil {
		return nil, err
	}
	for _, p := range rows {
		if p.ReservationID != nil {
			out[*p.ReservationID] = append(out[*p.ReservationID], p)
		}
	}
	return out, nil
}

// ClientPage returns page number page (from 1) of the payments of by's
// client, latest first, and their total count; none when by has no client
// record. Errors: ErrInvalidQuery for a page out of booking.AccountPaging.
func (s *Service) ClientPage(ctx context.Context, by clubhouse.Actor, page, limit int) ([]Payment, int, error) {
	limit, offset, err := booking.AccountPaging.Numbered(page, limit)
	if err != nil {
		return nil, 0, err
	}
	clientID, err := booking.ClientOf(ctx, s.db, by)
	if err != nil || clientID == 0 {
		return []Payment{}, 0, err
	}
	rows, err := s.store.list(ctx, s.db, Filter{ClientID: clientID, LatestFirst: true, Limit: limit, Offset: offset})
	if err != nil {
		return nil, 0, err
	}
	n, err := s.store.count(ctx, s.db, clientID)
	if err != nil {
		return nil, 0, fmt.Errorf("count payments: %w", err)
	}
	return rows, n, nil
}

// ClientGet returns the payment with id of by's client. Errors:
// ErrNotFound, ErrNotYours for another client's payment.
func (s *Service) ClientGet(ctx context.Context, by clubhouse.Actor, id int64) (Payment, error) {
	clientID, err := booking.ClientOf(ctx, s.db, by)
	if err != nil {
		return Payment{}, err
	}
	p, err := s.store.get(ctx, s.db, id, false)
	if err != nil {
		return Payment{}, err
	}
	if p.ClientID == nil || *p.ClientID != clientID {
		return Payment{}, ErrNotYours
	}
	return p, nil
}

// ClientCreate stores the payment a client reports for one of their
// bookings, with the photo of its receipt when rc is not nil. It is a
// claim, not a fact: it stays pending, status and gateway response are not
// the client's to set, and the transaction id the client gives is kept as
// ClaimedTransactionID, apart from the gateway's ids, so that a client can
// neither occupy a gateway id nor learn which exist. A gateway event
// naming the same booking, amount and id confirms the claim (see
// Reconcile), and so can staff (see Update).
//
// A claim may not exceed what the booking still owes (booking.Amount.Debt:
// its price after discounts, less its completed payments), and the
// booking's claims still pending count against it: together with them it
// claims at most the debt, and a booking holds at most MaxClaims pending
// claims. A claim failed or refunded no longer counts; a client who
// mistyped a transaction id asks staff to remove the claim (or the gateway
// fails it) before reporting the payment again. The booking's row stays
// locked from the check to the insert, so claims racing on one booking are
// judged one after the other. A receipt is stored once the booking is
// known to be the client's, before the claim; when the claim is refused
// it is removed again, so no object is left without a payment.
//
// Errors: as Create, ErrNotYours for another client's booking,
// booking.ErrBookingCancelled for a cancelled one, ErrClaimAboveDebt for an
// amount above what is owed, ErrClaimRepeated when the client reported the
// id for the booking before, ErrTooManyClaims, ErrClaimsAboveDebt for an
// amount above what the pending claims leave of the debt; with a receipt
// also ErrStorageOff and ErrStorageFailed.
func (s *Service) ClientCreate(ctx context.Context, by clubhouse.Actor, in Input, rc *Receipt) (Payment, error) {
	if s.bookings == nil {
		return Payment{}, errNoBookings
	}
	in.Status, in.GatewayResponse = clubhouse.Optional[bool]{}, clubhouse.Optional[string]{}
	var p Payment
	if err := in.apply(&p, "reservation_id", "payment_type_id", "amount", "transaction_id"); err != nil {
		return Payment{}, err
	}
	p.ClaimedTransactionID, p.TransactionID = p.TransactionID, nil
	if rc != nil {
		key, err := s.storeClaimReceipt(ctx, by, *p.ReservationID, rc)
		if err != nil {
			return Payment{}, err
		}
		p.Foto, p.FotoType = &key, &rc.ContentType
	}
	out, err := s.claim(ctx, by, p)
	if err != nil {
		if p.Foto != nil {
			s.removeObject(ctx, *p.Foto)
		}
		return Payment{}, fmt.Errorf("create payment: %w", err)
	}
	return out, nil
}

// claim stores p, a client's claim on one of their bookings, in one
// transaction that holds the booking's row from the checks to the insert,
// with its event (EventCreated) and its message.
func (s *Service) claim(ctx context.Context, by clubhouse.Actor, p Payment) (Payment, error) {
	var out Payment
	err := sqldb.Transact(ctx, s.db, func(tx *sqlx.Tx) error {
		clientID, err := booking.ClientOf(ctx, tx, by)
		if err != nil {
			return err
		}
		// The booking's row stays locked until the claim is stored, so that
		// staff cannot give the booking to another client in between, and
		// another claim on it waits until this one is judged and stored.
		owner, cancelled, err := s.store.bookingClientLocked(ctx, tx, *p.ReservationID)
		if err := claimOwner(err, clientID, owner); err != nil {
			return err
		}
		if cancelled {
			return booking.ErrBookingCancelled
		}
		if err := s.withinDebt(ctx, tx, *p.ReservationID, p.Amount, *p.ClaimedTransactionID); err != nil {
			return err
		}
		if out, err = s.store.insert(ctx, tx, p); err != nil {
			return err
		}
		if err := s.record(ctx, tx, by.Name(), nil, out); err != nil {
			return err
		}
		return s.Announce(ctx, tx, out)
	})
	return out, err
}

// withinDebt refuses a claim of amount reporting txid on the booking with
// id (locked by tx) above what the booking owes, a repeated txid, and a
// claim beyond the bound of the booking's pending claims (claims.admit).
func (s *Service) withinDebt(ctx context.Context, tx *sqlx.Tx, id int64, amount decimal.Decimal, txid string) error {
	a, err := s.bookings.AmountOf(ctx, tx, id)
	if err != nil {
		return err
	}
	if amount.Cmp(a.Debt()) > 0 {
		return ErrClaimAboveDebt.Withf("The booking owes %s (price %s, paid %s): a claim may be at most that, not %s.",
			a.Debt().StringFixed(2), a.FinalPrice.StringFixed(2), a.Paid.StringFixed(2), amount.StringFixed(2))
	}
	c, err := s.store.pendingClaims(ctx, tx, owner{id: id}, txid)
	if err != nil {
		return err
	}
	if c.Repeated {
		return ErrClaimRepeated
	}
	return c.admit("booking", a.Debt(), amount, 1)
}

// Delete removes the payment with id (of the booking with bookingID when
// not 0) and its receipt. The row is deleted, with its event
// (EventDeleted) and its message, and the object removed in one
// transaction that commits only when the object is gone, so no payment is
// left pointing to nothing.
// Errors: ErrNotFound, ErrStorageOff when the payment has a receipt and
// storage is not configured, ErrStorageFailed.
func (s *Service) Delete(ctx context.Context, by clubhouse.Actor, bookingID, id int64) error {
	if err := by.RequirePanel(); err != nil {
		return err
	}
	var p Payment
	err := sqldb.Transact(ctx, s.db, func(tx *sqlx.Tx) error {
		var err error
		p, err = s.store.get(ctx, tx, id, true)
		if err != nil {
			return err
		}
		if bookingID != 0 && (p.ReservationID == nil || *p.ReservationID != bookingID) {
			return ErrNotFound
		}
		if p.Foto != nil && s.objects == nil {
			return ErrStorageOff
		}
		if err := s.store.delete(ctx, tx, id); err != nil {
			return err
		}
		if err := s.recordDeleted(ctx, tx, by.Name(), p); err != nil {
			return err
		}
		if err := s.log.Announce(ctx, tx, updatedMessage(p, true)); err != nil {
			return err
		}
		if p.Foto != nil {
			if err := s.objects.Delete(ctx, *p.Foto); err != nil {
				return storageErr("delete receipt", err)
			}
		}
		return nil
	})
	return err
}

// TopicUpdated is the topic of the message that each change that creates,
// changes or deletes a payment (by staff, by a client's claim, by the
// webhook or the inbox) records in its transaction (Options.Log), which the
// realtime relay sends once it commits; its payload is an Updated.
const TopicUpdated = "payment:updated"

// Updated is the payload of payment:updated. It goes to the staff room and
// to the payment's owner (Payment.UserID); a ticket sale's payment has
// none, and its messages are the staff's.
type Updated struct {
	ID            int64  `json:"id"`
	ReservationID *int64 `json:"reservation_id"`
	EnrollmentID  *int64 `json:"enrollment_id,omitempty"`
	TicketSaleID  *int64 `json:"ticket_sale_id,omitempty"` // a ticket sale's payment, for the staff only
	Status        bool   `json:"status"`
	StatusDetail  string `json:"status_detail"`
	Deleted       bool   `json:"deleted,omitempty"`
	// Owner is the user (users.id) who owns the payment and receives the
	// message; 0: none.
	Owner int64 `json:"-"`
}

// Audience is the staff room and the Owner.
func (m Updated) Audience() clubhouse.Audience {
	a := clubhouse.Audience{Rooms: []string{clubhouse.RoomPanel}}
	if m.Owner != 0 {
		a.Users = []int64{m.Owner}
	}
	return a
}

// updatedMessage is the message payment:updated of p, read in the
// transaction that changed it (its owner with it), or deleted by it.
func updatedMessage(p Payment, deleted bool) eventlog.Message {
	m := Updated{ID: p.ID, ReservationID: p.ReservationID, EnrollmentID: p.EnrollmentID, TicketSaleID: p.TicketSaleID, Status: p.Status,
		StatusDetail: p.StatusDetail, Deleted: deleted}
	if p.UserID != nil {
		m.Owner = *p.UserID
	}
	return eventlog.Message{Topic: TopicUpdated, Payload: m}
}

// Announce records in tx payment:updated for each payment of ps, which tx
// created or changed, each read in tx after its change: the realtime relay
// sends them once tx commits. The Service's use cases that create or change
// a payment call it in their transactions (an enrollment's claims, through
// RecordClaims). Without a log it records nothing.
func (s *Service) Announce(ctx context.Context, tx *sqlx.Tx, ps ...Payment) error {
	msgs := make([]eventlog.Message, len(ps))
	for i, p := range ps {
		msgs[i] = updatedMessage(p, false)
	}
	return s.log.Announce(ctx, tx, msgs...)
}

// Stats are counts and sums of payments.
type Stats struct {
	Total           int             `db:"total"`
	Pending         int             `db:"pending"`
	Completed       int             `db:"completed"`
	Failed          int             `db:"failed"`
	Refunded        int             `db:"refunded"`
	TotalAmount     decimal.Decimal `db:"total_amount"`
	CompletedAmount decimal.Decimal `db:"completed_amount"`
}

// Open counts the payments whose status is false: not completed, whether
// still waiting (Pending), failed or refunded. It is the "pending" of the
// API's statistics (status false is pending there), where the gateway's
// own pending is Pending.
func (s Stats) Open() int { return s.Total - s.Completed }

// Stats counts every payment by status detail and sums their amounts.
func (s *Service) Stats(ctx context.Context, by clubhouse.Actor) (Stats, error) {
	if err := by.RequirePanel(); err != nil {
		return Stats{}, err
	}
	var st Stats
	err := s.db.GetContext(ctx, &st, `SELECT count(*) AS total,
		count(*) FILTER (WHERE status_detail = 'pending') AS pending,
		count(*) FILTER (WHERE status_detail = 'completed') AS completed,
		count(*) FILTER (WHERE status_detail = 'failed') AS failed,
		count(*) FILTER (WHERE status_detail = 'refunded') AS refunded,
		COALESCE(sum(amount), 0) AS total_amount,
		COALESCE(sum(amount - refunded_amount) FILTER (WHERE status), 0) AS completed_amount
		FROM payments`)
	if err != nil {
		return Stats{}, fmt.Errorf("payment stats: %w", err)
	}
	return st, nil
}

// recent returns the n payments made last.
func (s *Service) recent(ctx context.Context, n int) ([]Payment, error) {
	rows := []Payment{}
	if err := s.db.SelectContext(ctx, &rows, paymentSelect+` ORDER BY p.created_at DESC, p.id DESC LIMIT $1`, n); err != nil {
		return nil, fmt.Errorf("recent payments: %w", err)
	}
	return rows, nil
}
