package ledger

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/eventlog"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
)

// accountBalance is the signed balance (debit - credit) of an account.
type accountBalance struct {
	AccountID int64           `db:"account_id"`
	Code      string          `db:"code"`
	Class     int             `db:"class"`
	Balance   decimal.Decimal `db:"balance"`
}

// resultBalances returns the non-zero signed balances of the income,
// expense and cost accounts over the period's lines.
func resultBalances(ctx context.Context, q sqldb.Queryer, p Period) ([]accountBalance, error) {
	var rows []accountBalance
	err := q.SelectContext(ctx, &rows, `SELECT t.account_id, a.code, a.class, t.balance FROM (
			SELECT account_id, sum(debit) - sum(credit) AS balance FROM lines WHERE period_id = $1 GROUP BY account_id
		) t JOIN accounts a ON a.id = t.account_id
		WHERE a.class IN (4, 5, 6, 7) AND t.balance <> 0 ORDER BY a.code`, p.ID)
	return rows, err
}

// lockPeriod locks the period for a close. Errors: ErrPeriodNotFound,
// ErrPeriodClosed.
func lockPeriod(ctx context.Context, q sqldb.Queryer, id int64) (Period, error) {
	var p Period
	if err := q.GetContext(ctx, &p, `SELECT `+periodColumns+` FROM periods WHERE id = $1 FOR UPDATE`, id); err != nil {
		return Period{}, mapErr(err, ErrPeriodNotFound)
	}
	if p.Status != PeriodOpen {
		return Period{}, ErrPeriodClosed
	}
	return p, nil
}

// CloseResults moves the balances of the period's income, expense and cost
// accounts into 3.1 with one balanced closing entry dated the period's last
// day, and returns it (nil when nothing was left to move: running it twice
// changes nothing; postings after it are closed by a delta entry); a
// closing entry records ledger:posted as Post's entries do. Errors:
// ErrPeriodNotFound, ErrPeriodClosed, Conflict when 3.1 is missing.
func (l *Ledger) CloseResults(ctx context.Context, by clubhouse.Actor, id int64) (*Entry, error) {
	if err := by.Require(clubhouse.AccountingRoles...); err != nil {
		return nil, err
	}
	var entryID int64
	err := sqldb.Transact(ctx, l.db, func(tx *sqlx.Tx) error {
		p, err := lockPeriod(ctx, tx, id)
		if err != nil {
			return err
		}
		if entryID, err = l.closeResults(ctx, tx, p, by.Label()); err != nil {
			return err
		}
		return l.log.Announce(ctx, tx, posted(entryID)...)
	})
	if err != nil {
		return nil, fmt.Errorf("close results: %w", mapErr(err, nil))
	}
	if entryID == 0 {
		return nil, nil
	}
	e, err := l.Entry(ctx, by, entryID)
	return &e, err
}

var errNoResultsAccount = clubhouse.Errorf(clubhouse.Conflict, "no results account",
	"The chart has no postable, active account 3.1 to close the results into.")

// closeResults posts the closing entry of p on tx; 0 when none was needed.
func (l *Ledger) closeResults(ctx context.Context, tx *sqlx.Tx, p Period, by string) (int64, error) {
	balances, err := resultBalances(ctx, tx, p)
	if err != nil {
		return 0, err
	}
	if len(balances) == 0 {
		_, err := tx.ExecContext(ctx, `UPDATE periods SET results_closed_at = COALESCE(results_closed_at, now()) WHERE id = $1`, p.ID)
		return 0, err
	}
	in := EntryInput{Date: p.EndDate, Description: "Close of results of " + p.Name + " into " + ResultsCode,
		Source: "close-results", createdBy: by}
	net := decimal.Zero
	for _, b := range balances {
		ln := LineInput{AccountCode: b.Code}
		if b.Balance.IsPositive() {
			ln.Credit = b.Balance
		} else {
			ln.Debit = b.Balance.Neg()
		}
		in.Lines = append(in.Lines, ln)
		net = net.Add(b.Balance)
	}
	if !net.IsZero() {
		ln := LineInput{AccountCode: ResultsCode, Memo: "result of the period"}
		if net.IsPositive() {
			ln.Debit = net // a loss
		} else {
			ln.Credit = net.Neg() // a profit
		}
		in.Lines = append(in.Lines, ln)
	}
	if len(in.Lines) < 2 {
		// A single account with a balance and a zero net cannot happen.
		return 0, fmt.Errorf("close results: one-line closing entry for period %d", p.ID)
	}
	e, _, err := l.post(ctx, tx, in, nil)
	if err != nil {
		if errors.Is(err, clubhouse.ErrInvalidReference) { // the chart lacks the results account
			return 0, errNoResultsAccount
		}
		return 0, err
	}
	_, err = tx.ExecContext(ctx, `UPDATE periods SET results_closed_at = now() WHERE id = $1`, p.ID)
	return e.ID, err
}

// Check is an item of the close-readiness checklist.
type Check struct {
	Name   string
	OK     bool
	Detail string
}

// A CloseCheck is a condition from outside the ledger that a period must
// meet to close, such as the payments of the period that still wait to be
// posted. Close refuses the period while one fails (ErrCloseCheck with its
// detail), whoever calls it, and Readiness reports it beside the ledger's
// own checks.
type CloseCheck struct {
	Name string
	// Run judges period p. Errors: a failure to judge, which fails the
	// close or the readiness report.
	Run func(ctx context.Context, p Period) (ok bool, detail string, err error)
}

// Readiness is the close checklist of a period, and whether a close would
// succeed now.
type Readiness struct {
	PeriodID int64
	Checks   []Check
	Ready    bool
}

// Add appends c to the checklist; a failing check makes the period not
// ready, except results_closed, which only informs: Close runs the results
// close itself.
func (r *Readiness) Add(c Check) {
	if c.OK {
		c.Detail = ""
	}
	r.Checks = append(r.Checks, c)
	if !c.OK && c.Name != "results_closed" {
		r.Ready = false
	}
}

// Readiness lists what a close of the period checks, each item with whether
// it holds now and why not. Errors: ErrPeriodNotFound.
func (l *Ledger) Readiness(ctx context.Context, by clubhouse.Actor, id int64) (Readiness, error) {
	if err := by.Require(clubhouse.AccountingRoles...); err != nil {
		return Readiness{}, err
	}
	p, err := l.Period(ctx, by, id)
	if err != nil {
		return Readiness{}, err
	}
	r := Readiness{PeriodID: id, Ready: true}
	add := func(name string, ok bool, detail string) { r.Add(Check{Name: name, OK: ok, Detail: detail}) }
	add("period_open", p.Status == PeriodOpen, map[bool]string{true: "The period is open.", false: "The period is already closed."}[p.Status == PeriodOpen])
	var earlier int
	if err := l.db.GetContext(ctx, &earlier, `SELECT count(*) FROM periods WHERE end_date < $1 AND status = 'open'`, p.StartDate); err != nil {
		return Readiness{}, err
	}
	add("earlier_periods_closed", earlier == 0, fmt.Sprintf("%d earlier periods are still open.", earlier))
	today := l.today()
	add("period_ended", p.EndDate.Before(today), fmt.Sprintf(
		"The period ends on %s and today is %s: it closes once its last day is over, or before only when an early close is asked for explicitly (early=true).",
		p.EndDate.Format(time.DateOnly), today.Format(time.DateOnly)))
	tb, err := trialBalance(ctx, l.db, p.EndDate)
	if err != nil {
		return Readiness{}, err
	}
	add("trial_balance", tb.TotalDebit.Equal(tb.TotalCredit),
		fmt.Sprintf("Debits %s, credits %s up to %s.", tb.TotalDebit, tb.TotalCredit, p.EndDate.Format(time.DateOnly)))
	balances, err := resultBalances(ctx, l.db, p)
	if err != nil {
		return Readiness{}, err
	}
	add("results_closed", len(balances) == 0, fmt.Sprintf("%d income, expense or cost accounts still hold a balance in the period; close-results moves them into %s (close runs it).", len(balances), ResultsCode))
	var results3 int
	if err := l.db.GetContext(ctx, &results3, `SELECT count(*) FROM accounts WHERE code = $1 AND postable AND active`, ResultsCode); err != nil {
		return Readiness{}, err
	}
	add("results_account", results3 == 1, "The chart needs a postable, active account "+ResultsCode+".")
	eq, memo := equityEquation(tb)
	add("equity_equation", eq.IsZero() || len(balances) > 0,
		fmt.Sprintf("Assets + liabilities + equity = %s after the results close (memorandum accounts net %s).", eq, memo))
	for _, c := range l.checks {
		ok, detail, err := c.Run(ctx, p)
		if err != nil {
			return Readiness{}, fmt.Errorf("close check %s: %w", c.Name, err)
		}
		add(c.Name, ok, detail)
	}
	return r, nil
}

// equityEquation returns assets + liabilities + equity in signed balances
// and the net of the memorandum accounts, from a trial balance in which
// results may not be closed yet: their balance is counted as equity.
func equityEquation(tb TrialBalance) (decimal.Decimal, decimal.Decimal) {
	eq, memo := decimal.Zero, decimal.Zero
	for _, r := range tb.Rows {
		if ClassKind(r.Class) == KindMemo {
			memo = memo.Add(r.Balance)
		} else {
			eq = eq.Add(r.Balance)
		}
	}
	return eq, memo
}

// CloseOptions are the choices of a close.
type CloseOptions struct {
	// Early closes a period whose last day is not over yet (today, by the
	// ledger's clock, is on or before its end date); the period records it
	// (Period.ClosedEarly). Without it such a close is refused.
	Early bool
}

// today is the ledger's calendar day: the date of its clock's time in that
// time's own location, which club.New sets to the club's zone.
func (l *Ledger) today() time.Time {
	now := l.now()
	return time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
}

// Close closes the period: it runs the results close when still needed,
// checks the trial balance, the results close and the equity equation,
// stores the closing balances and closes the period, all in one
// transaction that holds the period's lock, so that no posting lands in it
// afterwards. The checks of Options.Checks run last, under the same lock. A
// period closes once its last day is over, by the ledger's clock; before
// that only with o.Early. Its transaction records, with Options.Log, its
// event and the messages ledger:posted for its closing entry, if it posted
// one, and period:closed; once it has committed, an early close is logged
// to Options.Logger. Errors: ErrPeriodNotFound, ErrPeriodClosed,
// ErrCloseOrder, ErrPeriodNotEnded naming the end date, ErrCloseCheck
// naming the failed check.
func (l *Ledger) Close(ctx context.Context, by clubhouse.Actor, id int64, o CloseOptions) (Period, error) {
	if err := by.Require(clubhouse.AccountingRoles...); err != nil {
		return Period{}, err
	}
	var msg Closed
	err := sqldb.Transact(ctx, l.db, func(tx *sqlx.Tx) error {
		p, err := lockPeriod(ctx, tx, id)
		if err != nil {
			return err
		}
		var earlier int
		if err := tx.GetContext(ctx, &earlier, `SELECT count(*) FROM periods WHERE end_date < $1 AND status = 'open'`, p.StartDate); err != nil {
			return err
		}
		if earlier > 0 {
			return ErrCloseOrder
		}
		today := l.today()
		early := !p.EndDate.Before(today)
		if early && !o.Early {
			return ErrPeriodNotEnded.Withf(
				"Period %s ends on %s and today is %s: it closes once its last day is over. To close it before, ask for an early close explicitly (early=true).",
				p.Name, p.EndDate.Format(time.DateOnly), today.Format(time.DateOnly))
		}
		closing, err := l.closeResults(ctx, tx, p, by.Label())
		if err != nil {
			return err
		}
		tb, err := trialBalance(ctx, tx, p.EndDate)
		if err != nil {
			return err
		}
		if !tb.TotalDebit.Equal(tb.TotalCredit) {
			return ErrCloseCheck.Withf("The trial balance does not balance: debits %s, credits %s.", tb.TotalDebit, tb.TotalCredit)
		}
		if left, err := resultBalances(ctx, tx, p); err != nil {
			return err
		} else if len(left) > 0 {
			return ErrCloseCheck.Withf("%d result accounts still hold a balance after the results close.", len(left))
		}
		if eq, memo := equityEquation(tb); !eq.IsZero() {
			return ErrCloseCheck.Withf(
				"Assets + liabilities + equity = %s, not 0 (memorandum accounts net %s; they must offset each other).", eq, memo)
		}
		for _, c := range l.checks {
			ok, detail, err := c.Run(ctx, p)
			if err != nil {
				return fmt.Errorf("close check %s: %w", c.Name, err)
			}
			if !ok {
				return ErrCloseCheck.Withf("%s", detail)
			}
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO period_balances (period_id, account_id, debit, credit)
			SELECT $1, account_id, sum(debit), sum(credit) FROM lines WHERE date <= $2 GROUP BY account_id`, p.ID, p.EndDate); err != nil {
			return err
		}
		if _, err = tx.ExecContext(ctx, `UPDATE periods SET status = 'closed', closed_at = now(), closed_by = NULLIF($2, ''), closed_early = $3,
			closing_entry_id = NULLIF($4::bigint, 0) WHERE id = $1`, p.ID, by.Label(), early, closing); err != nil {
			return err
		}
		msg = Closed{ID: p.ID, Name: p.Name, StartDate: dateText(p.StartDate), EndDate: dateText(p.EndDate), ClosedBy: by.Label(),
			ClosedEarly: early}
		if closing != 0 {
			msg.ClosingEntryID = &closing
		}
		if err := l.record(ctx, tx, EventPeriodClosed, by, id); err != nil {
			return err
		}
		return l.log.Announce(ctx, tx, append(posted(closing), eventlog.Message{Topic: TopicPeriodClosed, Payload: msg})...)
	})
	if err != nil {
		return Period{}, fmt.Errorf("close period: %w", mapErr(err, nil))
	}
	if msg.ClosedEarly {
		l.audit.Warn("accounting period closed early", "period_id", msg.ID, "period", msg.Name, "end_date", msg.EndDate,
			"user", by.Label(), "email", by.Email)
	}
	return l.Period(ctx, by, id)
}
