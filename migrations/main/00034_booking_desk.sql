-- +goose Up
-- The front desk checks a booking's players in when they arrive, with who
-- did and when. A booking checked in is never a no-show: the players came.
ALTER TABLE reservations
    ADD COLUMN checked_in_at timestamptz,
    ADD COLUMN checked_in_by text,
    ADD CONSTRAINT reservations_checked_in_check CHECK ((checked_in_at IS NULL) = (checked_in_by IS NULL)),
    ADD CONSTRAINT reservations_checked_in_no_show CHECK (checked_in_at IS NULL OR no_show_at IS NULL);

-- A check-in is a change like a no-show mark: a held booking is checked in
-- only by its holder (migration 00030's guard), and a cancelled booking
-- never is (migration 00019's).
DROP TRIGGER reservations_held_guard ON reservations;
CREATE TRIGGER reservations_held_guard
    BEFORE UPDATE OF client_id, court_id, reservation_type_id, reservation_status_id, checking, checkout, notes,
        coupon_id, contract_id, cancelled_at, cancelled_by, no_show_at, no_show_by, checked_in_at, checked_in_by,
        held_by, holder_id
    ON reservations FOR EACH ROW WHEN (OLD.held_by IS NOT NULL OR NEW.held_by IS NOT NULL)
    EXECUTE FUNCTION reservations_held_guard();
DROP TRIGGER reservations_cancelled_frozen ON reservations;
CREATE TRIGGER reservations_cancelled_frozen
    BEFORE UPDATE OF client_id, court_id, reservation_type_id, reservation_status_id, checking, checkout, notes,
        coupon_id, contract_id, cancelled_at, cancelled_by, checked_in_at, checked_in_by
    ON reservations FOR EACH ROW WHEN (OLD.cancelled_at IS NOT NULL)
    EXECUTE FUNCTION reservations_cancelled_frozen();

-- A booking's history: one row per change made through booking.Bookings,
-- written in the change's own transaction: who (the label a cancellation
-- records), when, what, the court and span before and after a move, the
-- staff's reason, and whether the change went against the club's rules.
-- It goes with its booking.
CREATE TABLE reservation_history (
    id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    reservation_id   bigint      NOT NULL REFERENCES reservations (id) ON DELETE CASCADE,
    at               timestamptz NOT NULL,
    actor            text        NOT NULL,
    action           text        NOT NULL CHECK (action IN ('created', 'moved', 'resized', 'changed', 'cancelled',
        'no_show', 'no_show_cleared', 'checked_in', 'check_in_undone', 'coupon', 'contract')),
    from_court       bigint,
    from_checking    timestamp,
    from_checkout    timestamp,
    to_court         bigint,
    to_checking      timestamp,
    to_checkout      timestamp,
    reason           text CHECK (char_length(reason) BETWEEN 1 AND 500),
    rules_overridden boolean     NOT NULL DEFAULT false,
    CONSTRAINT reservation_history_from_check CHECK ((from_checking IS NULL) = (from_checkout IS NULL)),
    CONSTRAINT reservation_history_to_check CHECK ((to_checking IS NULL) = (to_checkout IS NULL))
);
CREATE INDEX reservation_history_reservation_idx ON reservation_history (reservation_id, id);
