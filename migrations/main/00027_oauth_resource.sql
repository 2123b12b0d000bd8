-- +goose Up
-- Resource indicators (RFC 8707) in the authorization-code flow
-- (internal/auth/oauth.go): the resource a client asked for, the URI of
-- the tool endpoint, travels from the authorization request to its code and
-- to every refresh token of the family the code starts, and each access
-- token issued from them has it as its audience. NULL where the client
-- named none: the tokens are for this server's API audience, as before.
ALTER TABLE oauth_states ADD COLUMN resource text;
ALTER TABLE oauth_codes ADD COLUMN resource text;
ALTER TABLE refresh_tokens
    ADD COLUMN resource text,
    ADD CONSTRAINT refresh_tokens_resource_check CHECK (resource IS NULL OR client_id IS NOT NULL);
