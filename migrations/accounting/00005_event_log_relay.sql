-- +goose Up
-- The realtime relay's messages of the ledger's changes (ledger:posted,
-- period:closed, period:reopened) wait here with its events, in the column
-- relay, until the club's forwarder (eventlog.Log.Forward) moves them into
-- the club's log, which the relay follows: as in the main database's
-- migration 00051, a row carries an event, messages, or both.
ALTER TABLE event_log ADD COLUMN relay json,
    ALTER COLUMN type DROP NOT NULL,
    ALTER COLUMN actor DROP NOT NULL,
    ALTER COLUMN payload DROP NOT NULL,
    ADD CONSTRAINT event_log_event_or_relay CHECK (CASE WHEN type IS NULL
        THEN actor IS NULL AND payload IS NULL AND relay IS NOT NULL
        ELSE actor IS NOT NULL AND payload IS NOT NULL END);
