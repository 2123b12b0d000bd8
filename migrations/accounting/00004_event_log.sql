-- +goose Up
-- The events of the ledger's changes (period.closed, period.reopened),
-- written in each change's own transaction, so that a change that rolls
-- back leaves none. They wait here until the club's forwarder
-- (eventlog.Log.Forward) copies them into the club's event log in the main
-- database, with their ids here (its source_id), and deletes them: a copy
-- repeated after a crash finds the id there and adds nothing.
CREATE TABLE event_log (
    seq     bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id      uuid        NOT NULL DEFAULT gen_random_uuid() CONSTRAINT event_log_id_key UNIQUE,
    type    text        NOT NULL CHECK (strpos(type, '.') > 1),
    at      timestamptz NOT NULL,
    actor   text        NOT NULL CHECK (char_length(actor) BETWEEN 1 AND 320),
    payload json        NOT NULL
);
