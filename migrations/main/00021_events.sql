-- +goose Up
-- A reservation type is of events when is_event is set: the operator's
-- events book their court with such a type. A type is of training classes
-- (gestion 2) or of events, not both. As for class types, the flag is part
-- of the events' foreign key, so a type in use stays an event type
-- (ON UPDATE RESTRICT).
ALTER TABLE reservation_types
    ADD COLUMN is_event boolean NOT NULL DEFAULT false,
    ADD CONSTRAINT reservation_types_id_is_event_key UNIQUE (id, is_event),
    ADD CONSTRAINT reservation_types_event_class_check CHECK (NOT (is_event AND gestion = 2));

-- The event's booking keeps the event's type: its (id, type) is the
-- events' foreign key.
ALTER TABLE reservations ADD CONSTRAINT reservations_id_type_key UNIQUE (id, reservation_type_id);

-- An operator's event: a title and a number of places on a court booked
-- for it (reservation_id, one booking per event, of the event's type). A
-- scheduled event is cancelled (its booking cancelled with it) or, once it
-- has started, completed; neither moves again. (id, capacity) is unique so
-- that each participant carries the capacity it was seated under.
CREATE TABLE events (
    id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    reservation_id bigint      NOT NULL,
    event_type_id  bigint      NOT NULL,
    is_event       boolean     NOT NULL DEFAULT true CHECK (is_event),
    title          text        NOT NULL CHECK (btrim(title) <> '' AND char_length(title) <= 255),
    capacity       integer     NOT NULL CHECK (capacity BETWEEN 1 AND 1000),
    status         text        NOT NULL DEFAULT 'scheduled' CHECK (status IN ('scheduled', 'cancelled', 'completed')),
    cancelled_at   timestamptz,
    completed_at   timestamptz,
    created_by     bigint      REFERENCES users (id) ON DELETE SET NULL,
    created_at     timestamptz NOT NULL DEFAULT now(),
    updated_at     timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT events_reservation_key UNIQUE (reservation_id),
    CONSTRAINT events_id_capacity_key UNIQUE (id, capacity),
    CONSTRAINT events_reservation_fkey FOREIGN KEY (reservation_id, event_type_id)
        REFERENCES reservations (id, reservation_type_id) ON UPDATE RESTRICT,
    CONSTRAINT events_event_type_fkey FOREIGN KEY (event_type_id, is_event)
        REFERENCES reservation_types (id, is_event) ON UPDATE RESTRICT,
    CONSTRAINT events_cancelled_check CHECK ((status = 'cancelled') = (cancelled_at IS NOT NULL)),
    CONSTRAINT events_completed_check CHECK ((status = 'completed') = (completed_at IS NOT NULL))
);
CREATE INDEX events_event_type_idx ON events (event_type_id);

-- A participant of an event holds one slot, numbered from 1. The database
-- keeps the places: a slot holds one participant, a client sits once in an
-- event, and no slot lies beyond the event's capacity, which each row
-- carries through its foreign key (ON UPDATE CASCADE: a capacity below a
-- seated slot fails the check). The tickets of a later migration add
-- ticket_id (unique) and strip_id beside client_id.
CREATE TABLE event_participants (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    event_id   bigint      NOT NULL,
    capacity   integer     NOT NULL,
    client_id  bigint      NOT NULL REFERENCES clients (id),
    slot       integer     NOT NULL CHECK (slot >= 1),
    created_by bigint      REFERENCES users (id) ON DELETE SET NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT event_participants_event_fkey FOREIGN KEY (event_id, capacity)
        REFERENCES events (id, capacity) ON UPDATE CASCADE ON DELETE CASCADE,
    CONSTRAINT event_participants_capacity_check CHECK (slot <= capacity),
    CONSTRAINT event_participants_slot_key UNIQUE (event_id, slot),
    CONSTRAINT event_participants_client_key UNIQUE (event_id, client_id)
);
CREATE INDEX event_participants_client_idx ON event_participants (client_id);

-- An event's booking is freed by its event (cancel, delete), never
-- cancelled on its own while the event is scheduled: the event would keep
-- a court it no longer holds. Its deletion is refused by the foreign key.
-- +goose StatementBegin
CREATE FUNCTION reservations_event_check() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.cancelled_at IS NOT NULL AND OLD.cancelled_at IS NULL
       AND EXISTS (SELECT 1 FROM events WHERE reservation_id = NEW.id AND status = 'scheduled') THEN
        RAISE EXCEPTION 'booking % holds an event', NEW.id
            USING ERRCODE = 'check_violation', CONSTRAINT = 'reservations_event_check';
    END IF;
    RETURN NEW;
END $$;
-- +goose StatementEnd
CREATE TRIGGER reservations_event_check BEFORE UPDATE OF cancelled_at ON reservations
    FOR EACH ROW EXECUTE FUNCTION reservations_event_check();
