package auth

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/jackc/pgx/v5/pgtype"

	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
)

// oauthState is a stored authorization request.
type oauthState struct {
	ID            string  `db:"id"`
	ClientID      string  `db:"client_id"`
	RedirectURI   string  `db:"redirect_uri"`
	CodeChallenge string  `db:"code_challenge"`
	Scope         string  `db:"scope"`
	State         *string `db:"state"`
	Resource      *string `db:"resource"` // the resource indicator asked for (RFC 8707); nil for none
	// ClientName is the name in the metadata document of a client known by
	// one, as read when the request was made; nil for another client.
	ClientName *string   `db:"client_name"`
	ExpiresAt  time.Time `db:"expires_at"`
}

// oauthCode is a stored authorization code.
type oauthCode struct {
	ClientID      string     `db:"client_id"`
	RedirectURI   string     `db:"redirect_uri"`
	CodeChallenge string     `db:"code_challenge"`
	Scope         string     `db:"scope"`
	Resource      *string    `db:"resource"`
	UserID        int64      `db:"user_id"`
	ExpiresAt     time.Time  `db:"expires_at"`
	UsedAt        *time.Time `db:"used_at"`
	Family        *string    `db:"family"`
}

// InsertOAuthState stores an authorization request.
func (Store) InsertOAuthState(ctx context.Context, q sqldb.Queryer, st oauthState) error {
	_, err := q.ExecContext(ctx, `INSERT INTO oauth_states (id, client_id, redirect_uri, code_challenge, scope, state, resource, client_name, expires_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`, st.ID, st.ClientID, st.RedirectURI, st.CodeChallenge, st.Scope, st.State, st.Resource, st.ClientName, st.ExpiresAt)
	return err
}

const oauthStateColumns = `id, client_id, redirect_uri, code_challenge, scope, state, resource, client_name, expires_at`

// OAuthState returns the authorization request id, unexpired at now.
// Errors: ErrBadOAuthState.
func (Store) OAuthState(ctx context.Context, q sqldb.Queryer, id string, now time.Time) (oauthState, error) {
	var st oauthState
	if !validUUID(id) {
		return st, ErrBadOAuthState
	}
	err := q.GetContext(ctx, &st, `SELECT `+oauthStateColumns+` FROM oauth_states WHERE id = $1 AND expires_at > $2`, id, now)
	if errors.Is(err, sql.ErrNoRows) {
		return st, ErrBadOAuthState
	}
	return st, err
}

// TakeOAuthState deletes the authorization request id, unexpired at now,
// and returns it; of two callers, one gets it. Errors: ErrBadOAuthState.
func (Store) TakeOAuthState(ctx context.Context, q sqldb.Queryer, id string, now time.Time) (oauthState, error) {
	var st oauthState
	if !validUUID(id) {
		return st, ErrBadOAuthState
	}
	err := q.GetContext(ctx, &st, `DELETE FROM oauth_states WHERE id = $1 AND expires_at > $2 RETURNING `+oauthStateColumns, id, now)
	if errors.Is(err, sql.ErrNoRows) {
		return st, ErrBadOAuthState
	}
	return st, err
}

// InsertOAuthCode stores the hash of code with its bindings.
func (Store) InsertOAuthCode(ctx context.Context, q sqldb.Queryer, c oauthCode, code string) error {
	_, err := q.ExecContext(ctx, `INSERT INTO oauth_codes (code_hash, client_id, redirect_uri, code_challenge, scope, resource, user_id, expires_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, hashToken(code), c.ClientID, c.RedirectURI, c.CodeChallenge, c.Scope, c.Resource, c.UserID, c.ExpiresAt)
	return err
}

// ClaimOAuthCode locks the code and returns it. Errors: sql.ErrNoRows.
func (Store) ClaimOAuthCode(ctx context.Context, q sqldb.Queryer, code string) (oauthCode, error) {
	var c oauthCode
	err := q.GetContext(ctx, &c, `SELECT client_id, redirect_uri, code_challenge, scope, resource, user_id, expires_at, used_at, family
		FROM oauth_codes WHERE code_hash = $1 FOR UPDATE`, hashToken(code))
	return c, err
}

// SpendOAuthCode records that code was exchanged at t for the tokens of family.
func (Store) SpendOAuthCode(ctx context.Context, q sqldb.Queryer, code string, t time.Time, family string) error {
	_, err := q.ExecContext(ctx, `UPDATE oauth_codes SET used_at = $2, family = $3 WHERE code_hash = $1`, hashToken(code), t, family)
	return err
}

// InsertClientRefresh stores the hash of a refresh token of an OAuth
// client, with the scope and the resource ("" for none) of its grant.
func (Store) InsertClientRefresh(ctx context.Context, q sqldb.Queryer, userID int64, family, tok string, expires time.Time, clientID, scope, resource string) error {
	_, err := q.ExecContext(ctx, `INSERT INTO refresh_tokens (user_id, family, token_hash, expires_at, client_id, scope, resource)
		VALUES ($1, $2, $3, $4, $5, $6, $7)`, userID, family, hashToken(tok), expires, clientID, scope, nilIfEmpty(resource))
	return err
}

// InsertOAuthClient stores a registered client.
func (Store) InsertOAuthClient(ctx context.Context, q sqldb.Queryer, c RegisteredClient) error {
	_, err := q.ExecContext(ctx, `INSERT INTO oauth_clients (client_id, client_name, redirect_uris, created_at) VALUES ($1, $2, $3, $4)`,
		c.ClientID, c.ClientName, c.RedirectURIs, c.IssuedAt)
	return err
}

// OAuthClient returns the registered client id. Errors: sql.ErrNoRows.
func (Store) OAuthClient(ctx context.Context, q sqldb.Queryer, id string) (oauthClientInfo, error) {
	var c oauthClientInfo
	err := q.QueryRowxContext(ctx, `SELECT client_id, client_name, redirect_uris FROM oauth_clients WHERE client_id = $1`, id).
		Scan(&c.ID, &c.Name, pgtype.NewMap().SQLScanner(&c.RedirectURIs))
	return c, err
}

// TouchOAuthClient records that the registered client id finished a flow at t.
func (Store) TouchOAuthClient(ctx context.Context, q sqldb.Queryer, id string, t time.Time) error {
	_, err := q.ExecContext(ctx, `UPDATE oauth_clients SET last_used_at = $2 WHERE client_id = $1`, id, t)
	return err
}

// PurgeOAuth deletes, as of now, expired authorization requests and codes
// and the registered clients unused for UnusedClientTTL. It returns how many
// rows it deleted.
func (Store) PurgeOAuth(ctx context.Context, q sqldb.Queryer, now time.Time) (int64, error) {
	var total int64
	for _, stmt := range []struct {
		sql string
		arg time.Time
	}{
		{`DELETE FROM oauth_states WHERE expires_at <= $1`, now},
		{`DELETE FROM oauth_codes WHERE expires_at <= $1`, now},
		{`DELETE FROM oauth_clients WHERE last_used_at IS NULL AND created_at <= $1`, now.Add(-UnusedClientTTL)},
	} {
		r, err := q.ExecContext(ctx, stmt.sql, stmt.arg)
		if err != nil {
			return total, err
		}
		n, _ := r.RowsAffected()
		total += n
	}
	return total, nil
}

// validUUID reports whether s has the form of a UUID, so that a malformed
// oauth_state is refused before PostgreSQL would fail to cast it.
func validUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i, r := range s {
		switch {
		case i == 8 || i == 13 || i == 18 || i == 23:
			if r != '-' {
				return false
			}
		case !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f' || r >= 'A' && r <= 'F'):
			return false
		}
	}
	return true
}
