-- +goose Up
-- The outbox's sources belong to the domains that write them: each domain
-- writes its rows with a source of its own and gives payments.LedgerPoster
-- the producer that makes their entries (payments.Producer), so a new
-- source is the new domain's migration alone, not a change of this table's
-- list. The source stays a plain word; a row of a source no producer makes
-- waits, its last_error saying so. for_enrollment, a payment's, is false
-- unless a row says otherwise, as for_tickets is.
ALTER TABLE ledger_outbox
    DROP CONSTRAINT ledger_outbox_source_check,
    ADD CONSTRAINT ledger_outbox_source_check CHECK (source ~ '^[a-z][a-z0-9_]*$'),
    ALTER COLUMN for_enrollment SET DEFAULT false;
