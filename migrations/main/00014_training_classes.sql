-- +goose Up
-- A training class: one trainer (a user with the trainer flag), one court,
-- a class reservation type (gestion 2, kept so by the foreign key as for
-- class tariffs), and a weekly schedule from start_date to end_date on the
-- ISO weekdays of recurrence_days (1 = Monday .. 7 = Sunday), from
-- start_time to end_time. Price and capacity are copied from the class
-- tariff when the class is created or moved to another court type or type.
CREATE TABLE training_classes (
    id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id             bigint        NOT NULL REFERENCES users (id),
    court_id            bigint        NOT NULL REFERENCES courts (id),
    reservation_type_id bigint        NOT NULL,
    gestion             smallint      NOT NULL DEFAULT 2 CHECK (gestion = 2),
    title               text          NOT NULL CHECK (btrim(title) <> ''),
    description         text,
    start_date          date          NOT NULL,
    end_date            date          NOT NULL,
    recurrence_days     smallint[]    NOT NULL CHECK (cardinality(recurrence_days) BETWEEN 1 AND 7
                                                      AND recurrence_days <@ '{1,2,3,4,5,6,7}'::smallint[]),
    start_time          time          NOT NULL,
    end_time            time          NOT NULL,
    single_price        numeric(14,2) NOT NULL CHECK (single_price >= 0),
    total_price         numeric(14,2) NOT NULL CHECK (total_price >= 0),
    max_capacity        integer       NOT NULL CHECK (max_capacity >= 1),
    status              text          NOT NULL DEFAULT 'scheduled' CHECK (status IN ('scheduled', 'cancelled', 'completed')),
    completed_at        timestamptz,
    cancelled_at        timestamptz,
    created_by          bigint        REFERENCES users (id) ON DELETE SET NULL,
    created_at          timestamptz   NOT NULL DEFAULT now(),
    updated_at          timestamptz   NOT NULL DEFAULT now(),
    CONSTRAINT training_classes_class_type_fkey FOREIGN KEY (reservation_type_id, gestion)
        REFERENCES reservation_types (id, gestion) ON UPDATE RESTRICT,
    CONSTRAINT training_classes_dates_check CHECK (end_date >= start_date),
    CONSTRAINT training_classes_times_check CHECK (end_time > start_time),
    CONSTRAINT training_classes_completed_check CHECK ((status = 'completed') = (completed_at IS NOT NULL)),
    CONSTRAINT training_classes_cancelled_check CHECK ((status = 'cancelled') = (cancelled_at IS NOT NULL))
);
CREATE INDEX training_classes_user_idx ON training_classes (user_id);
CREATE INDEX training_classes_court_idx ON training_classes (court_id);
CREATE INDEX training_classes_reservation_type_idx ON training_classes (reservation_type_id);

-- A session of a class, one per date of its schedule, with the booking
-- that holds the court for it. A booking of a session cannot be deleted
-- while the session names it: the class frees it (cancel, complete, a
-- schedule change), setting reservation_id to null in the same
-- transaction.
CREATE TABLE class_sessions (
    class_id       bigint NOT NULL REFERENCES training_classes (id) ON DELETE CASCADE,
    date           date   NOT NULL,
    reservation_id bigint REFERENCES reservations (id),
    PRIMARY KEY (class_id, date),
    CONSTRAINT class_sessions_reservation_key UNIQUE (reservation_id)
);
