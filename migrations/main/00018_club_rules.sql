-- +goose Up
-- The club's booking rules (booking.Rules): one row of limits, the weekly
-- opening hours, the dates with hours of their own, and the rules of
-- reservation types that differ from the club's. A limit of 0 is no limit;
-- no opening hours at all is open around the clock, so that a club that has
-- set nothing books as before. version counts the changes, so that servers
-- that keep the rules in memory read them again after any change.
CREATE TABLE club_rules (
    id                    boolean PRIMARY KEY DEFAULT true CHECK (id),
    advance_days          integer NOT NULL DEFAULT 0 CHECK (advance_days BETWEEN 0 AND 3660),
    min_notice_minutes    integer NOT NULL DEFAULT 0 CHECK (min_notice_minutes BETWEEN 0 AND 527040),
    max_duration_minutes  integer NOT NULL DEFAULT 0 CHECK (max_duration_minutes BETWEEN 0 AND 527040 AND max_duration_minutes % 30 = 0),
    max_future_bookings   integer NOT NULL DEFAULT 0 CHECK (max_future_bookings BETWEEN 0 AND 100000),
    cancel_window_minutes integer NOT NULL DEFAULT 0 CHECK (cancel_window_minutes BETWEEN 0 AND 527040),
    version               bigint  NOT NULL DEFAULT 0,
    updated_at            timestamptz,
    updated_by            text
);
INSERT INTO club_rules DEFAULT VALUES;

-- Minutes since midnight on the 30-minute grid; closes up to 24:00.
CREATE TABLE opening_hours (
    weekday smallint NOT NULL CHECK (weekday BETWEEN 1 AND 7),
    opens   smallint NOT NULL CHECK (opens BETWEEN 0 AND 1410 AND opens % 30 = 0),
    closes  smallint NOT NULL CHECK (closes BETWEEN 30 AND 1440 AND closes % 30 = 0),
    PRIMARY KEY (weekday, opens),
    CONSTRAINT opening_hours_order CHECK (closes > opens),
    CONSTRAINT opening_hours_no_overlap EXCLUDE USING gist (weekday WITH =, int4range(opens, closes) WITH &&)
);

-- A date without hours is closed all day.
CREATE TABLE opening_exceptions (
    date date PRIMARY KEY,
    note text
);
CREATE TABLE opening_exception_hours (
    date   date     NOT NULL REFERENCES opening_exceptions (date) ON DELETE CASCADE,
    opens  smallint NOT NULL CHECK (opens BETWEEN 0 AND 1410 AND opens % 30 = 0),
    closes smallint NOT NULL CHECK (closes BETWEEN 30 AND 1440 AND closes % 30 = 0),
    PRIMARY KEY (date, opens),
    CONSTRAINT opening_exception_hours_order CHECK (closes > opens),
    CONSTRAINT opening_exception_hours_no_overlap EXCLUDE USING gist (date WITH =, int4range(opens, closes) WITH &&)
);

-- NULL limits are the club's.
CREATE TABLE reservation_type_rules (
    reservation_type_id   bigint PRIMARY KEY REFERENCES reservation_types (id) ON DELETE CASCADE,
    staff_only            boolean NOT NULL DEFAULT false,
    advance_days          integer CHECK (advance_days BETWEEN 0 AND 3660),
    min_notice_minutes    integer CHECK (min_notice_minutes BETWEEN 0 AND 527040),
    max_duration_minutes  integer CHECK (max_duration_minutes BETWEEN 0 AND 527040 AND max_duration_minutes % 30 = 0),
    cancel_window_minutes integer CHECK (cancel_window_minutes BETWEEN 0 AND 527040)
);

-- A booking staff made against the rules says who overrode them and when.
ALTER TABLE reservations
    ADD COLUMN rules_overridden_by text,
    ADD COLUMN rules_overridden_at timestamptz;

-- Tells every listening server the new version of the rules when a change
-- commits: servers that keep the rules in memory read them again.
-- +goose StatementBegin
CREATE FUNCTION club_rules_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('club_rules_changed', NEW.version::text);
    RETURN NULL;
END $$;
-- +goose StatementEnd
CREATE TRIGGER club_rules_changed AFTER UPDATE ON club_rules FOR EACH ROW EXECUTE FUNCTION club_rules_changed();
