-- +goose Up
-- The push sender's backlog (push.Service.Backlog, read at each scrape of
-- /metrics) counts the pending deliveries through push_deliveries_due_idx
-- and the failed ones through this index, each a scan of its own rows
-- rather than of every delivery ever made.
CREATE INDEX push_deliveries_failed_idx ON push_deliveries (id) WHERE status = 'failed';
