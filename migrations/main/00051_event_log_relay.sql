-- +goose Up
-- The realtime relay follows the event log (eventlog.Message): a change
-- records the messages it sends in its own transaction, in the column
-- relay of a row of the log (a JSON array of {event, users, rooms, all,
-- data}), so that the relay sends a message only once its change commits,
-- never one of a change rolled back, and in the log's order. A row carries
-- an event, messages, or both: a change that sends messages but records
-- no event writes a row of messages alone, which readers of events skip
-- (its type is null).
ALTER TABLE event_log ADD COLUMN relay json,
    ALTER COLUMN type DROP NOT NULL,
    ALTER COLUMN actor DROP NOT NULL,
    ALTER COLUMN payload DROP NOT NULL,
    ADD CONSTRAINT event_log_event_or_relay CHECK (CASE WHEN type IS NULL
        THEN actor IS NULL AND payload IS NULL AND relay IS NOT NULL
        ELSE actor IS NOT NULL AND payload IS NOT NULL END);
