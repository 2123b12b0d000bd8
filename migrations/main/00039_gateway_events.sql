-- +goose Up
-- The notifications of the payment gateways (package payments, issue 30),
-- kept once verified and before any work, so that the gateway is answered
-- as soon as the row commits and its retries stop. A notification is only
-- a cue: the job reads the transaction from the gateway's API and settles
-- what that answer says. One row per gateway transaction: a repeated
-- notification counts a delivery and makes the row due again, so that
-- duplicates, races and notifications out of order come to one fetch of
-- the transaction as it is now. deliveries also tells the job whether a
-- notification came while it fetched (it then settles nothing and the
-- row stays due). due_at is when the job fetches next, NULL once settled
-- or given up (gave_up_at).
CREATE TABLE gateway_events (
    id               bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    gateway          text        NOT NULL CHECK (gateway IN ('wompi', 'mercadopago')),
    transaction_id   text        NOT NULL CHECK (char_length(transaction_id) BETWEEN 1 AND 255),
    payload          jsonb       NOT NULL,
    deliveries       integer     NOT NULL DEFAULT 1 CHECK (deliveries > 0),
    received_at      timestamptz NOT NULL,
    last_received_at timestamptz NOT NULL,
    due_at           timestamptz,
    tries            integer     NOT NULL DEFAULT 0 CHECK (tries >= 0),
    last_error       text        CHECK (char_length(last_error) <= 1000),
    settled_at       timestamptz,
    gave_up_at       timestamptz,
    payment_id       bigint      REFERENCES payments (id) ON DELETE SET NULL,
    inbox_id         bigint      REFERENCES payment_inbox (id) ON DELETE SET NULL,
    CONSTRAINT gateway_events_transaction_key UNIQUE (gateway, transaction_id)
);
CREATE INDEX gateway_events_due_idx ON gateway_events (due_at, id) WHERE due_at IS NOT NULL;
