-- +goose Up
-- A client's enrollment in a training class. Its status:
--   pending     holds a place; the trainer or staff have not accepted it yet
--   accepted    holds a place
--   waitlisted  waits for a place (the class was full), in order of waitlisted_at
--   rejected    refused by the trainer or staff; holds no place
--   cancelled   withdrawn or removed; holds no place
-- A client has at most one active (pending, accepted or waitlisted)
-- enrollment per class.
CREATE TABLE enrollments (
    id                   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    class_id             bigint      NOT NULL REFERENCES training_classes (id),
    client_id            bigint      NOT NULL REFERENCES clients (id),
    status               text        NOT NULL CHECK (status IN ('pending', 'accepted', 'waitlisted', 'rejected', 'cancelled')),
    enrolled_at          timestamptz NOT NULL DEFAULT now(),
    waitlisted_at        timestamptz,
    accepted_at          timestamptz,
    rejected_at          timestamptz,
    cancelled_at         timestamptz,
    attendance_status    text        CHECK (attendance_status IN ('present', 'absent', 'late', 'excused')),
    attendance_marked_at timestamptz,
    created_by           bigint      REFERENCES users (id) ON DELETE SET NULL,
    created_at           timestamptz NOT NULL DEFAULT now(),
    updated_at           timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT enrollments_waitlist_check CHECK ((status = 'waitlisted') = (waitlisted_at IS NOT NULL))
);
CREATE UNIQUE INDEX enrollments_active_key ON enrollments (class_id, client_id)
    WHERE status IN ('pending', 'accepted', 'waitlisted');
CREATE INDEX enrollments_class_idx ON enrollments (class_id, status);
CREATE INDEX enrollments_client_idx ON enrollments (client_id);

-- The places a class's enrollments hold (pending and accepted), kept by a
-- trigger and bounded by the class's capacity: the database refuses any
-- change that would hold more places than the class has.
ALTER TABLE training_classes ADD COLUMN places_taken integer NOT NULL DEFAULT 0,
    ADD CONSTRAINT training_classes_capacity_check CHECK (places_taken BETWEEN 0 AND max_capacity);

-- +goose StatementBegin
CREATE FUNCTION enrollments_places() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    was integer := 0;
    now_ integer := 0;
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.status IN ('pending', 'accepted') THEN
        was := 1;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.status IN ('pending', 'accepted') THEN
        now_ := 1;
    END IF;
    IF TG_OP = 'UPDATE' AND OLD.class_id <> NEW.class_id THEN
        RAISE EXCEPTION 'an enrollment does not move to another class' USING ERRCODE = 'check_violation',
            CONSTRAINT = 'enrollments_class_fixed';
    END IF;
    IF now_ <> was THEN
        UPDATE training_classes SET places_taken = places_taken + now_ - was
            WHERE id = coalesce(NEW.class_id, OLD.class_id);
    END IF;
    RETURN NULL;
END $$;
-- +goose StatementEnd
CREATE TRIGGER enrollments_places AFTER INSERT OR UPDATE OF status, class_id OR DELETE ON enrollments
    FOR EACH ROW EXECUTE FUNCTION enrollments_places();

-- Attendance per session date of an enrollment; the enrollment keeps the
-- latest mark.
CREATE TABLE enrollment_attendance (
    enrollment_id bigint      NOT NULL REFERENCES enrollments (id) ON DELETE CASCADE,
    date          date        NOT NULL,
    status        text        NOT NULL CHECK (status IN ('present', 'absent', 'late', 'excused')),
    marked_at     timestamptz NOT NULL DEFAULT now(),
    marked_by     bigint      REFERENCES users (id) ON DELETE SET NULL,
    PRIMARY KEY (enrollment_id, date)
);

ALTER TABLE payments ADD CONSTRAINT payments_enrollment_id_fkey FOREIGN KEY (enrollment_id) REFERENCES enrollments (id);
