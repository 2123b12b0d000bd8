-- +goose Up
-- Outgoing webhooks (package webhooks), under the Standard Webhooks
-- specification. An endpoint is a URL an admin names, with the event types
-- it receives (none: every event) and its signing secret: the raw key,
-- since an HMAC needs it (the secret's text, whsec_ and its base64, is
-- shown once, at creation or rotation). A rotation keeps the key it
-- replaces as previous_secret, which signs beside the new one until
-- previous_until (the purge clears both after). The club disables an
-- endpoint that answers 410 or whose attempts all fail for five days
-- (disabled_reason); failing_since is the first failure since its last
-- success, or since its URL changed.
CREATE TABLE webhook_endpoints (
    id              bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    url             text        NOT NULL CHECK (char_length(url) BETWEEN 1 AND 2048),
    description     text        NOT NULL DEFAULT '' CHECK (char_length(description) <= 500),
    event_types     text[]      NOT NULL DEFAULT '{}' CHECK (cardinality(event_types) <= 100),
    enabled         boolean     NOT NULL DEFAULT true,
    disabled_reason text        CHECK (disabled_reason IN ('gone', 'failing')),
    secret          bytea       NOT NULL CHECK (octet_length(secret) BETWEEN 24 AND 64),
    previous_secret bytea       CHECK (octet_length(previous_secret) BETWEEN 24 AND 64),
    previous_until  timestamptz,
    failing_since   timestamptz,
    created_at      timestamptz NOT NULL,
    updated_at      timestamptz NOT NULL,
    CONSTRAINT webhook_endpoints_previous CHECK ((previous_secret IS NULL) = (previous_until IS NULL)),
    CONSTRAINT webhook_endpoints_reason CHECK (NOT enabled OR disabled_reason IS NULL)
);

-- Where the deliverer follows the event log: the cursor (eventlog.Cursor's
-- text, '' for the start) after the last event made into messages. The
-- instance that follows locks the row, so that one follows at a time.
CREATE TABLE webhook_cursor (
    one    boolean PRIMARY KEY DEFAULT true CHECK (one),
    cursor text    NOT NULL DEFAULT ''
);
INSERT INTO webhook_cursor DEFAULT VALUES;

-- One message per endpoint and event: its body as sent on every attempt
-- ({type, timestamp, data}), signed anew at each. A pending message waits
-- for next_attempt_at; a deliverer claims it (FOR UPDATE SKIP LOCKED) by
-- moving next_attempt_at past the time an attempt may take, so that two
-- never send it at once, and records the attempt only while its claim
-- (attempts) holds. attempts counts those of the current round, which a
-- replay or a resend starts anew; it ends delivered or failed, and is
-- deleted with its attempts once its event is past the event log's
-- retention (the body holds the event's data).
CREATE TABLE webhook_messages (
    id              bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    endpoint_id     bigint      NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    event_id        uuid        NOT NULL,
    event_type      text        NOT NULL,
    event_at        timestamptz NOT NULL,
    body            text        NOT NULL,
    status          text        NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts        integer     NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    next_attempt_at timestamptz,
    created_at      timestamptz NOT NULL,
    delivered_at    timestamptz,
    CONSTRAINT webhook_messages_once UNIQUE (endpoint_id, event_id),
    CONSTRAINT webhook_messages_pending CHECK ((status = 'pending') = (next_attempt_at IS NOT NULL))
);
-- The due messages, by endpoint: the deliverer probes each enabled
-- endpoint's part for one due (from its oldest next_attempt_at) and claims
-- from it in order, so that the messages of a disabled endpoint, however
-- many, are never read. The finished ones, by their event's time, for the
-- purge (Service.Purge) past the event log's retention.
CREATE INDEX webhook_messages_due_idx ON webhook_messages (endpoint_id, next_attempt_at, id) WHERE status = 'pending';
CREATE INDEX webhook_messages_done_idx ON webhook_messages (event_at) WHERE status <> 'pending';
CREATE INDEX webhook_messages_event_idx ON webhook_messages (event_id);

-- Each attempt: when, the answer's status and first bytes (or why none
-- came), how long it took, and what came of it.
CREATE TABLE webhook_attempts (
    id           bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    message_id   bigint      NOT NULL REFERENCES webhook_messages (id) ON DELETE CASCADE,
    endpoint_id  bigint      NOT NULL,
    attempted_at timestamptz NOT NULL,
    status_code  integer,
    duration_ms  bigint      NOT NULL CHECK (duration_ms >= 0),
    response     text        NOT NULL DEFAULT '',
    error        text,
    outcome      text        NOT NULL CHECK (outcome IN ('delivered', 'retry', 'failed', 'gone'))
);
CREATE INDEX webhook_attempts_endpoint_idx ON webhook_attempts (endpoint_id, id);
CREATE INDEX webhook_attempts_message_idx ON webhook_attempts (message_id);
