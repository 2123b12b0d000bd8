-- +goose Up
-- An event's insert is on the path of every change, the booking create
-- path above all, so its row takes no index that path does not need:
--
--  * the purge finds where the retention begins by place, scanning from the
--    oldest (what it scans, it deletes): the index by time goes;
--  * the unique index of the places covers only the events placed, which an
--    insert does not touch;
--  * an event's stable id is no column of its own (a random UUID, its
--    unique index updated on every insert) but is made of its row's seq,
--    unique already, and id_space, eight random bytes of this database
--    (package eventlog, eventID), so that two clubs' ids never meet; the
--    events written before this migration get new ids, which no consumer
--    has seen (the domains did not write events yet);
--  * the type's form is checked by its writer (eventlog.Log.Record, Encode):
--    a regular expression on every insert cost the create path some 6%,
--    so the database keeps a cheap guard, a dot after the resource;
--  * the payload is json, the text its writer rendered, kept as written:
--    jsonb's binary form cost the create path some 4% more, and the log
--    only stores and hands out its payloads;
--  * an event forwarded from the ledger's database keeps the id it had
--    there as source_id, which a forward repeated after a crash finds, so
--    that it adds the event once; only those rows are in its index.
DROP INDEX event_log_at_idx;
ALTER TABLE event_log DROP CONSTRAINT event_log_position_key;
CREATE UNIQUE INDEX event_log_position_key ON event_log (position) WHERE position IS NOT NULL;
ALTER TABLE event_log DROP COLUMN id;
ALTER TABLE event_log ADD COLUMN source_id uuid;
CREATE UNIQUE INDEX event_log_source_id_key ON event_log (source_id) WHERE source_id IS NOT NULL;
ALTER TABLE event_log_sequence ADD COLUMN id_space bytea NOT NULL DEFAULT substring(uuid_send(gen_random_uuid()) FROM 1 FOR 8);
ALTER TABLE event_log DROP CONSTRAINT event_log_type_check,
    ADD CONSTRAINT event_log_type_check CHECK (strpos(type, '.') > 1);
ALTER TABLE event_log ALTER COLUMN payload TYPE json;
