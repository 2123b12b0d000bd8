-- +goose Up
-- An event's insert is on the path of every change, the booking create
-- path above all (issue 31: its cost at most a tenth of that path), and
-- PostgreSQL prepares, at each statement that writes a table, every CHECK
-- of the table from its stored text, and opens each of its indexes and
-- prepares their predicates: the log's three checks were about a third of
-- an event's cost on the booking insert (PostgreSQL's CPU per insert,
-- measured alone). So the log keeps only what its readers need:
--
--  * no CHECK: the log's one writer, package eventlog, checks an event's
--    type and actor and the form of its row (an event, messages, or both)
--    before it writes it (Log.Record, Encode, Announce);
--  * an event forwarded from the ledger's database is known by the id it
--    had there in a table of its own, event_log_forwarded, which only the
--    forwarder writes (Log.Forward), no longer in a column of the log and
--    its index; Purge deletes those forwarded longer ago than the log's
--    retention.
ALTER TABLE event_log DROP CONSTRAINT event_log_event_or_relay,
    DROP CONSTRAINT event_log_actor_check,
    DROP CONSTRAINT event_log_type_check;
CREATE TABLE event_log_forwarded (
    source_id    uuid        PRIMARY KEY,
    forwarded_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO event_log_forwarded (source_id) SELECT source_id FROM event_log WHERE source_id IS NOT NULL;
ALTER TABLE event_log DROP COLUMN source_id;
