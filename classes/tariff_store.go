package classes

import (
	"context"
	"fmt"
	"strings"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
)

// Errors of class tariffs.
var (
	ErrTariffNotFound = clubhouse.Errorf(clubhouse.NotFound, "not found", "The class tariff does not exist.")
	ErrNotClassType   = clubhouse.ErrInvalidReference.Sub("invalid reference",
		"reservation_type_id must name a reservation type of training classes (gestion 2).")
	ErrTariffExists = clubhouse.Errorf(clubhouse.Conflict, "conflict",
		"A class tariff for this court type and reservation type already exists; change it instead.")
)

var tariffErrors = sqldb.Mapping{
	"class_tariffs_court_type_id_fkey": clubhouse.ErrInvalidReference.Withf("court_type_id does not name an existing court type."),
	"class_tariffs_class_type_fkey":    ErrNotClassType,
	"class_tariffs_types_key":          ErrTariffExists,
}

const tariffSelect = `SELECT t.id, t.court_type_id, t.reservation_type_id, t.single_price, t.total_price, t.max_capacity,
	t.created_at, t.updated_at, ct.name AS court_type_name, rt.name AS reservation_type_name
	FROM class_tariffs t JOIN court_types ct ON ct.id = t.court_type_id JOIN reservation_types rt ON rt.id = t.reservation_type_id`

// TariffFilter selects class tariffs by court type and reservation type
// (0: any).
type TariffFilter struct {
	CourtTypeID       int64
	ReservationTypeID int64
}

type tariffStore struct{}

func (tariffStore) list(ctx context.Context, q sqldb.Queryer, f TariffFilter) ([]Tariff, error) {
	var conds []string
	var args []any
	if f.CourtTypeID != 0 {
		args = append(args, f.CourtTypeID)
		conds = append(conds, fmt.Sprintf("t.court_type_id = $%d", len(args)))
	}
	if f.ReservationTypeID != 0 {
		args = append(args, f.ReservationTypeID)
		conds = append(conds, fmt.Sprintf("t.reservation_type_id = $%d", len(args)))
	}
	query := tariffSelect
	if len(conds) > 0 {
		query += " WHERE " + strings.Join(conds, " AND ")
	}
	rows := []Tariff{}
	if err := q.SelectContext(ctx, &rows, query+" ORDER BY t.id", args...); err != nil {
		return nil, fmt.Errorf("list class tariffs: %w", err)
	}
	return rows, nil
}

func (tariffStore) get(ctx context.Context, q sqldb.Queryer, id int64, lock bool) (Tariff, error) {
	var t Tariff
	query := tariffSelect + " WHERE t.id = $1"
	if lock {
		query += " FOR UPDATE OF t"
	}
	err := q.GetContext(ctx, &t, query, id)
	return t, sqldb.Map(err, ErrTariffNotFound, nil)
}

// gestion returns the gestion of the reservation type with id; 0 when it
// does not exist.
func (tariffStore) gestion(ctx context.Context, q sqldb.Queryer, id int64) (int, error) {
	var g []int
	if err := q.SelectContext(ctx, &g, `SELECT gestion FROM reservation_types WHERE id = $1`, id); err != nil {
		return 0, fmt.Errorf("read reservation type: %w", err)
	}
	if len(g) == 0 {
		return 0, nil
	}
	return g[0], nil
}

func (s tariffStore) save(ctx context.Context, q sqldb.Queryer, t Tariff) (Tariff, error) {
	args := []any{t.CourtTypeID, t.ReservationTypeID, t.SinglePrice, t.TotalPrice, t.MaxCapacity}
	var id int64
	var err error
	if t.ID == 0 {
		err = q.GetContext(ctx, &id, `INSERT INTO class_tariffs (court_type_id, reservation_type_id, single_price, total_price, max_capacity)
			VALUES ($1, $2, $3, $4, $5) RETURNING id`, args...)
	} else {
		err = q.GetContext(ctx, &id, `UPDATE class_tariffs SET court_type_id = $1, reservation_type_id = $2, single_price = $3,
			total_price = $4, max_capacity = $5, updated_at = now() WHERE id = $6 RETURNING id`, append(args, t.ID)...)
	}
	if err != nil {
		return Tariff{}, sqldb.Map(err, ErrTariffNotFound, tariffErrors)
	}
	return s.get(ctx, q, id, false)
}

func (tariffStore) delete(ctx context.Context, q sqldb.Queryer, id int64) error {
	res, err := q.ExecContext(ctx, `DELETE FROM class_tariffs WHERE id = $1`, id)
	if err != nil {
		return sqldb.Map(err, ErrTariffNotFound, tariffErrors)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrTariffNotFound
	}
	return nil
}
