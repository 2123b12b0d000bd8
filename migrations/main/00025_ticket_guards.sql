-- +goose Up
-- A sale's payment refuses a change of its money, status or owner, not a
-- write that leaves them as they are (its description, a gateway's
-- repeated word).
DROP TRIGGER payments_ticket_sale_frozen ON payments;
CREATE TRIGGER payments_ticket_sale_frozen
    BEFORE UPDATE OF amount, status, status_detail, payment_type_id, date, reservation_id, enrollment_id, ticket_sale_id
    ON payments FOR EACH ROW WHEN (OLD.ticket_sale_id IS NOT NULL
        AND (OLD.amount, OLD.status, OLD.status_detail, OLD.payment_type_id, OLD.date, OLD.reservation_id, OLD.enrollment_id,
             OLD.ticket_sale_id)
        IS DISTINCT FROM (NEW.amount, NEW.status, NEW.status_detail, NEW.payment_type_id, NEW.date, NEW.reservation_id,
             NEW.enrollment_id, NEW.ticket_sale_id))
    EXECUTE FUNCTION payments_ticket_sale_frozen();

-- A participant row is inserted or deleted, never moved: its event,
-- holder and slot stay (the ticket's use and return follow the row's
-- insertion and deletion).
-- +goose StatementBegin
CREATE FUNCTION event_participants_unmoved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'participant % is not moved; remove it and seat again', OLD.id
        USING ERRCODE = 'check_violation', CONSTRAINT = 'event_participants_unmoved';
END $$;
-- +goose StatementEnd
CREATE TRIGGER event_participants_unmoved BEFORE UPDATE OF event_id, client_id, ticket_id, strip_id, slot ON event_participants
    FOR EACH ROW WHEN ((OLD.event_id, OLD.client_id, OLD.ticket_id, OLD.strip_id, OLD.slot)
        IS DISTINCT FROM (NEW.event_id, NEW.client_id, NEW.ticket_id, NEW.strip_id, NEW.slot))
    EXECUTE FUNCTION event_participants_unmoved();

-- A ticket is used exactly while a participant row holds it.
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION tickets_status_moves() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NOT (OLD.status = 'available' OR (OLD.status = 'used' AND NEW.status = 'available')) THEN
        RAISE EXCEPTION 'ticket % is %; it cannot become %', OLD.id, OLD.status, NEW.status
            USING ERRCODE = 'check_violation', CONSTRAINT = 'tickets_status_moves';
    END IF;
    IF (NEW.status = 'used') <> EXISTS (SELECT 1 FROM event_participants WHERE ticket_id = NEW.id) THEN
        RAISE EXCEPTION 'ticket % is used exactly while a participant holds it', OLD.id
            USING ERRCODE = 'check_violation', CONSTRAINT = 'tickets_status_moves';
    END IF;
    RETURN NEW;
END $$;
-- +goose StatementEnd
