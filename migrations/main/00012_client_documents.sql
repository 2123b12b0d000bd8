-- +goose Up
-- An identity document belongs to one client: unique per document type,
-- compared without regard to case (search compares it the same way).
--
-- Clients that already share a document keep their data: the oldest client
-- (lowest id) keeps the document, and each later one gets it suffixed with
-- " (duplicate of client <id>)", so staff see the clash in every view and
-- can correct it. The original values are kept in
-- client_document_duplicates, one row per renamed client.
CREATE TABLE client_document_duplicates (
    client_id         bigint      PRIMARY KEY REFERENCES clients (id) ON DELETE CASCADE,
    document_type_id  bigint      NOT NULL,
    document          text        NOT NULL,
    kept_by_client_id bigint      NOT NULL,
    migrated_at       timestamptz NOT NULL DEFAULT now()
);

WITH ranked AS (
    SELECT id, document_type_id, document,
           first_value(id) OVER (PARTITION BY document_type_id, lower(document) ORDER BY id) AS kept_by
    FROM clients
)
INSERT INTO client_document_duplicates (client_id, document_type_id, document, kept_by_client_id)
SELECT id, document_type_id, document, kept_by FROM ranked WHERE id <> kept_by;

UPDATE clients c SET document = c.document || ' (duplicate of client ' || d.kept_by_client_id || ')', updated_at = now()
FROM client_document_duplicates d WHERE d.client_id = c.id;

CREATE UNIQUE INDEX clients_document_key ON clients (document_type_id, lower(document));
