-- +goose Up
-- Refunds of completed payments (package payments, issue 30): each one
-- with its amount, its reason, who made it and how the money went back
-- (through the payment's gateway, or by hand: at the desk or by
-- transfer). A payment keeps the sum of its refunds, which the database
-- bounds by its amount, so that racing refunds never give back more than
-- was paid; what a payment pays is its amount less that sum. A refund of
-- the whole rest marks the payment refunded (status false), and the
-- outbox's reversal then undoes what is still posted, its amount less the
-- refunds posted before; a refund of part posts its own reversal
-- (source payment_refund, the refund's row).
ALTER TABLE payments
    ADD COLUMN refunded_amount numeric(14,2) NOT NULL DEFAULT 0,
    ADD CONSTRAINT payments_refunded_check CHECK (refunded_amount >= 0 AND refunded_amount <= amount);

CREATE TABLE payment_refunds (
    id                bigint        GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    payment_id        bigint        NOT NULL REFERENCES payments (id) ON DELETE CASCADE,
    amount            numeric(14,2) NOT NULL CHECK (amount > 0),
    reason            text          NOT NULL CHECK (char_length(reason) BETWEEN 1 AND 500),
    via               text          NOT NULL CHECK (via IN ('gateway', 'manual')),
    gateway           text          CHECK (gateway IN ('wompi', 'mercadopago')),
    gateway_refund_id text          CHECK (char_length(gateway_refund_id) <= 255),
    created_by        bigint        REFERENCES users (id) ON DELETE SET NULL,
    created_by_label  text          NOT NULL,
    created_at        timestamptz   NOT NULL DEFAULT now(),
    CONSTRAINT payment_refunds_gateway_when_via CHECK ((via = 'gateway') = (gateway IS NOT NULL))
);
CREATE INDEX payment_refunds_payment_idx ON payment_refunds (payment_id);

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION payments_to_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        IF OLD.status THEN
            INSERT INTO ledger_outbox (payment_id, kind, paid_at, amount, payment_type_id, for_enrollment, for_tickets)
            VALUES (OLD.id, 'reverse', OLD.date, OLD.amount - OLD.refunded_amount, OLD.payment_type_id, OLD.enrollment_id IS NOT NULL,
                    OLD.ticket_sale_id IS NOT NULL)
            ON CONFLICT DO NOTHING;
        END IF;
        RETURN OLD;
    END IF;
    IF NEW.status AND (TG_OP = 'INSERT' OR NOT OLD.status) THEN
        INSERT INTO ledger_outbox (payment_id, kind, paid_at, amount, payment_type_id, for_enrollment, for_tickets)
        VALUES (NEW.id, 'post', NEW.date, NEW.amount, NEW.payment_type_id, NEW.enrollment_id IS NOT NULL,
                NEW.ticket_sale_id IS NOT NULL)
        ON CONFLICT DO NOTHING;
    ELSIF TG_OP = 'UPDATE' AND OLD.status AND NOT NEW.status THEN
        INSERT INTO ledger_outbox (payment_id, kind, paid_at, amount, payment_type_id, for_enrollment, for_tickets)
        VALUES (NEW.id, 'reverse', NEW.date, OLD.amount - OLD.refunded_amount, OLD.payment_type_id, OLD.enrollment_id IS NOT NULL,
                OLD.ticket_sale_id IS NOT NULL)
        ON CONFLICT DO NOTHING;
    END IF;
    RETURN NEW;
END $$;
-- +goose StatementEnd
