-- +goose Up
-- Reminders of bookings (package reminders). The club's reminder times:
-- one row, the minutes before a booking's start at which its client is
-- reminded (none: no reminders).
CREATE TABLE reminder_settings (
    one             boolean   PRIMARY KEY DEFAULT true CHECK (one),
    offsets_minutes integer[] NOT NULL DEFAULT '{1440,120}'
        CHECK (cardinality(offsets_minutes) <= 4 AND 15 <= ALL (offsets_minutes) AND 10080 >= ALL (offsets_minutes)),
    updated_at      timestamptz,
    updated_by      text CHECK (char_length(updated_by) <= 320)
);
INSERT INTO reminder_settings DEFAULT VALUES;

-- A member's choice per channel; a member without a row receives both.
CREATE TABLE reminder_preferences (
    user_id    bigint      PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    email      boolean     NOT NULL,
    push       boolean     NOT NULL,
    updated_at timestamptz NOT NULL
);

-- Where the planner follows the event log (eventlog.Cursor's text, '' for
-- the start). The instance that plans locks the row: one plans at a time.
CREATE TABLE reminder_cursor (
    one    boolean PRIMARY KEY DEFAULT true CHECK (one),
    cursor text    NOT NULL DEFAULT ''
);
INSERT INTO reminder_cursor DEFAULT VALUES;

-- One reminder per booking and offset, ever (the primary key): planned
-- (sent_at NULL, due at due_at, for the booking starting at starts_at, its
-- wall time), then sent once (sent_at), or dropped by the sender (the
-- booking had started, or was no longer one to remind of), which keeps the
-- row so that it is never planned again. The planner moves and deletes
-- planned reminders only.
CREATE TABLE reminders (
    booking_id     bigint      NOT NULL REFERENCES reservations (id) ON DELETE CASCADE,
    offset_minutes integer     NOT NULL CHECK (offset_minutes BETWEEN 15 AND 10080),
    due_at         timestamptz NOT NULL,
    starts_at      timestamp   NOT NULL,
    planned_at     timestamptz NOT NULL,
    sent_at        timestamptz,
    dropped_at     timestamptz,
    email          boolean,
    push           boolean,
    PRIMARY KEY (booking_id, offset_minutes),
    CHECK (sent_at IS NULL OR dropped_at IS NULL)
);
CREATE INDEX reminders_due ON reminders (due_at) WHERE sent_at IS NULL AND dropped_at IS NULL;
