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
// Signed balances are debit minus credit. A period closes in order: its
// income, expense and cost accounts are moved into 3.1 by one balanced
// closing entry (close-results, idempotent), the trial balance and the
// equity equation (assets + liabilities + equity = 0 in signed balances) are
// checked, closing balances are stored, and no entry is accepted into it
// afterwards.
package ledger
