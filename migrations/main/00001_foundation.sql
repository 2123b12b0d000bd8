-- +goose Up
-- Users of the local identity provider, and subjects seen from an external issuer.
CREATE TABLE users (
    id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    local_id          text        NOT NULL DEFAULT gen_random_uuid()::text,
    issuer            text        NOT NULL DEFAULT '',
    email             text,
    email_verified    boolean     NOT NULL DEFAULT false,
    display_name      text,
    phone             text,
    disabled          boolean     NOT NULL DEFAULT false,
    password_hash     text,
    trainer           boolean     NOT NULL DEFAULT false,
    operator          boolean     NOT NULL DEFAULT false,
    admin             boolean     NOT NULL DEFAULT false,
    sudo              boolean     NOT NULL DEFAULT false,
    accounting        boolean     NOT NULL DEFAULT false,
    creation_time     timestamptz NOT NULL DEFAULT now(),
    last_sign_in_time timestamptz,
    CONSTRAINT users_local_id_key UNIQUE (local_id),
    CONSTRAINT users_email_check CHECK (email IS NULL OR email LIKE '_%@_%')
);
CREATE UNIQUE INDEX users_email_key ON users (lower(email));

-- Refresh tokens rotate within a family; reusing a spent one revokes the family.
CREATE TABLE refresh_tokens (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id    bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    family     uuid        NOT NULL,
    token_hash bytea       NOT NULL UNIQUE,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    used_at    timestamptz,
    revoked_at timestamptz
);
CREATE INDEX refresh_tokens_family_idx ON refresh_tokens (family);

-- One-time tokens behind set-password links.
CREATE TABLE password_tokens (
    token_hash bytea PRIMARY KEY,
    user_id    bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    expires_at timestamptz NOT NULL,
    used_at    timestamptz
);

CREATE TABLE court_types (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name        text        NOT NULL CHECK (btrim(name) <> ''),
    description text,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX court_types_name_key ON court_types (lower(name));

CREATE TABLE document_types (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name        text        NOT NULL CHECK (btrim(name) <> ''),
    description text,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX document_types_name_key ON document_types (lower(name));

CREATE TABLE payment_types (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name        text        NOT NULL CHECK (btrim(name) <> ''),
    description text,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX payment_types_name_key ON payment_types (lower(name));

CREATE TABLE reservation_statuses (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name        text        NOT NULL CHECK (btrim(name) <> ''),
    color       text        NOT NULL CHECK (color ~ '^#([0-9A-Fa-f]{3}|[0-9A-Fa-f]{6})$'),
    description text,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX reservation_statuses_name_key ON reservation_statuses (lower(name));

-- gestion = 2 marks the reservation types of training classes.
CREATE TABLE reservation_types (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name        text        NOT NULL CHECK (btrim(name) <> ''),
    description text,
    gestion     smallint    NOT NULL DEFAULT 1 CHECK (gestion IN (1, 2)),
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX reservation_types_name_key ON reservation_types (lower(name));

CREATE TABLE courts (
    id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    court_type_id bigint        NOT NULL REFERENCES court_types (id),
    name          text          NOT NULL CHECK (btrim(name) <> ''),
    cost          numeric(14,2) NOT NULL DEFAULT 0 CHECK (cost >= 0),
    price         numeric(14,2) NOT NULL DEFAULT 0 CHECK (price >= 0),
    created_at    timestamptz   NOT NULL DEFAULT now(),
    updated_at    timestamptz   NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX courts_name_key ON courts (lower(name));
CREATE INDEX courts_court_type_idx ON courts (court_type_id);

CREATE TABLE clients (
    id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id          bigint      REFERENCES users (id) ON DELETE SET NULL,
    email            text CHECK (email IS NULL OR email LIKE '_%@_%'),
    display_name     text,
    first_name       text        NOT NULL CHECK (btrim(first_name) <> ''),
    last_name        text        NOT NULL CHECK (btrim(last_name) <> ''),
    phone            text,
    document         text        NOT NULL CHECK (btrim(document) <> ''),
    document_type_id bigint      NOT NULL REFERENCES document_types (id),
    address          text,
    is_available     boolean     NOT NULL DEFAULT true,
    created_at       timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT clients_user_id_key UNIQUE (user_id)
);
CREATE UNIQUE INDEX clients_email_key ON clients (lower(email));
CREATE UNIQUE INDEX clients_phone_key ON clients (phone);
CREATE INDEX clients_document_type_idx ON clients (document_type_id);
