-- +goose Up
-- Machine clients (OAuth 2.0 client credentials, internal/auth/machines.go):
-- programs that get access tokens with their own client_id and secret. The
-- client_id is public; of the secret, 32 random bytes, only its SHA-256 is
-- kept. secret_version counts the secrets: a rotation increments it, and a
-- token carries the version it was issued under, so the tokens of a rotated
-- secret are refused. Roles are boolean columns, as for users, read on every
-- request with the disabled flag.
CREATE TABLE machines (
    id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    client_id      text        NOT NULL,
    name           text        NOT NULL,
    secret_hash    bytea       NOT NULL,
    secret_version integer     NOT NULL DEFAULT 1,
    trainer        boolean     NOT NULL DEFAULT false,
    operator       boolean     NOT NULL DEFAULT false,
    admin          boolean     NOT NULL DEFAULT false,
    sudo           boolean     NOT NULL DEFAULT false,
    accounting     boolean     NOT NULL DEFAULT false,
    disabled       boolean     NOT NULL DEFAULT false,
    created_at     timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT machines_client_id_key UNIQUE (client_id),
    CONSTRAINT machines_client_id_check CHECK (client_id ~ '^mch_[0-9a-f]{32}$'),
    CONSTRAINT machines_name_check CHECK (btrim(name) <> '' AND char_length(name) <= 255),
    CONSTRAINT machines_secret_hash_check CHECK (octet_length(secret_hash) = 32),
    CONSTRAINT machines_roles_check CHECK (trainer OR operator OR admin OR sudo OR accounting)
);
