-- +goose Up
-- A package may limit how long its tickets last: valid_days after the day
-- of the sale (null: they never expire).
ALTER TABLE ticket_packages ADD COLUMN valid_days integer CHECK (valid_days BETWEEN 1 AND 3650);

-- A sale issues tickets of a package to a buyer (not necessarily a
-- client: a name and a document), at the figures of the package or of the
-- quote it names. A quote makes one sale at most. The sale never changes;
-- its unused tickets may be refunded (ticket_refunds).
CREATE TABLE ticket_sales (
    id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    package_id     bigint        NOT NULL REFERENCES ticket_packages (id),
    quote_id       uuid          REFERENCES ticket_quotes (id),
    ticket_count   integer       NOT NULL CHECK (ticket_count BETWEEN 1 AND 1000),
    unit_price     numeric(12,2) NOT NULL CHECK (unit_price >= 0),
    total          numeric(16,2) NOT NULL CHECK (total = unit_price * ticket_count),
    buyer_name     text          NOT NULL CHECK (btrim(buyer_name) <> '' AND char_length(buyer_name) <= 255),
    buyer_document text          NOT NULL CHECK (btrim(buyer_document) <> '' AND char_length(buyer_document) <= 64),
    buyer_email    text          CHECK (char_length(buyer_email) <= 254),
    phones         text[]        NOT NULL DEFAULT '{}' CHECK (cardinality(phones) <= 10),
    expires_at     timestamptz,
    sold_by        bigint        REFERENCES users (id) ON DELETE SET NULL,
    sold_by_label  text          NOT NULL,
    created_at     timestamptz   NOT NULL DEFAULT now(),
    CONSTRAINT ticket_sales_quote_key UNIQUE (quote_id)
);
CREATE INDEX ticket_sales_package_idx ON ticket_sales (package_id);
CREATE INDEX ticket_sales_created_idx ON ticket_sales (created_at);

-- A strip is the card a sale hands over: at most the package's ticket
-- count of tickets, numbered from 1 within the sale.
CREATE TABLE ticket_strips (
    id       bigint  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    sale_id  bigint  NOT NULL REFERENCES ticket_sales (id),
    position integer NOT NULL CHECK (position >= 1),
    CONSTRAINT ticket_strips_position_key UNIQUE (sale_id, position)
);

-- Unused tickets of a sale given back to the buyer: amount is their
-- price, paid back by the sale's payment type.
CREATE TABLE ticket_refunds (
    id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    sale_id         bigint        NOT NULL REFERENCES ticket_sales (id),
    ticket_count    integer       NOT NULL CHECK (ticket_count >= 1),
    amount          numeric(16,2) NOT NULL CHECK (amount >= 0),
    payment_type_id bigint        REFERENCES payment_types (id),
    reason          text          NOT NULL CHECK (btrim(reason) <> '' AND char_length(reason) <= 500),
    refunded_by     bigint        REFERENCES users (id) ON DELETE SET NULL,
    refunded_by_label text        NOT NULL,
    created_at      timestamptz   NOT NULL DEFAULT now()
);
CREATE INDEX ticket_refunds_sale_idx ON ticket_refunds (sale_id);

-- A ticket: an unguessable code (12 characters of an alphabet without 0,
-- O, 1 and I) and its price. Its status moves from available to used
-- (seated in an event; back to available when the participant is removed),
-- to expired or to refunded; the last two are final. An event participant
-- row holds a used ticket (event_participants.ticket_id), and the triggers
-- below keep the two in step.
CREATE TABLE tickets (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    strip_id   bigint        NOT NULL REFERENCES ticket_strips (id),
    sale_id    bigint        NOT NULL REFERENCES ticket_sales (id),
    code       text          NOT NULL CHECK (code ~ '^[2-9A-HJ-NP-Z]{12}$'),
    unit_price numeric(12,2) NOT NULL CHECK (unit_price >= 0),
    status     text          NOT NULL DEFAULT 'available'
        CHECK (status IN ('available', 'used', 'expired', 'refunded')),
    expires_at timestamptz,
    used_at    timestamptz,
    expired_at timestamptz,
    refund_id  bigint        REFERENCES ticket_refunds (id),
    CONSTRAINT tickets_code_key UNIQUE (code),
    CONSTRAINT tickets_id_strip_key UNIQUE (id, strip_id),
    CONSTRAINT tickets_used_check CHECK ((status = 'used') = (used_at IS NOT NULL)),
    CONSTRAINT tickets_expired_check CHECK ((status = 'expired') = (expired_at IS NOT NULL)),
    CONSTRAINT tickets_refunded_check CHECK ((status = 'refunded') = (refund_id IS NOT NULL))
);
CREATE INDEX tickets_strip_idx ON tickets (strip_id);
CREATE INDEX tickets_sale_idx ON tickets (sale_id);
CREATE INDEX tickets_refund_idx ON tickets (refund_id);
CREATE INDEX tickets_expiry_idx ON tickets (expires_at) WHERE status = 'available' AND expires_at IS NOT NULL;

-- Expired and refunded are final; used goes back to available only.
-- +goose StatementBegin
CREATE FUNCTION tickets_status_moves() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NOT (OLD.status = 'available' OR (OLD.status = 'used' AND NEW.status = 'available')) THEN
        RAISE EXCEPTION 'ticket % is %; it cannot become %', OLD.id, OLD.status, NEW.status
            USING ERRCODE = 'check_violation', CONSTRAINT = 'tickets_status_moves';
    END IF;
    RETURN NEW;
END $$;
-- +goose StatementEnd
CREATE TRIGGER tickets_status_moves BEFORE UPDATE OF status ON tickets
    FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION tickets_status_moves();

-- A ticket sits in at most one participant row; the row carries the
-- ticket's strip. A participant is a client or a ticket, never both.
ALTER TABLE event_participants
    ALTER COLUMN client_id DROP NOT NULL,
    ADD COLUMN ticket_id bigint,
    ADD COLUMN strip_id  bigint,
    ADD CONSTRAINT event_participants_ticket_key UNIQUE (ticket_id),
    ADD CONSTRAINT event_participants_ticket_fkey FOREIGN KEY (ticket_id, strip_id) REFERENCES tickets (id, strip_id),
    ADD CONSTRAINT event_participants_holder_check CHECK (num_nonnulls(client_id, ticket_id) = 1
        AND (ticket_id IS NULL) = (strip_id IS NULL));

-- A sale's payment: the third owner a payment may have.
ALTER TABLE payments
    ADD COLUMN ticket_sale_id bigint REFERENCES ticket_sales (id),
    DROP CONSTRAINT payments_one_owner,
    ADD CONSTRAINT payments_one_owner CHECK (num_nonnulls(reservation_id, enrollment_id, ticket_sale_id) = 1);
CREATE UNIQUE INDEX payments_ticket_sale_key ON payments (ticket_sale_id);

-- A sale's payment is part of the sale: its money, status and owner never
-- change on their own and it is never deleted (unused tickets are
-- refunded instead).
-- +goose StatementBegin
CREATE FUNCTION payments_ticket_sale_frozen() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'payment % pays ticket sale %', OLD.id, OLD.ticket_sale_id
        USING ERRCODE = 'check_violation', CONSTRAINT = 'payments_ticket_sale_frozen';
END $$;
-- +goose StatementEnd
CREATE TRIGGER payments_ticket_sale_frozen
    BEFORE UPDATE OF amount, status, status_detail, payment_type_id, date, reservation_id, enrollment_id, ticket_sale_id
    ON payments FOR EACH ROW WHEN (OLD.ticket_sale_id IS NOT NULL)
    EXECUTE FUNCTION payments_ticket_sale_frozen();
CREATE TRIGGER payments_ticket_sale_undeleted BEFORE DELETE ON payments
    FOR EACH ROW WHEN (OLD.ticket_sale_id IS NOT NULL) EXECUTE FUNCTION payments_ticket_sale_frozen();

-- The outbox carries the ticket movements beside the payments: source
-- names what owes the posting and source_id its row (payment_id for
-- payments), so the poster's idempotency key is <source>:<id>:<kind>. A
-- ticket sale's payment is credited to deferred revenue (for_tickets); a
-- ticket's use (ticket_use: the participant row) moves its price to
-- income, and its return (kind reverse) moves it back; an expiry
-- (ticket_expiry: the ticket) recognizes the price as income; a refund
-- (ticket_refund: the refund) pays the liability back.
ALTER TABLE ledger_outbox
    ALTER COLUMN payment_id DROP NOT NULL,
    ADD COLUMN for_tickets boolean NOT NULL DEFAULT false,
    ADD COLUMN source      text    NOT NULL DEFAULT 'payment'
        CHECK (source IN ('payment', 'ticket_use', 'ticket_expiry', 'ticket_refund')),
    ADD COLUMN source_id   bigint,
    ADD CONSTRAINT ledger_outbox_source_row_check CHECK ((source = 'payment') = (payment_id IS NOT NULL)
        AND (source = 'payment') = (source_id IS NULL));
CREATE UNIQUE INDEX ledger_outbox_source_key ON ledger_outbox (source, source_id, kind) WHERE source_id IS NOT NULL;

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION payments_to_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        IF OLD.status THEN
            INSERT INTO ledger_outbox (payment_id, kind, paid_at, amount, payment_type_id, for_enrollment, for_tickets)
            VALUES (OLD.id, 'reverse', OLD.date, OLD.amount, OLD.payment_type_id, OLD.enrollment_id IS NOT NULL,
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
        VALUES (NEW.id, 'reverse', NEW.date, OLD.amount, OLD.payment_type_id, OLD.enrollment_id IS NOT NULL,
                OLD.ticket_sale_id IS NOT NULL)
        ON CONFLICT DO NOTHING;
    END IF;
    RETURN NEW;
END $$;
-- +goose StatementEnd

-- Seating a ticket uses it, if it is available and has not expired;
-- removing the participant returns it. Each posts its price's move.
-- +goose StatementBegin
CREATE FUNCTION event_participants_ticket_use() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    price numeric;
BEGIN
    IF TG_OP = 'INSERT' THEN
        UPDATE tickets SET status = 'used', used_at = NEW.created_at
            WHERE id = NEW.ticket_id AND status = 'available' AND (expires_at IS NULL OR expires_at > NEW.created_at)
            RETURNING unit_price INTO price;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'ticket % is not available', NEW.ticket_id
                USING ERRCODE = 'check_violation', CONSTRAINT = 'tickets_available_check';
        END IF;
        IF price > 0 THEN
            INSERT INTO ledger_outbox (source, source_id, kind, paid_at, amount, for_enrollment, for_tickets)
            VALUES ('ticket_use', NEW.id, 'post', NEW.created_at, price, false, true);
        END IF;
        RETURN NEW;
    END IF;
    UPDATE tickets SET status = 'available', used_at = NULL WHERE id = OLD.ticket_id AND status = 'used'
        RETURNING unit_price INTO price;
    IF FOUND AND price > 0 THEN
        INSERT INTO ledger_outbox (source, source_id, kind, paid_at, amount, for_enrollment, for_tickets)
        VALUES ('ticket_use', OLD.id, 'reverse', now(), price, false, true);
    END IF;
    RETURN OLD;
END $$;
-- +goose StatementEnd
CREATE TRIGGER event_participants_ticket_used AFTER INSERT ON event_participants
    FOR EACH ROW WHEN (NEW.ticket_id IS NOT NULL) EXECUTE FUNCTION event_participants_ticket_use();
CREATE TRIGGER event_participants_ticket_returned AFTER DELETE ON event_participants
    FOR EACH ROW WHEN (OLD.ticket_id IS NOT NULL) EXECUTE FUNCTION event_participants_ticket_use();

-- An expired ticket's price is income (breakage).
-- +goose StatementBegin
CREATE FUNCTION tickets_expiry_to_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.unit_price > 0 THEN
        INSERT INTO ledger_outbox (source, source_id, kind, paid_at, amount, for_enrollment, for_tickets)
        VALUES ('ticket_expiry', NEW.id, 'post', NEW.expired_at, NEW.unit_price, false, true)
        ON CONFLICT DO NOTHING;
    END IF;
    RETURN NEW;
END $$;
-- +goose StatementEnd
CREATE TRIGGER tickets_expired AFTER UPDATE OF status ON tickets
    FOR EACH ROW WHEN (NEW.status = 'expired' AND OLD.status <> 'expired') EXECUTE FUNCTION tickets_expiry_to_outbox();

-- A refund pays back the liability of the tickets it returns.
-- +goose StatementBegin
CREATE FUNCTION ticket_refunds_to_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.amount > 0 THEN
        INSERT INTO ledger_outbox (source, source_id, kind, paid_at, amount, payment_type_id, for_enrollment, for_tickets)
        VALUES ('ticket_refund', NEW.id, 'post', NEW.created_at, NEW.amount, NEW.payment_type_id, false, true);
    END IF;
    RETURN NEW;
END $$;
-- +goose StatementEnd
CREATE TRIGGER ticket_refunds_outbox AFTER INSERT ON ticket_refunds
    FOR EACH ROW EXECUTE FUNCTION ticket_refunds_to_outbox();
