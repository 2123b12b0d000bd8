-- +goose Up
-- The OAuth 2.0 authorization-code flow with PKCE (internal/auth/oauth.go).
-- Every row lives here, not in one instance's memory, so any clubd instance
-- finishes a flow another began; expired rows are purged (PurgeOAuth).

-- Public clients registered dynamically (RFC 7591). The pre-registered
-- client (MCP_OAUTH_CLIENT_ID) is configuration, not a row.
CREATE TABLE oauth_clients (
    client_id     text        PRIMARY KEY,
    client_name   text        NOT NULL,
    redirect_uris text[]      NOT NULL,
    created_at    timestamptz NOT NULL,
    last_used_at  timestamptz,
    CONSTRAINT oauth_clients_redirect_uris_check CHECK (cardinality(redirect_uris) BETWEEN 1 AND 10)
);
CREATE INDEX oauth_clients_unused_idx ON oauth_clients (created_at) WHERE last_used_at IS NULL;

-- An authorization request waiting for the user at the login page.
CREATE TABLE oauth_states (
    id             uuid        PRIMARY KEY,
    client_id      text        NOT NULL,
    redirect_uri   text        NOT NULL,
    code_challenge text        NOT NULL,
    scope          text        NOT NULL,
    state          text,
    expires_at     timestamptz NOT NULL
);
CREATE INDEX oauth_states_expires_at_idx ON oauth_states (expires_at);

-- Authorization codes: single use, bound to the client, the redirect URI,
-- the PKCE challenge, the user and the scope. Only their hash is kept. A
-- spent code keeps the refresh family it started until it expires, so that
-- presenting it again revokes that family (RFC 6749, section 4.1.2).
CREATE TABLE oauth_codes (
    code_hash      bytea       PRIMARY KEY,
    client_id      text        NOT NULL,
    redirect_uri   text        NOT NULL,
    code_challenge text        NOT NULL,
    scope          text        NOT NULL,
    user_id        bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    expires_at     timestamptz NOT NULL,
    used_at        timestamptz,
    family         uuid
);
CREATE INDEX oauth_codes_expires_at_idx ON oauth_codes (expires_at);

-- A refresh token of the code flow belongs to its client and keeps the
-- granted scope; a sign-in's refresh token has neither.
ALTER TABLE refresh_tokens
    ADD COLUMN client_id text,
    ADD COLUMN scope     text,
    ADD CONSTRAINT refresh_tokens_client_scope_check CHECK ((client_id IS NULL) = (scope IS NULL));

