-- +goose Up
-- Push notifications (package push). A subscription is one device of a
-- client that a push service reaches: for Web Push (RFC 8030/8291) the
-- push service's endpoint and the device's keys. The endpoint names the
-- device, so registering it again updates its row, and moves it to
-- another client when another client registers it. platform leaves room
-- for a mobile push provider, whose devices have a token and no keys.
CREATE TABLE push_subscriptions (
    id              bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    client_id       bigint      NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
    platform        text        NOT NULL CHECK (platform IN ('webpush')),
    endpoint        text        NOT NULL CHECK (char_length(endpoint) BETWEEN 1 AND 2048),
    p256dh          text        CHECK (char_length(p256dh) = 87),
    auth            text        CHECK (char_length(auth) = 22),
    user_agent      text        CHECK (char_length(user_agent) <= 255),
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    last_success_at timestamptz,
    last_failure_at timestamptz,
    last_error      text,
    CONSTRAINT push_subscriptions_endpoint_key UNIQUE (endpoint),
    CONSTRAINT push_subscriptions_webpush_keys CHECK (platform <> 'webpush' OR (p256dh IS NOT NULL AND auth IS NOT NULL))
);
CREATE INDEX push_subscriptions_client_idx ON push_subscriptions (client_id);

-- A notification sent to a client, as staff wrote it.
CREATE TABLE push_notifications (
    id               bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    client_id        bigint      NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
    title            text        NOT NULL CHECK (btrim(title) <> '' AND char_length(title) <= 120),
    body             text        NOT NULL CHECK (char_length(body) <= 1000),
    url              text        CHECK (char_length(url) <= 1000),
    created_by       bigint      REFERENCES users (id) ON DELETE SET NULL,
    created_by_label text        NOT NULL,
    created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX push_notifications_client_idx ON push_notifications (client_id);

-- One delivery of a notification to one subscription. A pending delivery
-- waits for next_attempt_at; the sender claims it (FOR UPDATE SKIP LOCKED)
-- by moving next_attempt_at past the time a send may take, so that two
-- senders never send it twice. It ends sent, failed (a refusal, or
-- attempts used up) or gone (the push service no longer knows the device,
-- or the subscription was removed or moved to another client before it
-- went). A delivery outlives its subscription as a record.
CREATE TABLE push_deliveries (
    id              bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    notification_id bigint      NOT NULL REFERENCES push_notifications (id) ON DELETE CASCADE,
    subscription_id bigint      REFERENCES push_subscriptions (id) ON DELETE SET NULL,
    status          text        NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed', 'gone')),
    attempts        integer     NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    next_attempt_at timestamptz,
    last_attempt_at timestamptz,
    last_status     integer,
    last_error      text,
    sent_at         timestamptz,
    CONSTRAINT push_deliveries_once UNIQUE (notification_id, subscription_id),
    CONSTRAINT push_deliveries_pending CHECK ((status = 'pending') = (next_attempt_at IS NOT NULL)
        AND (status <> 'pending' OR subscription_id IS NOT NULL))
);
CREATE INDEX push_deliveries_due_idx ON push_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX push_deliveries_subscription_idx ON push_deliveries (subscription_id) WHERE status = 'pending';

-- A subscription removed, or moved to another client, takes its pending
-- deliveries with it: the device is no longer the one they were for.
-- +goose StatementBegin
CREATE FUNCTION push_subscription_left() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE push_deliveries
       SET status = 'gone', next_attempt_at = NULL,
           last_error = CASE TG_OP WHEN 'DELETE' THEN 'the subscription was removed' ELSE 'the device moved to another client' END
     WHERE subscription_id = OLD.id AND status = 'pending';
    IF TG_OP = 'DELETE' THEN
        RETURN OLD;
    END IF;
    RETURN NEW;
END $$;
-- +goose StatementEnd
CREATE TRIGGER push_subscription_deleted BEFORE DELETE ON push_subscriptions
    FOR EACH ROW EXECUTE FUNCTION push_subscription_left();
CREATE TRIGGER push_subscription_moved BEFORE UPDATE OF client_id ON push_subscriptions
    FOR EACH ROW WHEN (OLD.client_id IS DISTINCT FROM NEW.client_id) EXECUTE FUNCTION push_subscription_left();
