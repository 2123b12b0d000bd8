package auth

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
)

// Machine is a machine client: a program that gets access tokens of its own
// with the OAuth 2.0 client-credentials grant (ClientCredentials), sending
// its public ClientID and its secret. Its tokens name the subject
// MachinePrefix + ClientID and open the routes its roles open, as a user's
// do; any role may be given, sudo too, which lets the machine manage
// machine clients and users. Of the secret only a SHA-256 hash is kept: it
// is 32 random bytes, so a slow hash would add nothing.
type Machine struct {
	ID         int64  `db:"id"`
	ClientID   string `db:"client_id"` // "mch_" and 32 hex digits
	Name       string `db:"name"`
	Trainer    bool   `db:"trainer"`
	Operator   bool   `db:"operator"`
	Admin      bool   `db:"admin"`
	Sudo       bool   `db:"sudo"`
	Accounting bool   `db:"accounting"`
	Disabled   bool   `db:"disabled"`
	// SecretVersion counts the machine's secrets, from 1. A rotation
	// increments it; a token carries the version it was issued under, and
	// one of an earlier version is refused.
	SecretVersion int       `db:"secret_version"`
	CreatedAt     time.Time `db:"created_at"`
}

// Roles returns the roles the machine holds.
func (m Machine) Roles() map[clubhouse.Role]bool {
	return map[clubhouse.Role]bool{
		clubhouse.RoleTrainer: m.Trainer, clubhouse.RoleOperator: m.Operator, clubhouse.RoleAdmin: m.Admin,
		clubhouse.RoleSudo: m.Sudo, clubhouse.RoleAccounting: m.Accounting,
	}
}

// Subject is the subject of the machine's tokens, and the UID of its actor.
func (m Machine) Subject() string { return MachinePrefix + m.ClientID }

// MachineScope is the one scope a machine client's token carries: the HTTP
// API, as far as the machine's roles open it. A client may ask for it or
// for no scope; the scopes of people (openid, panel, mcp, mcp:read) are refused.
const MachineScope = "api"

// Errors of machine clients.
var (
	ErrMachineNotFound = clubhouse.Errorf(clubhouse.NotFound, "machine not found", "The machine client does not exist.")
	// ErrInvalidClient is every failed authentication of a machine client:
	// an unknown client_id, a wrong secret, a disabled client. Its code is
	// the error of RFC 6749, section 5.2.
	ErrInvalidClient = clubhouse.Errorf(clubhouse.Unauthenticated, "invalid_client", "The client_id or client_secret is wrong.")
	// ErrInvalidScope is a scope a machine client may not get (RFC 6749,
	// section 5.2).
	ErrInvalidScope = clubhouse.Errorf(clubhouse.Invalid, "invalid_scope", "The scope is unknown, or wider than the grant or the client may get.")
)

// errMachinesLocal refuses machine clients when tokens come from an
// external issuer: machine clients are the local identity provider's.
var errMachinesLocal = ErrLocalOnly.Withf("Machine clients get their tokens at the external identity provider.")

// NewMachine is the data of a machine client to create.
type NewMachine struct {
	Name  string           // 1 to 255 characters, not blank; stored without surrounding spaces
	Roles []clubhouse.Role // at least one; repeats count once
}

// CreateMachine creates a machine client with a new client_id and secret,
// and returns it with the secret: the only time the secret is seen, since
// only its hash is stored. Errors: clubhouse.ErrInvalidData for a blank or
// long name or no role, the error of clubhouse.ParseRole for an unknown
// role, ErrLocalOnly with an external issuer (which would never see the
// machine's tokens).
func (s *Service) CreateMachine(ctx context.Context, n NewMachine) (Machine, string, error) {
	if s.o.External != "" {
		return Machine{}, "", errMachinesLocal
	}
	name := strings.TrimSpace(n.Name)
	switch {
	case name == "":
		return Machine{}, "", clubhouse.ErrInvalidData.Withf("Field name must not be blank.")
	case !utf8.ValidString(name) || strings.IndexByte(name, 0) >= 0:
		return Machine{}, "", clubhouse.ErrInvalidData.Withf("Field name must be UTF-8 text without NUL characters.")
	case utf8.RuneCountInString(name) > 255:
		return Machine{}, "", clubhouse.ErrInvalidData.Withf("Field name must be at most 255 characters long.")
	}
	roles := map[clubhouse.Role]bool{}
	for _, r := range n.Roles {
		if _, err := clubhouse.ParseRole(string(r)); err != nil {
			return Machine{}, "", err
		}
		roles[r] = true
	}
	if len(roles) == 0 {
		return Machine{}, "", clubhouse.ErrInvalidData.Withf("A machine client needs at least one role: trainer, operator, admin, sudo or accounting.")
	}
	secret := randomToken()
	m, err := s.store.insertMachine(ctx, s.o.DB, newClientID(), name, roles, hashToken(secret), s.o.Now())
	if err != nil {
		return Machine{}, "", fmt.Errorf("create machine: %w", err)
	}
	return m, secret, nil
}

// MachinePage is one page of the list of machine clients.
type MachinePage struct {
	Machines  []Machine
	NextToken string // "" on the last page
	Total     int
}

// MachinePaging is the page size of Machines: 50 unless asked, at most
// 1000.
var MachinePaging = clubhouse.Paging{Default: 50, Max: 1000}

// Machines lists the machine clients in creation order, max per page
// (MachinePaging), as users.Service.List lists users. Errors:
// clubhouse.ErrInvalidQuery for max, ErrBadPageToken.
func (s *Service) Machines(ctx context.Context, pageToken string, max int) (MachinePage, error) {
	max, err := MachinePaging.Limit("maxResults", max)
	if err != nil {
		return MachinePage{}, err
	}
	after, err := decodePageToken('m', pageToken)
	if err != nil {
		return MachinePage{}, err
	}
	ms, total, err := s.store.listMachines(ctx, s.o.DB, after, max+1)
	if err != nil {
		return MachinePage{}, err
	}
	p := MachinePage{Machines: ms, Total: total}
	if len(ms) > max {
		p.Machines = ms[:max]
		p.NextToken = encodePageToken('m', ms[max-1].ID)
	}
	return p, nil
}

// MachineByClientID returns the machine client with clientID. Errors:
// ErrMachineNotFound.
func (s *Service) MachineByClientID(ctx context.Context, clientID string) (Machine, error) {
	m, _, err := s.store.machineByClientID(ctx, s.o.DB, clientID)
	return m, err
}

// RotateMachineSecret gives the machine client with id a new secret and
// returns it. The old secret is refused from then on, and so are the access
// tokens issued under it, from their next request. Errors:
// ErrMachineNotFound.
func (s *Service) RotateMachineSecret(ctx context.Context, id int64) (string, error) {
	secret := randomToken()
	if err := s.store.setMachineSecret(ctx, s.o.DB, id, hashToken(secret)); err != nil {
		return "", err
	}
	return secret, nil
}

// SetMachineDisabled disables or enables the machine client with id. A
// disabled machine gets no token, and the tokens it holds are refused from
// their next request; enabled again, it may use those not yet expired.
// Errors: ErrMachineNotFound.
func (s *Service) SetMachineDisabled(ctx context.Context, id int64, disabled bool) (Machine, error) {
	return s.store.setMachineDisabled(ctx, s.o.DB, id, disabled)
}

// ClientCredentials is the client-credentials grant (RFC 6749, section
// 4.4): it checks the secret of the machine client clientID, compared in
// constant time, and mints an access token with the machine's roles as
// claims and scope MachineScope, which scope ("" or "api") may ask for.
// There is no refresh token: the client asks again. Errors:
// ErrInvalidClient (unknown client, wrong secret, disabled client),
// ErrInvalidScope, ErrLocalOnly with an external issuer.
func (s *Service) ClientCredentials(ctx context.Context, clientID, secret, scope string) (Tokens, error) {
	if s.o.Issuer == nil {
		return Tokens{}, errMachinesLocal
	}
	m, hash, err := s.store.machineByClientID(ctx, s.o.DB, clientID)
	if errors.Is(err, ErrMachineNotFound) {
		return Tokens{}, ErrInvalidClient
	}
	if err != nil {
		return Tokens{}, fmt.Errorf("client credentials: %w", err)
	}
	if subtle.ConstantTimeCompare(hashToken(secret), hash) != 1 {
		return Tokens{}, ErrInvalidClient
	}
	if m.Disabled {
		return Tokens{}, ErrInvalidClient.Withf("The client is disabled.")
	}
	for _, sc := range strings.Fields(scope) {
		if sc != MachineScope {
			return Tokens{}, ErrInvalidScope.Withf("A machine client may ask only for scope %q, not %q.", MachineScope, sc)
		}
	}
	tok, ttl, err := s.o.Issuer.mintMachine(m, MachineScope)
	if err != nil {
		return Tokens{}, fmt.Errorf("client credentials: %w", err)
	}
	return Tokens{AccessToken: tok, ExpiresIn: ttl, Scope: MachineScope}, nil
}

// machineActor returns the actor of the machine client c names: a bot, as
// a program rather than a person. Tokens of an external issuer name no
// machine client.
func (s *Service) machineActor(ctx context.Context, c Claims) (clubhouse.Actor, error) {
	if s.o.Issuer == nil {
		return clubhouse.Actor{}, ErrInvalidToken.Withf("The token's subject is not a known user.")
	}
	m, _, err := s.store.machineByClientID(ctx, s.o.DB, strings.TrimPrefix(c.Subject, MachinePrefix))
	switch {
	case errors.Is(err, ErrMachineNotFound):
		return clubhouse.Actor{}, ErrInvalidToken.Withf("The token's subject is not a known machine client.")
	case err != nil:
		return clubhouse.Actor{}, fmt.Errorf("authenticate: %w", err)
	case m.Disabled:
		return clubhouse.Actor{}, ErrInvalidToken.Withf("The machine client is disabled.")
	case c.SecretVersion != m.SecretVersion:
		return clubhouse.Actor{}, ErrInvalidToken.Withf("The token was issued under a machine secret that has been rotated.")
	}
	return clubhouse.Actor{UID: m.Subject(), Bot: true, Roles: m.Roles()}, nil
}

// newClientID returns a new public client_id: "mch_" and 128 random bits
// in hex.
func newClientID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b) // never fails on supported platforms
	return "mch_" + hex.EncodeToString(b)
}

const machineColumns = `id, client_id, name, trainer, operator, admin, sudo, accounting, disabled, secret_version, created_at`

// machineRow is a machine with the hash of its secret.
type machineRow struct {
	Machine
	SecretHash []byte `db:"secret_hash"`
}

// insertMachine stores a machine client.
func (Store) insertMachine(ctx context.Context, q sqldb.Queryer, clientID, name string, roles map[clubhouse.Role]bool, hash []byte, at time.Time) (Machine, error) {
	var m Machine
	err := q.GetContext(ctx, &m, `INSERT INTO machines (client_id, name, secret_hash, trainer, operator, admin, sudo, accounting, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING `+machineColumns,
		clientID, name, hash, roles[clubhouse.RoleTrainer], roles[clubhouse.RoleOperator], roles[clubhouse.RoleAdmin],
		roles[clubhouse.RoleSudo], roles[clubhouse.RoleAccounting], at)
	return m, sqldb.Map(err, nil, nil)
}

// machineByClientID returns the machine client with clientID and the hash
// of its secret, or ErrMachineNotFound.
func (Store) machineByClientID(ctx context.Context, q sqldb.Queryer, clientID string) (Machine, []byte, error) {
	var r machineRow
	err := q.GetContext(ctx, &r, `SELECT `+machineColumns+`, secret_hash FROM machines WHERE client_id = $1`, clientID)
	return r.Machine, r.SecretHash, sqldb.Map(err, ErrMachineNotFound, nil)
}

// listMachines returns up to limit machine clients with an id above after,
// in id order, and the total number of machine clients.
func (Store) listMachines(ctx context.Context, q sqldb.Queryer, after int64, limit int) ([]Machine, int, error) {
	ms := []Machine{}
	if err := q.SelectContext(ctx, &ms, `SELECT `+machineColumns+` FROM machines WHERE id > $1 ORDER BY id LIMIT $2`, after, limit); err != nil {
		return nil, 0, fmt.Errorf("list machines: %w", err)
	}
	var total int
	if err := q.GetContext(ctx, &total, `SELECT count(*) FROM machines`); err != nil {
		return nil, 0, fmt.Errorf("count machines: %w", err)
	}
	return ms, total, nil
}

// setMachineSecret replaces the secret hash of the machine client with id
// and increments its secret version.
func (Store) setMachineSecret(ctx context.Context, q sqldb.Queryer, id int64, hash []byte) error {
	var got int64
	err := q.GetContext(ctx, &got, `UPDATE machines SET secret_hash = $2, secret_version = secret_version + 1
		WHERE id = $1 RETURNING id`, id, hash)
	return sqldb.Map(err, ErrMachineNotFound, nil)
}

// setMachineDisabled sets the disabled flag of the machine client with id.
func (Store) setMachineDisabled(ctx context.Context, q sqldb.Queryer, id int64, disabled bool) (Machine, error) {
	var m Machine
	err := q.GetContext(ctx, &m, `UPDATE machines SET disabled = $2 WHERE id = $1 RETURNING `+machineColumns, id, disabled)
	return m, sqldb.Map(err, ErrMachineNotFound, nil)
}
