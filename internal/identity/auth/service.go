package auth

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"database/sql"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/jmoiron/sqlx"
	"golang.org/x/crypto/bcrypt"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/mail"
	"github.com/clubhouse-go/clubhouse/users"
)

// Options configure a Service.
type Options struct {
	DB            *sqldb.DB
	Issuer        *Issuer   // local provider; nil when tokens come from an external issuer
	Verifier      *Verifier // verifies every bearer token
	External      string    // the external issuer URL; users are created on first sight of a subject
	RefreshTTL    time.Duration
	BcryptCost    int // bcrypt.DefaultCost when 0
	BotKeys       []string
	Limits        LoginLimits
	Now           func() time.Time
	Mail          *mail.Outbox // queues the messages that carry links (set-password); nil: none
	PublicBaseURL string       // prefix of the links
	OAuth         OAuthOptions
	// Users are the user records, which every write of a user goes
	// through; nil: users.New on DB with BcryptCost.
	Users *users.Service
	// WebSessions bound the sessions of the web pages (StartSession).
	WebSessions WebSessionOptions
}

// Service authenticates principals and signs in the users of package users.
type Service struct {
	o      Options
	store  Store
	users  *users.Service
	limits limits
	// principals keeps the rows of recent users while WatchUsersJob runs.
	principals principals
	// watchers are the functions of OnUserChange.
	watchers struct {
		sync.Mutex
		f []func(uid string)
	}
	// documents fetches and caches Client ID Metadata Documents.
	documents *documentFetcher
	// dummyHash makes a login for an unknown email, or a user without a
	// password, cost as much as a wrong password: it has the same bcrypt cost.
	dummyHash []byte
}

// NewService returns a Service with options o.
func NewService(o Options) *Service {
	if o.BcryptCost == 0 {
		o.BcryptCost = bcrypt.DefaultCost
	}
	if o.RefreshTTL == 0 {
		o.RefreshTTL = 30 * 24 * time.Hour
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	o.WebSessions = o.WebSessions.withDefaults()
	if o.Users == nil && o.DB != nil {
		o.Users = users.New(o.DB.DB, users.Options{BcryptCost: o.BcryptCost})
	}
	dummy, _ := bcrypt.GenerateFromPassword([]byte("not a password"), o.BcryptCost) // fails only for a cost out of range
	return &Service{o: o, users: o.Users, limits: newLimits(o.Limits), dummyHash: dummy,
		documents: newDocumentFetcher(o.OAuth.Documents, o.Now)}
}

// Tokens is the answer to a login, a refresh or a client-credentials grant.
type Tokens struct {
	AccessToken  string
	ExpiresIn    time.Duration
	RefreshToken string // "" for a machine client, which asks for a new token instead
	Scope        string // the scope granted, space-separated
}

// userScope is the scope of the tokens of a login or a refresh.
const userScope = "openid panel"

// Errors of authentication.
var (
	ErrBadCredentials = clubhouse.Errorf(clubhouse.Unauthenticated, "invalid credentials", "The email or password is wrong.")
	ErrBadRefresh     = clubhouse.Errorf(clubhouse.Unauthenticated, "invalid refresh token", "The refresh token is invalid, expired or already used.")
	ErrBadBotKey      = clubhouse.Errorf(clubhouse.Unauthenticated, "invalid api key", "The X-Auth key is not valid.")
	ErrUserDisabled   = clubhouse.Errorf(clubhouse.Unauthenticated, "user disabled", "The user is disabled.")
	ErrLocalOnly      = clubhouse.Errorf(clubhouse.Invalid, "external issuer", "Users sign in at the external identity provider.")
)

// Login checks email and password and returns a new token pair. addr is the
// caller's IP address, for the rate limits (see LoginLimits): the attempt is
// charged before the password is checked, so parallel attempts cannot pass a
// limit together, and a success takes the charge back. Errors:
// ErrBadCredentials, ErrUserDisabled, *TooManyAttempts (ErrTooManyAttempts),
// ErrLocalOnly.
func (s *Service) Login(ctx context.Context, email, password, addr string) (Tokens, error) {
	var t Tokens
	err := s.signIn(ctx, email, password, addr, func(tx *sqlx.Tx, u User) error {
		var err error
		t, err = s.issue(ctx, tx, u, newID())
		return err
	})
	if err != nil {
		return Tokens{}, err
	}
	return t, nil
}

// signIn is the one credential check of every sign-in (Login,
// StartSession): it charges the attempt to the login limits, checks email
// and password, refuses a disabled user, and then, in one transaction,
// records the sign-in, takes the charge back and calls start with the
// transaction and the user, which makes what the sign-in gives. Errors:
// ErrBadCredentials, ErrUserDisabled, *TooManyAttempts (ErrTooManyAttempts),
// ErrLocalOnly, and those of start.
func (s *Service) signIn(ctx context.Context, email, password, addr string, start func(tx *sqlx.Tx, u User) error) error {
	if s.o.Issuer == nil {
		return ErrLocalOnly
	}
	keys := keysFor(email, addr)
	if err := s.chargeAttempt(ctx, keys); err != nil {
		return err
	}
	u, err := s.store.ByEmail(ctx, s.o.DB, normalizeEmail(email))
	if errors.Is(err, users.ErrUserNotFound) {
		_ = bcrypt.CompareHashAndPassword(s.dummyHash, []byte(password))
		return ErrBadCredentials
	}
	if err != nil {
		return fmt.Errorf("login: %w", err)
	}
	hash := s.dummyHash
	if u.PasswordHash != nil {
		hash = []byte(*u.PasswordHash)
	}
	if bcrypt.CompareHashAndPassword(hash, []byte(password)) != nil || u.PasswordHash == nil {
		return ErrBadCredentials
	}
	if u.Disabled {
		return ErrUserDisabled
	}
	err = sqldb.Transact(ctx, s.o.DB.DB, func(tx *sqlx.Tx) error {
		// The password was checked outside the transaction (bcrypt takes
		// its time): a change of it, or a disabling, committed since then
		// refuses the sign-in, as if it had come after the change.
		switch ok, err := s.store.Unchanged(ctx, tx, u.ID, *u.PasswordHash); {
		case err != nil:
			return err
		case !ok:
			return ErrBadCredentials
		}
		if err := s.users.SignedIn(ctx, tx, u.ID, s.o.Now()); err != nil {
			return err
		}
		if err := s.attemptSucceeded(ctx, tx, keys); err != nil {
			return err
		}
		return start(tx, u)
	})
	if errors.Is(err, ErrBadCredentials) {
		return err
	}
	if err != nil {
		return fmt.Errorf("login: %w", err)
	}
	return nil
}

// chargeAttempt charges a login attempt to the counters of keys, or returns
// a *TooManyAttempts when a limit refuses it. A lock-free read answers the
// refusals, so a flood of refused attempts writes nothing; an attempt the
// read allows is judged again on the locked counters and charged.
func (s *Service) chargeAttempt(ctx context.Context, k loginKeys) error {
	cs, err := s.store.readCounters(ctx, s.o.DB, k.all())
	if err != nil {
		return fmt.Errorf("login: %w", err)
	}
	if _, _, _, wait := s.limits.charge(s.o.Now(), cs[k.address], cs[k.account], cs[k.pair]); wait > 0 {
		return &TooManyAttempts{Wait: wait}
	}
	err = sqldb.Transact(ctx, s.o.DB.DB, func(tx *sqlx.Tx) error {
		now := s.o.Now()
		cs, err := s.store.lockCounters(ctx, tx, k.all(), now)
		if err != nil {
			return err
		}
		addr, acct, pair, wait := s.limits.charge(now, cs[k.address], cs[k.account], cs[k.pair])
		if wait > 0 {
			return &TooManyAttempts{Wait: wait}
		}
		return s.store.saveCounters(ctx, tx, addr, acct, pair)
	})
	var tma *TooManyAttempts
	if err != nil && !errors.As(err, &tma) {
		return fmt.Errorf("login: %w", err)
	}
	return err
}

// attemptSucceeded clears, on tx, the failures of the account from the
// address of keys, and takes back the account's charge for the attempt.
func (s *Service) attemptSucceeded(ctx context.Context, tx *sqlx.Tx, k loginKeys) error {
	now := s.o.Now()
	// Lock both rows first, in key order as chargeAttempt does, so that a
	// success and a failure on one account never wait on each other crosswise.
	cs, err := s.store.lockCounters(ctx, tx, []string{k.account, k.pair}, now)
	if err != nil {
		return err
	}
	if err := s.store.deleteCounter(ctx, tx, k.pair); err != nil {
		return err
	}
	return s.store.saveCounters(ctx, tx, s.limits.refund(now, cs[k.account]))
}

// purgeBatch bounds the rows one statement of PurgeLoginLimits deletes.
const purgeBatch = 10_000

// PurgeLoginLimits deletes the counters of the login limits that are back at
// rest; deleting them changes no decision, and a counter that limits anyone
// is never deleted. It returns how many it deleted. Several instances may
// purge at once. PurgeJob calls it periodically.
func (s *Service) PurgeLoginLimits(ctx context.Context) (int64, error) {
	var total int64
	for {
		n, err := s.store.purgeCounters(ctx, s.o.DB, s.o.Now(), purgeBatch)
		total += n
		if err != nil || n < purgeBatch {
			return total, err
		}
	}
}

// PurgeJob is the job "auth_purge": it calls PurgeLoginLimits, PurgeOAuth,
// PurgeWebSessions and PurgeSignUps at once and then every interval, and fails with the
// first error of any.
func (s *Service) PurgeJob(interval time.Duration) clubhouse.Job {
	return clubhouse.Every("auth_purge", interval, func(ctx context.Context) error {
		if _, err := s.PurgeLoginLimits(ctx); err != nil {
			return fmt.Errorf("login limits: %w", err)
		}
		if _, err := s.PurgeOAuth(ctx); err != nil {
			return fmt.Errorf("oauth: %w", err)
		}
		if _, err := s.PurgeWebSessions(ctx); err != nil {
			return fmt.Errorf("web sessions: %w", err)
		}
		if _, err := s.PurgeSignUps(ctx); err != nil {
			return fmt.Errorf("sign-ups: %w", err)
		}
		return nil
	})
}

// Refresh spends refresh token tok and returns a new pair in the same family.
// A token used twice is refused and revokes its whole family, since one of
// the two callers holds a stolen copy. Errors: ErrBadRefresh, ErrUserDisabled.
func (s *Service) Refresh(ctx context.Context, tok string) (Tokens, error) {
	if s.o.Issuer == nil {
		return Tokens{}, ErrLocalOnly
	}
	var t Tokens
	var reused bool
	err := sqldb.Transact(ctx, s.o.DB.DB, func(tx *sqlx.Tx) error {
		reused = false
		now := s.o.Now()
		r, err := s.store.ClaimRefresh(ctx, tx, tok)
		if errors.Is(err, sql.ErrNoRows) || (err == nil && r.ClientID != nil) {
			return ErrBadRefresh // a code-flow token refreshes at the token endpoint only
		}
		if err != nil {
			return err
		}
		if r.UsedAt != nil || r.RevokedAt != nil {
			reused = true
			return s.store.RevokeFamily(ctx, tx, r.Family, now)
		}
		if !now.Before(r.ExpiresAt) {
			return ErrBadRefresh
		}
		u, err := s.store.ByID(ctx, tx, r.UserID)
		if err != nil {
			return err
		}
		if u.Disabled {
			return ErrUserDisabled
		}
		if err := s.store.MarkRefreshUsed(ctx, tx, r.ID, now); err != nil {
			return err
		}
		t, err = s.issue(ctx, tx, u, r.Family)
		return err
	})
	if err == nil && reused {
		err = ErrBadRefresh
	}
	if err != nil {
		return Tokens{}, fmt.Errorf("refresh: %w", err)
	}
	return t, nil
}

func (s *Service) issue(ctx context.Context, q sqldb.Queryer, u User, family string) (Tokens, error) {
	access, ttl, err := s.o.Issuer.Mint(u, userScope)
	if err != nil {
		return Tokens{}, err
	}
	refresh := randomToken()
	if err := s.store.InsertRefresh(ctx, q, u.ID, family, refresh, s.o.Now().Add(s.o.RefreshTTL)); err != nil {
		return Tokens{}, err
	}
	return Tokens{AccessToken: access, ExpiresIn: ttl, RefreshToken: refresh, Scope: userScope}, nil
}

// Principal is the caller a bearer token or a web session names: its
// actor, and what the token was granted.
type Principal struct {
	Actor    clubhouse.Actor
	Scopes   []string // the token's scope claim, split on spaces
	Machine  bool     // a client-credentials client (subject "client:<id>")
	ClientID string   // the OAuth client a code-flow token was issued to; "" for a sign-in's
	// API reports whether the token opens the HTTP API: a user's token
	// with scope panel (every sign-in's has it), a machine client's with
	// scope api, or any token of an external issuer, whose scopes are its
	// own; in each case, a token whose audience is the API's. A code-flow
	// token granted only mcp, or issued for the tool endpoint's resource
	// (RFC 8707), opens the tool endpoint and nothing else.
	API bool
	// ToolsOnly reports that the token's audience is a resource of the tool
	// endpoint (Verifier.Resources), asked for with a resource indicator
	// (RFC 8707), and not the API's: it opens the tool endpoint alone, and
	// API is false.
	ToolsOnly bool
	// Expires is when the token expires: a connection that outlives its
	// request, such as the realtime relay's, ends then. A web session's is
	// the end of its absolute lifetime.
	Expires time.Time
	// Session reports that the principal comes from a web session
	// (Service.Session), a browser's cookie: it opens DoorWeb, and DoorWeb
	// opens to nothing else (see Admit).
	Session bool
}

// HasScope reports whether the token was granted scope.
func (p Principal) HasScope(scope string) bool {
	for _, s := range p.Scopes {
		if s == scope {
			return true
		}
	}
	return false
}

// MachinePrefix starts the subject of every machine client's token.
const MachinePrefix = "client:"

// Verify verifies a bearer token and returns its principal. The token
// proves who the caller is; what the caller may do comes from the user's
// row, read on every call (one lookup by the unique local_id), so a change
// of roles, a disabled flag or a deleted user takes effect on the next
// request rather than when the token expires. The role claims of the token
// are not trusted. With an external issuer, a subject seen for the first
// time gets a user row whose roles are that first token's claims; from then
// on the row rules, as for local users (roles change with PATCH
// /api/sudo/users/{uid} or clubctl user roles). A subject that starts with
// MachinePrefix names a machine client: its principal is a bot (Actor.Bot,
// no UserID) with the machine's roles, read from its row on every call, and
// Machine set. Only the tokens of the local issuer can name one: with an
// external issuer such a subject is refused, since the machines are this
// server's and not the issuer's. Errors: ErrInvalidToken (also for a
// subject without a row, a disabled machine client or a rotated machine
// secret), ErrUserDisabled; both are Unauthenticated, as at login.
func (s *Service) Verify(ctx context.Context, bearer string) (Principal, error) {
	c, err := s.o.Verifier.Verify(ctx, bearer)
	if err != nil {
		return Principal{}, err
	}
	if strings.HasPrefix(c.Subject, MachinePrefix) {
		a, err := s.machineActor(ctx, c)
		if err != nil {
			return Principal{}, err
		}
		p := Principal{Actor: a, Scopes: strings.Fields(c.Scope), Machine: true, Expires: c.ExpiresAt.Time}
		p.API, p.ToolsOnly = p.HasScope(MachineScope) && c.ForAPI(s.o.Verifier.Audience), !c.ForAPI(s.o.Verifier.Audience)
		return p, nil
	}
	a, err := s.userActor(ctx, c)
	if err != nil {
		return Principal{}, err
	}
	p := Principal{Actor: a, Scopes: strings.Fields(c.Scope), Expires: c.ExpiresAt.Time, ToolsOnly: !c.ForAPI(s.o.Verifier.Audience)}
	if s.o.External != "" {
		// An external issuer's scopes and client claims are its own; its
		// audience is the API's or the tool endpoint's, as this server's.
		p.API = !p.ToolsOnly
		return p, nil
	}
	p.ClientID, p.API = c.ClientID, p.HasScope(ScopePanel) && !p.ToolsOnly
	return p, nil
}

// userActor returns the actor of the user c names.
func (s *Service) userActor(ctx context.Context, c Claims) (clubhouse.Actor, error) {
	u, err := s.principal(ctx, c.Subject)
	if errors.Is(err, users.ErrUserNotFound) && s.o.External != "" {
		u, err = s.firstSight(ctx, c)
	}
	if errors.Is(err, users.ErrUserNotFound) {
		return clubhouse.Actor{}, ErrInvalidToken.Withf("The token's subject is not a known user.")
	}
	if err != nil {
		return clubhouse.Actor{}, fmt.Errorf("authenticate: %w", err)
	}
	return actorOf(u)
}

// actorOf returns the actor of the user whose row is u, as Principal reads
// it. Errors: ErrUserDisabled.
func actorOf(u User) (clubhouse.Actor, error) {
	if u.Disabled {
		return clubhouse.Actor{}, ErrUserDisabled
	}
	return clubhouse.Actor{UserID: u.ID, UID: u.LocalID, Email: deref(u.Email), Roles: u.Roles()}, nil
}

// principal returns the row of the user with local_id sub as Store.Principal
// reads it, from memory while WatchUsersJob keeps it there.
func (s *Service) principal(ctx context.Context, sub string) (User, error) {
	if u, ok := s.principals.get(sub, s.o.Now()); ok {
		return u, nil
	}
	gen := s.principals.generation()
	u, err := s.store.Principal(ctx, s.o.DB, sub)
	if err == nil {
		s.principals.put(sub, u, gen, s.o.Now())
	}
	return u, err
}

// firstSight creates the user row of an external subject, tolerating a
// concurrent request that created it first.
func (s *Service) firstSight(ctx context.Context, c Claims) (User, error) {
	email := c.Email
	if email != "" {
		if _, err := s.store.ByEmail(ctx, s.o.DB, email); err == nil {
			email = "" // the address belongs to another user; keep the subject without it
		}
	}
	var u User
	err := sqldb.Transact(ctx, s.o.DB.DB, func(tx *sqlx.Tx) error {
		r, err := s.users.AddExternal(ctx, tx, s.o.External, c.Subject, email, c.Roles())
		u = User{User: r}
		return err
	})
	if err != nil && clubhouse.KindOf(err) == clubhouse.Conflict {
		return s.store.ByLocalID(ctx, s.o.DB, c.Subject)
	}
	return u, err
}

// AuthenticateBot returns the bot actor when key equals one of the
// configured bot keys, compared in constant time. Errors: ErrBadBotKey.
func (s *Service) AuthenticateBot(key string) (clubhouse.Actor, error) {
	ok := 0
	for _, k := range s.o.BotKeys {
		ok |= subtle.ConstantTimeCompare([]byte(k), []byte(key))
	}
	if ok == 0 || key == "" {
		return clubhouse.Actor{}, ErrBadBotKey
	}
	return clubhouse.Actor{UID: clubhouse.BotUID, Bot: true, Roles: map[clubhouse.Role]bool{
		clubhouse.RoleOperator: true, clubhouse.RoleAdmin: true, clubhouse.RoleSudo: true, clubhouse.RoleTrainer: true,
	}}, nil
}

// PasswordLinkTTL is how long a set-password link stays valid.
const PasswordLinkTTL = 72 * time.Hour

// NewPasswordToken creates a one-time set-password token for the user on q.
func (s *Service) NewPasswordToken(ctx context.Context, q sqldb.Queryer, userID int64) (string, error) {
	tok := randomToken()
	if err := s.store.InsertPasswordToken(ctx, q, userID, tok, s.o.Now().Add(PasswordLinkTTL)); err != nil {
		return "", fmt.Errorf("password token: %w", err)
	}
	return tok, nil
}

// SetPassword spends a set-password token and sets the user's password. In
// the same transaction it revokes every refresh token of the user and the
// database ends every web session of the user (migration 00032), so no
// session started with the old password outlives it (access tokens already
// issued live out their short TTL). Errors: ErrBadPasswordToken,
// users.ErrPasswordTooWeak.
func (s *Service) SetPassword(ctx context.Context, tok, password string) error {
	hash, err := s.users.HashPassword(password)
	if err != nil {
		return err
	}
	return sqldb.Transact(ctx, s.o.DB.DB, func(tx *sqlx.Tx) error {
		id, err := s.store.UsePasswordToken(ctx, tx, tok, s.o.Now())
		if err != nil {
			return err
		}
		return s.setPasswordHash(ctx, tx, id, hash)
	})
}

// setPasswordHash is the one way a password changes: it stores hash and
// revokes every refresh token of the user, on tx; the database ends the
// user's web sessions in the same transaction.
func (s *Service) setPasswordHash(ctx context.Context, tx *sqlx.Tx, userID int64, hash string) error {
	if err := s.users.SetPasswordHash(ctx, tx, userID, hash); err != nil {
		return err
	}
	return s.store.RevokeUserRefresh(ctx, tx, userID, s.o.Now())
}

// UserByID returns the user with primary key id. Errors: users.ErrUserNotFound.
func (s *Service) UserByID(ctx context.Context, id int64) (User, error) {
	return s.store.ByID(ctx, s.o.DB, id)
}

// UserByEmail returns the user with email. Errors: users.ErrUserNotFound.
func (s *Service) UserByEmail(ctx context.Context, email string) (User, error) {
	return s.store.ByEmail(ctx, s.o.DB, email)
}

// ErrBadPageToken is returned for a page token this server did not make.
var ErrBadPageToken = clubhouse.Errorf(clubhouse.Invalid, "invalid page token", "The pageToken is not valid.")

// encodePageToken is the page token of a list of kind ('m' machine
// clients; users.Service.List makes those of 'u') whose next page starts after id.
func encodePageToken(kind byte, id int64) string {
	return base64.RawURLEncoding.EncodeToString(fmt.Appendf(nil, "%c%d", kind, id))
}

// decodePageToken returns the id a page token of a list of kind starts
// after: 0 for "". Errors: ErrBadPageToken.
func decodePageToken(kind byte, tok string) (int64, error) {
	if tok == "" {
		return 0, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(tok)
	if err != nil || len(b) < 2 || b[0] != kind {
		return 0, ErrBadPageToken
	}
	var after int64
	if _, err := fmt.Sscanf(string(b[1:]), "%d", &after); err != nil || after < 0 {
		return 0, ErrBadPageToken
	}
	// Sscanf accepts signs, spaces and trailing text; only the exact token this server makes is valid.
	if encodePageToken(kind, after) != tok {
		return 0, ErrBadPageToken
	}
	return after, nil
}

// MintFor signs an access token for the user with email, for scripts and
// operators (clubctl token). Errors: users.ErrUserNotFound, ErrLocalOnly.
func (s *Service) MintFor(ctx context.Context, email, scope string) (string, time.Duration, error) {
	if s.o.Issuer == nil {
		return "", 0, ErrLocalOnly
	}
	u, err := s.store.ByEmail(ctx, s.o.DB, email)
	if err != nil {
		return "", 0, err
	}
	return s.o.Issuer.Mint(u, scope)
}

func randomToken() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // never fails on supported platforms
	return base64.RawURLEncoding.EncodeToString(b)
}

func newID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// ResetPassword sets the password of the user with email, for operators
// (clubctl user password), and in the same transaction revokes every refresh
// token and ends every web session of the user. Errors: users.ErrUserNotFound,
// users.ErrPasswordTooWeak.
func (s *Service) ResetPassword(ctx context.Context, email, password string) error {
	hash, err := s.users.HashPassword(password)
	if err != nil {
		return err
	}
	return sqldb.Transact(ctx, s.o.DB.DB, func(tx *sqlx.Tx) error {
		u, err := s.store.ByEmail(ctx, tx, email)
		if err != nil {
			return err
		}
		return s.setPasswordHash(ctx, tx, u.ID, hash)
	})
}

// ChangeUser applies ch to the user whose uid is uid on behalf of by, as
// users.Service.Change does, and forgets the user's row at once, so the
// change applies to the user's next request even before the database's
// announcement arrives, and tells the functions of OnUserChange (the
// realtime relay closes the user's connections). Errors: those of
// users.Service.Change.
func (s *Service) ChangeUser(ctx context.Context, by clubhouse.Actor, uid string, ch users.Change) (users.User, error) {
	u, err := s.users.Change(ctx, by, uid, ch)
	s.principals.forget(uid)
	if err == nil {
		s.userChanged(uid)
	}
	return u, err
}
