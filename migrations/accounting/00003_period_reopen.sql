-- +goose Up
-- Who closed a period, whether the close came before the period's last day
-- was over (an early close, which the caller asks for explicitly), and the
-- results close entry the close posted, which a reopening reverses.
ALTER TABLE periods
    ADD COLUMN closed_by        text,
    ADD COLUMN closed_early     boolean NOT NULL DEFAULT false,
    ADD COLUMN closing_entry_id bigint REFERENCES entries (id),
    ADD CONSTRAINT periods_closed_early_check CHECK (NOT closed_early OR status = 'closed'),
    ADD CONSTRAINT periods_closing_entry_check CHECK (closing_entry_id IS NULL OR status = 'closed');

-- The periods closed before: a close posts its results close entry in its
-- own transaction, so the entry was created at the very time the period
-- was closed (both now(), the transaction's start).
UPDATE periods p SET closing_entry_id = e.id
  FROM entries e
 WHERE p.status = 'closed' AND e.period_id = p.id AND e.source = 'close-results' AND e.created_at = p.closed_at;

-- The reopenings of closed periods: who reopened, when and why, the close
-- each undid and the entry that reversed that close's results close (null
-- when the close posted none). A reopening also deletes the period's
-- closing balances; these rows keep the record.
CREATE TABLE period_reopenings (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    period_id    bigint      NOT NULL REFERENCES periods (id),
    reopened_at  timestamptz NOT NULL DEFAULT now(),
    reopened_by  text        NOT NULL,
    reason       text        NOT NULL CHECK (btrim(reason) <> ''),
    closed_at    timestamptz NOT NULL,
    closed_by    text,
    closed_early boolean     NOT NULL,
    reversal_id  bigint REFERENCES entries (id)
);
CREATE INDEX period_reopenings_period_idx ON period_reopenings (period_id);
