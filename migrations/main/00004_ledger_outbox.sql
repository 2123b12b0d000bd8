-- +goose Up
-- The ledger account that completed payments of a type are debited to (a
-- code of the accounting chart); null means the bank account 1.1.10.01.
ALTER TABLE payment_types ADD COLUMN ledger_account text CHECK (ledger_account ~ '^[1-9](\.[0-9]{1,6})*$');

-- Postings owed to the ledger, written in the same transaction as the
-- payment change that owes them, and spent by the poster with the
-- idempotency key payment:<id>:<kind>, so each is posted exactly once even
-- across a crash between the two databases. No foreign key: a deleted
-- payment still owes the reversal of its posting.
CREATE TABLE ledger_outbox (
    id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    payment_id      bigint        NOT NULL,
    kind            text          NOT NULL CHECK (kind IN ('post', 'reverse')),
    paid_at         timestamptz   NOT NULL,
    amount          numeric(14,2) NOT NULL,
    payment_type_id bigint,
    for_enrollment  boolean       NOT NULL,
    created_at      timestamptz   NOT NULL DEFAULT now(),
    posted_at       timestamptz,
    entry_id        bigint,
    attempts        integer       NOT NULL DEFAULT 0,
    last_error      text,
    CONSTRAINT ledger_outbox_payment_kind_key UNIQUE (payment_id, kind)
);
CREATE INDEX ledger_outbox_pending_idx ON ledger_outbox (id) WHERE posted_at IS NULL;

-- +goose StatementBegin
CREATE FUNCTION payments_to_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        IF OLD.status THEN
            INSERT INTO ledger_outbox (payment_id, kind, paid_at, amount, payment_type_id, for_enrollment)
            VALUES (OLD.id, 'reverse', OLD.date, OLD.amount, OLD.payment_type_id, OLD.enrollment_id IS NOT NULL)
            ON CONFLICT DO NOTHING;
        END IF;
        RETURN OLD;
    END IF;
    IF NEW.status AND (TG_OP = 'INSERT' OR NOT OLD.status) THEN
        INSERT INTO ledger_outbox (payment_id, kind, paid_at, amount, payment_type_id, for_enrollment)
        VALUES (NEW.id, 'post', NEW.date, NEW.amount, NEW.payment_type_id, NEW.enrollment_id IS NOT NULL)
        ON CONFLICT DO NOTHING;
    ELSIF TG_OP = 'UPDATE' AND OLD.status AND NOT NEW.status THEN
        INSERT INTO ledger_outbox (payment_id, kind, paid_at, amount, payment_type_id, for_enrollment)
        VALUES (NEW.id, 'reverse', NEW.date, OLD.amount, OLD.payment_type_id, OLD.enrollment_id IS NOT NULL)
        ON CONFLICT DO NOTHING;
    END IF;
    RETURN NEW;
END $$;
-- +goose StatementEnd
CREATE TRIGGER payments_outbox AFTER INSERT OR UPDATE OF status OR DELETE ON payments
    FOR EACH ROW EXECUTE FUNCTION payments_to_outbox();
