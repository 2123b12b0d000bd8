-- +goose Up
-- The idempotency keys of retried writes (internal/idem). A key is the
-- caller's (owner: the actor's uid) for one operation (scope: an HTTP route
-- pattern such as 'POST /api/admin/booking', or an MCP tool such as
-- 'mcp:booking_create'), so two callers' keys never meet. fingerprint is
-- the SHA-256 of the request's input: the same key with other input is
-- refused. A 'running' row is held by the attempt named attempt since
-- started_at; a 'done' row holds the successful outcome that retries get
-- back (status, content_type, location, body). A failed attempt deletes its
-- row. A row is worth nothing once expires_at has passed: it is taken over
-- as if missing, and purged.
CREATE TABLE idempotency_keys (
    owner        text        NOT NULL CHECK (owner <> ''),
    scope        text        NOT NULL CHECK (scope <> ''),
    key          text        NOT NULL CHECK (key ~ '^[!-~]{1,255}$'),
    fingerprint  bytea       NOT NULL CHECK (octet_length(fingerprint) = 32),
    state        text        NOT NULL CHECK (state IN ('running', 'done')),
    attempt      text        NOT NULL,
    started_at   timestamptz NOT NULL,
    expires_at   timestamptz NOT NULL,
    status       integer     NOT NULL DEFAULT 0,
    content_type text        NOT NULL DEFAULT '',
    location     text        NOT NULL DEFAULT '',
    body         bytea       NOT NULL DEFAULT '',
    PRIMARY KEY (owner, scope, key)
);
CREATE INDEX idempotency_keys_expires_at_idx ON idempotency_keys (expires_at);
