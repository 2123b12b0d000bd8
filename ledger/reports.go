package ledger

import (
	"context"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
)

// TrialBalance lists every account with postings up to a date.
type TrialBalance struct {
	AsOf        time.Time
	Rows        []BalanceRow
	TotalDebit  decimal.Decimal
	TotalCredit decimal.Decimal
}

// BalanceRow is an account's totals; Balance is signed (debit - credit).
type BalanceRow struct {
	AccountID int64           `db:"account_id"`
	Code      string          `db:"code"`
	Name      string          `db:"name"`
	Class     int             `db:"class"`
	Debit     decimal.Decimal `db:"debit"`
	Credit    decimal.Decimal `db:"credit"`
	Balance   decimal.Decimal `db:"balance"`
}

// ReportDate chooses the day a report is made at (TrialBalance,
// FinancialPosition): the last day of the period PeriodID when it is set
// (Date is then not read), else Date, else today by the ledger's clock.
type ReportDate struct {
	PeriodID int64
	Date     time.Time
}

// ReportRange chooses the days a report covers, both included
// (GeneralLedger, ProfitOrLoss, ChangesInEquity): those of the period
// PeriodID when it is set (From and To are then not read), else From to
// To, From by default the first day of the current month and To today, by
// the ledger's clock.
type ReportRange struct {
	PeriodID int64
	From, To time.Time
}

// reportDate is the day d chooses. Errors: ErrPeriodNotFound.
func (l *Ledger) reportDate(ctx context.Context, d ReportDate) (time.Time, error) {
	if d.PeriodID != 0 {
		p, err := l.period(ctx, l.db, d.PeriodID)
		return p.EndDate, err
	}
	if d.Date.IsZero() {
		return l.today(), nil
	}
	return d.Date, nil
}

// reportRange is the first and last day r chooses. Errors:
// ErrPeriodNotFound, ErrInvalidDate for a range that ends before it
// starts.
func (l *Ledger) reportRange(ctx context.Context, r ReportRange) (time.Time, time.Time, error) {
	if r.PeriodID != 0 {
		p, err := l.period(ctx, l.db, r.PeriodID)
		return p.StartDate, p.EndDate, err
	}
	today := l.today()
	if r.From.IsZero() {
		r.From = time.Date(today.Year(), today.Month(), 1, 0, 0, 0, 0, time.UTC)
	}
	if r.To.IsZero() {
		r.To = today
	}
	if r.To.Before(r.From) {
		return time.Time{}, time.Time{}, clubhouse.ErrInvalidDate.Withf("to must not be before from.")
	}
	return r.From, r.To, nil
}

// TrialBalance sums the postings of every account up to and including the
// day at chooses, which it reports as AsOf. The lines are grouped alone
// and joined to the chart afterwards, so the cost is one pass over the
// lines. Errors: ErrPeriodNotFound.
func (l *Ledger) TrialBalance(ctx context.Context, by clubhouse.Actor, at ReportDate) (TrialBalance, error) {
	if err := by.Require(clubhouse.AccountingRoles...); err != nil {
		return TrialBalance{}, err
	}
	asOf, err := l.reportDate(ctx, at)
	if err != nil {
		return TrialBalance{}, err
	}
	return trialBalance(ctx, l.db, asOf)
}

func trialBalance(ctx context.Context, q sqldb.Queryer, asOf time.Time) (TrialBalance, error) {
	tb := TrialBalance{AsOf: asOf, Rows: []BalanceRow{}, TotalDebit: decimal.Zero, TotalCredit: decimal.Zero}
	err := q.SelectContext(ctx, &tb.Rows, `SELECT t.account_id, a.code, a.name, a.class, t.debit, t.credit, t.debit - t.credit AS balance
		FROM (SELECT account_id, sum(debit) AS debit, sum(credit) AS credit FROM lines WHERE date <= $1 GROUP BY account_id) t
		JOIN accounts a ON a.id = t.account_id ORDER BY string_to_array(a.code, '.')::int[]`, asOf)
	if err != nil {
		return TrialBalance{}, fmt.Errorf("trial balance: %w", err)
	}
	for _, r := range tb.Rows {
		tb.TotalDebit, tb.TotalCredit = tb.TotalDebit.Add(r.Debit), tb.TotalCredit.Add(r.Credit)
	}
	return tb, nil
}

// LedgerLine is a line of an account's general ledger with the running
// balance after it, signed by the account's normal side.
type LedgerLine struct {
	EntryID     int64           `db:"entry_id"`
	Date        time.Time       `db:"date"`
	Description string          `db:"description"`
	Debit       decimal.Decimal `db:"debit"`
	Credit      decimal.Decimal `db:"credit"`
	Memo        *string         `db:"memo"`
	Balance     decimal.Decimal `db:"balance"`
}

// GeneralLedger is an account's postings between two dates.
type GeneralLedger struct {
	Account Account
	From    time.Time
	To      time.Time
	Opening decimal.Decimal // balance before From, signed by the normal side
	Lines   []LedgerLine
	Closing decimal.Decimal
}

// MaxLedgerLines bounds the lines of one general ledger, and so its memory
// and response size: a longer range is asked for in parts.
const MaxLedgerLines = 10_000

// ErrTooManyLines is returned when a general ledger would hold more than
// MaxLedgerLines lines.
var ErrTooManyLines = clubhouse.Errorf(clubhouse.Invalid, "limit exceeded",
	"The account has more than %d postings in that range; ask for a shorter one.", MaxLedgerLines)

// GeneralLedger returns the postings of the account with code on the days
// r chooses, reported as From and To, with a running balance. Errors:
// ErrAccountNotFound, ErrTooManyLines, and those of ReportRange
// (ErrPeriodNotFound, ErrInvalidDate).
func (l *Ledger) GeneralLedger(ctx context.Context, by clubhouse.Actor, code string, r ReportRange) (GeneralLedger, error) {
	if err := by.Require(clubhouse.AccountingRoles...); err != nil {
		return GeneralLedger{}, err
	}
	from, to, err := l.reportRange(ctx, r)
	if err != nil {
		return GeneralLedger{}, err
	}
	a, err := l.Account(ctx, by, code)
	if err != nil {
		return GeneralLedger{}, err
	}
	sign := decimal.NewFromInt(1)
	if a.NormalSide == Credit {
		sign = sign.Neg()
	}
	gl := GeneralLedger{Account: a, From: from, To: to, Lines: []LedgerLine{}}
	if err := l.db.GetContext(ctx, &gl.Opening, `SELECT COALESCE(sum(debit) - sum(credit), 0) FROM lines WHERE account_id = $1 AND date < $2`,
		a.ID, from); err != nil {
		return GeneralLedger{}, fmt.Errorf("general ledger: %w", err)
	}
	gl.Opening = gl.Opening.Mul(sign)
	err = l.db.SelectContext(ctx, &gl.Lines, `SELECT l.entry_id, l.date, e.description, l.debit, l.credit, l.memo,
		$4 * sum(l.debit - l.credit) OVER (ORDER BY l.date, l.entry_id, l.id) + $5 AS balance
		FROM lines l JOIN entries e ON e.id = l.entry_id
		WHERE l.account_id = $1 AND l.date BETWEEN $2 AND $3 ORDER BY l.date, l.entry_id, l.id LIMIT $6`,
		a.ID, from, to, sign, gl.Opening, MaxLedgerLines+1)
	if err != nil {
		return GeneralLedger{}, fmt.Errorf("general ledger: %w", err)
	}
	if len(gl.Lines) > MaxLedgerLines {
		return GeneralLedger{}, ErrTooManyLines
	}
	gl.Closing = gl.Opening
	if n := len(gl.Lines); n > 0 {
		gl.Closing = gl.Lines[n-1].Balance
	}
	return gl, nil
}

// StatementLine is an account on a statement with its amount, shown
// positive on its normal side.
type StatementLine struct {
	Code   string
	Name   string
	Amount decimal.Decimal
}

// Section is a group of a statement with its total.
type Section struct {
	Title string
	Lines []StatementLine
	Total decimal.Decimal
}

// FinancialPosition is the statement of financial position at a date.
type FinancialPosition struct {
	AsOf        time.Time
	Assets      Section
	Liabilities Section
	Equity      Section // includes the result not yet closed into 3.1
}

// FinancialPosition builds the statement of financial position at the day
// at chooses, reported as AsOf: assets, liabilities, and equity including
// the profit or loss not yet closed into 3.1. Errors: ErrPeriodNotFound.
func (l *Ledger) FinancialPosition(ctx context.Context, by clubhouse.Actor, at ReportDate) (FinancialPosition, error) {
	if err := by.Require(clubhouse.AccountingRoles...); err != nil {
		return FinancialPosition{}, err
	}
	asOf, err := l.reportDate(ctx, at)
	if err != nil {
		return FinancialPosition{}, err
	}
	tb, err := trialBalance(ctx, l.db, asOf)
	if err != nil {
		return FinancialPosition{}, err
	}
	fp := FinancialPosition{AsOf: asOf, Assets: section("Assets"), Liabilities: section("Liabilities"), Equity: section("Equity")}
	result := decimal.Zero
	for _, r := range tb.Rows {
		switch ClassKind(r.Class) {
		case KindAsset:
			fp.Assets.add(r.Code, r.Name, r.Balance)
		case KindLiability:
			fp.Liabilities.add(r.Code, r.Name, r.Balance.Neg())
		case KindEquity:
			fp.Equity.add(r.Code, r.Name, r.Balance.Neg())
		case KindIncome, KindExpense:
			result = result.Add(r.Balance.Neg())
		}
	}
	if !result.IsZero() {
		fp.Equity.add("", "Result of the period not yet closed", result)
	}
	return fp, nil
}

// ProfitOrLoss is the statement of profit or loss for a span of dates.
type ProfitOrLoss struct {
	From, To time.Time
	Income   Section
	Expenses Section // expenses and costs
	Result   decimal.Decimal
}

// ProfitOrLoss builds the statement of profit or loss of the days r
// chooses, reported as From and To, leaving out the closing entries and
// their reversals when a period is reopened (they move the result, they do
// not make it). Errors: those of ReportRange (ErrPeriodNotFound,
// ErrInvalidDate).
func (l *Ledger) ProfitOrLoss(ctx context.Context, by clubhouse.Actor, r ReportRange) (ProfitOrLoss, error) {
	if err := by.Require(clubhouse.AccountingRoles...); err != nil {
		return ProfitOrLoss{}, err
	}
	from, to, err := l.reportRange(ctx, r)
	if err != nil {
		return ProfitOrLoss{}, err
	}
	var rows []BalanceRow
	err = l.db.SelectContext(ctx, &rows, `SELECT t.account_id, a.code, a.name, a.class, t.debit, t.credit, t.debit - t.credit AS balance
		FROM (SELECT l.account_id, sum(l.debit) AS debit, sum(l.credit) AS credit FROM lines l JOIN entries e ON e.id = l.entry_id
		      WHERE l.date BETWEEN $1 AND $2 AND e.source NOT IN ('close-results', 'reopen') GROUP BY l.account_id) t
		JOIN accounts a ON a.id = t.account_id WHERE a.class IN (4, 5, 6, 7) ORDER BY string_to_array(a.code, '.')::int[]`, from, to)
	if err != nil {
		return ProfitOrLoss{}, fmt.Errorf("profit or loss: %w", err)
	}
	pl := ProfitOrLoss{From: from, To: to, Income: section("Income"), Expenses: section("Expenses")}
	for _, r := range rows {
		if ClassKind(r.Class) == KindIncome {
			pl.Income.add(r.Code, r.Name, r.Balance.Neg())
		} else {
			pl.Expenses.add(r.Code, r.Name, r.Balance)
		}
	}
	pl.Result = pl.Income.Total.Sub(pl.Expenses.Total)
	return pl, nil
}

// EquityChange is an equity account's movement over a span of dates.
type EquityChange struct {
	Code          string
	Name          string
	Opening       decimal.Decimal
	Result        decimal.Decimal // closed in by close-results, net of their reversals at a reopen
	OtherMovement decimal.Decimal
	Closing       decimal.Decimal
}

// ChangesInEquity is the statement of changes in equity.
type ChangesInEquity struct {
	From, To time.Time
	Accounts []EquityChange
	Total    EquityChange
}

// ChangesInEquity builds the statement of changes in equity of the days r
// chooses, reported as From and To: each equity account's opening
// balance, the results closed into it, its other movements and its closing
// balance, all positive on the credit side. Errors: those of ReportRange
// (ErrPeriodNotFound, ErrInvalidDate).
func (l *Ledger) ChangesInEquity(ctx context.Context, by clubhouse.Actor, r ReportRange) (ChangesInEquity, error) {
	if err := by.Require(clubhouse.AccountingRoles...); err != nil {
		return ChangesInEquity{}, err
	}
	from, to, err := l.reportRange(ctx, r)
	if err != nil {
		return ChangesInEquity{}, err
	}
	var rows []struct {
		Code    string          `db:"code"`
		Name    string          `db:"name"`
		Opening decimal.Decimal `db:"opening"`
		Result  decimal.Decimal `db:"result"`
		Other   decimal.Decimal `db:"other"`
	}
	err = l.db.SelectContext(ctx, &rows, `SELECT a.code, a.name,
		COALESCE(sum(l.credit - l.debit) FILTER (WHERE l.date < $1), 0) AS opening,
		COALESCE(sum(l.credit - l.debit) FILTER (WHERE l.date BETWEEN $1 AND $2 AND e.source IN ('close-results', 'reopen')), 0) AS result,
		COALESCE(sum(l.credit - l.debit) FILTER (WHERE l.date BETWEEN $1 AND $2 AND e.source NOT IN ('close-results', 'reopen')), 0) AS other
		FROM accounts a LEFT JOIN lines l ON l.account_id = a.id AND l.date <= $2 LEFT JOIN entries e ON e.id = l.entry_id
		WHERE a.class = 3 AND a.postable GROUP BY a.id ORDER BY string_to_array(a.code, '.')::int[]`, from, to)
	if err != nil {
		return ChangesInEquity{}, fmt.Errorf("changes in equity: %w", err)
	}
	ce := ChangesInEquity{From: from, To: to, Accounts: []EquityChange{}, Total: EquityChange{Name: "Total equity"}}
	for _, r := range rows {
		c := EquityChange{Code: r.Code, Name: r.Name, Opening: r.Opening, Result: r.Result, OtherMovement: r.Other,
			Closing: r.Opening.Add(r.Result).Add(r.Other)}
		ce.Accounts = append(ce.Accounts, c)
		ce.Total.Opening, ce.Total.Result = ce.Total.Opening.Add(c.Opening), ce.Total.Result.Add(c.Result)
		ce.Total.OtherMovement, ce.Total.Closing = ce.Total.OtherMovement.Add(c.OtherMovement), ce.Total.Closing.Add(c.Closing)
	}
	return ce, nil
}

func section(title string) Section {
	return Section{Title: title, Lines: []StatementLine{}, Total: decimal.Zero}
}

func (s *Section) add(code, name string, amount decimal.Decimal) {
	s.Lines = append(s.Lines, StatementLine{Code: code, Name: name, Amount: amount})
	s.Total = s.Total.Add(amount)
}
