-- +goose Up
-- An online payment's attempt (package payments, issue 30): a checkout
-- opened at a gateway for what a booking (or an enrollment) owed then,
-- under a reference issued here, unique per attempt, so that what the
-- gateway later says of a transaction is matched to the attempt by
-- reference, amount and currency and never to another booking. payment_id
-- is the completed payment it became, once; url is where the payer goes.
CREATE TABLE checkout_attempts (
    id             bigint        GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    reference      text          NOT NULL CHECK (reference ~ '^[A-Za-z0-9_-]{1,64}$'),
    gateway        text          NOT NULL CHECK (gateway IN ('wompi', 'mercadopago')),
    reservation_id bigint        REFERENCES reservations (id) ON DELETE CASCADE,
    enrollment_id  bigint        REFERENCES enrollments (id) ON DELETE CASCADE,
    amount         numeric(14,2) NOT NULL CHECK (amount > 0),
    currency       text          NOT NULL CHECK (currency = 'COP'),
    url            text          NOT NULL CHECK (char_length(url) <= 8000),
    expires_at     timestamptz   NOT NULL,
    created_by     bigint        REFERENCES users (id) ON DELETE SET NULL,
    created_at     timestamptz   NOT NULL DEFAULT now(),
    payment_id     bigint        REFERENCES payments (id) ON DELETE SET NULL,
    CONSTRAINT checkout_attempts_reference_key UNIQUE (reference),
    CONSTRAINT checkout_attempts_one_owner CHECK (num_nonnulls(reservation_id, enrollment_id) = 1)
);
CREATE INDEX checkout_attempts_reservation_idx ON checkout_attempts (reservation_id) WHERE reservation_id IS NOT NULL;
CREATE INDEX checkout_attempts_enrollment_idx ON checkout_attempts (enrollment_id) WHERE enrollment_id IS NOT NULL;
