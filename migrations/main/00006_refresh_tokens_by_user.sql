-- +goose Up
-- A new password revokes every refresh token of its user (auth.Store.RevokeUserRefresh);
-- the index also serves the ON DELETE CASCADE from users.
CREATE INDEX refresh_tokens_user_idx ON refresh_tokens (user_id);
