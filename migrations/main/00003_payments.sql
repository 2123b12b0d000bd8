-- +goose Up
-- A payment settles a booking or a class enrollment (enrollments arrive with
-- the classes; their foreign key is added then). status false is pending,
-- true completed; status_detail keeps the gateway's word (failed, refunded).
CREATE TABLE payments (
    id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    reservation_id    bigint REFERENCES reservations (id),
    enrollment_id     bigint,
    payment_type_id   bigint REFERENCES payment_types (id),
    amount            numeric(14,2) NOT NULL CHECK (amount > 0),
    transaction_id    text CHECK (transaction_id IS NULL OR btrim(transaction_id) <> ''),
    gateway_response  text,
    status            boolean     NOT NULL DEFAULT false,
    status_detail     text        NOT NULL DEFAULT 'pending'
        CHECK (status_detail IN ('pending', 'completed', 'failed', 'refunded')),
    date              timestamptz NOT NULL DEFAULT now(),
    description       text,
    foto              text,
    foto_content_type text,
    created_at        timestamptz NOT NULL DEFAULT now(),
    updated_at        timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT payments_one_owner CHECK (num_nonnulls(reservation_id, enrollment_id) = 1),
    CONSTRAINT payments_status_check CHECK (status = (status_detail = 'completed')),
    CONSTRAINT payments_foto_check CHECK ((foto IS NULL) = (foto_content_type IS NULL))
);
CREATE UNIQUE INDEX payments_transaction_id_key ON payments (transaction_id);
CREATE INDEX payments_reservation_idx ON payments (reservation_id);
CREATE INDEX payments_enrollment_idx ON payments (enrollment_id);
CREATE INDEX payments_pending_date_idx ON payments (status, date DESC);

-- Gateway events that name no known transaction and nothing to attach to,
-- kept for an operator to resolve, never dropped.
CREATE TABLE payment_inbox (
    id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    transaction_id   text          NOT NULL,
    amount           numeric(14,2),
    status           text          NOT NULL,
    gateway_response text,
    event_date       timestamptz,
    payload          jsonb         NOT NULL,
    deliveries       integer       NOT NULL DEFAULT 1,
    received_at      timestamptz   NOT NULL DEFAULT now(),
    resolved_at      timestamptz,
    resolution       text CHECK (resolution IN ('attached', 'dismissed')),
    payment_id       bigint REFERENCES payments (id),
    note             text,
    CONSTRAINT payment_inbox_resolved_check CHECK ((resolved_at IS NULL) = (resolution IS NULL))
);
CREATE UNIQUE INDEX payment_inbox_transaction_id_key ON payment_inbox (transaction_id);
CREATE INDEX payment_inbox_open_idx ON payment_inbox (received_at) WHERE resolved_at IS NULL;
