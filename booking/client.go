package booking

import (
	"net/mail"
	"slices"
	"strings"
	"time"

	"github.com/clubhouse-go/clubhouse"
)

// Client is a person who books and pays: a member, a walk-in, a student.
// A client may be linked to a user who signs in to the account routes.
type Client struct {
	ID             int64     `db:"id"`
	UserID         *int64    `db:"user_id"`
	Email          *string   `db:"email"`
	DisplayName    *string   `db:"display_name"`
	FirstName      string    `db:"first_name"`
	LastName       string    `db:"last_name"`
	Phone          *string   `db:"phone"`
	Document       string    `db:"document"`
	DocumentTypeID int64     `db:"document_type_id"`
	Address        *string   `db:"address"`
	EmailVerified  bool      `db:"email_verified"`
	IsAvailable    bool      `db:"is_available"`
	CreatedAt      time.Time `db:"created_at"`
	UpdatedAt      time.Time `db:"updated_at"`
}

// ClientInput is the data of a client to create or change. On create,
// FirstName, LastName, Document and DocumentTypeID are required; on update
// only the fields set change.
type ClientInput struct {
	FirstName      clubhouse.Optional[string]
	LastName       clubhouse.Optional[string]
	Document       clubhouse.Optional[string]
	DocumentTypeID clubhouse.Optional[int64]
	Phone          clubhouse.Optional[string]
	Address        clubhouse.Optional[string]
	Email          clubhouse.Optional[string]
	DisplayName    clubhouse.Optional[string]
	UserID         clubhouse.Optional[int64]
}

// Errors of clients.
var (
	ErrClientNotFound = clubhouse.Errorf(clubhouse.NotFound, "client not found", "The client does not exist.")
	ErrClientExists   = clubhouse.Errorf(clubhouse.Conflict, "client already exists", "The user already has a client record.")
	ErrEmailInUse     = clubhouse.Errorf(clubhouse.Conflict, "email already in use", "Another client or user already uses that email.")
	ErrPhoneInUse     = clubhouse.Errorf(clubhouse.Conflict, "phone already in use", "Another client already uses that phone.")
	ErrInvalidEmail   = clubhouse.Errorf(clubhouse.Invalid, "invalid email", "The email address is not valid.")
	ErrDocumentInUse  = clubhouse.Errorf(clubhouse.Conflict, "document already in use",
		"Another client already has that document (document, of that document_type_id; compared without regard to case).")
	ErrUserNotFound = clubhouse.ErrInvalidReference.Sub("user not found", "The user_id does not name an existing user.")
)

// columns validates in and returns the columns to write; required lists
// the fields that must be present (on create).
func (in ClientInput) columns(required ...string) (map[string]any, error) {
	cols := map[string]any{}
	var missing []string
	text := func(name string, f clubhouse.Optional[string]) error {
		req := slices.Contains(required, name)
		switch {
		case (!f.Set || f.Value == nil) && req:
			missing = append(missing, name)
		case f.Set && f.Value == nil:
			if name == "first_name" || name == "last_name" || name == "document" {
				missing = append(missing, name)
			} else {
				cols[name] = nil
			}
		case f.Set:
			v := strings.TrimSpace(*f.Value)
			if v == "" {
				if name == "first_name" || name == "last_name" || name == "document" || req {
					return clubhouse.ErrInvalidData.Withf("Field %s must not be blank.", name)
				}
				cols[name] = nil
				return nil
			}
			cols[name] = v
		}
		return nil
	}
	for _, f := range []struct {
		name string
		v    clubhouse.Optional[string]
	}{{"first_name", in.FirstName}, {"last_name", in.LastName}, {"document", in.Document}, {"phone", in.Phone},
		{"address", in.Address}, {"email", in.Email}, {"display_name", in.DisplayName}} {
		if err := text(f.name, f.v); err != nil {
			return nil, err
		}
	}
	switch {
	case in.DocumentTypeID.Set && in.DocumentTypeID.Value != nil:
		if *in.DocumentTypeID.Value <= 0 {
			return nil, clubhouse.ErrInvalidReference.Withf("document_type_id %d does not exist.", *in.DocumentTypeID.Value)
		}
		cols["document_type_id"] = *in.DocumentTypeID.Value
	case in.DocumentTypeID.Set || slices.Contains(required, "document_type_id"):
		missing = append(missing, "document_type_id")
	}
	if len(missing) > 0 {
		return nil, clubhouse.ErrIncomplete.Withf("Missing required fields: %s.", strings.Join(missing, ", "))
	}
	if e, ok := cols["email"].(string); ok {
		a, err := mail.ParseAddress(e)
		if err != nil || a.Address != e {
			return nil, ErrInvalidEmail.Withf("%q is not a valid email address.", e)
		}
	}
	return cols, nil
}
