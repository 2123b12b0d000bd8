-- +goose Up
-- Tells every listening server, when the transaction commits, that a user's
-- row changed in what authenticates them (their subject, email, roles or
-- disabled flag) or was deleted: servers that keep authenticated users in
-- memory forget that user. The payload is the user's local_id (the token
-- subject) before the change.
-- +goose StatementBegin
CREATE FUNCTION users_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('users_changed', OLD.local_id);
    RETURN NULL;
END $$;
-- +goose StatementEnd
CREATE TRIGGER users_changed
    AFTER UPDATE OF local_id, email, disabled, trainer, operator, admin, sudo, accounting OR DELETE ON users
    FOR EACH ROW EXECUTE FUNCTION users_changed();
