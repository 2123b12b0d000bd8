package booking

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse"
)

// ClientOf returns the id of by's own client record, read on q (the
// database, or the transaction of a use case that must see it there), or 0
// when by has none: a bot, an anonymous caller, or a user who never
// completed one. It is the one place where a caller's client is resolved;
// every domain that serves a client's own records (bookings, payments,
// enrollments, devices) asks it.
func ClientOf(ctx context.Context, q sqlx.QueryerContext, by clubhouse.Actor) (int64, error) {
	if by.UserID == 0 {
		return 0, nil
	}
	var id int64
	err := sqlx.GetContext(ctx, q, &id, `SELECT id FROM clients WHERE user_id = $1`, by.UserID)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("client of user %d: %w", by.UserID, err)
	}
	return id, nil
}

// Own returns by's own client record. Errors: ErrClientNotFound when by
// has none (see ClientOf).
func (c *Clients) Own(ctx context.Context, by clubhouse.Actor) (Client, error) {
	if by.UserID == 0 {
		return Client{}, ErrClientNotFound
	}
	return c.store.byUser(ctx, c.db, by.UserID)
}

// CreateOwn stores by's own client record, from the account routes.
// Errors: ErrUserNotFound for a caller who is not a user (a bot), as
// Create, ErrClientExists when the user has one, and ErrEmailInUse when
// another user or client uses the email.
func (c *Clients) CreateOwn(ctx context.Context, by clubhouse.Actor, in ClientInput) (Client, error) {
	if by.UserID == 0 {
		return Client{}, ErrUserNotFound
	}
	cols, err := in.columns("email", "first_name", "last_name", "document", "document_type_id")
	if err != nil {
		return Client{}, err
	}
	delete(cols, "display_name")
	cols["user_id"] = by.UserID
	// The email may be the caller's own, but not another user's: that user could then never have a client.
	taken, err := c.store.userEmailTaken(ctx, c.db, cols["email"].(string), by.UserID)
	if err != nil {
		return Client{}, fmt.Errorf("create client: %w", err)
	}
	if taken {
		return Client{}, ErrEmailInUse
	}
	out, err := c.store.insert(ctx, c.db, cols)
	if err != nil {
		return Client{}, fmt.Errorf("create client: %w", err)
	}
	return out, nil
}

// UpdateOwn changes by's own client record. Errors: ErrClientNotFound,
// and as Create.
func (c *Clients) UpdateOwn(ctx context.Context, by clubhouse.Actor, in ClientInput) (Client, error) {
	cl, err := c.Own(ctx, by)
	if err != nil {
		return Client{}, err
	}
	return c.update(ctx, cl.ID, in)
}
