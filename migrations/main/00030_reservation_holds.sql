-- +goose Up
-- A booking may be held by a record of another domain that took the court
-- through it: held_by names the kind of holder, which the holding domain
-- declares (a class's sessions 'class', an event 'event', ...), holder_id
-- the holder's id. A hold is given when the booking is made
-- (booking.Bookings.Reserve, in the holder's transaction) and only its
-- holder lets go of it. A held booking changes only through its holder:
-- one guard replaces the class sessions' and the events' own triggers.
ALTER TABLE reservations
    ADD COLUMN held_by   text CHECK (held_by ~ '^[a-z][a-z_]{0,31}$'),
    ADD COLUMN holder_id bigint,
    ADD CONSTRAINT reservations_holder_check CHECK ((held_by IS NULL) = (holder_id IS NULL)),
    ADD CONSTRAINT reservations_hold_key UNIQUE (id, held_by, holder_id);

UPDATE reservations r SET held_by = 'class', holder_id = s.class_id
    FROM class_sessions s WHERE s.reservation_id = r.id;
UPDATE reservations r SET held_by = 'event', holder_id = e.id
    FROM events e WHERE e.reservation_id = r.id;

-- The holders name their bookings through the hold, so that a session or
-- an event names only a booking it holds, and the hold stays while they
-- name it (ON UPDATE RESTRICT).
ALTER TABLE class_sessions
    ADD COLUMN held_by text NOT NULL DEFAULT 'class' CHECK (held_by = 'class'),
    ADD CONSTRAINT class_sessions_hold_fkey FOREIGN KEY (reservation_id, held_by, class_id)
        REFERENCES reservations (id, held_by, holder_id) ON UPDATE RESTRICT;
ALTER TABLE events
    ADD COLUMN held_by text NOT NULL DEFAULT 'event' CHECK (held_by = 'event'),
    ADD CONSTRAINT events_hold_fkey FOREIGN KEY (reservation_id, held_by, id)
        REFERENCES reservations (id, held_by, holder_id) ON UPDATE RESTRICT;

DROP TRIGGER reservations_class_session_check ON reservations;
DROP FUNCTION reservations_class_session_check();
DROP TRIGGER reservations_event_check ON reservations;
DROP FUNCTION reservations_event_check();

-- The guard: a held booking is changed (where, when, of which type, whose,
-- its status, notes, discount, no-show mark), cancelled, deleted or let go
-- only by its holder, which names itself for the statement in the
-- transaction's setting clubhouse.holder ('kind:id'); a hold is given only
-- with the booking and never handed to another. What deleting a user or a
-- series sets (operator_id, series_id) stays possible. The HINT names the
-- booking and its holder ('id kind holder_id') for the refusal's message.
-- +goose StatementBegin
CREATE FUNCTION reservations_held_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.held_by IS NULL
       OR current_setting('clubhouse.holder', true) IS DISTINCT FROM OLD.held_by || ':' || OLD.holder_id
       OR (TG_OP = 'UPDATE' AND NEW.held_by IS NOT NULL
           AND (NEW.held_by, NEW.holder_id) IS DISTINCT FROM (OLD.held_by, OLD.holder_id)) THEN
        RAISE EXCEPTION 'booking % is held by % %', OLD.id, coalesce(OLD.held_by, 'nobody'), OLD.holder_id
            USING ERRCODE = 'check_violation', CONSTRAINT = 'reservations_held_guard',
                  HINT = OLD.id || coalesce(' ' || OLD.held_by || ' ' || OLD.holder_id, '');
    END IF;
    IF TG_OP = 'DELETE' THEN
        RETURN OLD;
    END IF;
    RETURN NEW;
END $$;
-- +goose StatementEnd
CREATE TRIGGER reservations_held_guard
    BEFORE UPDATE OF client_id, court_id, reservation_type_id, reservation_status_id, checking, checkout, notes,
        coupon_id, contract_id, cancelled_at, cancelled_by, no_show_at, no_show_by, held_by, holder_id
    ON reservations FOR EACH ROW WHEN (OLD.held_by IS NOT NULL OR NEW.held_by IS NOT NULL)
    EXECUTE FUNCTION reservations_held_guard();
CREATE TRIGGER reservations_held_guard_delete BEFORE DELETE ON reservations
    FOR EACH ROW WHEN (OLD.held_by IS NOT NULL) EXECUTE FUNCTION reservations_held_guard();

-- A reservation type becomes one kept for held bookings (is_event) only
-- while no booking of it is held by nothing and no series uses it:
-- migration 00023's check, read from the hold rather than from the events.
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION reservation_types_event_bookings_check() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM reservations r WHERE r.reservation_type_id = NEW.id AND r.held_by IS NULL)
       OR EXISTS (SELECT 1 FROM booking_series s WHERE s.reservation_type_id = NEW.id) THEN
        RAISE EXCEPTION 'reservation type % has bookings that nothing holds', NEW.id
            USING ERRCODE = 'check_violation', CONSTRAINT = 'reservation_types_event_bookings_check';
    END IF;
    RETURN NEW;
END $$;
-- +goose StatementEnd
