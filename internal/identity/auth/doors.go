package auth

import (
	"strings"

	"github.com/clubhouse-go/clubhouse"
)

// Door is a way into clubd: the HTTP API, the tool endpoint, the realtime
// relay, the web pages. Each front door authenticates its requests in its
// own way (a bearer token, a bot key, a socket's first frame, a session's
// cookie), then asks Admit whether the principal may come in by it, so
// that who may use which door is decided here once, with one wording of
// each refusal.
type Door int

// The doors.
const (
	DoorAPI   Door = iota // the HTTP API (/api/...)
	DoorTools             // the tool endpoint (/mcp)
	DoorRelay             // the realtime relay (/realtime)
	DoorWeb               // the web pages: the staff panel (/panel/), the members' app
)

// name is how a refusal names the door (never DoorWeb, whose refusals
// name no door).
func (d Door) name() string {
	switch d {
	case DoorTools:
		return "the tool endpoint"
	case DoorRelay:
		return "the realtime relay"
	}
	return "the HTTP API"
}

// The refusals of Admit. ErrToolsAudience and ErrMachineTools are 401
// (RFC 6750's invalid_token), as are ErrWebOnly and ErrNotWebSession (the
// caller must sign in the other way), the others 403.
var (
	// ErrToolsAudience refuses a token issued for the tool endpoint's
	// resource (RFC 8707) at another door.
	ErrToolsAudience = ErrInvalidToken.Sub("invalid token",
		"The access token was issued for the tool endpoint (its audience is the resource /mcp) and opens nothing else.")
	// ErrNoAPIScope refuses a token that was not granted the API.
	ErrNoAPIScope = clubhouse.Errorf(clubhouse.Forbidden, "insufficient_scope",
		"The token was not granted the API: it needs scope panel (a sign-in's token has it; an OAuth client must ask for it), or api for a machine client.")
	// ErrClientToken refuses a token issued to an OAuth client in the
	// administration of users and machines.
	ErrClientToken = clubhouse.Errorf(clubhouse.Forbidden, "forbidden",
		"A token issued to an OAuth client cannot manage users and machines; sign in to do that.")
	// ErrMachineTools refuses a machine client's token at the tool endpoint.
	ErrMachineTools = clubhouse.Errorf(clubhouse.Unauthenticated, "invalid token",
		"Tokens of machine clients are not accepted here; sign in as a user with the panel permission.")
	// ErrNoToolsScope refuses a token granted neither mcp nor mcp:read at
	// the tool endpoint.
	ErrNoToolsScope = clubhouse.Errorf(clubhouse.Forbidden, "insufficient_scope",
		"The token was granted neither scope mcp nor mcp:read; ask for mcp (every tool) or mcp:read (the read-only tools) in the authorization request.")
	// ErrToolsPanel refuses a user without the panel permission at the tool
	// endpoint.
	ErrToolsPanel = clubhouse.Errorf(clubhouse.Forbidden, "forbidden",
		"The tool endpoint needs the panel permission: role operator, admin or sudo.")
	// ErrNotWebSession refuses at the web pages a principal that did not
	// sign in at them: a bearer token, a bot key, a machine client. It is
	// an ErrNoSession, so the pages send the caller to sign in.
	ErrNotWebSession = ErrNoSession.Sub("no session",
		"The web pages open with a session started by signing in at them; a token or key does not open them.")
	// ErrWebOnly refuses a web session's principal at another door: the
	// cookie opens only the web pages.
	ErrWebOnly = clubhouse.Errorf(clubhouse.Unauthenticated, "invalid token",
		"A web session opens only the web pages; the other doors take a bearer token.")
)

// Admit returns nil when p may use door to act in area, else the refusal:
// at the API and the relay, ErrToolsAudience for a token of the tool
// endpoint, ErrNoAPIScope for one not granted the API, then the area's own
// refusal (clubhouse.Area.Admit), and at the API ErrClientToken for an
// OAuth client's token in clubhouse.AreaUsers, whatever its user may do;
// at the tool endpoint, which is the staff's, ErrMachineTools for a machine
// client, ErrNoToolsScope and ErrToolsPanel; at the web pages,
// ErrNotWebSession for a principal that is not a web session's, then the
// area's own refusal (the panel's areas need their roles, a client's own
// account any signed-in user). A web session's principal opens the relay
// too, with the area's refusal alone: the live updates of the web pages
// (the composition admits a session's cookie at the relay only from the
// server's own origin, so another site's page cannot use it); it is
// refused at the API and the tool endpoint with ErrWebOnly. What the actor may do in the area is
// the services' decision.
func (p Principal) Admit(door Door, area clubhouse.Area) error {
	switch {
	case door == DoorWeb && !p.Session:
		return ErrNotWebSession
	case door == DoorWeb, door == DoorRelay && p.Session:
		return area.Admit(p.Actor)
	case p.Session:
		return ErrWebOnly.Withf("A web session opens only the web pages; %s takes a bearer token.", door.name())
	}
	switch door {
	case DoorTools:
		switch {
		case p.Machine || strings.HasPrefix(p.Actor.UID, MachinePrefix):
			return ErrMachineTools
		case !p.HasScope(ScopeMCP) && !p.HasScope(ScopeMCPRead):
			return ErrNoToolsScope
		case !p.Actor.HasPanel():
			return ErrToolsPanel
		}
		return nil
	}
	switch {
	case p.ToolsOnly:
		return ErrToolsAudience.Withf("The access token was issued for the tool endpoint (its audience is the resource /mcp) and does not open %s.", door.name())
	case !p.API:
		return ErrNoAPIScope
	}
	if err := area.Admit(p.Actor); err != nil {
		return err
	}
	if door == DoorAPI && area == clubhouse.AreaUsers && p.ClientID != "" {
		return ErrClientToken
	}
	return nil
}
