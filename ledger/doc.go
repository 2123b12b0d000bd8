// Package ledger is a double-entry ledger with an IAS 1 period close, on a
// PostgreSQL database of its own, usable without the rest of Clubhouse.
//
// The chart of accounts uses PUC-style dotted codes whose first digit is the
// class: 1 assets, 2 liabilities, 3 equity (3.1 is the results account), 4
// income, 5 expenses, 6 and 7 costs, 8 and 9 memorandum accounts. Only
// leaves are postable.
//
// Invariants, each checked in Go and guarded by the database: an entry has
// two or more lines and balances to the cent (a deferred constraint trigger
// rechecks at commit); posted entries are immutable (corrections are
// reversals, at most one per entry); every write takes an idempotency key
// (same key and content returns the original entry, other content is a
// conflict); an entry's date lies in exactly one open period; no posting to
// a non-postable or inactive account; never-negative accounts stay at or
// above zero under concurrent postings.
//
// Signed balances are debit minus credit. A period closes in order, once
// its last day is over by the ledger's clock (before only when asked for
// explicitly, which the period records): its income, expense and cost
// accounts are moved into 3.1 by one balanced closing entry (close-results,
// idempotent), the trial balance and the equity equation (assets +
// liabilities + equity = 0 in signed balances) are checked, closing
// balances are stored, and no entry is accepted into it afterwards. An admin
// reopens a closed period with a reason, in reverse order: the close's
// closing entry is reversed and its closing balances deleted, so that the
// ledger is as before the close, and the reopening is recorded.
//
// Every method takes the acting clubhouse.Actor and opens to the
// accountants and the administrators (clubhouse.AccountingRoles) alone:
// anyone else is refused with clubhouse.ErrForbidden, whichever front door
// or program calls. The actor's label is recorded as who posted an entry,
// closed a period or reopened one (Reopen, for role admin only).
//
// The reports are asked for by day (ReportDate) or by range of days
// (ReportRange), by dates or by a period; without them the ledger chooses
// today, or this month up to today, by its clock, so that every front door
// answers the same. Each change records its message for the accounting
// room (clubhouse.RoomAccounting) in its own transaction, with
// Options.Log, a log of the ledger's own database that a forwarder moves
// into the club's (eventlog.Log.Forward), where the realtime relay sends
// it: ledger:posted for the entries written, period:closed and
// period:reopened. The period itself records who closed it, whether
// early, and each reopening with its reason; Options.Logger hears of an
// early close and of each reopening once it has committed.
//
// # Using it from another program
//
// New takes a *sqlx.DB over pgx (sqlx.Open("pgx", url) with the driver
// github.com/jackc/pgx/v5/stdlib imported, or sqlx.NewDb over
// stdlib.OpenDBFromPool(pool) to share a pgxpool) on the ledger's own
// database, migrated with the accounting set of package migrations (not
// the main set of the club's database), which migrations.Up applies
// (whatever is pending; safe at every start). Open does the same from a URL
// and creates the database when missing.
//
//	db, err := sqlx.Open("pgx", os.Getenv("DATABASE_URL"))
//	_, err = migrations.Up(ctx, db.DB, migrations.Accounting())
//	books := ledger.New(db, ledger.Options{})
//	by := clubhouse.Staff("year-end") // a program acting for the club; admin opens the ledger
//	err = books.SeedChart(ctx, by, ledger.DemoChart)
//	period, err := books.CreatePeriod(ctx, by, "2025", jan1, dec31)
//
// Then Post entries dated in the period, close it (CloseResults, Close) and
// read TrialBalance, ProfitOrLoss, FinancialPosition and ChangesInEquity
// (ledger.ReportRange{PeriodID: period.ID}): examples/ledger does all of
// it. Reopen undoes a close.
package ledger
