package booking

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/eventlog"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
)

var reservationErrors = sqldb.Mapping{
	"reservations_no_overlap":                 ErrCourtTaken,
	"reservations_court_id_fkey":              clubhouse.ErrInvalidReference.Withf("court_id does not name an existing court."),
	"reservations_client_id_fkey":             clubhouse.ErrInvalidReference.Withf("client_id does not name an existing client."),
	"reservations_reservation_type_id_fkey":   clubhouse.ErrInvalidReference.Withf("reservation_type_id does not name an existing reservation type."),
	"reservations_reservation_status_id_fkey": clubhouse.ErrInvalidReference.Withf("reservation_status_id does not name an existing status."),
	"reservations_span_check":                 ErrCheckoutBeforeChecking,
	"reservations_grid_check":                 ErrOffGrid,
	"reservations_cancelled_frozen":           ErrBookingCancelled,
}

// takenOnDeadlock turns a deadlock between racing writers, which survived
// its retries, into a taken slot: the client may try again.
func takenOnDeadlock(err error) error {
	if sqldb.Code(err) == "40P01" {
		return ErrCourtTaken
	}
	return err
}

// mapReservationErr maps the errors of writes to reservations, the
// guard's refusal of a held booking's change included (ErrHeld). A deadlock
// stays a deadlock here, so that sqldb.Transact retries its transaction;
// takenOnDeadlock reports it once the retries are spent.
func mapReservationErr(err error) error {
	if held := mapHeld(err); held != err {
		return held
	}
	return sqldb.Map(err, ErrBookingNotFound, reservationErrors)
}

const reservationColumns = `r.id, r.operator_id, r.client_id, r.court_id, r.reservation_type_id, r.reservation_status_id,
	r.checking, r.checkout, r.notes, r.series_id, r.coupon_id, r.contract_id, r.created_at, r.updated_at,
	r.rules_overridden_by, r.rules_overridden_at, r.cancelled_by, r.cancelled_at, r.no_show_by, r.no_show_at,
	r.checked_in_by, r.checked_in_at, r.held_by, r.holder_id, r.hold_expires_at, r.released_unpaid`

// reservationSelect reads bookings with their names (reservationNames)
// from reservationFrom.
const reservationSelect = `SELECT ` + reservationColumns + `, ` + reservationNames + ` ` + reservationFrom

// reservationNames are the names of what a booking refers to.
const reservationNames = `co.name AS court_name, co.price AS court_base_price, ct.name AS court_type_name, rt.name AS reservation_type_name,
	st.name AS status_name, cl.first_name AS client_first_name, cl.last_name AS client_last_name, cl.email AS client_email,
	cl.phone AS client_phone, cl.document AS client_document, cl.address AS client_address, cl.user_id AS client_user_id,
	cp.code AS coupon_code, cn.name AS contract_name,
	COALESCE(cp.kind, cn.kind) AS discount_kind, COALESCE(cp.value, cn.value) AS discount_value`

// reservationFrom joins what reservationNames read to the bookings r.
const reservationFrom = `FROM reservations r
	JOIN courts co ON co.id = r.court_id
	JOIN court_types ct ON ct.id = co.court_type_id
	JOIN reservation_types rt ON rt.id = r.reservation_type_id
	LEFT JOIN reservation_statuses st ON st.id = r.reservation_status_id
	LEFT JOIN clients cl ON cl.id = r.client_id
	LEFT JOIN coupons cp ON cp.id = r.coupon_id
	LEFT JOIN contracts cn ON cn.id = r.contract_id`

// BookingFilter selects bookings for the admin lists. Zero fields match all.
type BookingFilter struct {
	ClientID   int64
	OperatorID int64 // only bookings this user made
	CourtID    int64
	From, To   *time.Time // wall dates: checking on or after From, before To+1 day
	Active     bool       // only bookings not over yet at the club's wall time now
	ActiveAt   *time.Time // only bookings whose checkout is after this wall time (Active sets it)
	Confirmed  *bool      // true: a status other than pending; false: pending or none
	// EndedAt keeps only bookings cancelled or whose checkout is at or
	// before this wall time: those over at that time.
	EndedAt *time.Time
	// WithCancelled lists cancelled bookings too; without it, only the
	// bookings that hold their court.
	WithCancelled bool
	// Soonest lists the earliest first; without it, the latest first.
	Soonest bool
	Limit   int
	Offset  int
}

type reservationStore struct{}

// reservationType is what a booking needs to know of its reservation type.
type reservationType struct {
	Long    bool          `db:"long_bookings"` // bookings of the type may exceed 24 hours
	Gestion int           `db:"gestion"`       // GestionClass: a type of training classes
	Held    bool          `db:"is_event"`      // kept for held bookings (Reserve): no plain booking uses it
	Pending sql.NullInt64 `db:"pending"`       // the club's pending status, if it has one
}

// typeOf returns the reservation type with typeID, with the club's pending
// status. Errors: the invalid reference of an unknown type.
func (reservationStore) typeOf(ctx context.Context, q sqldb.Queryer, typeID int64) (reservationType, error) {
	var t reservationType
	err := q.GetContext(ctx, &t, `SELECT rt.long_bookings, rt.gestion, rt.is_event,
		(SELECT id FROM reservation_statuses WHERE lower(name) = 'pending' ORDER BY id LIMIT 1) AS pending
		FROM reservation_types rt WHERE rt.id = $1`, typeID)
	if errors.Is(err, sql.ErrNoRows) {
		return reservationType{}, reservationErrors["reservations_reservation_type_id_fkey"]
	}
	return t, err
}

// insert stores r unless its slot is taken; without a status, r gets the
// club's pending status (none when the club has none). ON CONFLICT DO NOTHING
// makes a racing insert wait for the other and then skip, where a plain
// INSERT into an exclusion constraint can deadlock. r's hold (HeldBy,
// HolderID) is stored with it: Bookings.Reserve sets it, no other caller.
//
// The type is read in the same statement, to spare a round trip per
// booking: an unknown type inserts nothing and reads no row, and a type
// kept for held bookings (is_event) inserts nothing unless r is held: a
// plain booking of such a type would be a holder's booking without its
// holder. The type is judged before PostgreSQL looks for a conflicting
// booking, as by typeOf. At most one status is named pending, in any case
// (the unique index on lower(name)), so the lookup needs no order and no
// limit, which would cost a sort per insert. The type's row is read with
// the key-share lock the foreign key takes anyway, so a concurrent change
// of the type into one kept for held bookings (which migration 00023
// refuses while plain bookings use it) is waited for and its new flag
// read.
//
// The insert returns only what the database decides: the id, the status
// and the creation time, which is also updated_at (both default to now(),
// the transaction's time), and the login of r's client, the booking's
// owner for its messages. The other columns are r's own; its span, which
// the callers have checked to be on the grid (Span.Check), is stored
// exactly as the Wall of each end. The same statement writes e, the
// booking's entry "created" in its history (see History), and with a log
// its event (EventCreated, with what the database decides merged into the
// payload: decided), and when announce is set its realtime messages
// (relayCreated; its audience, the client's login, read once for both:
// cl), so that the booking, its entry, its event and its messages commit
// together even outside a transaction. It runs through sqldb.QueryRow, on
// the pgx pool directly when q is one. Errors: ErrCourtTaken, ErrHeldType,
// invalid references.
func (reservationStore) insert(ctx context.Context, q sqldb.Queryer, r Reservation, e entry, log *eventlog.Log, announce bool) (Reservation, error) {
	out := Reservation{OperatorID: r.OperatorID, ClientID: r.ClientID, CourtID: r.CourtID, ReservationTypeID: r.ReservationTypeID,
		Checking: Wall(r.Checking), Checkout: Wall(r.Checkout), Notes: r.Notes, SeriesID: r.SeriesID,
		RulesOverriddenBy: r.RulesOverriddenBy, RulesOverriddenAt: r.RulesOverriddenAt, HeldBy: r.HeldBy, HolderID: r.HolderID}
	var heldType bool
	var id, status *int64
	var created *time.Time
	e.action, e.to, e.overridden = ActionCreated, placed(out), r.RulesOverriddenBy != nil
	ph, hist := e.values(14)
	args := append([]any{r.OperatorID, r.ClientID, r.CourtID, r.ReservationTypeID, r.ReservationStatusID, r.Checking, r.Checkout,
		r.Notes, r.SeriesID, r.RulesOverriddenBy, r.RulesOverriddenAt, r.HeldBy, r.HolderID}, hist...)
	ev, err := log.Encode(eventlog.Entry{Type: EventCreated, Actor: e.by, Payload: out}, decided...)
	if err != nil {
		return Reservation{}, err
	}
	if ev != nil && announce {
		if err := relayCreated(ev, out); err != nil {
			return Reservation{}, err
		}
	}
	var record string
	if ev != nil {
		insert, more := ev.Insert(len(args)+1, "ins")
		record, args = `, ev AS (`+insert+`)`, append(args, more...)
	}
	err = sqldb.QueryRow(ctx, q, `WITH t AS (SELECT id, is_event FROM reservation_types WHERE id = $4 FOR KEY SHARE),
		cl AS (SELECT user_id FROM clients WHERE id = $2::bigint),
		ins AS (INSERT INTO reservations (operator_id, client_id, court_id, reservation_type_id,
			reservation_status_id, checking, checkout, notes, series_id, rules_overridden_by, rules_overridden_at, held_by, holder_id)
			SELECT $1::bigint, $2::bigint, $3::bigint, t.id,
				COALESCE($5::bigint, (SELECT id FROM reservation_statuses WHERE lower(name) = 'pending')),
				$6::timestamp, $7::timestamp, $8::text, $9::bigint, $10::text, $11::timestamptz, $12::text, $13::bigint
			FROM t WHERE $12::text IS NOT NULL OR NOT t.is_event
			ON CONFLICT DO NOTHING
			RETURNING id, reservation_status_id, created_at),
		hist AS (INSERT INTO reservation_history (reservation_id, `+historyColumns+`) SELECT ins.id, `+ph+` FROM ins)`+record+`
		SELECT t.is_event, ins.id, ins.reservation_status_id, ins.created_at,
			(SELECT user_id FROM cl) FROM t LEFT JOIN ins ON true`, args...,
	).Scan(&heldType, &id, &status, &created, &out.ClientUserID)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return Reservation{}, reservationErrors["reservations_reservation_type_id_fkey"]
	case err != nil:
		return Reservation{}, mapReservationErr(err)
	case heldType && r.HeldBy == nil:
		return Reservation{}, ErrHeldType
	case id == nil:
		return Reservation{}, ErrCourtTaken
	}
	out.ID, out.ReservationStatusID, out.CreatedAt, out.UpdatedAt = *id, status, *created, *created
	return out, nil
}

func (reservationStore) update(ctx context.Context, q sqldb.Queryer, r Reservation) error {
	res, err := q.ExecContext(ctx, `UPDATE reservations SET client_id = $2, court_id = $3, reservation_type_id = $4,
		reservation_status_id = $5, checking = $6, checkout = $7, notes = $8, rules_overridden_by = $9, rules_overridden_at = $10,
		updated_at = now() WHERE id = $1`,
		r.ID, r.ClientID, r.CourtID, r.ReservationTypeID, r.ReservationStatusID, r.Checking, r.Checkout, r.Notes,
		r.RulesOverriddenBy, r.RulesOverriddenAt)
	if err != nil {
		return mapReservationErr(err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrBookingNotFound
	}
	return nil
}

func (reservationStore) get(ctx context.Context, q sqldb.Queryer, id int64, lock bool) (Reservation, error) {
	var r Reservation
	query := reservationSelect + ` WHERE r.id = $1`
	if lock {
		query += ` FOR UPDATE OF r`
	}
	err := q.GetContext(ctx, &r, query, id)
	return r, sqldb.Map(err, ErrBookingNotFound, nil)
}

func (reservationStore) list(ctx context.Context, q sqldb.Queryer, f BookingFilter) ([]Reservation, error) {
	where, args := f.where()
	args = append(args, f.Limit, f.Offset)
	order := "DESC"
	if f.Soonest {
		order = "ASC"
	}
	query := reservationSelect + where + fmt.Sprintf(" ORDER BY r.checking %s, r.id %[1]s LIMIT $%d OFFSET $%d", order, len(args)-1, len(args))
	rows := []Reservation{}
	if err := q.SelectContext(ctx, &rows, query, args...); err != nil {
		return nil, fmt.Errorf("list bookings: %w", err)
	}
	return rows, nil
}

// count returns how many bookings match f, whatever its page.
func (reservationStore) count(ctx context.Context, q sqldb.Queryer, f BookingFilter) (int, error) {
	where, args := f.where()
	var n int
	if err := q.GetContext(ctx, &n, `SELECT count(*) FROM reservations r LEFT JOIN reservation_statuses st ON st.id = r.reservation_status_id`+
		where, args...); err != nil {
		return 0, fmt.Errorf("count bookings: %w", err)
	}
	return n, nil
}

// where is the WHERE clause of f (empty for none) and its arguments, over
// reservations r and their status st.
func (f BookingFilter) where() (string, []any) {
	var conds []string
	var args []any
	add := func(cond string, v any) {
		args = append(args, v)
		conds = append(conds, fmt.Sprintf(cond, len(args)))
	}
	if !f.WithCancelled {
		conds = append(conds, "r.cancelled_at IS NULL")
	}
	if f.ClientID != 0 {
		add("r.client_id = $%d", f.ClientID)
	}
	if f.OperatorID != 0 {
		add("r.operator_id = $%d", f.OperatorID)
	}
	if f.CourtID != 0 {
		add("r.court_id = $%d", f.CourtID)
	}
	if f.From != nil {
		add("r.checking >= $%d", *f.From)
	}
	if f.To != nil {
		add("r.checking < $%d", f.To.AddDate(0, 0, 1))
	}
	if f.ActiveAt != nil {
		add("r.checkout > $%d", *f.ActiveAt)
	}
	if f.EndedAt != nil {
		add("(r.cancelled_at IS NOT NULL OR r.checkout <= $%d)", *f.EndedAt)
	}
	if f.Confirmed != nil {
		pending := "(r.reservation_status_id IS NULL OR lower(st.name) = 'pending')"
		if *f.Confirmed {
			conds = append(conds, "NOT "+pending)
		} else {
			conds = append(conds, pending)
		}
	}
	if len(conds) == 0 {
		return "", nil
	}
	return " WHERE " + strings.Join(conds, " AND "), args
}

// conflict returns the id of a booking of court that overlaps s, other than
// except, or 0.
func (reservationStore) conflict(ctx context.Context, q sqldb.Queryer, court int64, s Span, except int64) (int64, error) {
	var id int64
	err := q.GetContext(ctx, &id, `SELECT id FROM reservations
		WHERE court_id = $1 AND tsrange(checking, checkout, '[)') && tsrange($2, $3, '[)') AND id <> $4
		AND cancelled_at IS NULL LIMIT 1`,
		court, s.Start, s.End, except)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	return id, err
}

// setHold makes the booking with id await its payment until until.
func (reservationStore) setHold(ctx context.Context, q sqldb.Queryer, id int64, until time.Time) error {
	_, err := q.ExecContext(ctx, `UPDATE reservations SET hold_expires_at = $2 WHERE id = $1`, id, until)
	return err
}

// expiredHolds locks, in tx, up to limit bookings whose payment hold
// expired at before or earlier, the oldest first, skipping those another
// transaction holds (a payment completing them), and returns their ids.
func (reservationStore) expiredHolds(ctx context.Context, tx sqldb.Queryer, before time.Time, limit int) ([]int64, error) {
	var ids []int64
	err := tx.SelectContext(ctx, &ids, `SELECT id FROM reservations WHERE hold_expires_at <= $1
		ORDER BY hold_expires_at, id LIMIT $2 FOR UPDATE SKIP LOCKED`, before, limit)
	return ids, err
}

// holdUntil makes the booking with id, when it awaits its payment, await
// it until at at the latest.
func (reservationStore) holdUntil(ctx context.Context, q sqldb.Queryer, id int64, at time.Time) error {
	_, err := q.ExecContext(ctx, `UPDATE reservations SET hold_expires_at = LEAST(hold_expires_at, $2)
		WHERE id = $1 AND hold_expires_at IS NOT NULL`, id, at)
	return err
}

// heldUntil returns, when every booking of court that overlaps s (but the
// one with id except) awaits its payment, the latest of their holds; nil
// when one does not, or none overlaps.
func (reservationStore) heldUntil(ctx context.Context, q sqldb.Queryer, court int64, s Span, except int64) (*time.Time, error) {
	var until *time.Time
	err := q.GetContext(ctx, &until, `SELECT CASE WHEN bool_and(hold_expires_at IS NOT NULL) THEN max(hold_expires_at) END
		FROM reservations WHERE court_id = $1 AND tsrange(checking, checkout, '[)') && tsrange($2, $3, '[)') AND id <> $4
		AND cancelled_at IS NULL`, court, s.Start, s.End, except)
	return until, err
}

// overlapping returns the bookings of court (0: of every court) that
// overlap s, for the conflict checker.
func (reservationStore) overlapping(ctx context.Context, q sqldb.Queryer, court int64, s Span) ([]Booked, error) {
	var rows []struct {
		ID       int64     `db:"id"`
		CourtID  int64     `db:"court_id"`
		Checking time.Time `db:"checking"`
		Checkout time.Time `db:"checkout"`
	}
	err := q.SelectContext(ctx, &rows, `SELECT id, court_id, checking, checkout FROM reservations
		WHERE ($1::bigint = 0 OR court_id = $1) AND tsrange(checking, checkout, '[)') && tsrange($2, $3, '[)')
		AND cancelled_at IS NULL`,
		court, s.Start, s.End)
	if err != nil {
		return nil, err
	}
	out := make([]Booked, len(rows))
	for i, r := range rows {
		out[i] = Booked{ID: r.ID, CourtID: r.CourtID, Span: Span{Start: r.Checking, End: r.Checkout}}
	}
	return out, nil
}

// deletedColumns are what a delete returns of each booking it removed:
// the booking, as its event tells of it, and its owner, whom its messages
// reach (see Changes.freed).
const deletedColumns = `RETURNING ` + reservationColumns + `,
	(SELECT user_id FROM clients WHERE id = r.client_id) AS client_user_id`

// delete deletes the bookings with ids and returns them, with the
// columns of deletedColumns; with a hold h, only those h holds (the caller
// acts as h, see asHolder). Errors: ErrHeld when a booking is held by
// another than h, errBookingInUse.
func (reservationStore) delete(ctx context.Context, q sqldb.Queryer, ids []int64, h *Hold) ([]Reservation, error) {
	deleted := []Reservation{}
	var kind *string
	var holder *int64
	if h != nil {
		kind, holder = &h.Kind, &h.ID
	}
	err := q.SelectContext(ctx, &deleted, `DELETE FROM reservations r WHERE r.id = ANY($1)
		AND ($2::text IS NULL OR (r.held_by = $2 AND r.holder_id = $3)) `+deletedColumns, ids, kind, holder)
	if sqldb.Code(err) == "23503" {
		return nil, errBookingInUse
	}
	return deleted, mapHeld(err)
}

// errBookingInUse is returned when a deleted booking is still referenced.
var errBookingInUse = clubhouse.ErrInUse.Withf("A booking still has payments; delete those first.")

// setCancelled records that who cancelled the booking with id at at;
// unpaid, that it was released because it was not paid in time.
// Errors: ErrHeld when the booking is held and the caller does not act as
// its holder.
func (reservationStore) setCancelled(ctx context.Context, q sqldb.Queryer, id int64, who string, at time.Time, unpaid bool) error {
	_, err := q.ExecContext(ctx, `UPDATE reservations SET cancelled_by = $2, cancelled_at = $3, hold_expires_at = NULL,
		released_unpaid = $4, updated_at = now() WHERE id = $1`, id, who, at, unpaid)
	if held := mapHeld(err); held != err {
		return held
	}
	return sqldb.Map(err, ErrBookingNotFound, nil)
}

// unhold clears the hold of the bookings with ids that h holds (the
// caller acts as h, see asHolder).
func (reservationStore) unhold(ctx context.Context, q sqldb.Queryer, h Hold, ids []int64) error {
	_, err := q.ExecContext(ctx, `UPDATE reservations SET held_by = NULL, holder_id = NULL
		WHERE id = ANY($1) AND held_by = $2 AND holder_id = $3`, ids, h.Kind, h.ID)
	return sqldb.Map(err, nil, nil)
}

// setNoShow records that who marked the booking with id a no-show at at,
// or clears the mark when who is nil. Errors: ErrCheckedIn for a booking
// checked in, ErrHeld.
func (reservationStore) setNoShow(ctx context.Context, q sqldb.Queryer, id int64, who *string, at *time.Time) error {
	_, err := q.ExecContext(ctx, `UPDATE reservations SET no_show_by = $2, no_show_at = $3, updated_at = now() WHERE id = $1`,
		id, who, at)
	return mapMark(err, ErrCheckedIn)
}

// setCheckedIn records that who checked the booking with id in at at, or
// clears the check-in when who is nil. A check-in ends the booking's wait
// for its payment: the desk admitted its players, and collects what they
// owe. Errors: ErrNoShowMarked for a booking marked a no-show,
// ErrBookingCancelled, ErrHeld.
func (reservationStore) setCheckedIn(ctx context.Context, q sqldb.Queryer, id int64, who *string, at *time.Time) error {
	_, err := q.ExecContext(ctx, `UPDATE reservations SET checked_in_by = $2, checked_in_at = $3,
		hold_expires_at = CASE WHEN $3::timestamptz IS NULL THEN hold_expires_at END, updated_at = now() WHERE id = $1`,
		id, who, at)
	return mapMark(err, ErrNoShowMarked)
}

// mapMark maps the errors of a no-show mark or a check-in, which the
// database refuses together with other (the refusal of the one, given the
// other: reservations_checked_in_no_show).
func mapMark(err error, other *clubhouse.Error) error {
	if held := mapHeld(err); held != err {
		return held
	}
	return sqldb.Map(err, ErrBookingNotFound, sqldb.Mapping{"reservations_checked_in_no_show": other,
		"reservations_cancelled_frozen": ErrBookingCancelled})
}

// getLive is get of the booking with id locked for a change, which a
// cancelled booking refuses, and a held one. Errors: ErrBookingNotFound,
// ErrBookingCancelled, ErrHeld.
func (s reservationStore) getLive(ctx context.Context, q sqldb.Queryer, id int64) (Reservation, error) {
	r, err := s.get(ctx, q, id, true)
	switch {
	case err != nil:
		return Reservation{}, err
	case r.CancelledAt != nil:
		return Reservation{}, ErrBookingCancelled
	}
	return r, free(r)
}

func (reservationStore) courtExists(ctx context.Context, q sqldb.Queryer, id int64) (Court, error) {
	return get[Court](ctx, q, courts, id)
}

// paid sums the completed payments of each booking of ids, in one query;
// a booking without any is left out.
func (reservationStore) paid(ctx context.Context, q sqldb.Queryer, ids []int64) (map[int64]decimal.Decimal, error) {
	var rows []struct {
		ID   int64           `db:"reservation_id"`
		Paid decimal.Decimal `db:"paid"`
	}
	err := q.SelectContext(ctx, &rows, `SELECT reservation_id, sum(amount - refunded_amount) AS paid FROM payments
		WHERE reservation_id = ANY($1) AND status GROUP BY reservation_id`, ids)
	if err != nil {
		return nil, fmt.Errorf("paid: %w", err)
	}
	out := make(map[int64]decimal.Decimal, len(rows))
	for _, r := range rows {
		out[r.ID] = r.Paid
	}
	return out, nil
}

// desk returns the bookings not cancelled that overlap s, by court and
// start, each with the sum of its completed payments, in one query.
func (reservationStore) desk(ctx context.Context, q sqldb.Queryer, s Span) ([]paidReservation, error) {
	rows := []paidReservation{}
	err := q.SelectContext(ctx, &rows, `SELECT `+reservationColumns+`, `+reservationNames+`, pay.paid `+reservationFrom+`
		CROSS JOIN LATERAL (SELECT COALESCE(sum(p.amount - p.refunded_amount), 0) AS paid FROM payments p
			WHERE p.reservation_id = r.id AND p.status) pay
		WHERE tsrange(r.checking, r.checkout, '[)') && tsrange($1, $2, '[)') AND r.cancelled_at IS NULL
		ORDER BY r.court_id, r.checking, r.id`, s.Start, s.End)
	return rows, err
}

// paidReservation is a booking with the sum of its completed payments.
type paidReservation struct {
	Reservation
	Paid decimal.Decimal `db:"paid"`
}
