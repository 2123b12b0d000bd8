package ledger

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
)

// Post writes an entry in one transaction and returns it, and whether it
// was written now (false: its idempotency key returned the original entry);
// an entry written now records ledger:posted in that transaction
// (Options.Log). Errors: Invalid (see EntryInput.Validate; an unknown
// account code is "invalid reference"), ErrNotPostable, ErrNoOpenPeriod,
// ErrWouldBeNegative, ErrKeyReused.
func (l *Ledger) Post(ctx context.Context, by clubhouse.Actor, in EntryInput) (Entry, bool, error) {
	if err := by.Require(clubhouse.AccountingRoles...); err != nil {
		return Entry{}, false, err
	}
	if err := in.Validate(); err != nil {
		return Entry{}, false, err
	}
	in.createdBy = by.Label()
	var e Entry
	var created bool
	err := sqldb.Transact(ctx, l.db, func(tx *sqlx.Tx) error {
		var err error
		if e, created, err = l.post(ctx, tx, in, nil); err != nil || !created {
			return err
		}
		return l.log.Announce(ctx, tx, posted(e.ID)...)
	})
	if err != nil {
		return Entry{}, false, fmt.Errorf("post entry: %w", mapErr(err, nil))
	}
	return e, created, nil
}

// post writes in on tx, reversing reversalOf when not nil, and returns the
// entry and whether it was written now. It takes two statements, the entry
// and its lines (which resolve the account codes), and builds the answer
// from what they return; only a replayed key reads the original back.
func (l *Ledger) post(ctx context.Context, tx *sqlx.Tx, in EntryInput, reversalOf *int64) (Entry, bool, error) {
	hash := in.hash()
	var key, by *string
	if in.IdempotencyKey != "" {
		key = &in.IdempotencyKey
	}
	if in.createdBy != "" {
		by = &in.createdBy
	}
	e := Entry{Date: in.Date, Description: strings.TrimSpace(in.Description), Source: in.source(), IdempotencyKey: key,
		ReversalOf: reversalOf, CreatedBy: by}
	err := tx.QueryRowxContext(ctx, `INSERT INTO entries (date, description, source, idempotency_key, content_hash, reversal_of, created_by, period_id)
		VALUES ($1, $2, $3, $4, $5, $6, $7, 0) ON CONFLICT (idempotency_key) DO NOTHING RETURNING id, period_id, created_at`,
		in.Date, e.Description, e.Source, key, hash, reversalOf, by).Scan(&e.ID, &e.PeriodID, &e.CreatedAt)
	if errors.Is(err, sql.ErrNoRows) {
		// The key was used: by this very entry, or by another.
		var prior struct {
			ID   int64  `db:"id"`
			Hash []byte `db:"content_hash"`
		}
		if err := tx.GetContext(ctx, &prior, `SELECT id, content_hash FROM entries WHERE idempotency_key = $1`, *key); err != nil {
			return Entry{}, false, err
		}
		if !bytes.Equal(prior.Hash, hash) {
			return Entry{}, false, ErrKeyReused
		}
		orig, err := l.entry(ctx, tx, prior.ID)
		return orig, false, err
	}
	if err != nil {
		return Entry{}, false, err
	}
	codes := make([]string, len(in.Lines))
	debits, credits, memos := make([]string, len(in.Lines)), make([]string, len(in.Lines)), make([]*string, len(in.Lines))
	for i, ln := range in.Lines {
		codes[i] = strings.TrimSpace(ln.AccountCode)
		debits[i], credits[i] = ln.Debit.StringFixed(2), ln.Credit.StringFixed(2)
		if ln.Memo != "" {
			m := ln.Memo
			memos[i] = &m
		}
	}
	e.Lines = make([]Line, 0, len(in.Lines))
	err = tx.SelectContext(ctx, &e.Lines, `WITH t AS (
			SELECT * FROM unnest($2::text[], $3::numeric[], $4::numeric[], $5::text[]) WITH ORDINALITY AS t(code, d, c, m, ord)
		), ins AS (
			INSERT INTO lines (entry_id, account_id, debit, credit, memo, date, period_id)
			SELECT $1, a.id, t.d, t.c, t.m, $6, 0 FROM t JOIN accounts a ON a.code = t.code ORDER BY t.ord
			RETURNING id, entry_id, account_id, debit, credit, memo
		)
		SELECT ins.id, ins.entry_id, ins.account_id, a.code AS account_code, a.name AS account_name, ins.debit, ins.credit, ins.memo
		FROM ins JOIN accounts a ON a.id = ins.account_id ORDER BY ins.id`,
		e.ID, codes, debits, credits, memos, in.Date)
	if err != nil {
		return Entry{}, false, err
	}
	if len(e.Lines) != len(in.Lines) {
		return Entry{}, false, unknownCode(codes, e.Lines)
	}
	return e, true, nil
}

// unknownCode names the first code of codes that no written line has.
func unknownCode(codes []string, lines []Line) error {
	found := make(map[string]bool, len(lines))
	for _, l := range lines {
		found[l.AccountCode] = true
	}
	for _, c := range codes {
		if !found[c] {
			return clubhouse.ErrInvalidReference.Withf("Account %q does not exist.", c)
		}
	}
	return clubhouse.ErrInvalidReference.Withf("An account of the entry does not exist.")
}

// Reverse posts the reversal of the entry with id, dated date (the
// original's date when zero), and returns it. An entry is reversed at most
// once; the same idempotency key returns the same reversal. A reversal
// written now records ledger:posted as Post's entries do. Errors:
// ErrEntryNotFound, ErrAlreadyReversed, and those of Post.
func (l *Ledger) Reverse(ctx context.Context, by clubhouse.Actor, id int64, date time.Time, key string) (Entry, bool, error) {
	if err := by.Require(clubhouse.AccountingRoles...); err != nil {
		return Entry{}, false, err
	}
	var rev Entry
	var created bool
	err := sqldb.Transact(ctx, l.db, func(tx *sqlx.Tx) error {
		orig, err := l.entry(ctx, tx, id)
		if err != nil {
			return err
		}
		in := EntryInput{Date: date, Description: "Reversal of entry " + fmt.Sprint(id) + ": " + orig.Description,
			Source: "reversal", IdempotencyKey: key, createdBy: by.Label()}
		if in.Date.IsZero() {
			in.Date = orig.Date
		}
		in.Lines = reversedLines(orig)
		if rev, created, err = l.post(ctx, tx, in, &id); err != nil || !created {
			return err
		}
		return l.log.Announce(ctx, tx, posted(rev.ID)...)
	})
	if err != nil {
		return Entry{}, false, fmt.Errorf("reverse entry: %w", mapErr(err, ErrEntryNotFound))
	}
	return rev, created, nil
}

// reversedLines are the lines of e with debit and credit swapped.
func reversedLines(e Entry) []LineInput {
	lines := make([]LineInput, 0, len(e.Lines))
	for _, ln := range e.Lines {
		memo := ""
		if ln.Memo != nil {
			memo = *ln.Memo
		}
		lines = append(lines, LineInput{AccountCode: ln.AccountCode, Debit: ln.Credit, Credit: ln.Debit, Memo: memo})
	}
	return lines
}

const entrySelect = `SELECT e.id, e.period_id, e.date, e.description, e.source, e.idempotency_key, e.reversal_of,
	(SELECT r.id FROM entries r WHERE r.reversal_of = e.id) AS reversed_by, e.created_by, e.created_at FROM entries e`

// Entry returns the entry with id and its lines. Errors: ErrEntryNotFound.
func (l *Ledger) Entry(ctx context.Context, by clubhouse.Actor, id int64) (Entry, error) {
	if err := by.Require(clubhouse.AccountingRoles...); err != nil {
		return Entry{}, err
	}
	return l.entry(ctx, l.db, id)
}

func (l *Ledger) entry(ctx context.Context, q sqldb.Queryer, id int64) (Entry, error) {
	var e Entry
	if err := q.GetContext(ctx, &e, entrySelect+` WHERE e.id = $1`, id); err != nil {
		return Entry{}, mapErr(err, ErrEntryNotFound)
	}
	e.Lines = []Line{}
	err := q.SelectContext(ctx, &e.Lines, `SELECT l.id, l.entry_id, l.account_id, a.code AS account_code, a.name AS account_name,
		l.debit, l.credit, l.memo FROM lines l JOIN accounts a ON a.id = l.account_id WHERE l.entry_id = $1 ORDER BY l.id`, id)
	return e, err
}

// EntryFilter selects journal entries. Zero fields match all.
type EntryFilter struct {
	From, To    time.Time // dates, inclusive
	AccountCode string
	Source      string
	PeriodID    int64
	Limit       int
	Offset      int
}

// EntryPaging is the page size of Entries; a filter's Limit of 0 means
// its Default.
var EntryPaging = clubhouse.Paging{Default: 100, Max: 1000}

// Entries returns the page of the entries that match f, latest first, with
// their lines. Errors: clubhouse.ErrForbidden, ErrInvalidQuery for a page
// out of EntryPaging.
func (l *Ledger) Entries(ctx context.Context, by clubhouse.Actor, f EntryFilter) ([]Entry, error) {
	if err := by.Require(clubhouse.AccountingRoles...); err != nil {
		return nil, err
	}
	var err error
	if f.Limit, f.Offset, err = EntryPaging.Page(f.Limit, f.Offset); err != nil {
		return nil, err
	}
	var conds []string
	var args []any
	add := func(cond string, v any) {
		args = append(args, v)
		conds = append(conds, fmt.Sprintf(cond, len(args)))
	}
	if !f.From.IsZero() {
		add("e.date >= $%d", f.From)
	}
	if !f.To.IsZero() {
		add("e.date <= $%d", f.To)
	}
	if f.Source != "" {
		add("e.source = $%d", f.Source)
	}
	if f.PeriodID != 0 {
		add("e.period_id = $%d", f.PeriodID)
	}
	if f.AccountCode != "" {
		add("EXISTS (SELECT 1 FROM lines l JOIN accounts a ON a.id = l.account_id WHERE l.entry_id = e.id AND a.code = $%d)", f.AccountCode)
	}
	query := entrySelect
	if len(conds) > 0 {
		query += " WHERE " + strings.Join(conds, " AND ")
	}
	args = append(args, f.Limit, f.Offset)
	query += fmt.Sprintf(" ORDER BY e.date DESC, e.id DESC LIMIT $%d OFFSET $%d", len(args)-1, len(args))
	entries := []Entry{}
	if err := l.db.SelectContext(ctx, &entries, query, args...); err != nil {
		return nil, fmt.Errorf("entries: %w", err)
	}
	if len(entries) == 0 {
		return entries, nil
	}
	ids := make([]int64, len(entries))
	at := make(map[int64]int, len(entries))
	for i, e := range entries {
		ids[i], at[e.ID] = e.ID, i
		entries[i].Lines = []Line{}
	}
	var lines []Line
	err = l.db.SelectContext(ctx, &lines, `SELECT l.id, l.entry_id, l.account_id, a.code AS account_code, a.name AS account_name,
		l.debit, l.credit, l.memo FROM lines l JOIN accounts a ON a.id = l.account_id WHERE l.entry_id = ANY($1) ORDER BY l.id`, ids)
	if err != nil {
		return nil, fmt.Errorf("entry lines: %w", err)
	}
	for _, ln := range lines {
		e := &entries[at[ln.EntryID]]
		e.Lines = append(e.Lines, ln)
	}
	return entries, nil
}
