package sqldb

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"reflect"

	"github.com/jackc/pgx/v5"
	"github.com/jmoiron/sqlx"
)

// errPipelineHooks refuses a pipelined transaction whose context carries
// commit hooks: they run on a *sqlx.Tx, which it has none of.
var errPipelineHooks = errors.New("sqldb: a pipelined transaction cannot run the commit hooks of its context; use Transact")

// TransactPipelined runs one transaction on db in two round trips, where
// Transact spends one on BEGIN, one on each statement and one on COMMIT:
// for a hot path whose statements need the answers of the others only
// once, such as a change, its read-back and the event that tells of it.
//
// Round 1 sends BEGIN and the statements of first together (their
// callbacks, QueuedQuery.Exec and the like, are not run). then reads
// their results from br, in order (one Exec, Query or QueryRow each, or
// GetResult; the result of BEGIN is read already), and returns the
// statements of round 2, which sends them followed by COMMIT; their
// results are discarded, but for their errors. then returns an empty
// batch to commit with nothing more, nil to roll back (round 2 is then
// ROLLBACK alone) and return nil, or an error to roll back and return it.
//
// A statement of round 1 that fails aborts the transaction: PostgreSQL
// skips the statements after it, whose results answer the same error.
// then may take that for an answer (nil, as for a refusal it expects) or
// return it; if it returns a batch all the same, the transaction rolls
// back and the error is returned. A statement of round 2 that fails rolls
// the transaction back as well, with a third round trip (ROLLBACK). The
// errors are PostgreSQL's (a *pgconn.PgError, which Map and Code read) or
// the connection's, as the statements of Transact answer them, and
// serialization failures and deadlocks are retried as Transact retries
// them, so then must have no effects outside the transaction.
//
// On a DB with a Pool it runs on a connection of the pool; on anything
// else, on a connection of DB, which must be of pgx's stdlib driver. A
// connection left inside a transaction (a round trip cut short, a failed
// ROLLBACK) is closed, never reused. It runs no commit hooks (OnCommit):
// with a ctx that carries some for db, it refuses to run; use Transact.
func (db *DB) TransactPipelined(ctx context.Context, first *pgx.Batch, then func(br pgx.BatchResults) (*pgx.Batch, error)) error {
	if HasHooks(ctx, db.DB) {
		return errPipelineHooks
	}
	return retry(ctx, func() error {
		return db.withConn(ctx, func(conn *pgx.Conn) error { return pipelineOnce(ctx, conn, first, then) })
	})
}

// pipelineOnce makes one attempt of TransactPipelined on conn.
func pipelineOnce(ctx context.Context, conn *pgx.Conn, first *pgx.Batch, then func(pgx.BatchResults) (*pgx.Batch, error)) (err error) {
	defer func() {
		if rbErr := rollback(ctx, conn); rbErr != nil {
			err = errors.Join(err, rbErr)
		}
	}()
	// A batch is sent once: each attempt sends copies of first's queries.
	round1 := &pgx.Batch{}
	round1.Queue("begin")
	for _, q := range first.QueuedQueries {
		round1.Queue(q.SQL, q.Arguments...)
	}
	br := conn.SendBatch(ctx, round1)
	if _, err := br.Exec(); err != nil {
		_ = br.Close() // the error of the batch is BEGIN's
		return fmt.Errorf("begin: %w", err)
	}
	second, err := then(br)
	closeErr := br.Close() // a statement then did not read may have failed
	switch {
	case err != nil:
		return err
	case second == nil:
		return nil
	case closeErr != nil:
		return closeErr
	}
	second.Queue("commit")
	return conn.SendBatch(ctx, second).Close()
}

// rollback ends the transaction conn is in, if any: one that committed or
// never began leaves it idle, and one whose statement failed is still
// open, aborted, until ROLLBACK.
func rollback(ctx context.Context, conn *pgx.Conn) error {
	if conn.IsClosed() || conn.PgConn().TxStatus() == 'I' {
		return nil
	}
	if _, err := conn.Exec(ctx, "rollback"); err != nil {
		return fmt.Errorf("rollback: %w", err)
	}
	return nil
}

// withConn runs fn on a pgx connection of db's: of its pool, or under one
// of its database/sql connections. A connection that fn leaves inside a
// transaction is closed rather than reused: pgxpool destroys one released
// so, and database/sql closes one whose Raw answers driver.ErrBadConn.
func (db *DB) withConn(ctx context.Context, fn func(conn *pgx.Conn) error) error {
	if db.Pool != nil {
		c, err := db.Pool.Acquire(ctx)
		if err != nil {
			return err
		}
		defer c.Release()
		return fn(c.Conn())
	}
	c, err := db.DB.Conn(ctx)
	if err != nil {
		return err
	}
	defer c.Close()
	var fnErr error
	rawErr := c.Raw(func(dc any) error {
		pc, ok := dc.(interface{ Conn() *pgx.Conn })
		if !ok {
			return fmt.Errorf("sqldb: a pipelined transaction needs a connection of pgx's stdlib driver, not %T", dc)
		}
		conn := pc.Conn()
		fnErr = fn(conn)
		if !conn.IsClosed() && conn.PgConn().TxStatus() != 'I' {
			return driver.ErrBadConn
		}
		return nil
	})
	if fnErr != nil {
		return fnErr
	}
	return rawErr
}

// GetResult reads the next result of br, a query's, into dest, a pointer
// to a struct, as GetContext reads a row (by its fields' db tags, and the
// fields of a nested struct under its name: "student.id"): for the
// queries of a pipelined transaction (TransactPipelined). Errors: one that
// matches sql.ErrNoRows when the query answers no row; the query's own.
func GetResult(br pgx.BatchResults, dest any) error {
	rows, err := br.Query()
	if err != nil {
		return err
	}
	defer rows.Close()
	v := reflect.ValueOf(dest)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return fmt.Errorf("sqldb: GetResult needs a pointer, not %T", dest)
	}
	all := reflect.New(reflect.SliceOf(v.Type().Elem()))
	if err := sqlx.StructScan(columnRows{rows}, all.Interface()); err != nil {
		return err
	}
	if all.Elem().Len() == 0 {
		return pgx.ErrNoRows
	}
	v.Elem().Set(all.Elem().Index(0))
	return nil
}

// columnRows is pgx's rows as sqlx scans them.
type columnRows struct{ pgx.Rows }

func (r columnRows) Close() error {
	r.Rows.Close()
	return nil
}

func (r columnRows) Columns() ([]string, error) {
	fields := r.FieldDescriptions()
	names := make([]string, len(fields))
	for i, f := range fields {
		names[i] = f.Name
	}
	return names, nil
}
