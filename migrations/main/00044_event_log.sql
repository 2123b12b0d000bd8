-- +goose Up
-- The club's event log (package eventlog): one row per domain change,
-- written in the change's own transaction, so that a change that rolls
-- back leaves no event. Writers commit out of order, so an event gets its
-- place in the log (position) only once committed: the sequencer (one at a
-- time, under an advisory lock) numbers the committed events that have
-- none, after every place given before, and readers follow positions. An
-- event committed late gets a later place, so a reader's cursor never
-- skips one. id is the event's stable id, the same wherever it is
-- delivered.
CREATE TABLE event_log (
    seq      bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    position bigint      CONSTRAINT event_log_position_key UNIQUE,
    id       uuid        NOT NULL DEFAULT gen_random_uuid() CONSTRAINT event_log_id_key UNIQUE,
    type     text        NOT NULL CHECK (type ~ '^[a-z]+(_[a-z]+)*\.[a-z]+(_[a-z]+)*$'),
    at       timestamptz NOT NULL,
    actor    text        NOT NULL CHECK (char_length(actor) BETWEEN 1 AND 320),
    payload  jsonb       NOT NULL
);
-- The events waiting for their place, which the sequencer takes in the
-- order written.
CREATE INDEX event_log_unplaced_idx ON event_log (seq) WHERE position IS NULL;
-- The retention's deletions go by age.
CREATE INDEX event_log_at_idx ON event_log (at);
-- The last place given: positions only grow, even once every event they
-- numbered is deleted.
CREATE TABLE event_log_sequence (
    one           boolean PRIMARY KEY DEFAULT true CHECK (one),
    last_position bigint  NOT NULL DEFAULT 0
);
INSERT INTO event_log_sequence DEFAULT VALUES;
