-- +goose Up
-- A class tariff prices the training classes of one kind of court and one
-- class reservation type (gestion = 2): the price per person, the price of
-- the whole class, and how many students it takes. One per pair.
--
-- The reservation type's gestion is part of the foreign key, so the
-- database itself keeps class tariffs on class types: a type in use cannot
-- stop being one (ON UPDATE RESTRICT).
ALTER TABLE reservation_types ADD CONSTRAINT reservation_types_id_gestion_key UNIQUE (id, gestion);

CREATE TABLE class_tariffs (
    id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    court_type_id       bigint        NOT NULL REFERENCES court_types (id),
    reservation_type_id bigint        NOT NULL,
    gestion             smallint      NOT NULL DEFAULT 2 CHECK (gestion = 2),
    single_price        numeric(14,2) NOT NULL CHECK (single_price >= 0),
    total_price         numeric(14,2) NOT NULL CHECK (total_price >= 0),
    max_capacity        integer       NOT NULL CHECK (max_capacity >= 1),
    created_at          timestamptz   NOT NULL DEFAULT now(),
    updated_at          timestamptz   NOT NULL DEFAULT now(),
    CONSTRAINT class_tariffs_class_type_fkey FOREIGN KEY (reservation_type_id, gestion)
        REFERENCES reservation_types (id, gestion) ON UPDATE RESTRICT,
    CONSTRAINT class_tariffs_types_key UNIQUE (court_type_id, reservation_type_id)
);
CREATE INDEX class_tariffs_reservation_type_idx ON class_tariffs (reservation_type_id);

