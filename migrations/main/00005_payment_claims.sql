-- +goose Up
-- A payment a client reports is a claim, not a fact: the transaction id the
-- client gives lives in claimed_transaction_id, apart from the gateway's ids
-- in transaction_id, so that a client can neither occupy nor probe a gateway
-- id. The claim gets its transaction_id when a gateway event naming the same
-- booking, amount and id confirms it, or when staff confirm it; until then it
-- cannot be completed, so nothing a client sends reaches the ledger.
ALTER TABLE payments
    ADD COLUMN claimed_transaction_id text
        CHECK (claimed_transaction_id IS NULL OR btrim(claimed_transaction_id) <> ''),
    ADD CONSTRAINT payments_claim_unconfirmed_check
        CHECK (claimed_transaction_id IS NULL OR transaction_id IS NOT NULL OR NOT status);
-- A client reports one transaction once per booking.
CREATE UNIQUE INDEX payments_claim_key ON payments (reservation_id, claimed_transaction_id);
CREATE UNIQUE INDEX payments_enrollment_claim_key ON payments (enrollment_id, claimed_transaction_id);

-- Unconfirmed claims by reported id, for the notes of inbox events.
CREATE INDEX payments_unconfirmed_claim_idx ON payments (claimed_transaction_id) WHERE transaction_id IS NULL;
