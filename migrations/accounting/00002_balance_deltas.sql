-- +goose Up
-- Increases of never-negative accounts cannot take them below zero, so they
-- no longer lock the account's row: they append to balance_deltas, and a
-- decrease, which does lock the row, folds the deltas into the balance
-- before its check. A busy cash drawer then takes deposits in parallel.
CREATE TABLE balance_deltas (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    account_id bigint        NOT NULL REFERENCES accounts (id),
    amount     numeric(18,2) NOT NULL CHECK (amount >= 0)
);
CREATE INDEX balance_deltas_account_idx ON balance_deltas (account_id);

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION lines_check() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    a accounts%ROWTYPE;
    e entries%ROWTYPE;
    delta numeric;
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
        delta := CASE WHEN a.normal_side = 'debit' THEN NEW.debit - NEW.credit ELSE NEW.credit - NEW.debit END;
        IF delta >= 0 THEN
            INSERT INTO balance_deltas (account_id, amount) VALUES (a.id, delta);
        ELSE
            PERFORM 1 FROM accounts WHERE id = a.id FOR UPDATE;
            WITH moved AS (DELETE FROM balance_deltas WHERE account_id = a.id RETURNING amount)
            UPDATE accounts SET balance = balance + COALESCE((SELECT sum(amount) FROM moved), 0) + delta WHERE id = a.id;
        END IF;
    END IF;
    RETURN NEW;
END $$;
-- +goose StatementEnd
