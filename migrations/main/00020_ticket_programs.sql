-- +goose Up
-- A ticket program (such as "Open play") has a catalog of packages; a
-- package is a number of tickets at a unit price. Neither is ever deleted:
-- a package once offered may have been quoted (and, later, sold), so it is
-- deactivated instead, and a name stays taken (rename a mistake).
CREATE TABLE ticket_programs (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name        text        NOT NULL CHECK (btrim(name) <> '' AND char_length(name) <= 255),
    description text        NOT NULL DEFAULT '' CHECK (char_length(description) <= 2000),
    is_active   boolean     NOT NULL DEFAULT true,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX ticket_programs_name_key ON ticket_programs (lower(name));

CREATE TABLE ticket_packages (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    program_id   bigint        NOT NULL REFERENCES ticket_programs (id),
    name         text          NOT NULL CHECK (btrim(name) <> '' AND char_length(name) <= 255),
    ticket_count integer       NOT NULL CHECK (ticket_count BETWEEN 1 AND 1000),
    unit_price   numeric(12,2) NOT NULL CHECK (unit_price >= 0),
    is_active    boolean       NOT NULL DEFAULT true,
    created_at   timestamptz   NOT NULL DEFAULT now(),
    updated_at   timestamptz   NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX ticket_packages_name_key ON ticket_packages (program_id, lower(name));

-- A quote is a promise: the price of a number of tickets of a package,
-- held until valid_until. The server keeps it, so a sale that names it by
-- its random id gets these figures and no others; the id is unguessable,
-- so a quote cannot be made up. Each new quote deletes some that expired
-- more than a day ago.
CREATE TABLE ticket_quotes (
    id           uuid          PRIMARY KEY DEFAULT gen_random_uuid(),
    package_id   bigint        NOT NULL REFERENCES ticket_packages (id),
    ticket_count integer       NOT NULL CHECK (ticket_count BETWEEN 1 AND 1000),
    unit_price   numeric(12,2) NOT NULL CHECK (unit_price >= 0),
    total        numeric(16,2) NOT NULL CHECK (total = unit_price * ticket_count),
    created_by   text          NOT NULL,
    created_at   timestamptz   NOT NULL,
    valid_until  timestamptz   NOT NULL CHECK (valid_until > created_at)
);
CREATE INDEX ticket_quotes_valid_until_idx ON ticket_quotes (valid_until);
CREATE INDEX ticket_quotes_package_idx ON ticket_quotes (package_id);
