package ledger

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/eventlog"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/migrations"
)

// Ledger is the double-entry ledger on its own database.
type Ledger struct {
	db     *sqlx.DB
	now    func() time.Time
	checks []CloseCheck // what else a close requires, beyond the ledger's own checks
	log    *eventlog.Log
	audit  *slog.Logger // Options.Logger
	close  func()       // closes the database Open made; nil for New
}

// Options are the choices of New; the zero value is a ledger on the
// system's clock, with the ledger's own close checks only, that records
// no event nor message and logs nothing.
type Options struct {
	// Now is the ledger's clock, nil for time.Now: the date of its time,
	// in that time's own location, is the ledger's today, and a period
	// closes once today is past its last day (before, only when asked to:
	// CloseOptions.Early); today also dates the reports asked for without
	// dates (ReportDate, ReportRange). Give it a clock in the club's zone,
	// func() time.Time { return time.Now().In(bogota) }.
	Now func() time.Time
	// Checks run in Close and Readiness besides the ledger's own: the
	// conditions that other parts of the club put on a close
	// (payments.WaitingCheck: no completed payment of the period may
	// still wait to be posted).
	Checks []CloseCheck
	// Log records, in the transaction of each change, its realtime
	// messages (TopicPosted, TopicPeriodClosed, TopicPeriodReopened), and
	// the event of each close and reopening (EventPeriodClosed,
	// EventPeriodReopened): a log of the ledger's own database, whose
	// events and messages a forwarder moves into the club's
	// (eventlog.Log.Forward), where the relay reads them; nil: none.
	Log *eventlog.Log
	// Logger receives the ledger's audit, once each change has committed:
	// a warning for each close that came early ("accounting period closed
	// early") and each reopening ("accounting period reopened"), with the
	// period and who asked (their label and email). The period records
	// both (Period.ClosedEarly, Period.Reopenings); the log tells the
	// operator at once. nil: none, so that a program that uses the ledger
	// on its own writes nothing it did not ask for.
	Logger *slog.Logger
}

// New returns the ledger stored in db (migrated with migrations.Accounting).
func New(db *sqlx.DB, o Options) *Ledger {
	clubhouse.SetDefaults(nil, &o.Now)
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return &Ledger{db: db, now: o.Now, checks: o.Checks, log: o.Log, audit: o.Logger}
}

// Open connects to the ledger's PostgreSQL database at dsn, for programs
// that use the ledger without the rest of Clubhouse. It creates the database
// when missing and applies the accounting migrations. CloseDB releases it.
// Its clock is the system's, in the local zone, as New's with no Options:
// it records no event nor message and logs nothing.
func Open(ctx context.Context, dsn string) (*Ledger, error) {
	if err := sqldb.EnsureDatabase(ctx, dsn); err != nil {
		return nil, err
	}
	db, err := sqldb.Open(ctx, dsn)
	if err != nil {
		return nil, err
	}
	if _, err := migrations.Up(ctx, db.DB.DB, migrations.Accounting()); err != nil {
		db.Close()
		return nil, err
	}
	l := New(db.DB, Options{})
	l.close = db.Close
	return l, nil
}

// CloseDB closes the database of a ledger made by Open; it does nothing for
// one made by New, whose database belongs to the caller.
func (l *Ledger) CloseDB() {
	if l.close != nil {
		l.close()
	}
}

// ruleErrors maps the rules the triggers raise (named in their HINT) and the
// constraints to domain errors.
var ruleErrors = map[string]*clubhouse.Error{
	"ledger_no_period":     ErrNoOpenPeriod,
	"ledger_period_closed": ErrNoOpenPeriod,
	"ledger_immutable":     ErrImmutable,
	"ledger_not_postable":  ErrNotPostable,
	"ledger_unbalanced":    ErrUnbalanced,
}

var constraintErrors = sqldb.Mapping{
	"accounts_never_negative_check": ErrWouldBeNegative,
	"accounts_code_key":             ErrCodeTaken,
	"entries_reversal_key":          ErrAlreadyReversed,
	"periods_no_overlap":            ErrPeriodOverlap,
	"periods_dates_check":           clubhouse.ErrInvalidDate.Withf("end_date must not be before start_date."),
}

// mapErr turns the database's refusals into domain errors.
func mapErr(err error, notFound *clubhouse.Error) error {
	if err == nil {
		return nil
	}
	if e, ok := ruleErrors[sqldb.Hint(err)]; ok && sqldb.Code(err) == "P0001" {
		if msg := pgMessage(err); msg != "" && e != ErrUnbalanced {
			return e.Withf("%s: %s.", e.Message, msg)
		}
		return e
	}
	return sqldb.Map(err, notFound, constraintErrors)
}

// pgMessage is the message of a PostgreSQL error without its prefix.
func pgMessage(err error) string {
	s := err.Error()
	if i := strings.Index(s, "ERROR: "); i >= 0 {
		s = s[i+len("ERROR: "):]
	}
	if i := strings.Index(s, " (SQLSTATE"); i >= 0 {
		s = s[:i]
	}
	return s
}

// accountColumns read an account; its balance adds the deposits not yet
// folded in (see migration 00002 of the accounting set).
const accountColumns = `id, code, name, parent_id, class, normal_side, postable, active, never_negative,
	balance + COALESCE((SELECT sum(d.amount) FROM balance_deltas d WHERE d.account_id = accounts.id), 0) AS balance,
	created_at, updated_at`

// Accounts returns the chart of accounts in code order.
func (l *Ledger) Accounts(ctx context.Context, by clubhouse.Actor) ([]Account, error) {
	if err := by.Require(clubhouse.AccountingRoles...); err != nil {
		return nil, err
	}
	rows := []Account{}
	if err := l.db.SelectContext(ctx, &rows, `SELECT `+accountColumns+` FROM accounts ORDER BY string_to_array(code, '.')::int[]`); err != nil {
		return nil, fmt.Errorf("accounts: %w", err)
	}
	return rows, nil
}

// Account returns the account with code. Errors: ErrAccountNotFound.
func (l *Ledger) Account(ctx context.Context, by clubhouse.Actor, code string) (Account, error) {
	if err := by.Require(clubhouse.AccountingRoles...); err != nil {
		return Account{}, err
	}
	var a Account
	err := l.db.GetContext(ctx, &a, `SELECT `+accountColumns+` FROM accounts WHERE code = $1`, code)
	return a, mapErr(err, ErrAccountNotFound)
}

// CreateAccount adds an account under its parent (the code without its last
// part), which becomes a group account. Errors: ErrBadCode, ErrNoParent,
// ErrCodeTaken, ErrParentPosted, Invalid for a bad side or name.
func (l *Ledger) CreateAccount(ctx context.Context, by clubhouse.Actor, in AccountInput) (Account, error) {
	if err := by.Require(clubhouse.AccountingRoles...); err != nil {
		return Account{}, err
	}
	code, name := strings.TrimSpace(in.Code.Or("")), strings.TrimSpace(in.Name.Or(""))
	var missing []string
	if code == "" {
		missing = append(missing, "code")
	}
	if name == "" {
		missing = append(missing, "name")
	}
	if len(missing) > 0 {
		return Account{}, clubhouse.ErrIncomplete.Withf("Missing required fields: %s.", strings.Join(missing, ", "))
	}
	if !validCode(code) {
		return Account{}, ErrBadCode
	}
	class := int(code[0] - '0')
	side := in.NormalSide.Or(DefaultSide(class))
	if side != Debit && side != Credit {
		return Account{}, clubhouse.ErrInvalidData.Withf("normal_side must be debit or credit, not %q.", side)
	}
	var out Account
	err := sqldb.Transact(ctx, l.db, func(tx *sqlx.Tx) error {
		var parentID *int64
		if pc := ParentCode(code); pc != "" {
			var p struct {
				ID   int64 `db:"id"`
				Used bool  `db:"used"`
			}
			err := tx.GetContext(ctx, &p, `SELECT id, EXISTS (SELECT 1 FROM lines WHERE account_id = a.id) AS used
				FROM accounts a WHERE code = $1 FOR UPDATE`, pc)
			if errors.Is(err, sql.ErrNoRows) {
				return ErrNoParent
			}
			if err != nil {
				return err
			}
			if p.Used {
				return ErrParentPosted
			}
			if _, err := tx.ExecContext(ctx, `UPDATE accounts SET postable = false, updated_at = now() WHERE id = $1`, p.ID); err != nil {
				return err
			}
			parentID = &p.ID
		}
		err := tx.GetContext(ctx, &out, `INSERT INTO accounts (code, name, parent_id, normal_side, postable, active, never_negative)
			VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING `+accountColumns,
			code, name, parentID, side, in.Postable.Or(true), in.Active.Or(true), in.NeverNegative.Or(false))
		return err
	})
	return out, mapErr(err, nil)
}

// UpdateAccount changes an account's name, active flag and never-negative
// flag; its code and side are fixed once created. Errors: ErrAccountNotFound,
// Invalid for other fields, ErrWouldBeNegative when the flag is set on an
// account below zero.
func (l *Ledger) UpdateAccount(ctx context.Context, by clubhouse.Actor, code string, in AccountInput) (Account, error) {
	if err := by.Require(clubhouse.AccountingRoles...); err != nil {
		return Account{}, err
	}
	if in.Code.Set || in.NormalSide.Set || in.Postable.Set {
		return Account{}, clubhouse.ErrInvalidData.Withf("An account's code, side and postability cannot change; create another account.")
	}
	var out Account
	err := sqldb.Transact(ctx, l.db, func(tx *sqlx.Tx) error {
		a, err := l.lockAccount(ctx, tx, code)
		if err != nil {
			return err
		}
		if in.Name.Set {
			if a.Name = strings.TrimSpace(in.Name.Or("")); a.Name == "" {
				return clubhouse.ErrInvalidData.Withf("name must not be blank.")
			}
		}
		a.Active = in.Active.Or(a.Active)
		if _, err := tx.ExecContext(ctx, `DELETE FROM balance_deltas WHERE account_id = $1`, a.ID); err != nil {
			return err
		}
		balance := a.Balance
		if nn := in.NeverNegative.Or(a.NeverNegative); nn && !a.NeverNegative {
			// Start tracking the balance from the postings so far.
			if err := tx.GetContext(ctx, &balance, `SELECT COALESCE(sum(CASE WHEN $2 = 'debit' THEN debit - credit ELSE credit - debit END), 0)
				FROM lines WHERE account_id = $1`, a.ID, a.NormalSide); err != nil {
				return err
			}
			a.NeverNegative = true
		} else if !nn {
			a.NeverNegative, balance = false, a.Balance.Sub(a.Balance)
		}
		return tx.GetContext(ctx, &out, `UPDATE accounts SET name = $2, active = $3, never_negative = $4, balance = $5, updated_at = now()
			WHERE id = $1 RETURNING `+accountColumns, a.ID, a.Name, a.Active, a.NeverNegative, balance)
	})
	return out, mapErr(err, ErrAccountNotFound)
}

// DeleteAccount removes an account that was never posted to and has no
// children; a used account is deactivated instead (and so reported).
// Errors: ErrAccountNotFound, Conflict for a group account with children.
func (l *Ledger) DeleteAccount(ctx context.Context, by clubhouse.Actor, code string) (deactivated bool, err error) {
	if err := by.Require(clubhouse.AccountingRoles...); err != nil {
		return false, err
	}
	err = sqldb.Transact(ctx, l.db, func(tx *sqlx.Tx) error {
		a, err := l.lockAccount(ctx, tx, code)
		if err != nil {
			return err
		}
		var children int
		if err := tx.GetContext(ctx, &children, `SELECT count(*) FROM accounts WHERE parent_id = $1`, a.ID); err != nil {
			return err
		}
		if children > 0 {
			return clubhouse.ErrInUse.Withf("Account %s has %d sub-accounts; delete or move them first.", code, children)
		}
		var used bool
		if err := tx.GetContext(ctx, &used, `SELECT EXISTS (SELECT 1 FROM lines WHERE account_id = $1)
			OR EXISTS (SELECT 1 FROM period_balances WHERE account_id = $1)`, a.ID); err != nil {
			return err
		}
		if used {
			deactivated = true
			_, err := tx.ExecContext(ctx, `UPDATE accounts SET active = false, updated_at = now() WHERE id = $1`, a.ID)
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM accounts WHERE id = $1`, a.ID); err != nil {
			return err
		}
		if a.ParentID != nil {
			// A parent left without children takes postings again.
			_, err = tx.ExecContext(ctx, `UPDATE accounts SET postable = true, updated_at = now()
				WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM accounts WHERE parent_id = $1)`, *a.ParentID)
		}
		return err
	})
	return deactivated, mapErr(err, ErrAccountNotFound)
}

func (l *Ledger) lockAccount(ctx context.Context, q sqldb.Queryer, code string) (Account, error) {
	var a Account
	err := q.GetContext(ctx, &a, `SELECT `+accountColumns+` FROM accounts WHERE code = $1 FOR UPDATE`, code)
	return a, mapErr(err, ErrAccountNotFound)
}
