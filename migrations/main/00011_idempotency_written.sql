-- +goose Up
-- written says that the write of the attempt holding a key has committed:
-- internal/idem sets it in the write's own transaction (a commit hook of
-- sqldb.Transact), so it is true exactly when the write happened, whatever
-- becomes of the process afterwards. A 'running' row that outlived its
-- lease is taken over only when it is not written; a written one answers
-- "request already applied" instead of running the write a second time.
-- An 'unanswered' row is a key whose write committed but whose attempt
-- failed before recording its outcome (its answer could not be made): it
-- answers "request already applied" at once, until it expires.
ALTER TABLE idempotency_keys ADD COLUMN written boolean NOT NULL DEFAULT false;
ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_state_check,
    ADD CONSTRAINT idempotency_keys_state_check CHECK (state IN ('running', 'done', 'unanswered')),
    ADD CONSTRAINT idempotency_keys_unanswered_written CHECK (state <> 'unanswered' OR written);
