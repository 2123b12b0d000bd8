-- +goose Up
-- Bookings held until paid (booking.Rules.PaymentRequired): with the club
-- rule payment_required, a client's booking with a price is created
-- awaiting payment, holding its court until hold_expires_at (at most
-- payment_hold_minutes after it is made, and never past its start). A
-- completed payment on it confirms it (the trigger below, in the payment's
-- own transaction); one not paid in time is released by the job
-- booking_payment_holds, which cancels it. A cancelled booking, and one
-- that a class or an event holds, awaits no payment.
ALTER TABLE club_rules
    ADD COLUMN payment_required boolean NOT NULL DEFAULT false,
    ADD COLUMN payment_hold_minutes smallint NOT NULL DEFAULT 15
        CONSTRAINT club_rules_payment_hold_minutes_check CHECK (payment_hold_minutes BETWEEN 1 AND 120);
ALTER TABLE reservations
    ADD COLUMN hold_expires_at timestamptz,
    ADD CONSTRAINT reservations_payment_hold_check CHECK (hold_expires_at IS NULL OR (cancelled_at IS NULL AND held_by IS NULL));
CREATE INDEX reservations_hold_expires_idx ON reservations (hold_expires_at) WHERE hold_expires_at IS NOT NULL;

-- A payment that completes (recorded completed by staff, a claim staff
-- accept, a gateway's approval) confirms the booking it pays, when that
-- booking awaits payment and is not cancelled. The update locks the
-- booking only when it awaits payment, so that a payment and the job's
-- release of the same booking are one after the other: whichever commits
-- first, the other sees it.
-- +goose StatementBegin
CREATE FUNCTION payments_confirm_hold() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE reservations SET hold_expires_at = NULL, updated_at = now()
        WHERE id = NEW.reservation_id AND hold_expires_at IS NOT NULL;
    RETURN NULL;
END $$;
-- +goose StatementEnd
CREATE TRIGGER payments_confirm_hold AFTER INSERT OR UPDATE OF status ON payments
    FOR EACH ROW WHEN (NEW.status AND NEW.reservation_id IS NOT NULL)
    EXECUTE FUNCTION payments_confirm_hold();
