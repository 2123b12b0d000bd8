// Package users owns the club's users: who they are (email, display name,
// phone), the roles they hold (clubhouse.Roles: trainer, operator, admin,
// sudo, accounting; a user with none is a client of the club), whether
// they are disabled, and their bcrypt password hashes. A trainer a class
// names, an operator at the front desk and a client who signs in to book
// are each a user.
//
// The Service decides who may act, whichever program or front door calls
// it: creating and changing users (Create, Change, SetRoles) takes role
// sudo, as the users area of the HTTP API (/api/sudo/users) does; reading
// them (Get, List) the panel permission; a user reads and changes their own
// profile (Profile, UpdateProfile). The anonymous actor is refused with
// clubhouse.ErrUnauthorized, any other with clubhouse.ErrForbidden, and a
// refused call changes nothing.
//
// Passwords are 8 to 72 bytes, hashed with bcrypt at Options.BcryptCost;
// a user created without one gets a random password nobody knows, to be
// replaced through a set-password link. clubd's identity provider
// (internal/identity/auth) signs the users in with these hashes and builds on this
// package for every write of a user (Add, AddExternal, SetPasswordHash,
// SignedIn run in its transactions). The database announces each change
// of a user's subject, email, roles or disabled flag on the channel
// users_changed, whoever makes it, so a running clubd applies a change made
// here to the user's next request.
//
// On a database migrated with migrations.Main():
//
//	db, err := sqlx.Open("pgx", os.Getenv("DATABASE_URL"))
//	_, err = migrations.Up(ctx, db.DB, migrations.Main())
//	people := users.New(db, users.Options{})
//	laura, err := people.Create(ctx, clubhouse.Sudo("setup"), users.Input{
//		Email: "laura@club.example", DisplayName: "Laura", Roles: map[clubhouse.Role]bool{clubhouse.RoleTrainer: true}})
package users
