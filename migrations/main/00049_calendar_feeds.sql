-- +goose Up
-- The calendar feeds (package calendar): a member's feed of their
-- bookings, class sessions and events, a court's feed, a trainer's feed of
-- their classes. Each is reached at a URL with a secret token, which the
-- database keeps only as its SHA-256 (token_hash), beside the random nonce
-- the server derives the token from with its own key (so that the server,
-- and nobody holding only this table, can show the URL again). One feed per
-- subject: a new token replaces the old one (a new nonce and hash), and a
-- revoked feed is deleted. A feed goes with its subject.
CREATE TABLE calendar_feeds (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    kind       text        NOT NULL CHECK (kind IN ('member', 'court', 'trainer')),
    client_id  bigint      REFERENCES clients (id) ON DELETE CASCADE,
    court_id   bigint      REFERENCES courts (id) ON DELETE CASCADE,
    trainer_id bigint      REFERENCES users (id) ON DELETE CASCADE,
    nonce      bytea       NOT NULL CHECK (octet_length(nonce) = 16),
    token_hash bytea       NOT NULL CHECK (octet_length(token_hash) = 32),
    created_by text        NOT NULL CHECK (char_length(created_by) BETWEEN 1 AND 320),
    created_at timestamptz NOT NULL,
    CONSTRAINT calendar_feeds_subject_check CHECK (
        (kind = 'member') = (client_id IS NOT NULL) AND
        (kind = 'court') = (court_id IS NOT NULL) AND
        (kind = 'trainer') = (trainer_id IS NOT NULL)),
    CONSTRAINT calendar_feeds_token_key UNIQUE (token_hash)
);
CREATE UNIQUE INDEX calendar_feeds_client_key ON calendar_feeds (client_id) WHERE client_id IS NOT NULL;
CREATE UNIQUE INDEX calendar_feeds_court_key ON calendar_feeds (court_id) WHERE court_id IS NOT NULL;
CREATE UNIQUE INDEX calendar_feeds_trainer_key ON calendar_feeds (trainer_id) WHERE trainer_id IS NOT NULL;

-- The SEQUENCE of each calendar entry (RFC 5545, 3.8.7.4): how many times
-- what a feed shows of a booking, a class, an enrollment or an event has
-- changed. Triggers count the changes wherever they are made (any service,
-- any database trigger), only when a column a feed shows changes, so that a
-- calendar replaces its copy; a row without changes has none here (0). A
-- row deleted takes its count with it.
CREATE TABLE calendar_sequences (
    kind     text    NOT NULL CHECK (kind IN ('booking', 'class', 'enrollment', 'event')),
    id       bigint  NOT NULL,
    sequence integer NOT NULL CHECK (sequence >= 1),
    PRIMARY KEY (kind, id)
);

-- +goose StatementBegin
CREATE FUNCTION calendar_sequence_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO calendar_sequences (kind, id, sequence) VALUES (TG_ARGV[0], NEW.id, 1)
        ON CONFLICT (kind, id) DO UPDATE SET sequence = calendar_sequences.sequence + 1;
    RETURN NULL;
END $$;
CREATE FUNCTION calendar_sequence_forget() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM calendar_sequences WHERE kind = TG_ARGV[0] AND id = OLD.id;
    RETURN NULL;
END $$;
-- +goose StatementEnd

CREATE TRIGGER reservations_calendar_sequence
    AFTER UPDATE OF checking, checkout, court_id, reservation_type_id, cancelled_at, hold_expires_at ON reservations
    FOR EACH ROW WHEN ((OLD.checking, OLD.checkout, OLD.court_id, OLD.reservation_type_id, OLD.cancelled_at, OLD.hold_expires_at)
        IS DISTINCT FROM (NEW.checking, NEW.checkout, NEW.court_id, NEW.reservation_type_id, NEW.cancelled_at, NEW.hold_expires_at))
    EXECUTE FUNCTION calendar_sequence_bump('booking');
CREATE TRIGGER reservations_calendar_sequence_forget AFTER DELETE ON reservations
    FOR EACH ROW EXECUTE FUNCTION calendar_sequence_forget('booking');

CREATE TRIGGER training_classes_calendar_sequence
    AFTER UPDATE OF title, description, court_id, start_date, end_date, recurrence_days, start_time, end_time, status ON training_classes
    FOR EACH ROW WHEN ((OLD.title, OLD.description, OLD.court_id, OLD.start_date, OLD.end_date, OLD.recurrence_days, OLD.start_time, OLD.end_time, OLD.status)
        IS DISTINCT FROM (NEW.title, NEW.description, NEW.court_id, NEW.start_date, NEW.end_date, NEW.recurrence_days, NEW.start_time, NEW.end_time, NEW.status))
    EXECUTE FUNCTION calendar_sequence_bump('class');
CREATE TRIGGER training_classes_calendar_sequence_forget AFTER DELETE ON training_classes
    FOR EACH ROW EXECUTE FUNCTION calendar_sequence_forget('class');

CREATE TRIGGER enrollments_calendar_sequence AFTER UPDATE OF status ON enrollments
    FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status)
    EXECUTE FUNCTION calendar_sequence_bump('enrollment');
CREATE TRIGGER enrollments_calendar_sequence_forget AFTER DELETE ON enrollments
    FOR EACH ROW EXECUTE FUNCTION calendar_sequence_forget('enrollment');

CREATE TRIGGER events_calendar_sequence AFTER UPDATE OF title, status ON events
    FOR EACH ROW WHEN ((OLD.title, OLD.status) IS DISTINCT FROM (NEW.title, NEW.status))
    EXECUTE FUNCTION calendar_sequence_bump('event');
CREATE TRIGGER events_calendar_sequence_forget AFTER DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION calendar_sequence_forget('event');
