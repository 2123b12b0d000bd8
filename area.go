package clubhouse

import "strings"

// Area is a part of the club that a front door serves: the staff desk, the
// trainer area, a client's own account, the accounting office, user
// administration. Each area admits the principals who hold one of its
// roles (Admit), and one narrows what they act as: in AreaTrainer a staff
// member who also trains acts as a trainer only, so that the services show
// them their own classes, students and bookings there (a bot, which acts
// for the club, is never narrowed). The front doors
// name the area of each request (the HTTP API by its path, the staff panel
// by its page) and hand the services the actor In it; the rules of the
// areas are written here once.
type Area string

// The areas.
const (
	// AreaNone is no area: every role the actor holds counts. Programs
	// using the library act in it.
	AreaNone Area = ""
	// AreaPublic is what anyone may see without signing in: the courts,
	// the club's rules, the open classes.
	AreaPublic Area = "public"
	// AreaAccount is a principal's own records: anyone signed in.
	AreaAccount Area = "account"
	// AreaStaff is the staff's: the panel permission (PanelRoles).
	AreaStaff Area = "staff"
	// AreaTrainer is the trainers': role trainer, acting as a trainer only.
	AreaTrainer Area = "trainer"
	// AreaAccounting is the ledger's: AccountingRoles.
	AreaAccounting Area = "accounting"
	// AreaUsers is the administration of users and machines: role sudo.
	AreaUsers Area = "users"
)

// areaRule is what an area asks of its actors: one of admits (none: any
// signed-in principal), and the roles that count in it (none: all).
type areaRule struct {
	admits []Role
	acts   []Role
}

var areaRules = map[Area]areaRule{
	AreaStaff:      {admits: PanelRoles},
	AreaTrainer:    {admits: []Role{RoleTrainer}, acts: []Role{RoleTrainer}},
	AreaAccounting: {admits: AccountingRoles},
	AreaUsers:      {admits: []Role{RoleSudo}},
}

// Admit returns nil when a may act in the area, ErrUnauthorized when a is
// anonymous in an area that needs a principal, and ErrForbidden naming the
// roles the area needs otherwise.
func (ar Area) Admit(a Actor) error {
	if ar == AreaPublic || ar == AreaNone {
		return nil
	}
	if !a.Authenticated() {
		return ErrUnauthorized
	}
	rule := areaRules[ar]
	if len(rule.admits) == 0 || a.In(AreaNone).HasAny(rule.admits...) {
		return nil
	}
	names := make([]string, len(rule.admits))
	for i, r := range rule.admits {
		names[i] = string(r)
	}
	return ErrForbidden.Withf("Your credentials do not grant access to the %s area: it needs role %s.", ar, strings.Join(names, " or "))
}

// counts reports whether role r counts in the area.
func (ar Area) counts(r Role) bool {
	acts := areaRules[ar].acts
	if acts == nil {
		return true
	}
	for _, x := range acts {
		if x == r {
			return true
		}
	}
	return false
}
