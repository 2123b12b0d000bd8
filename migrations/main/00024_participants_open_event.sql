-- +goose Up
-- A participant joins a scheduled event only. The seating reads the event
-- with a share lock, so a seating that races with the event's cancel or
-- completion waits for it and then sees its new status: no one is seated
-- (and no ticket used) in an event that has just closed.
-- +goose StatementBegin
CREATE FUNCTION event_participants_event_open() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM 1 FROM events WHERE id = NEW.event_id AND status = 'scheduled' FOR SHARE;
    IF NOT FOUND AND EXISTS (SELECT 1 FROM events WHERE id = NEW.event_id) THEN
        RAISE EXCEPTION 'event % is not scheduled', NEW.event_id
            USING ERRCODE = 'check_violation', CONSTRAINT = 'event_participants_event_open_check';
    END IF;
    RETURN NEW;
END $$;
-- +goose StatementEnd
CREATE TRIGGER event_participants_event_open BEFORE INSERT ON event_participants
    FOR EACH ROW EXECUTE FUNCTION event_participants_event_open();
