-- +goose Up
-- The online payments' records, indexed for their readers and kept:
-- - the notifications given up (their transaction could not be read after
--   every retry), which the metrics count at each scrape, through an index
--   of those alone (the table keeps one row per online payment);
-- - the foreign keys to payments and the inbox, which a payment's deletion
--   checks, and the checkout a payment settled;
-- - a payment with refunds is not deleted: its refunds are the record of
--   money that went back (through a gateway, or by hand).
CREATE INDEX gateway_events_given_up_idx ON gateway_events (id) WHERE gave_up_at IS NOT NULL;
CREATE INDEX gateway_events_payment_idx ON gateway_events (payment_id) WHERE payment_id IS NOT NULL;
CREATE INDEX gateway_events_inbox_idx ON gateway_events (inbox_id) WHERE inbox_id IS NOT NULL;
CREATE INDEX checkout_attempts_payment_idx ON checkout_attempts (payment_id) WHERE payment_id IS NOT NULL;
ALTER TABLE payment_refunds
    DROP CONSTRAINT payment_refunds_payment_id_fkey,
    ADD CONSTRAINT payment_refunds_payment_id_fkey FOREIGN KEY (payment_id) REFERENCES payments (id) ON DELETE RESTRICT;
