package booking

import (
	"context"
	"fmt"
	"strings"

	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
)

// ErrTariffNotFound is returned for an unknown tariff id.
var ErrTariffNotFound = clubhouse.Errorf(clubhouse.NotFound, "not found", "The tariff does not exist.")

var tariffErrors = sqldb.Mapping{
	"tariffs_court_id_fkey":            clubhouse.ErrInvalidReference.Withf("court_id does not name an existing court."),
	"tariffs_reservation_type_id_fkey": clubhouse.ErrInvalidReference.Withf("reservation_type_id does not name an existing reservation type."),
	"tariffs_dates_check":              clubhouse.ErrInvalidDate.Withf("end_date must not be before start_date."),
}

const tariffSelect = `SELECT id, court_id, reservation_type_id, rrule, start_date, end_date,
	to_char(start_time, 'HH24:MI:SS') AS start_time, to_char(end_time, 'HH24:MI:SS') AS end_time,
	adjustment, description, is_active, created_at, updated_at FROM tariffs`

// TariffFilter selects tariffs: a description search, a court and a type
// (0: any).
type TariffFilter struct {
	Search            string
	CourtID           int64
	ReservationTypeID int64
}

type tariffStore struct{}

func (tariffStore) list(ctx context.Context, q sqldb.Queryer, f TariffFilter) ([]Tariff, error) {
	var conds []string
	var args []any
	if s := strings.TrimSpace(f.Search); s != "" {
		args = append(args, sqldb.EscapeLike(s))
		conds = append(conds, fmt.Sprintf("description ILIKE '%%' || $%d || '%%'", len(args)))
	}
	if f.CourtID != 0 {
		args = append(args, f.CourtID)
		conds = append(conds, fmt.Sprintf("court_id = $%d", len(args)))
	}
	if f.ReservationTypeID != 0 {
		args = append(args, f.ReservationTypeID)
		conds = append(conds, fmt.Sprintf("reservation_type_id = $%d", len(args)))
	}
	query := tariffSelect
	if len(conds) > 0 {
		query += " WHERE " + strings.Join(conds, " AND ")
	}
	rows := []Tariff{}
	if err := q.SelectContext(ctx, &rows, query+" ORDER BY id", args...); err != nil {
		return nil, fmt.Errorf("list tariffs: %w", err)
	}
	return rows, nil
}

func (tariffStore) get(ctx context.Context, q sqldb.Queryer, id int64, lock bool) (Tariff, error) {
	var t Tariff
	query := tariffSelect + " WHERE id = $1"
	if lock {
		query += " FOR UPDATE"
	}
	err := q.GetContext(ctx, &t, query, id)
	return t, sqldb.Map(err, ErrTariffNotFound, nil)
}

// countLocked counts the stored tariffs under a transaction-scoped advisory
// lock, so that concurrent creations cannot pass MaxTariffs together.
func (tariffStore) countLocked(ctx context.Context, tx *sqlx.Tx) (int, error) {
	var n int
	if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtext('clubhouse.tariffs'))`); err != nil {
		return 0, fmt.Errorf("lock tariffs: %w", err)
	}
	if err := tx.GetContext(ctx, &n, `SELECT count(*) FROM tariffs`); err != nil {
		return 0, fmt.Errorf("count tariffs: %w", err)
	}
	return n, nil
}

func (s tariffStore) save(ctx context.Context, q sqldb.Queryer, t Tariff) (Tariff, error) {
	args := []any{t.CourtID, t.ReservationTypeID, t.RRule, t.StartDate, t.EndDate, t.StartTime, t.EndTime, t.Adjustment, t.Description, t.IsActive}
	var id int64
	var err error
	if t.ID == 0 {
		err = q.GetContext(ctx, &id, `INSERT INTO tariffs (court_id, reservation_type_id, rrule, start_date, end_date, start_time,
			end_time, adjustment, description, is_active) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`, args...)
	} else {
		err = q.GetContext(ctx, &id, `UPDATE tariffs SET court_id = $1, reservation_type_id = $2, rrule = $3, start_date = $4,
			end_date = $5, start_time = $6, end_time = $7, adjustment = $8, description = $9, is_active = $10, updated_at = now()
			WHERE id = $11 RETURNING id`, append(args, t.ID)...)
	}
	if err != nil {
		return Tariff{}, sqldb.Map(err, ErrTariffNotFound, tariffErrors)
	}
	return s.get(ctx, q, id, false)
}

func (tariffStore) delete(ctx context.Context, q sqldb.Queryer, id int64) error {
	res, err := q.ExecContext(ctx, `DELETE FROM tariffs WHERE id = $1`, id)
	if err != nil {
		return fmt.Errorf("delete tariff: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrTariffNotFound
	}
	return nil
}

func (tariffStore) version(ctx context.Context, q sqldb.Queryer) (int64, error) {
	var v int64
	err := q.GetContext(ctx, &v, `SELECT version FROM tariff_version`)
	return v, err
}
