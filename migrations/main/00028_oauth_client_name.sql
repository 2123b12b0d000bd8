-- +goose Up
-- The name a client known by its metadata document (CIMD) gives itself,
-- read from the document when the authorization request is made
-- (internal/auth/oauth.go): the login page shows it from the request's row,
-- so that asking for the page never fetches the document again. NULL for a
-- registered client, whose name is in oauth_clients.
ALTER TABLE oauth_states ADD COLUMN client_name text;
