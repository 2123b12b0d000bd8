-- +goose Up
-- A client has at most 10 devices (push.MaxDevicesPerClient): each is one
-- more request of every notification, to an address the client chose. A
-- new device, or one moving to the client, is counted against the
-- client's others; registering an endpoint of the client's again is not a
-- new device (a BEFORE INSERT trigger fires for the row an INSERT ... ON
-- CONFLICT proposes too), so a client with more devices from before the
-- cap keeps them and adds none. The trigger first locks the client's row
-- (FOR NO KEY UPDATE: registrations for one client wait for each other;
-- Send's FOR KEY SHARE and the foreign keys do not), then looks in
-- statements of their own, which see what the registration it waited for
-- committed: racing registrations cannot pass the cap together.
-- +goose StatementBegin
CREATE FUNCTION push_subscriptions_cap() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM 1 FROM clients WHERE id = NEW.client_id FOR NO KEY UPDATE;
    IF TG_OP = 'INSERT' AND EXISTS (SELECT 1 FROM push_subscriptions WHERE endpoint = NEW.endpoint AND client_id = NEW.client_id) THEN
        RETURN NEW;
    END IF;
    IF (SELECT count(*) FROM push_subscriptions WHERE client_id = NEW.client_id AND endpoint <> NEW.endpoint) >= 10 THEN
        RAISE EXCEPTION 'client % has 10 devices', NEW.client_id
            USING ERRCODE = 'check_violation', CONSTRAINT = 'push_subscriptions_max_devices';
    END IF;
    RETURN NEW;
END $$;
-- +goose StatementEnd
CREATE TRIGGER push_subscriptions_cap_insert BEFORE INSERT ON push_subscriptions
    FOR EACH ROW EXECUTE FUNCTION push_subscriptions_cap();
CREATE TRIGGER push_subscriptions_cap_move BEFORE UPDATE OF client_id ON push_subscriptions
    FOR EACH ROW WHEN (OLD.client_id IS DISTINCT FROM NEW.client_id) EXECUTE FUNCTION push_subscriptions_cap();

-- A failed delivery's record kept the first bytes of the push service's
-- answer, and a connection's error; both told whoever read it what
-- answered at an address a client chose. They become what clubd records
-- now: the status alone, or that the push service could not be reached.
UPDATE push_deliveries
   SET last_error = regexp_replace(regexp_replace(last_error,
           '^((gave up after [0-9]+ attempts: )?)push service answered ([0-9]+):.*$', '\1the push service answered \3'),
           '^((gave up after [0-9]+ attempts: )?)send: .*$', '\1the push service could not be reached')
 WHERE last_error IS NOT NULL;
UPDATE push_subscriptions
   SET last_error = regexp_replace(regexp_replace(last_error,
           '^((gave up after [0-9]+ attempts: )?)push service answered ([0-9]+):.*$', '\1the push service answered \3'),
           '^((gave up after [0-9]+ attempts: )?)send: .*$', '\1the push service could not be reached')
 WHERE last_error IS NOT NULL;
