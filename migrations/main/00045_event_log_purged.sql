-- +goose Up
-- The event log's purge deletes a prefix of the log, the events placed up
-- to purged_through, so that a reader's cursor never skips an event that is
-- still kept; a cursor before it is refused as expired.
ALTER TABLE event_log_sequence ADD COLUMN purged_through bigint NOT NULL DEFAULT 0;
