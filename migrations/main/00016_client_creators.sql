-- +goose Up
-- Who created a client record: staff, or a trainer, who then sees the
-- client in the trainer area. Existing clients keep no creator.
ALTER TABLE clients ADD COLUMN created_by bigint REFERENCES users (id) ON DELETE SET NULL;
CREATE INDEX clients_created_by_idx ON clients (created_by) WHERE created_by IS NOT NULL;
