// Command ledger keeps a club's books for one year with the ledger
// package, as a program in another module would: it migrates an empty
// database with the accounting migrations, seeds the demo chart, opens the
// period 2025, posts five balanced entries (capital 10 000 000, income
// 2 000 000, expenses 1 000 000), closes the results into 3.1 and then the
// period, shows that the closed period takes no more entries, and prints
// the trial balance and the three statements (profit 1 000 000, assets
// 11 000 000).
//
//	createdb -h 127.0.0.1 -U postgres books_example
//	DATABASE_URL=postgres://postgres@127.0.0.1:5432/books_example?sslmode=disable go run ./examples/ledger
//
// The database must be empty: the period 2025 can be opened only once.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver of database/sql
	"github.com/jmoiron/sqlx"
	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/ledger"
	"github.com/clubhouse-go/clubhouse/migrations"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "ledger:", err)
		os.Exit(1)
	}
}

// entry is a two-line entry: amount debited to one account and credited
// to another.
type entry struct {
	date, description, debit, credit string
	amount                           int64
	key                              string // posting it again, say after a lost answer, returns the entry already made
}

var year = []entry{
	{"2025-01-02", "Capital paid in by the members", "1.1.10.01", "3.2.05", 10_000_000, "capital"},
	{"2025-03-31", "Court rentals of the quarter, in cash", "1.1.05.01", "4.1.05", 1_500_000, "rentals-q1"},
	{"2025-06-30", "Tennis classes, by transfer", "1.1.10.01", "4.1.10", 500_000, "classes-h1"},
	{"2025-07-15", "Resurfacing of court 2", "5.1.45", "1.1.10.01", 400_000, "resurfacing"},
	{"2025-12-20", "Coaches' bonus, in cash", "5.1.05", "1.1.05.01", 600_000, "bonus"},
}

func run(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("ledger", flag.ContinueOnError)
	url := fs.String("database", os.Getenv("DATABASE_URL"), "URL of an empty PostgreSQL database (default $DATABASE_URL)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *url == "" {
		return fmt.Errorf("set DATABASE_URL or -database to an empty PostgreSQL database")
	}

	// The ledger lives in a database of its own, migrated with its own
	// set. database/sql over the pgx driver is enough; examples/booking
	// shares a pgx pool instead.
	db, err := sqlx.Open("pgx", *url)
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := migrations.Up(ctx, db.DB, migrations.Accounting()); err != nil {
		return err
	}
	books := ledger.New(db, ledger.Options{})
	// The ledger opens to the accountants and administrators: the example
	// acts as the club's own program, with staff rights.
	by := clubhouse.Staff("example")
	if err := books.SeedChart(ctx, by, ledger.DemoChart); err != nil {
		return err
	}

	start, end := date("2025-01-01"), date("2025-12-31")
	period, err := books.CreatePeriod(ctx, by, "2025", start, end)
	if err != nil {
		return err
	}
	for _, e := range year {
		amount := decimal.NewFromInt(e.amount)
		posted, _, err := books.Post(ctx, by, ledger.EntryInput{Date: date(e.date), Description: e.description,
			IdempotencyKey: "example:" + e.key, Lines: []ledger.LineInput{
				{AccountCode: e.debit, Debit: amount}, {AccountCode: e.credit, Credit: amount}}})
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "entry #%d %s %-40s Dr %-10s Cr %-10s %12s\n", posted.ID, e.date, e.description, e.debit, e.credit, amount)
	}

	// Closing moves income and expenses into 3.1 first; Close would do it
	// too, but run apart the closing entry can be seen.
	closing, err := books.CloseResults(ctx, by, period.ID)
	if err != nil {
		return err
	}
	if closing == nil {
		return errors.New("close results: no income or expense to close")
	}
	fmt.Fprintf(out, "closing entry #%d: %s\n", closing.ID, closing.Description)
	readiness, err := books.Readiness(ctx, by, period.ID)
	if err != nil {
		return err
	}
	for _, c := range readiness.Checks {
		if c.OK {
			fmt.Fprintf(out, "check %s: ok\n", c.Name)
		} else {
			fmt.Fprintf(out, "check %s: %s\n", c.Name, c.Detail)
		}
	}
	if period, err = books.Close(ctx, by, period.ID, ledger.CloseOptions{}); err != nil {
		return err
	}
	fmt.Fprintf(out, "period %s: %s\n", period.Name, period.Status)
	late := decimal.NewFromInt(1000)
	_, _, err = books.Post(ctx, by, ledger.EntryInput{Date: end, Description: "A late receipt",
		Lines: []ledger.LineInput{{AccountCode: "1.1.05.01", Debit: late}, {AccountCode: "4.1.05", Credit: late}}})
	if !errors.Is(err, ledger.ErrNoOpenPeriod) {
		return fmt.Errorf("a posting into the closed period: want ErrNoOpenPeriod, got %v", err)
	}
	fmt.Fprintln(out, "posting into 2025 after the close: refused")

	tb, err := books.TrialBalance(ctx, by, ledger.ReportDate{Date: end})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "\nTrial balance at %s\n", end.Format(time.DateOnly))
	for _, r := range tb.Rows {
		fmt.Fprintf(out, "  %-10s %-30s %12s %12s %12s\n", r.Code, r.Name, r.Debit, r.Credit, r.Balance)
	}
	fmt.Fprintf(out, "  %-41s %12s %12s\n", "total", tb.TotalDebit, tb.TotalCredit)

	pl, err := books.ProfitOrLoss(ctx, by, ledger.ReportRange{From: start, To: end})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "\nProfit or loss %s to %s\n", start.Format(time.DateOnly), end.Format(time.DateOnly))
	printSection(out, pl.Income)
	printSection(out, pl.Expenses)
	fmt.Fprintf(out, "  %-41s %12s\n", "result", pl.Result)

	fp, err := books.FinancialPosition(ctx, by, ledger.ReportDate{Date: end})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "\nFinancial position at %s\n", end.Format(time.DateOnly))
	printSection(out, fp.Assets)
	printSection(out, fp.Liabilities)
	printSection(out, fp.Equity)

	ce, err := books.ChangesInEquity(ctx, by, ledger.ReportRange{From: start, To: end})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "\nChanges in equity %s to %s\n", start.Format(time.DateOnly), end.Format(time.DateOnly))
	fmt.Fprintf(out, "  %-41s %12s %12s %12s %12s\n", "", "opening", "result", "other", "closing")
	for _, c := range append(ce.Accounts, ce.Total) {
		fmt.Fprintf(out, "  %-10s %-30s %12s %12s %12s %12s\n", c.Code, c.Name, c.Opening, c.Result, c.OtherMovement, c.Closing)
	}
	return nil
}

func printSection(out io.Writer, s ledger.Section) {
	fmt.Fprintf(out, "  %s\n", s.Title)
	for _, l := range s.Lines {
		fmt.Fprintf(out, "    %-10s %-28s %12s\n", l.Code, l.Name, l.Amount)
	}
	fmt.Fprintf(out, "  %-41s %12s\n", "total "+s.Title, s.Total)
}

// date parses a date of the example's fixed data.
func date(s string) time.Time {
	d, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err) // the example's own constants
	}
	return d
}
