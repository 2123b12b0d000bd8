-- +goose Up
-- Two more steps that let a change write its event in its own statement,
-- without a transaction's round trips:
--
--  * an event's stable id is made of its place in the log (position) and
--    the database's id_space (package eventlog, eventID), no longer of its
--    row's seq: an event is read, delivered and named only once placed, and
--    the unique index of the places finds it by id. seq only orders the
--    events waiting for their place, which the partial index of those
--    finds, so its primary key, a second index on every insert, goes; the
--    ids of the events written before change once more (no consumer has
--    seen them: the log's readers came with this migration's release);
--  * a class counts its waitlist (waitlisted, kept by the trigger that
--    counts its places), so that the statement that enrolls under the
--    class's lock knows a new waitlisted enrollment's position, the count
--    after it, from the class's row as the lock gives it, where a count of
--    the enrollments would read the statement's snapshot, which may predate
--    enrollments that committed while it waited.
ALTER TABLE event_log DROP CONSTRAINT event_log_pkey;

ALTER TABLE training_classes ADD COLUMN waitlisted integer NOT NULL DEFAULT 0 CHECK (waitlisted >= 0);
UPDATE training_classes c SET waitlisted = w.n
    FROM (SELECT class_id, count(*) AS n FROM enrollments WHERE status = 'waitlisted' GROUP BY class_id) w
    WHERE w.class_id = c.id;

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION enrollments_places() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    was integer := 0;
    now_ integer := 0;
    waited integer := 0;
    waits integer := 0;
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        was := CASE WHEN OLD.status IN ('pending', 'accepted') THEN 1 ELSE 0 END;
        waited := CASE WHEN OLD.status = 'waitlisted' THEN 1 ELSE 0 END;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        now_ := CASE WHEN NEW.status IN ('pending', 'accepted') THEN 1 ELSE 0 END;
        waits := CASE WHEN NEW.status = 'waitlisted' THEN 1 ELSE 0 END;
    END IF;
    IF TG_OP = 'UPDATE' AND OLD.class_id <> NEW.class_id THEN
        RAISE EXCEPTION 'an enrollment does not move to another class' USING ERRCODE = 'check_violation',
            CONSTRAINT = 'enrollments_class_fixed';
    END IF;
    IF now_ <> was OR waits <> waited THEN
        UPDATE training_classes SET places_taken = places_taken + now_ - was, waitlisted = waitlisted + waits - waited
            WHERE id = coalesce(NEW.class_id, OLD.class_id);
    END IF;
    RETURN NULL;
END $$;
-- +goose StatementEnd
