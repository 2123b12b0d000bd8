package booking

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
)

// catalog describes the table of one catalog to the generic store code.
type catalog struct {
	table    string      // SQL table
	noun     string      // "court type", for messages
	fields   []string    // writable columns
	selectSQ string      // SELECT ... FROM ... (aliased "t"), ending before WHERE
	search   []string    // columns matched by a search term
	refs     []reference // rows of other tables that point here
	notFound *clubhouse.Error
	errs     sqldb.Mapping
}

// reference is a foreign key that points at a catalog.
type reference struct {
	table, column, noun string
}

func (c *catalog) has(field string) bool { return slices.Contains(c.fields, field) }

func newCatalog(table, noun string, fields, search []string, refs ...reference) *catalog {
	cols := "t.id, t." + strings.Join(fields, ", t.") + ", t.created_at, t.updated_at"
	return &catalog{
		table: table, noun: noun, fields: fields, search: search, refs: refs,
		selectSQ: "SELECT " + cols + " FROM " + table + " t",
		notFound: clubhouse.ErrNotFound.Withf("The %s does not exist.", noun),
		errs: sqldb.Mapping{
			table + "_name_key": clubhouse.ErrExists.Withf("A %s with that name already exists.", noun),
		},
	}
}

var (
	courtTypes = newCatalog("court_types", "court type", []string{"name", "description"}, []string{"name", "description"},
		reference{"courts", "court_type_id", "courts"}, reference{"class_tariffs", "court_type_id", "class tariffs"})
	documentTypes = newCatalog("document_types", "document type", []string{"name", "description"}, []string{"name", "description"},
		reference{"clients", "document_type_id", "clients"})
	paymentTypes = newCatalog("payment_types", "payment type", []string{"name", "description", "ledger_account"}, []string{"name", "description"},
		reference{"payments", "payment_type_id", "payments"})
	statuses = newCatalog("reservation_statuses", "reservation status", []string{"name", "color", "description"},
		[]string{"name", "description"}, reference{"reservations", "reservation_status_id", "bookings"})
	reservationTypes = func() *catalog {
		c := newCatalog("reservation_types", "reservation type", []string{"name", "description", "gestion", "long_bookings", "is_event"},
			[]string{"name", "description"}, reference{"reservations", "reservation_type_id", "bookings"},
			reference{"tariffs", "reservation_type_id", "tariffs"}, reference{"booking_series", "reservation_type_id", "booking series"},
			reference{"class_tariffs", "reservation_type_id", "class tariffs"}, reference{"events", "event_type_id", "events"})
		c.errs["class_tariffs_class_type_fkey"] = clubhouse.ErrInUse.Withf(
			"Class tariffs use the reservation type, so it stays a type of training classes (gestion 2); change or delete them first.")
		c.errs["events_event_type_fkey"] = clubhouse.ErrInUse.Withf(
			"Events use the reservation type, so it stays a type of events (is_event); delete them first.")
		c.errs["reservation_types_event_bookings_check"] = clubhouse.ErrInUse.Withf(
			"Bookings or series that are not events use the reservation type, so it cannot become a type of events; create a new type for events.")
		c.errs["reservation_types_event_class_check"] = clubhouse.ErrInvalidData.Withf(
			"A reservation type is of training classes (gestion 2) or of events (is_event), not both.")
		return c
	}()
	courts = func() *catalog {
		c := newCatalog("courts", "court", []string{"court_type_id", "name", "cost", "price"}, []string{"name"},
			reference{"reservations", "court_id", "bookings"}, reference{"tariffs", "court_id", "tariffs"},
			reference{"booking_series", "court_id", "booking series"})
		c.selectSQ = `SELECT t.id, t.court_type_id, ct.name AS court_type_name, t.name, t.cost, t.price, t.created_at, t.updated_at
			FROM courts t JOIN court_types ct ON ct.id = t.court_type_id`
		c.errs["courts_court_type_id_fkey"] = clubhouse.ErrInvalidReference.Withf("court_type_id does not name an existing court type.")
		return c
	}()
)

// list returns the rows of c whose search columns contain term (all rows
// when term is empty), in id order.
func list[T any](ctx context.Context, q sqldb.Queryer, c *catalog, term string) ([]T, error) {
	rows := []T{}
	query, args := c.selectSQ, []any{}
	if term = strings.TrimSpace(term); term != "" {
		var conds []string
		for _, col := range c.search {
			conds = append(conds, "t."+col+" ILIKE '%' || $1 || '%'")
		}
		query += " WHERE " + strings.Join(conds, " OR ")
		args = append(args, sqldb.EscapeLike(term))
	}
	if err := q.SelectContext(ctx, &rows, query+" ORDER BY t.id", args...); err != nil {
		return nil, fmt.Errorf("list %s: %w", c.table, err)
	}
	return rows, nil
}

// get returns the row of c with id, or c's not-found error.
func get[T any](ctx context.Context, q sqldb.Queryer, c *catalog, id int64) (T, error) {
	var row T
	err := q.GetContext(ctx, &row, c.selectSQ+" WHERE t.id = $1", id)
	if err != nil {
		return row, sqldb.Map(err, c.notFound, nil)
	}
	return row, nil
}

// insert writes a row of c with cols and returns it.
func insert[T any](ctx context.Context, db *sqlx.DB, c *catalog, cols map[string]any) (T, error) {
	var row T
	names := sortedKeys(cols)
	marks, args := make([]string, len(names)), make([]any, len(names))
	for i, n := range names {
		marks[i], args[i] = fmt.Sprintf("$%d", i+1), cols[n]
	}
	err := sqldb.Transact(ctx, db, func(tx *sqlx.Tx) error {
		var id int64
		err := tx.GetContext(ctx, &id, "INSERT INTO "+c.table+" ("+strings.Join(names, ", ")+") VALUES ("+
			strings.Join(marks, ", ")+") RETURNING id", args...)
		if err != nil {
			return sqldb.Map(err, nil, c.errs)
		}
		row, err = get[T](ctx, tx, c, id)
		return err
	})
	return row, err
}

// update changes cols of the row of c with id and returns it.
func update[T any](ctx context.Context, db *sqlx.DB, c *catalog, id int64, cols map[string]any) (T, error) {
	var row T
	names := sortedKeys(cols)
	sets, args := []string{"updated_at = now()"}, []any{id}
	for _, n := range names {
		args = append(args, cols[n])
		sets = append(sets, fmt.Sprintf("%s = $%d", n, len(args)))
	}
	err := sqldb.Transact(ctx, db, func(tx *sqlx.Tx) error {
		res, err := tx.ExecContext(ctx, "UPDATE "+c.table+" SET "+strings.Join(sets, ", ")+" WHERE id = $1", args...)
		if err != nil {
			return sqldb.Map(err, nil, c.errs)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return c.notFound
		}
		row, err = get[T](ctx, tx, c, id)
		return err
	})
	return row, err
}

// remove deletes the row of c with id. When other rows refer to it, it
// answers a Conflict naming them instead: deleting would orphan them.
func remove(ctx context.Context, db *sqlx.DB, c *catalog, id int64) error {
	return sqldb.Transact(ctx, db, func(tx *sqlx.Tx) error {
		var users []string
		for _, ref := range c.refs {
			var ids []int64
			err := tx.SelectContext(ctx, &ids, "SELECT id FROM "+ref.table+" WHERE "+ref.column+" = $1 ORDER BY id LIMIT 11", id)
			if err != nil {
				return fmt.Errorf("find references to %s %d: %w", c.noun, id, err)
			}
			if len(ids) > 0 {
				users = append(users, describeRefs(ref.noun, ids))
			}
		}
		if len(users) > 0 {
			return clubhouse.ErrInUse.Withf("The %s %d is still used by %s; change or delete those first.",
				c.noun, id, strings.Join(users, " and "))
		}
		res, err := tx.ExecContext(ctx, "DELETE FROM "+c.table+" WHERE id = $1", id)
		if sqldb.Code(err) == "23503" { // a reference this catalog does not list, or one added concurrently
			return clubhouse.ErrInUse.Withf("The %s %d is still referenced by other records.", c.noun, id)
		}
		if err != nil {
			return fmt.Errorf("delete %s %d: %w", c.noun, id, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return c.notFound
		}
		return nil
	})
}

func describeRefs(noun string, ids []int64) string {
	more := ""
	if len(ids) > 10 {
		ids, more = ids[:10], " and more"
	}
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = fmt.Sprint(id)
	}
	return fmt.Sprintf("%s %s%s", noun, strings.Join(s, ", "), more)
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
