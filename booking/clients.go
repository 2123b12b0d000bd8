package booking

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
)

// InviteFunc creates, in tx, a user for a new client's email with a random
// password, queues in tx the message that gives the user a set-password
// link, and returns the user's id.
type InviteFunc func(ctx context.Context, tx *sqlx.Tx, email string, displayName *string) (userID int64, err error)

// Clients manages the club's clients.
type Clients struct {
	db     *sqlx.DB
	invite InviteFunc
	store  clientStore
}

var (
	errBadDocumentType = clubhouse.ErrInvalidReference.Withf("document_type_id does not name an existing document type.")
	errUserAndEmail    = clubhouse.Errorf(clubhouse.Invalid, "invalid data", "Send user_id to link an existing user or email to create one, not both.")
	errDisplayName     = clubhouse.Errorf(clubhouse.Invalid, "invalid data", "display_name is accepted only with email, for the user it creates.")
)

func errClientInUse(id int64) error {
	return clubhouse.ErrInUse.Withf("The client %d still has bookings or payments; keep it or delete those first.", id)
}

// List returns up to limit clients from offset whose email, display name,
// name, document or phone contains term. Errors: clubhouse.ErrForbidden,
// ErrInvalidQuery for a page out of ClientPaging.
func (c *Clients) List(ctx context.Context, by clubhouse.Actor, term string, limit, offset int) ([]Client, error) {
	if err := by.RequirePanel(); err != nil {
		return nil, err
	}
	limit, offset, err := ClientPaging.Page(limit, offset)
	if err != nil {
		return nil, err
	}
	return c.store.list(ctx, c.db, term, limit, offset)
}

// Get returns the client with id. Errors: ErrClientNotFound.
func (c *Clients) Get(ctx context.Context, by clubhouse.Actor, id int64) (Client, error) {
	if err := by.RequirePanel(); err != nil {
		return Client{}, err
	}
	return c.store.get(ctx, c.db, id)
}

// Create stores a client created by staff or a trainer, who is recorded as
// its creator (a trainer sees the clients they created). With UserID the
// client is linked to that user; with Email a user is created and invited
// to set a password. Errors: clubhouse.ErrForbidden for anyone else; Invalid
// (incomplete data, ErrInvalidEmail, an invalid reference, ErrUserNotFound),
// Conflict (ErrClientExists, ErrEmailInUse, ErrPhoneInUse, ErrDocumentInUse).
func (c *Clients) Create(ctx context.Context, by clubhouse.Actor, in ClientInput) (Client, error) {
	if !by.HasPanel() && !by.Has(clubhouse.RoleTrainer) {
		return Client{}, clubhouse.ErrForbidden
	}
	cols, err := in.columns("first_name", "last_name", "document", "document_type_id")
	if err != nil {
		return Client{}, err
	}
	if by.UserID != 0 {
		cols["created_by"] = by.UserID
	}
	delete(cols, "user_id")
	email, hasEmail := cols["email"].(string)
	hasUser := in.UserID.Set && in.UserID.Value != nil
	switch {
	case hasUser && hasEmail:
		return Client{}, errUserAndEmail
	case cols["display_name"] != nil && !hasEmail:
		return Client{}, errDisplayName
	}
	var out Client
	err = sqldb.Transact(ctx, c.db, func(tx *sqlx.Tx) error {
		switch {
		case hasUser:
			userEmail, ok, err := c.store.userEmail(ctx, tx, *in.UserID.Value)
			if err != nil {
				return err
			}
			if !ok {
				return ErrUserNotFound
			}
			cols["user_id"], cols["email"] = *in.UserID.Value, userEmail
		case hasEmail:
			taken, err := c.store.userEmailTaken(ctx, tx, email, 0)
			if err != nil {
				return err
			}
			if taken {
				return ErrEmailInUse
			}
			var dn *string
			if v, ok := cols["display_name"].(string); ok {
				dn = &v
			}
			id, err := c.invite(ctx, tx, email, dn)
			if err != nil {
				return err
			}
			cols["user_id"] = id
		}
		out, err = c.store.insert(ctx, tx, cols)
		return err
	})
	if err != nil {
		return Client{}, fmt.Errorf("create client: %w", err)
	}
	return out, nil
}

// Update changes the fields set in in. Errors: ErrClientNotFound, and as Create.
func (c *Clients) Update(ctx context.Context, by clubhouse.Actor, id int64, in ClientInput) (Client, error) {
	if err := by.RequirePanel(); err != nil {
		return Client{}, err
	}
	return c.update(ctx, id, in)
}

// update is Update without the actor's check.
func (c *Clients) update(ctx context.Context, id int64, in ClientInput) (Client, error) {
	cols, err := in.columns()
	if err != nil {
		return Client{}, err
	}
	out, err := c.store.update(ctx, c.db, id, cols)
	if err != nil {
		return Client{}, fmt.Errorf("update client: %w", err)
	}
	return out, nil
}

// Delete removes the client with id. Errors: ErrClientNotFound, Conflict
// when bookings or payments refer to it.
func (c *Clients) Delete(ctx context.Context, by clubhouse.Actor, id int64) error {
	if err := by.RequirePanel(); err != nil {
		return err
	}
	return c.store.delete(ctx, c.db, id)
}

// CreatedBy returns the clients that the user with userID created, or
// that have an id of ids, in id order: what a trainer sees of the clients
// (classes composes ids from the trainer's students). Errors:
// clubhouse.ErrForbidden for an actor who is neither staff nor a trainer.
func (c *Clients) CreatedBy(ctx context.Context, by clubhouse.Actor, userID int64, ids []int64) ([]Client, error) {
	if !by.HasPanel() && !by.Has(clubhouse.RoleTrainer) {
		return nil, clubhouse.ErrForbidden
	}
	return c.store.createdBy(ctx, c.db, userID, ids)
}
