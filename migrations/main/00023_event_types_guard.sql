-- +goose Up
-- A reservation type becomes a type of events only while no plain booking
-- or series uses it: every booking of an event type belongs to an event
-- (the services refuse plain bookings of such types; this holds the
-- change of the type itself).
-- +goose StatementBegin
CREATE FUNCTION reservation_types_event_bookings_check() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM reservations r WHERE r.reservation_type_id = NEW.id
               AND NOT EXISTS (SELECT 1 FROM events e WHERE e.reservation_id = r.id))
       OR EXISTS (SELECT 1 FROM booking_series s WHERE s.reservation_type_id = NEW.id) THEN
        RAISE EXCEPTION 'reservation type % has bookings that are not events', NEW.id
            USING ERRCODE = 'check_violation', CONSTRAINT = 'reservation_types_event_bookings_check';
    END IF;
    RETURN NEW;
END $$;
-- +goose StatementEnd
CREATE TRIGGER reservation_types_event_bookings_check BEFORE UPDATE OF is_event ON reservation_types
    FOR EACH ROW WHEN (NEW.is_event AND NOT OLD.is_event) EXECUTE FUNCTION reservation_types_event_bookings_check();
