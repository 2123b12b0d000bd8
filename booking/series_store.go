package booking

import (
	"context"
	"fmt"
	"time"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
)

var seriesErrors = sqldb.Mapping{
	"booking_series_court_id_fkey":            reservationErrors["reservations_court_id_fkey"],
	"booking_series_reservation_type_id_fkey": reservationErrors["reservations_reservation_type_id_fkey"],
	"booking_series_client_id_fkey":           reservationErrors["reservations_client_id_fkey"],
}

// seriesColumns reads duration as nanoseconds, a time.Duration.
const seriesColumns = `s.id, s.rrule, s.court_id, s.reservation_type_id, s.client_id, s.first_checking,
	(extract(epoch FROM s.duration) * 1000000000)::bigint AS duration, s.notes, s.created_by, s.created_at`

const seriesSelect = `SELECT ` + seriesColumns + ` FROM booking_series s`

type seriesStore struct{}

// checkRefs reports whether the court, client and status r names exist, so
// that a bad reference is a clean Invalid error rather than a foreign key
// violation that aborts the transaction. Errors: Invalid "invalid reference".
func (seriesStore) checkRefs(ctx context.Context, q sqldb.Queryer, r Reservation) error {
	var row struct {
		Court  bool `db:"court"`
		Client bool `db:"client"`
		Status bool `db:"status"`
	}
	err := q.GetContext(ctx, &row, `SELECT
		EXISTS (SELECT 1 FROM courts WHERE id = $1) AS court,
		($2::bigint IS NULL OR EXISTS (SELECT 1 FROM clients WHERE id = $2)) AS client,
		($3::bigint IS NULL OR EXISTS (SELECT 1 FROM reservation_statuses WHERE id = $3)) AS status`,
		r.CourtID, r.ClientID, r.ReservationStatusID)
	switch {
	case err != nil:
		return fmt.Errorf("check references: %w", err)
	case !row.Court:
		return reservationErrors["reservations_court_id_fkey"]
	case !row.Client:
		return reservationErrors["reservations_client_id_fkey"]
	case !row.Status:
		return reservationErrors["reservations_reservation_status_id_fkey"]
	}
	return nil
}

// insert stores s and returns it with its id and creation time.
// Errors: Invalid for a bad reference.
func (seriesStore) insert(ctx context.Context, q sqldb.Queryer, s Series) (Series, error) {
	var out Series
	err := q.GetContext(ctx, &out, `WITH s AS (
		INSERT INTO booking_series (rrule, court_id, reservation_type_id, client_id, first_checking, duration, notes, created_by)
		VALUES ($1, $2, $3, $4, $5, make_interval(secs => $6), $7, $8)
		RETURNING *)
		SELECT `+seriesColumns+` FROM s`,
		s.RRule, s.CourtID, s.ReservationTypeID, s.ClientID, s.FirstChecking, s.Duration.Seconds(), s.Notes, s.CreatedBy)
	if err != nil {
		return Series{}, sqldb.Map(err, nil, seriesErrors)
	}
	return out, nil
}

// get returns the series with id, locked against concurrent changes when
// lock. Errors: ErrSeriesNotFound.
func (seriesStore) get(ctx context.Context, q sqldb.Queryer, id int64, lock bool) (Series, error) {
	var s Series
	query := seriesSelect + ` WHERE s.id = $1`
	if lock {
		query += ` FOR UPDATE`
	}
	err := q.GetContext(ctx, &s, query, id)
	return s, sqldb.Map(err, ErrSeriesNotFound, nil)
}

// bookings returns the bookings of the series with id, earliest first.
func (seriesStore) bookings(ctx context.Context, q sqldb.Queryer, id int64) ([]Reservation, error) {
	rows := []Reservation{}
	if err := q.SelectContext(ctx, &rows, reservationSelect+` WHERE r.series_id = $1 ORDER BY r.checking, r.id`, id); err != nil {
		return nil, fmt.Errorf("list series bookings: %w", err)
	}
	return rows, nil
}

// deleteBookings deletes the bookings of the series with id whose checking
// is on or after from (all when from is nil), except the cancelled ones,
// which stay in history, and returns them (with the columns of
// deletedColumns). Errors: Conflict when payments still refer to one of
// them (a series' bookings are never held).
func (seriesStore) deleteBookings(ctx context.Context, q sqldb.Queryer, id int64, from *time.Time) ([]Reservation, error) {
	deleted := []Reservation{}
	err := q.SelectContext(ctx, &deleted, `DELETE FROM reservations r
		WHERE r.series_id = $1 AND ($2::timestamp IS NULL OR r.checking >= $2) AND r.cancelled_at IS NULL `+deletedColumns, id, from)
	if sqldb.Code(err) == "23503" {
		return nil, clubhouse.ErrInUse.Withf("A booking of the series still has payments; delete those first.")
	}
	if err != nil {
		return nil, fmt.Errorf("delete series bookings: %w", err)
	}
	return deleted, nil
}

// deleteIfEmpty deletes the series with id unless bookings still refer to it.
func (seriesStore) deleteIfEmpty(ctx context.Context, q sqldb.Queryer, id int64) error {
	_, err := q.ExecContext(ctx, `DELETE FROM booking_series s
		WHERE s.id = $1 AND NOT EXISTS (SELECT 1 FROM reservations r WHERE r.series_id = s.id)`, id)
	if err != nil {
		return fmt.Errorf("delete series: %w", err)
	}
	return nil
}
