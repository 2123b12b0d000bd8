-- +goose Up
-- The sessions of the web pages (the staff panel, the members' app): a
-- browser holds the token in a cookie, the table only its SHA-256, so that
-- any clubd instance serves the session and a copy of the table opens
-- none. last_seen_at measures the idle time, expires_at is the absolute
-- end; csrf_token is what each state-changing form of the session carries.
-- address and user_agent let the user tell their sessions apart.
CREATE TABLE web_sessions (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    token_hash   bytea       NOT NULL UNIQUE CHECK (length(token_hash) = 32),
    user_id      bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    csrf_token   text        NOT NULL CHECK (length(csrf_token) >= 32),
    created_at   timestamptz NOT NULL,
    last_seen_at timestamptz NOT NULL,
    expires_at   timestamptz NOT NULL,
    address      text        NOT NULL CHECK (length(address) <= 64),
    user_agent   text        NOT NULL CHECK (length(user_agent) <= 256),
    CHECK (created_at <= last_seen_at AND created_at < expires_at)
);
CREATE INDEX web_sessions_user_idx ON web_sessions (user_id);
-- The purge deletes by either end.
CREATE INDEX web_sessions_expires_idx ON web_sessions (expires_at);
CREATE INDEX web_sessions_last_seen_idx ON web_sessions (last_seen_at);

-- A user whose password changes, or who is disabled, loses every web
-- session in the same transaction, whatever path wrote the row (package
-- users, the identity provider, clubctl, SQL).
-- +goose StatementBegin
CREATE FUNCTION end_web_sessions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM web_sessions WHERE user_id = NEW.id;
    RETURN NULL;
END $$;
-- +goose StatementEnd
CREATE TRIGGER end_web_sessions
    AFTER UPDATE OF password_hash, disabled ON users
    FOR EACH ROW
    WHEN (OLD.password_hash IS DISTINCT FROM NEW.password_hash OR (NEW.disabled AND NOT OLD.disabled))
    EXECUTE FUNCTION end_web_sessions();
