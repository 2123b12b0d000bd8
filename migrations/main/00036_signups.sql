-- +goose Up
-- A sign-up waiting for its e-mailed link (internal/identity/auth): who
-- asked for an account, with the hash of the password they chose, until
-- the link is followed, which makes the user, or expires. The address is
-- taken only then: a sign-up holds no e-mail from anyone, and a newer
-- sign-up of the same address replaces an older one. The link's token is
-- kept only as its SHA-256.
CREATE TABLE signups (
    id            bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    email         text        NOT NULL CHECK (email LIKE '_%@_%' AND char_length(email) <= 254),
    display_name  text        NOT NULL CHECK (btrim(display_name) <> '' AND char_length(display_name) <= 255),
    password_hash text        NOT NULL,
    language      text        NOT NULL CHECK (language IN ('es', 'en')),
    token_hash    bytea       NOT NULL,
    expires_at    timestamptz NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT signups_token_key UNIQUE (token_hash)
);
CREATE UNIQUE INDEX signups_email_key ON signups (lower(email));
CREATE INDEX signups_expires_idx ON signups (expires_at);
