package clubhouse

// Role is a permission carried by a principal as a boolean claim.
type Role string

// The roles of the specification.
const (
	RoleTrainer    Role = "trainer"
	RoleOperator   Role = "operator"
	RoleAdmin      Role = "admin"
	RoleSudo       Role = "sudo"
	RoleAccounting Role = "accounting"
)

// Roles lists every role in a stable order.
var Roles = []Role{RoleTrainer, RoleOperator, RoleAdmin, RoleSudo, RoleAccounting}

// ParseRole returns the role named s, or an Invalid error.
func ParseRole(s string) (Role, error) {
	for _, r := range Roles {
		if string(r) == s {
			return r, nil
		}
	}
	return "", Errorf(Invalid, "invalid role", "unknown role %q (known: trainer, operator, admin, sudo, accounting)", s)
}

// ClientRole names the primary role of a user who holds none of Roles: a
// client of the club.
const ClientRole = "client"

// primaryOrder is the precedence of the roles when one names a user.
var primaryOrder = []Role{RoleSudo, RoleAdmin, RoleOperator, RoleTrainer, RoleAccounting}

// PrimaryRole is the one role that names a holder of roles (a user view's
// role field): the first held of sudo, admin, operator, trainer and
// accounting, or ClientRole when none is.
func PrimaryRole(roles map[Role]bool) string {
	for _, r := range primaryOrder {
		if roles[r] {
			return string(r)
		}
	}
	return ClientRole
}

// BotUID is the uid of the principal authenticated by a bot API key.
const BotUID = "bot-api-key"

// Actor is the authenticated principal on whose behalf an operation runs.
// The zero Actor is anonymous.
type Actor struct {
	UserID int64  // users.id; 0 for bots and anonymous callers
	UID    string // users.local_id, the token subject, or BotUID
	Email  string
	Bot    bool
	Roles  map[Role]bool
	// Area is the part of the club the actor acts in, as its front door
	// names it (In); in the zero Area every role the actor holds counts.
	Area Area
}

// Authenticated reports whether the actor is a known principal.
func (a Actor) Authenticated() bool { return a.UID != "" }

// Has reports whether the actor carries role r and acts with it in its
// area (in AreaTrainer only RoleTrainer counts, but for a bot, which acts
// for the club in every area).
func (a Actor) Has(r Role) bool { return a.Roles[r] && (a.Bot || a.Area.counts(r)) }

// HasAny reports whether the actor carries at least one of roles.
func (a Actor) HasAny(roles ...Role) bool {
	for _, r := range roles {
		if a.Has(r) {
			return true
		}
	}
	return false
}

// PanelRoles are the roles that carry the panel permission: the staff, who
// act for the club rather than for one client. The admin routes, the OAuth
// flow's consent and the MCP tools require one of them.
var PanelRoles = []Role{RoleOperator, RoleAdmin, RoleSudo}

// HasPanel reports whether the actor has the panel permission.
func (a Actor) HasPanel() bool { return a.HasAny(PanelRoles...) }

// AccountingRoles are the roles that open the ledger: the accountants and
// the administrators.
var AccountingRoles = []Role{RoleAccounting, RoleAdmin}

// Require refuses an actor that holds none of roles (in its area) with
// ErrForbidden: the services call it first in every operation only some
// may run, whichever front door or program calls them.
func (a Actor) Require(roles ...Role) error {
	if a.HasAny(roles...) {
		return nil
	}
	return ErrForbidden
}

// RequirePanel refuses an actor without the panel permission with
// ErrForbidden: Require(PanelRoles...), for the operations only the staff
// (and the club's programs) may run.
func (a Actor) RequirePanel() error { return a.Require(PanelRoles...) }

// RequireSignedIn refuses the anonymous actor with ErrUnauthorized: the
// check of the operations any principal may run on its own behalf.
func (a Actor) RequireSignedIn() error {
	if a.Authenticated() {
		return nil
	}
	return ErrUnauthorized
}

// In returns a acting in area: its roles count only as the area lets them
// (Has), so that each service narrows the same way whichever front door
// named the area.
func (a Actor) In(area Area) Actor {
	a.Area = area
	return a
}

// Name names the actor in the records it leaves (who cancelled a
// booking, who acted in the event log): its e-mail, or its Label.
func (a Actor) Name() string {
	if a.Email != "" {
		return a.Email
	}
	return a.Label()
}

// Label names the actor for logs: its uid, or "anonymous".
func (a Actor) Label() string {
	if a.UID == "" {
		return "anonymous"
	}
	return a.UID
}

// Staff returns an actor for a program acting for the club with staff
// rights (operator and admin), named uid in logs and records: a front-desk
// tool, a batch job, an example.
func Staff(uid string) Actor {
	return Actor{UID: uid, Bot: true, Roles: map[Role]bool{RoleOperator: true, RoleAdmin: true}}
}

// Sudo returns an actor for a program that administers the club's users
// with the super administrator's rights (role sudo): an installation
// tool, a setup script, an example. It is named uid in logs and records.
func Sudo(uid string) Actor {
	return Actor{UID: uid, Bot: true, Roles: map[Role]bool{RoleSudo: true}}
}
