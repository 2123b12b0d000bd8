-- +goose Up
-- A booking whose payment hold a completed payment settles (migration
-- 00042's trigger clears hold_expires_at) is a booking changed, which the
-- event log tells (booking.updated): the trigger notes which transaction
-- settled it, so that the payments service, which completed the payment by
-- any of its paths, records the booking's event in that transaction
-- (booking.Bookings.RecordHoldSettled), each settlement once.
ALTER TABLE reservations ADD COLUMN hold_settled_xact xid8;

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION payments_confirm_hold() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND OLD.status THEN
        RETURN NULL; -- completed before: nothing new
    END IF;
    IF EXISTS (SELECT 1 FROM reservations WHERE id = NEW.reservation_id AND released_unpaid) THEN
        RAISE EXCEPTION 'booking % was released unpaid', NEW.reservation_id
            USING ERRCODE = 'check_violation', CONSTRAINT = 'payments_booking_released';
    END IF;
    UPDATE reservations SET hold_expires_at = NULL, hold_settled_xact = pg_current_xact_id(), updated_at = now()
        WHERE id = NEW.reservation_id AND hold_expires_at IS NOT NULL;
    RETURN NULL;
END $$;
-- +goose StatementEnd
