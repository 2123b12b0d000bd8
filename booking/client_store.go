package booking

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
)

var clientErrors = sqldb.Mapping{
	"clients_user_id_key":           ErrClientExists,
	"clients_email_key":             ErrEmailInUse,
	"clients_phone_key":             ErrPhoneInUse,
	"clients_document_key":          ErrDocumentInUse,
	"clients_user_id_fkey":          ErrUserNotFound,
	"clients_document_type_id_fkey": errBadDocumentType,
	"clients_email_check":           ErrInvalidEmail,
}

const clientSelect = `SELECT c.id, c.user_id, c.email, c.display_name, c.first_name, c.last_name, c.phone, c.document,
	c.document_type_id, c.address, COALESCE(u.email_verified, false) AS email_verified, c.is_available, c.created_at, c.updated_at
	FROM clients c LEFT JOIN users u ON u.id = c.user_id`

// clientStore holds the SQL of clients.
type clientStore struct{}

func (clientStore) list(ctx context.Context, q sqldb.Queryer, term string, limit, offset int) ([]Client, error) {
	rows := []Client{}
	query, args := clientSelect, []any{limit, offset}
	if term = strings.TrimSpace(term); term != "" {
		query += ` WHERE c.email ILIKE '%' || $3 || '%' OR c.display_name ILIKE '%' || $3 || '%'
			OR c.first_name || ' ' || c.last_name ILIKE '%' || $3 || '%' OR c.document ILIKE '%' || $3 || '%' OR c.phone ILIKE '%' || $3 || '%'`
		args = append(args, sqldb.EscapeLike(term))
	}
	if err := q.SelectContext(ctx, &rows, query+` ORDER BY c.id LIMIT $1 OFFSET $2`, args...); err != nil {
		return nil, fmt.Errorf("list clients: %w", err)
	}
	return rows, nil
}

func (clientStore) createdBy(ctx context.Context, q sqldb.Queryer, userID int64, ids []int64) ([]Client, error) {
	rows := []Client{}
	if err := q.SelectContext(ctx, &rows, clientSelect+` WHERE c.created_by = $1 OR c.id = ANY($2) ORDER BY c.id`, userID, ids); err != nil {
		return nil, fmt.Errorf("list clients: %w", err)
	}
	return rows, nil
}

func (clientStore) get(ctx context.Context, q sqldb.Queryer, id int64) (Client, error) {
	var c Client
	err := q.GetContext(ctx, &c, clientSelect+` WHERE c.id = $1`, id)
	return c, sqldb.Map(err, ErrClientNotFound, nil)
}

func (clientStore) byUser(ctx context.Context, q sqldb.Queryer, userID int64) (Client, error) {
	var c Client
	err := q.GetContext(ctx, &c, clientSelect+` WHERE c.user_id = $1`, userID)
	return c, sqldb.Map(err, ErrClientNotFound, nil)
}

func (s clientStore) insert(ctx context.Context, q sqldb.Queryer, cols map[string]any) (Client, error) {
	names := sortedKeys(cols)
	marks, args := make([]string, len(names)), make([]any, len(names))
	for i, n := range names {
		marks[i], args[i] = fmt.Sprintf("$%d", i+1), cols[n]
	}
	var id int64
	err := q.GetContext(ctx, &id, `INSERT INTO clients (`+strings.Join(names, ", ")+`) VALUES (`+strings.Join(marks, ", ")+`) RETURNING id`, args...)
	if err != nil {
		return Client{}, sqldb.Map(err, nil, clientErrors)
	}
	return s.get(ctx, q, id)
}

func (s clientStore) update(ctx context.Context, q sqldb.Queryer, id int64, cols map[string]any) (Client, error) {
	if len(cols) == 0 {
		return s.get(ctx, q, id)
	}
	sets, args := []string{"updated_at = now()"}, []any{id}
	for _, n := range sortedKeys(cols) {
		args = append(args, cols[n])
		sets = append(sets, fmt.Sprintf("%s = $%d", n, len(args)))
	}
	res, err := q.ExecContext(ctx, `UPDATE clients SET `+strings.Join(sets, ", ")+` WHERE id = $1`, args...)
	if err != nil {
		return Client{}, sqldb.Map(err, nil, clientErrors)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return Client{}, ErrClientNotFound
	}
	return s.get(ctx, q, id)
}

func (clientStore) delete(ctx context.Context, q sqldb.Queryer, id int64) error {
	res, err := q.ExecContext(ctx, `DELETE FROM clients WHERE id = $1`, id)
	if sqldb.Code(err) == "23503" {
		return errClientInUse(id)
	}
	if err != nil {
		return fmt.Errorf("delete client: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrClientNotFound
	}
	return nil
}

func (clientStore) userEmail(ctx context.Context, q sqldb.Queryer, userID int64) (*string, bool, error) {
	var u struct {
		Email *string `db:"email"`
	}
	err := q.GetContext(ctx, &u, `SELECT email FROM users WHERE id = $1`, userID)
	if err != nil {
		if mapped := sqldb.Map(err, ErrUserNotFound, nil); errors.Is(mapped, ErrUserNotFound) {
			return nil, false, nil
		}
		return nil, false, err
	}
	return u.Email, true, nil
}

// userEmailTaken reports whether a user other than the one with id except uses email.
func (clientStore) userEmailTaken(ctx context.Context, q sqldb.Queryer, email string, except int64) (bool, error) {
	var taken bool
	err := q.GetContext(ctx, &taken, `SELECT EXISTS (SELECT 1 FROM users WHERE lower(email) = lower($1) AND id <> $2)`, email, except)
	return taken, err
}
