// Package clubhouse holds the vocabulary shared by every Clubhouse package:
// the acting principal (Actor), its roles, and the closed set of error kinds
// that the HTTP layer maps to status codes.
package clubhouse

import "strconv"

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
}

// Authenticated reports whether the actor is a known principal.
func (a Actor) Authenticated() bool { return a.UID != "" }

// Has reports whether the actor carries role r.
func (a Actor) Has(r Role) bool { return a.Roles[r] }

// HasAny reports whether the actor carries at least one of roles.
func (a Actor) HasAny(roles ...Role) bool {
	for _, r := range roles {
		if a.Roles[r] {
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

// Only returns a with only those of roles it holds: the actor as one of
// its roles, such as a staff member who is also a trainer acting in the
// trainer area.
func (a Actor) Only(roles ...Role) Actor {
	kept := make(map[Role]bool, len(roles))
	for _, r := range roles {
		if a.Roles[r] {
			kept[r] = true
		}
	}
	a.Roles = kept
	return a
}

// RequirePanel refuses an actor without the panel permission with
// ErrForbidden: the services call it first in every operation only the
// staff (and the club's programs) may run, whichever front door calls them.
func (a Actor) RequirePanel() error {
	if a.HasPanel() {
		return nil
	}
	return ErrForbidden
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

// Publisher receives the domain messages of the services, each a topic
// ("booking:changed", "payment:updated") and a payload that encodes as JSON,
// once the change it tells of has committed. Publish must not block: a
// relay queues or drops. A payload names who may receive it by
// implementing Addressed; one that does not is for the staff (RoomPanel).
type Publisher interface {
	Publish(topic string, payload any)
}

// The rooms of the realtime relay. A connection joins a room it may see:
// RoomPanel the staff (the panel permission), RoomAccounting the
// accountants, RoomApp everyone signed in, and a trainer the room of their
// own classes (TrainerRoom).
const (
	RoomPanel      = "panel"
	RoomAccounting = "accounting"
	RoomApp        = "app"
	RoomTrainer    = "trainer" // the name a trainer subscribes to; it stands for TrainerRoom of their own id
)

// TrainerRoom is the room of the classes of the trainer whose user id is
// userID; a trainer joins it by subscribing to RoomTrainer.
func TrainerRoom(userID int64) string { return RoomTrainer + ":" + strconv.FormatInt(userID, 10) }

// Audience is who receives a domain message: every connection of each
// user in Users (by users.id: the owners of the object it tells of), the
// members of each room in Rooms, or, with All, every connection.
type Audience struct {
	Users []int64
	Rooms []string
	All   bool
}

// Addressed is a payload that names its audience.
type Addressed interface {
	Audience() Audience
}

// AudienceOf is the audience of payload: its own when it is Addressed,
// else the staff room.
func AudienceOf(payload any) Audience {
	if a, ok := payload.(Addressed); ok {
		return a.Audience()
	}
	return Audience{Rooms: []string{RoomPanel}}
}

// Discard is a Publisher that drops every message.
var Discard Publisher = discard{}

type discard struct{}

func (discard) Publish(string, any) {}
