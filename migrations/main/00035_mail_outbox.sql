-- +goose Up
-- The e-mail a change sends (package mail): one row per message, written
-- in the transaction of the change that causes it, so that a change that
-- rolls back sends nothing and one that commits loses no message. The row
-- says what to tell (kind, and the record it tells of, ref_id) and to whom
-- (a user, or a client, whose address is found when the message is made,
-- or, for one who is neither, such as a walk-in buyer, an address);
-- the sender makes the message in the recipient's language (a user's, or
-- language, for one who is not a user yet) when it sends it, and records
-- the address and subject it used. link is the one secret
-- a message may carry (a set-password or verification link), kept only
-- until the message is sent or given up.
CREATE TABLE mail_outbox (
    id              bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    kind            text        NOT NULL CHECK (kind ~ '^[a-z][a-z_]{0,39}$'),
    user_id         bigint      REFERENCES users (id) ON DELETE CASCADE,
    client_id       bigint      REFERENCES clients (id) ON DELETE CASCADE,
    ref_id          bigint,
    link            text        CHECK (char_length(link) <= 2000),
    language        text        CHECK (language IN ('es', 'en')),
    status          text        NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed', 'dropped')),
    attempts        integer     NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    next_attempt_at timestamptz,
    last_attempt_at timestamptz,
    last_error      text        CHECK (char_length(last_error) <= 1000),
    to_address      text,
    subject         text,
    via             text        CHECK (via IN ('smtp', 'log')),
    created_at      timestamptz NOT NULL DEFAULT now(),
    sent_at         timestamptz,
    CONSTRAINT mail_outbox_one_recipient CHECK (num_nonnulls(user_id, client_id) <= 1
        AND (user_id IS NOT NULL OR client_id IS NOT NULL OR to_address IS NOT NULL)),
    CONSTRAINT mail_outbox_pending_due CHECK ((status = 'pending') = (next_attempt_at IS NOT NULL)),
    CONSTRAINT mail_outbox_link_until_done CHECK (status = 'pending' OR link IS NULL)
);
CREATE INDEX mail_outbox_due_idx ON mail_outbox (next_attempt_at, id) WHERE status = 'pending';
CREATE INDEX mail_outbox_failed_idx ON mail_outbox (id) WHERE status = 'failed';
CREATE INDEX mail_outbox_user_idx ON mail_outbox (user_id) WHERE user_id IS NOT NULL;
CREATE INDEX mail_outbox_client_idx ON mail_outbox (client_id) WHERE client_id IS NOT NULL;

-- The sender listens on mail_outbox: a notification at the commit of each
-- transaction that queued messages wakes it, so a message leaves at once
-- rather than at the sender's next round.
-- +goose StatementBegin
CREATE FUNCTION mail_outbox_queued() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('mail_outbox', '');
    RETURN NULL;
END $$;
-- +goose StatementEnd
CREATE TRIGGER mail_outbox_queued AFTER INSERT ON mail_outbox
    FOR EACH STATEMENT EXECUTE FUNCTION mail_outbox_queued();

-- The language a user reads the club's messages in (es, Spanish, when
-- none is known).
ALTER TABLE users ADD COLUMN language text CHECK (language IN ('es', 'en'));
