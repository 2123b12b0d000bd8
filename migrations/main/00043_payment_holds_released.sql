-- +goose Up
-- A booking released because it was not paid in time says so itself
-- (released_unpaid, set with its cancellation by the job
-- booking_payment_holds), rather than by who cancelled it; and no payment
-- completes on it: an approval settled late goes to the payment inbox
-- (the settling reads the booking first), and a payment staff record as
-- completed, racing the release, is refused here once the release has
-- committed (the payment's foreign key waits for the release's lock), so
-- that the desk does not take money for a court given back.
ALTER TABLE reservations
    ADD COLUMN released_unpaid boolean NOT NULL DEFAULT false,
    ADD CONSTRAINT reservations_released_unpaid_check CHECK (NOT released_unpaid OR cancelled_at IS NOT NULL);

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
    UPDATE reservations SET hold_expires_at = NULL, updated_at = now()
        WHERE id = NEW.reservation_id AND hold_expires_at IS NOT NULL;
    RETURN NULL;
END $$;
-- +goose StatementEnd
