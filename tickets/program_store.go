package tickets

import (
	"context"
	"fmt"
	"time"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
)

var programErrors = sqldb.Mapping{
	"ticket_programs_name_key":        ErrProgramExists,
	"ticket_packages_name_key":        ErrPackageExists,
	"ticket_packages_program_id_fkey": clubhouse.ErrInvalidReference.Withf("program_id does not name an existing ticket program."),
}

const programSelect = `SELECT id, name, description, is_active, created_at, updated_at FROM ticket_programs`

const packageSelect = `SELECT k.id, k.program_id, k.name, k.ticket_count, k.unit_price, k.valid_days, k.is_active,
	p.is_active AS program_active, k.created_at, k.updated_at
	FROM ticket_packages k JOIN ticket_programs p ON p.id = k.program_id`

type programStore struct{}

// list returns every program with its packages, in name order.
func (programStore) list(ctx context.Context, q sqldb.Queryer) ([]Program, error) {
	programs := []Program{}
	if err := q.SelectContext(ctx, &programs, programSelect+" ORDER BY lower(name), id"); err != nil {
		return nil, fmt.Errorf("list ticket programs: %w", err)
	}
	var packages []Package
	if err := q.SelectContext(ctx, &packages, packageSelect+" ORDER BY k.id"); err != nil {
		return nil, fmt.Errorf("list ticket packages: %w", err)
	}
	at := make(map[int64]int, len(programs))
	for i := range programs {
		programs[i].Packages = []Package{}
		at[programs[i].ID] = i
	}
	for _, k := range packages {
		// A package of a program made between the two reads waits for
		// the next list.
		if i, ok := at[k.ProgramID]; ok {
			programs[i].Packages = append(programs[i].Packages, k)
		}
	}
	return programs, nil
}

// get returns the program with id and its packages; lock locks its row.
func (programStore) get(ctx context.Context, q sqldb.Queryer, id int64, lock bool) (Program, error) {
	var p Program
	query := programSelect + " WHERE id = $1"
	if lock {
		query += " FOR UPDATE"
	}
	if err := q.GetContext(ctx, &p, query, id); err != nil {
		return Program{}, sqldb.Map(err, ErrProgramNotFound, nil)
	}
	p.Packages = []Package{}
	if err := q.SelectContext(ctx, &p.Packages, packageSelect+" WHERE k.program_id = $1 ORDER BY k.id", id); err != nil {
		return Program{}, fmt.Errorf("list ticket packages: %w", err)
	}
	return p, nil
}

// save inserts p (ID 0) or updates it, and returns its id.
func (programStore) save(ctx context.Context, q sqldb.Queryer, p Program) (int64, error) {
	var id int64
	var err error
	if p.ID == 0 {
		err = q.GetContext(ctx, &id, `INSERT INTO ticket_programs (name, description, is_active) VALUES ($1, $2, $3) RETURNING id`,
			p.Name, p.Description, p.IsActive)
	} else {
		err = q.GetContext(ctx, &id, `UPDATE ticket_programs SET name = $1, description = $2, is_active = $3, updated_at = now()
			WHERE id = $4 RETURNING id`, p.Name, p.Description, p.IsActive, p.ID)
	}
	return id, sqldb.Map(err, ErrProgramNotFound, programErrors)
}

// pkg returns the package with id; lock locks its row.
func (programStore) pkg(ctx context.Context, q sqldb.Queryer, id int64, lock bool) (Package, error) {
	var k Package
	query := packageSelect + " WHERE k.id = $1"
	if lock {
		query += " FOR UPDATE OF k"
	}
	err := q.GetContext(ctx, &k, query, id)
	return k, sqldb.Map(err, ErrPackageNotFound, nil)
}

// savePackage inserts k (ID 0) or updates it, and returns it as stored.
func (s programStore) savePackage(ctx context.Context, q sqldb.Queryer, k Package) (Package, error) {
	var id int64
	var err error
	if k.ID == 0 {
		err = q.GetContext(ctx, &id, `INSERT INTO ticket_packages (program_id, name, ticket_count, unit_price, valid_days, is_active)
			VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`, k.ProgramID, k.Name, k.TicketCount, k.UnitPrice, k.ValidDays, k.IsActive)
	} else {
		err = q.GetContext(ctx, &id, `UPDATE ticket_packages SET name = $1, ticket_count = $2, unit_price = $3, valid_days = $4,
			is_active = $5, updated_at = now() WHERE id = $6 RETURNING id`, k.Name, k.TicketCount, k.UnitPrice, k.ValidDays, k.IsActive, k.ID)
	}
	if err != nil {
		return Package{}, sqldb.Map(err, ErrPackageNotFound, programErrors)
	}
	return s.pkg(ctx, q, id, false)
}

// lockPackages locks the packages with ids and returns the ids that exist.
func (programStore) lockPackages(ctx context.Context, q sqldb.Queryer, ids []int64) (map[int64]bool, error) {
	var found []int64
	if err := q.SelectContext(ctx, &found, `SELECT id FROM ticket_packages WHERE id = ANY($1) ORDER BY id FOR UPDATE`, ids); err != nil {
		return nil, fmt.Errorf("lock ticket packages: %w", err)
	}
	exist := make(map[int64]bool, len(found))
	for _, id := range found {
		exist[id] = true
	}
	return exist, nil
}

// setPrices sets the unit prices of the packages of changes, which exist,
// and returns them in the order of changes.
func (s programStore) setPrices(ctx context.Context, q sqldb.Queryer, changes []PriceChange) ([]Package, error) {
	ids := make([]int64, len(changes))
	prices := make([]string, len(changes))
	for i, c := range changes {
		ids[i], prices[i] = c.ID, c.UnitPrice.String()
	}
	if _, err := q.ExecContext(ctx, `UPDATE ticket_packages k SET unit_price = c.price, updated_at = now()
		FROM unnest($1::bigint[], $2::numeric[]) AS c(id, price) WHERE k.id = c.id`, ids, prices); err != nil {
		return nil, sqldb.Map(err, nil, programErrors)
	}
	var rows []Package
	if err := q.SelectContext(ctx, &rows, packageSelect+" WHERE k.id = ANY($1)", ids); err != nil {
		return nil, fmt.Errorf("read ticket packages: %w", err)
	}
	byID := make(map[int64]Package, len(rows))
	for _, k := range rows {
		byID[k.ID] = k
	}
	out := make([]Package, len(changes))
	for i, c := range changes {
		out[i] = byID[c.ID]
	}
	return out, nil
}

// saveQuote stores qt for by, deleting first some quotes that expired
// before purgeBefore and made no sale, and returns it with its id.
func (programStore) saveQuote(ctx context.Context, q sqldb.Queryer, qt Quote, by string, purgeBefore time.Time) (Quote, error) {
	if _, err := q.ExecContext(ctx, `DELETE FROM ticket_quotes WHERE id IN (SELECT id FROM ticket_quotes qt
		WHERE valid_until < $1 AND NOT EXISTS (SELECT 1 FROM ticket_sales s WHERE s.quote_id = qt.id)
		ORDER BY valid_until LIMIT $2 FOR UPDATE SKIP LOCKED)`, purgeBefore, quotePurgeAtATime); err != nil {
		return Quote{}, fmt.Errorf("purge expired ticket quotes: %w", err)
	}
	err := q.GetContext(ctx, &qt.ID, `INSERT INTO ticket_quotes (package_id, ticket_count, unit_price, total, created_by, created_at, valid_until)
		VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id::text`,
		qt.PackageID, qt.TicketCount, qt.UnitPrice, qt.Total, by, qt.CreatedAt, qt.ValidUntil)
	if err != nil {
		return Quote{}, sqldb.Map(err, nil, programErrors)
	}
	return qt, nil
}
