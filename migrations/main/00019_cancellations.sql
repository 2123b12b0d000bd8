-- +goose Up
-- A cancelled booking stays, with who cancelled it and when; it no longer
-- holds its court, so the no-overlap rule covers only bookings not
-- cancelled. Staff mark a booking that started without its players a
-- no-show, with who marked it and when; a cancelled booking is never one.
ALTER TABLE reservations
    ADD COLUMN cancelled_at timestamptz,
    ADD COLUMN cancelled_by text,
    ADD COLUMN no_show_at   timestamptz,
    ADD COLUMN no_show_by   text,
    ADD CONSTRAINT reservations_cancelled_check CHECK ((cancelled_at IS NULL) = (cancelled_by IS NULL)),
    ADD CONSTRAINT reservations_no_show_check CHECK ((no_show_at IS NULL) = (no_show_by IS NULL)
        AND (no_show_at IS NULL OR cancelled_at IS NULL));

ALTER TABLE reservations DROP CONSTRAINT reservations_no_overlap;
ALTER TABLE reservations ADD CONSTRAINT reservations_no_overlap
    EXCLUDE USING gist (court_id WITH =, tsrange(checking, checkout, '[)') WITH &&) WHERE (cancelled_at IS NULL);


-- A class session's booking is freed by its class (cancel, complete, a
-- schedule change), never cancelled on its own: the session would keep a
-- court it no longer holds.
-- +goose StatementBegin
CREATE FUNCTION reservations_class_session_check() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.cancelled_at IS NOT NULL AND OLD.cancelled_at IS NULL
       AND EXISTS (SELECT 1 FROM class_sessions WHERE reservation_id = NEW.id) THEN
        RAISE EXCEPTION 'booking % holds a class session', NEW.id
            USING ERRCODE = 'check_violation', CONSTRAINT = 'reservations_class_session_check';
    END IF;
    RETURN NEW;
END $$;
-- +goose StatementEnd
CREATE TRIGGER reservations_class_session_check BEFORE UPDATE OF cancelled_at ON reservations
    FOR EACH ROW EXECUTE FUNCTION reservations_class_session_check();
