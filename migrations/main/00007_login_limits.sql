-- +goose Up
-- The counters of the login rate limits (internal/auth/limit.go), shared by
-- every clubd instance on this database. key names an address ('a:'), an
-- account ('e:', a hash of the email) or an account tried from an address
-- ('p:'); n is the counter and at the time it was last charged, read as the
-- limit of the key's kind says. rest_at is when the counter is back to the
-- state of a missing row: only then is it deleted, so no flood of other keys
-- ever clears a limit.
CREATE TABLE login_limits (
    key     text             PRIMARY KEY,
    n       double precision NOT NULL,
    at      timestamptz      NOT NULL,
    rest_at timestamptz      NOT NULL
);
CREATE INDEX login_limits_rest_at_idx ON login_limits (rest_at);
