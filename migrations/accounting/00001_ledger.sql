-- +goose Up
CREATE EXTENSION IF NOT EXISTS btree_gist;

-- The chart of accounts, PUC style: dotted codes whose first digit is the
-- class (1 assets, 2 liabilities, 3 equity, 4 income, 5 expenses, 6 and 7
-- costs, 8 and 9 memorandum). Only leaves are postable. balance is kept for
-- never-negative accounts only (vault, cashier), signed by the normal side,
-- so that their guard is a row lock and a check, and other accounts have no
-- hot row.
CREATE TABLE accounts (
    id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    code           text          NOT NULL CHECK (code ~ '^[1-9](\.[0-9]{1,6})*$'),
    name           text          NOT NULL CHECK (btrim(name) <> ''),
    parent_id      bigint REFERENCES accounts (id),
    class          smallint      NOT NULL GENERATED ALWAYS AS (substr(code, 1, 1)::smallint) STORED,
    normal_side    text          NOT NULL CHECK (normal_side IN ('debit', 'credit')),
    postable       boolean       NOT NULL DEFAULT true,
    active         boolean       NOT NULL DEFAULT true,
    never_negative boolean       NOT NULL DEFAULT false,
    balance        numeric(18,2) NOT NULL DEFAULT 0,
    created_at     timestamptz   NOT NULL DEFAULT now(),
    updated_at     timestamptz   NOT NULL DEFAULT now(),
    CONSTRAINT accounts_code_key UNIQUE (code),
    CONSTRAINT accounts_never_negative_check CHECK (NOT never_negative OR balance >= 0)
);
CREATE INDEX accounts_parent_idx ON accounts (parent_id);

-- Accounting periods: date ranges that never overlap.
CREATE TABLE periods (
    id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name              text        NOT NULL CHECK (btrim(name) <> ''),
    start_date        date        NOT NULL,
    end_date          date        NOT NULL,
    status            text        NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
    results_closed_at timestamptz,
    closed_at         timestamptz,
    created_at        timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT periods_dates_check CHECK (end_date >= start_date),
    CONSTRAINT periods_closed_check CHECK ((status = 'closed') = (closed_at IS NOT NULL)),
    CONSTRAINT periods_no_overlap EXCLUDE USING gist (daterange(start_date, end_date, '[]') WITH &&)
);

-- Journal entries are immutable once written; corrections are reversals.
CREATE TABLE entries (
    id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    period_id       bigint      NOT NULL REFERENCES periods (id),
    date            date        NOT NULL,
    description     text        NOT NULL CHECK (btrim(description) <> ''),
    source          text        NOT NULL DEFAULT 'manual',
    idempotency_key text,
    content_hash    bytea       NOT NULL,
    reversal_of     bigint REFERENCES entries (id),
    created_by      text,
    created_txid    bigint      NOT NULL DEFAULT txid_current(),
    created_at      timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT entries_idempotency_key UNIQUE (idempotency_key),
    CONSTRAINT entries_reversal_key UNIQUE (reversal_of)
);
CREATE INDEX entries_date_idx ON entries (date);
CREATE INDEX entries_period_idx ON entries (period_id);

-- Lines carry their entry's date and period so that reports group lines alone.
CREATE TABLE lines (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    entry_id   bigint        NOT NULL REFERENCES entries (id),
    account_id bigint        NOT NULL REFERENCES accounts (id),
    date       date          NOT NULL,
    period_id  bigint        NOT NULL,
    debit      numeric(18,2) NOT NULL DEFAULT 0,
    credit     numeric(18,2) NOT NULL DEFAULT 0,
    memo       text,
    CONSTRAINT lines_side_check CHECK (debit >= 0 AND credit >= 0 AND (debit = 0) <> (credit = 0))
);
CREATE INDEX lines_entry_idx ON lines (entry_id);
CREATE INDEX lines_account_date_idx ON lines (account_id, date);
CREATE INDEX lines_period_idx ON lines (period_id);

-- Closing balances stored when a period closes.
CREATE TABLE period_balances (
    period_id  bigint        NOT NULL REFERENCES periods (id),
    account_id bigint        NOT NULL REFERENCES accounts (id),
    debit      numeric(18,2) NOT NULL,
    credit     numeric(18,2) NOT NULL,
    PRIMARY KEY (period_id, account_id)
);

-- +goose StatementBegin
-- An entry's date lies in exactly one period, and that period is open. The
-- period row is locked (FOR SHARE) until the posting commits, so a close,
-- which locks it FOR UPDATE, waits for postings in flight and is never
-- followed by one.
CREATE FUNCTION entries_check_period() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    p periods%ROWTYPE;
BEGIN
    SELECT * INTO p FROM periods WHERE NEW.date BETWEEN start_date AND end_date FOR SHARE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no accounting period covers %', NEW.date USING ERRCODE = 'P0001', HINT = 'ledger_no_period';
    END IF;
    IF p.status <> 'open' THEN
        RAISE EXCEPTION 'accounting period % is closed', p.name USING ERRCODE = 'P0001', HINT = 'ledger_period_closed';
    END IF;
    NEW.period_id := p.id;
    RETURN NEW;
END $$;

-- Entries and lines are immutable.
CREATE FUNCTION ledger_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'posted journal entries are immutable; post a reversal' USING ERRCODE = 'P0001', HINT = 'ledger_immutable';
END $$;

-- A line goes to a postable, active account, of an entry written in this
-- transaction, and keeps never-negative accounts at or above zero.
CREATE FUNCTION lines_check() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    a accounts%ROWTYPE;
    e entries%ROWTYPE;
BEGIN
    SELECT * INTO e FROM entries WHERE id = NEW.entry_id;
    IF e.created_txid <> txid_current() THEN
        RAISE EXCEPTION 'posted journal entries are immutable; post a reversal' USING ERRCODE = 'P0001', HINT = 'ledger_immutable';
    END IF;
    NEW.date := e.date;
    NEW.period_id := e.period_id;
    SELECT * INTO a FROM accounts WHERE id = NEW.account_id;
    IF NOT a.postable OR NOT a.active THEN
        RAISE EXCEPTION 'account % is not postable or not active', a.code USING ERRCODE = 'P0001', HINT = 'ledger_not_postable';
    END IF;
    IF a.never_negative THEN
        UPDATE accounts
           SET balance = balance + CASE WHEN normal_side = 'debit' THEN NEW.debit - NEW.credit ELSE NEW.credit - NEW.debit END
         WHERE id = a.id;
    END IF;
    RETURN NEW;
END $$;

-- Checked at commit: every entry has two or more lines and balances.
CREATE FUNCTION entries_check_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    n int;
    d numeric;
    c numeric;
BEGIN
    SELECT count(*), COALESCE(sum(debit), 0), COALESCE(sum(credit), 0) INTO n, d, c FROM lines WHERE entry_id = NEW.id;
    IF n < 2 OR d <> c THEN
        RAISE EXCEPTION 'journal entry % does not balance (% lines, debit %, credit %)', NEW.id, n, d, c
            USING ERRCODE = 'P0001', HINT = 'ledger_unbalanced';
    END IF;
    RETURN NULL;
END $$;
-- +goose StatementEnd

CREATE TRIGGER entries_period BEFORE INSERT ON entries FOR EACH ROW EXECUTE FUNCTION entries_check_period();
CREATE TRIGGER entries_immutable BEFORE UPDATE OR DELETE ON entries FOR EACH ROW EXECUTE FUNCTION ledger_immutable();
CREATE TRIGGER lines_immutable BEFORE UPDATE OR DELETE ON lines FOR EACH ROW EXECUTE FUNCTION ledger_immutable();
CREATE TRIGGER lines_check BEFORE INSERT ON lines FOR EACH ROW EXECUTE FUNCTION lines_check();
CREATE CONSTRAINT TRIGGER entries_balanced AFTER INSERT ON entries DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION entries_check_balanced();
