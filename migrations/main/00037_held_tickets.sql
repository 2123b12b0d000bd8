-- +goose Up
-- A member's own pages find the ticket sales bought with their account's
-- e-mail (tickets.Sales.Held, Events.Places), compared without case.
CREATE INDEX ticket_sales_buyer_email_idx ON ticket_sales (lower(buyer_email));

