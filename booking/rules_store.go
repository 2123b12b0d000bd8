package booking

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/pricing"
)

// rulesStore holds the SQL of the club's rules (migration 00018).
type rulesStore struct{}

var rulesErrors = sqldb.Mapping{
	"reservation_type_rules_reservation_type_id_fkey": clubhouse.ErrInvalidReference.Withf("types: a reservation_type_id does not name an existing reservation type."),
}

// version returns the count of changes of the rules.
func (rulesStore) version(ctx context.Context, q sqldb.Queryer) (int64, error) {
	var v int64
	err := q.GetContext(ctx, &v, `SELECT version FROM club_rules`)
	return v, err
}

// get reads the rules and their version; lock keeps them locked until the
// end of q, a transaction that changes them.
func (rulesStore) get(ctx context.Context, q sqldb.Queryer, lock bool) (Rules, int64, error) {
	var row struct {
		AdvanceDays         int        `db:"advance_days"`
		MinNoticeMinutes    int        `db:"min_notice_minutes"`
		MaxDurationMinutes  int        `db:"max_duration_minutes"`
		MaxFutureBookings   int        `db:"max_future_bookings"`
		CancelWindowMinutes int        `db:"cancel_window_minutes"`
		PaymentRequired     bool       `db:"payment_required"`
		PaymentHoldMinutes  int        `db:"payment_hold_minutes"`
		Version             int64      `db:"version"`
		UpdatedAt           *time.Time `db:"updated_at"`
		UpdatedBy           *string    `db:"updated_by"`
	}
	query := `SELECT advance_days, min_notice_minutes, max_duration_minutes, max_future_bookings,
		cancel_window_minutes, payment_required, payment_hold_minutes, version, updated_at, updated_by FROM club_rules`
	if lock {
		query += ` FOR UPDATE`
	}
	if err := q.GetContext(ctx, &row, query); err != nil {
		return Rules{}, 0, fmt.Errorf("club rules: %w", err)
	}
	r := Rules{AdvanceDays: row.AdvanceDays, MinNoticeMinutes: row.MinNoticeMinutes, MaxDurationMinutes: row.MaxDurationMinutes,
		MaxFutureBookings: row.MaxFutureBookings, CancelWindowMinutes: row.CancelWindowMinutes,
		PaymentRequired: row.PaymentRequired, PaymentHoldMinutes: row.PaymentHoldMinutes, UpdatedAt: row.UpdatedAt,
		UpdatedBy: row.UpdatedBy, Hours: []WeekHours{}, Exceptions: []DateHours{}, Types: []TypeRules{}}
	var hours []struct {
		Weekday int `db:"weekday"`
		Opens   int `db:"opens"`
		Closes  int `db:"closes"`
	}
	if err := q.SelectContext(ctx, &hours, `SELECT weekday, opens, closes FROM opening_hours ORDER BY weekday, opens`); err != nil {
		return Rules{}, 0, fmt.Errorf("opening hours: %w", err)
	}
	for _, h := range hours {
		r.Hours = append(r.Hours, WeekHours{Weekday: h.Weekday, Interval: Interval{pricing.TimeOfDay(h.Opens), pricing.TimeOfDay(h.Closes)}})
	}
	var dates []struct {
		Date   time.Time `db:"date"`
		Note   *string   `db:"note"`
		Opens  *int      `db:"opens"`
		Closes *int      `db:"closes"`
	}
	if err := q.SelectContext(ctx, &dates, `SELECT x.date, x.note, h.opens, h.closes
		FROM opening_exceptions x LEFT JOIN opening_exception_hours h ON h.date = x.date ORDER BY x.date, h.opens`); err != nil {
		return Rules{}, 0, fmt.Errorf("opening exceptions: %w", err)
	}
	for _, d := range dates {
		if n := len(r.Exceptions); n == 0 || !r.Exceptions[n-1].Date.Equal(d.Date) {
			r.Exceptions = append(r.Exceptions, DateHours{Date: d.Date, Note: d.Note, Hours: []Interval{}})
		}
		if d.Opens != nil && d.Closes != nil {
			x := &r.Exceptions[len(r.Exceptions)-1]
			x.Hours = append(x.Hours, Interval{pricing.TimeOfDay(*d.Opens), pricing.TimeOfDay(*d.Closes)})
		}
	}
	if err := q.SelectContext(ctx, &r.Types, `SELECT t.reservation_type_id, rt.name AS reservation_type_name, t.staff_only, t.advance_days,
			t.min_notice_minutes, t.max_duration_minutes, t.cancel_window_minutes
		FROM reservation_type_rules t JOIN reservation_types rt ON rt.id = t.reservation_type_id ORDER BY t.reservation_type_id`); err != nil {
		return Rules{}, 0, fmt.Errorf("reservation type rules: %w", err)
	}
	return r, row.Version, nil
}

// set replaces the rules with r in tx, stamped by by at now.
func (rulesStore) set(ctx context.Context, tx *sqlx.Tx, r Rules, by string, now time.Time) error {
	if _, err := tx.ExecContext(ctx, `UPDATE club_rules SET advance_days = $1, min_notice_minutes = $2, max_duration_minutes = $3,
		max_future_bookings = $4, cancel_window_minutes = $5, payment_required = $8, payment_hold_minutes = $9,
		version = version + 1, updated_at = $6, updated_by = $7`,
		r.AdvanceDays, r.MinNoticeMinutes, r.MaxDurationMinutes, r.MaxFutureBookings, r.CancelWindowMinutes, now, by,
		r.PaymentRequired, r.PaymentHoldMinutes); err != nil {
		return sqldb.Map(err, nil, rulesErrors)
	}
	for _, stmt := range []string{`DELETE FROM opening_hours`, `DELETE FROM opening_exceptions`, `DELETE FROM reservation_type_rules`} {
		if _, err := tx.ExecContext(ctx, stmt); err != nil {
			return err
		}
	}
	var wd, opens, closes []int
	for _, h := range r.Hours {
		wd, opens, closes = append(wd, h.Weekday), append(opens, int(h.Opens)), append(closes, int(h.Closes))
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO opening_hours (weekday, opens, closes)
		SELECT * FROM unnest($1::smallint[], $2::smallint[], $3::smallint[])`, wd, opens, closes); err != nil {
		return sqldb.Map(err, nil, rulesErrors)
	}
	var dates []time.Time
	var notes []*string
	var hdates []time.Time
	opens, closes = nil, nil
	for _, x := range r.Exceptions {
		d := time.Date(x.Date.Year(), x.Date.Month(), x.Date.Day(), 0, 0, 0, 0, time.UTC)
		dates, notes = append(dates, d), append(notes, x.Note)
		for _, iv := range x.Hours {
			hdates, opens, closes = append(hdates, d), append(opens, int(iv.Opens)), append(closes, int(iv.Closes))
		}
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO opening_exceptions (date, note) SELECT * FROM unnest($1::date[], $2::text[])`,
		dates, notes); err != nil {
		return sqldb.Map(err, nil, rulesErrors)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO opening_exception_hours (date, opens, closes)
		SELECT * FROM unnest($1::date[], $2::smallint[], $3::smallint[])`, hdates, opens, closes); err != nil {
		return sqldb.Map(err, nil, rulesErrors)
	}
	for _, t := range r.Types {
		if _, err := tx.ExecContext(ctx, `INSERT INTO reservation_type_rules (reservation_type_id, staff_only, advance_days,
			min_notice_minutes, max_duration_minutes, cancel_window_minutes) VALUES ($1, $2, $3, $4, $5, $6)`,
			t.ReservationTypeID, t.StaffOnly, t.AdvanceDays, t.MinNoticeMinutes, t.MaxDurationMinutes, t.CancelWindowMinutes); err != nil {
			return sqldb.Map(err, nil, rulesErrors)
		}
	}
	return nil
}

// futureBookings counts the bookings of the client with id that have not
// started at now and are not cancelled (as Rules.Check sees it), leaving out the booking with id
// except. With lock, in a transaction, it first locks the client's row
// until the end, so that a client's bookings are counted and made one at a
// time: the count is a statement of its own, whose snapshot (READ
// COMMITTED) holds every booking committed before the lock was granted.
func (rulesStore) futureBookings(ctx context.Context, q sqldb.Queryer, clientID int64, now time.Time, except int64, lock bool) (int, error) {
	if lock {
		if _, err := q.ExecContext(ctx, `SELECT 1 FROM clients WHERE id = $1 FOR UPDATE`, clientID); err != nil {
			return 0, err
		}
	}
	var n int
	err := q.GetContext(ctx, &n, `SELECT count(*) FROM reservations
		WHERE client_id = $1 AND checking >= $2 AND id <> $3 AND cancelled_at IS NULL`,
		clientID, now, except)
	return n, err
}

// clientExists reports whether a client with id exists.
func (rulesStore) clientExists(ctx context.Context, q sqldb.Queryer, id int64) (bool, error) {
	var ok bool
	err := q.GetContext(ctx, &ok, `SELECT EXISTS (SELECT 1 FROM clients WHERE id = $1)`, id)
	return ok, err
}
