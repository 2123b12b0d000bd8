-- +goose Up
CREATE EXTENSION IF NOT EXISTS btree_gist;

-- Types that allow bookings longer than 24 hours (tournaments, maintenance).
ALTER TABLE reservation_types ADD COLUMN long_bookings boolean NOT NULL DEFAULT false;

-- Tariffs adjust the price of the 30-minute slots they cover (see package pricing).
CREATE TABLE tariffs (
    id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    court_id            bigint REFERENCES courts (id),
    reservation_type_id bigint REFERENCES reservation_types (id),
    rrule               text,
    start_date          date,
    end_date            date,
    start_time          time,
    end_time            time,
    adjustment          text        NOT NULL,
    description         text,
    is_active           boolean     NOT NULL DEFAULT true,
    created_at          timestamptz NOT NULL DEFAULT now(),
    updated_at          timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT tariffs_dates_check CHECK (start_date IS NULL OR end_date IS NULL OR end_date >= start_date)
);
CREATE INDEX tariffs_court_idx ON tariffs (court_id);

-- Bumped by every change to tariffs, so that each server instance knows when
-- its compiled tariff set is stale.
CREATE TABLE tariff_version (
    only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
    version  bigint  NOT NULL DEFAULT 1
);
INSERT INTO tariff_version DEFAULT VALUES;

-- +goose StatementBegin
CREATE FUNCTION bump_tariff_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE tariff_version SET version = version + 1;
    RETURN NULL;
END $$;
-- +goose StatementEnd
CREATE TRIGGER tariffs_version AFTER INSERT OR UPDATE OR DELETE ON tariffs
    FOR EACH STATEMENT EXECUTE FUNCTION bump_tariff_version();
CREATE INDEX tariffs_reservation_type_idx ON tariffs (reservation_type_id);

-- Coupons give a one-off discount on a booking; contracts a standing one to a client.
CREATE TABLE coupons (
    id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    code                text          NOT NULL CHECK (code ~ '^[A-Za-z0-9_-]{3,40}$'),
    kind                text          NOT NULL CHECK (kind IN ('percent', 'fixed')),
    value               numeric(14,2) NOT NULL CHECK (value > 0 AND (kind = 'fixed' OR value <= 100)),
    description         text,
    valid_from          date,
    valid_until         date,
    max_uses            integer CHECK (max_uses > 0),
    max_uses_per_client integer CHECK (max_uses_per_client > 0),
    is_active           boolean       NOT NULL DEFAULT true,
    created_at          timestamptz   NOT NULL DEFAULT now(),
    updated_at          timestamptz   NOT NULL DEFAULT now(),
    CONSTRAINT coupons_validity_check CHECK (valid_from IS NULL OR valid_until IS NULL OR valid_until >= valid_from)
);
CREATE UNIQUE INDEX coupons_code_key ON coupons (lower(code));

CREATE TABLE contracts (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name        text          NOT NULL CHECK (btrim(name) <> ''),
    client_id   bigint REFERENCES clients (id),
    kind        text          NOT NULL CHECK (kind IN ('percent', 'fixed')),
    value       numeric(14,2) NOT NULL CHECK (value > 0 AND (kind = 'fixed' OR value <= 100)),
    description text,
    valid_from  date,
    valid_until date,
    is_active   boolean       NOT NULL DEFAULT true,
    created_at  timestamptz   NOT NULL DEFAULT now(),
    updated_at  timestamptz   NOT NULL DEFAULT now(),
    CONSTRAINT contracts_validity_check CHECK (valid_from IS NULL OR valid_until IS NULL OR valid_until >= valid_from)
);
CREATE INDEX contracts_client_idx ON contracts (client_id);

-- A recurring booking: the reservations it made point back at it.
CREATE TABLE booking_series (
    id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    rrule               text        NOT NULL,
    court_id            bigint      NOT NULL REFERENCES courts (id),
    reservation_type_id bigint      NOT NULL REFERENCES reservation_types (id),
    client_id           bigint REFERENCES clients (id),
    first_checking      timestamp   NOT NULL,
    duration            interval    NOT NULL,
    notes               text,
    created_by          bigint REFERENCES users (id),
    created_at          timestamptz NOT NULL DEFAULT now()
);

-- checking and checkout are wall-clock times in the club's zone.
CREATE TABLE reservations (
    id                    bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    operator_id           bigint REFERENCES users (id) ON DELETE SET NULL,
    client_id             bigint REFERENCES clients (id),
    court_id              bigint      NOT NULL REFERENCES courts (id),
    reservation_type_id   bigint      NOT NULL REFERENCES reservation_types (id),
    reservation_status_id bigint REFERENCES reservation_statuses (id),
    checking              timestamp   NOT NULL,
    checkout              timestamp   NOT NULL,
    notes                 text,
    series_id             bigint REFERENCES booking_series (id) ON DELETE SET NULL,
    coupon_id             bigint REFERENCES coupons (id),
    contract_id           bigint REFERENCES contracts (id),
    created_at            timestamptz NOT NULL DEFAULT now(),
    updated_at            timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT reservations_span_check CHECK (checkout > checking),
    CONSTRAINT reservations_grid_check CHECK (
        date_part('second', checking) = 0 AND date_part('minute', checking)::int % 30 = 0 AND
        date_part('second', checkout) = 0 AND date_part('minute', checkout)::int % 30 = 0),
    CONSTRAINT reservations_discount_check CHECK (coupon_id IS NULL OR contract_id IS NULL),
    CONSTRAINT reservations_no_overlap EXCLUDE USING gist (court_id WITH =, tsrange(checking, checkout, '[)') WITH &&)
);
CREATE INDEX reservations_client_idx ON reservations (client_id);
CREATE INDEX reservations_checking_idx ON reservations (checking);
CREATE INDEX reservations_series_idx ON reservations (series_id);
CREATE INDEX reservations_status_idx ON reservations (reservation_status_id);
CREATE INDEX reservations_type_idx ON reservations (reservation_type_id);

-- The audit trail of coupons applied to bookings; removing a coupon stamps removed_at.
CREATE TABLE applied_coupons (
    id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    reservation_id bigint        NOT NULL REFERENCES reservations (id) ON DELETE CASCADE,
    coupon_id      bigint        NOT NULL REFERENCES coupons (id),
    coupon_code    text          NOT NULL,
    coupon_type    text          NOT NULL,
    applied        numeric(14,2) NOT NULL,
    client_id      bigint REFERENCES clients (id) ON DELETE SET NULL,
    created_at     timestamptz   NOT NULL DEFAULT now(),
    removed_at     timestamptz
);
CREATE INDEX applied_coupons_reservation_idx ON applied_coupons (reservation_id);
CREATE INDEX applied_coupons_coupon_idx ON applied_coupons (coupon_id) WHERE removed_at IS NULL;
