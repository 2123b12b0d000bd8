// Command clubctl is the Clubhouse command line for operators and
// accountants. Installation commands (db, user, machine, token) work on the
// database directly with the same environment as clubd; the front desk's
// and the accountants' commands (login, booking, payment, client,
// accounting) call the HTTP API at CLUBD_URL with CLUBD_TOKEN, from any
// machine that reaches clubd.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/compose/app"
	"github.com/clubhouse-go/clubhouse/internal/identity/auth"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/migrations"
	"github.com/clubhouse-go/clubhouse/users"
)

func main() {
	os.Exit(report(os.Stderr, run(os.Args, os.Stdin, os.Stdout, os.Stderr)))
}

func oneLine(err error) string { return strings.ReplaceAll(err.Error(), "\n", "; ") }

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	a := newApp(stdin, stdout, stderr)
	return a.Run(flagsFirst(a, args))
}

// dbFlags are the settings of the commands that work on the database.
func dbFlags(fs ...cli.Flag) []cli.Flag { return append(app.FlagsNamed("database-url"), fs...) }

// newApp returns the command tree of clubctl reading stdin and writing to
// stdout and stderr.
func newApp(stdin io.Reader, stdout, stderr io.Writer) *cli.App {
	a := &cli.App{
		Name:            "clubctl",
		Usage:           "administer a Clubhouse installation and run its front desk",
		Version:         version(),
		Reader:          stdin,
		Writer:          stdout,
		ErrWriter:       stderr,
		HideHelpCommand: true,
		// Return every error to main instead of letting cli exit the process.
		ExitErrHandler: func(*cli.Context, error) {},
		Commands: []*cli.Command{
			{
				Name:  "db",
				Usage: "database schema",
				Subcommands: []*cli.Command{
					{Name: "migrate", Usage: "create the database if missing and apply pending migrations", Flags: dbFlags(), Action: dbMigrate},
					{Name: "status", Usage: "list the migrations and whether each is applied", Flags: dbFlags(), Action: dbStatus},
				},
			},
			{
				Name:  "user",
				Usage: "users of the local identity provider",
				Subcommands: []*cli.Command{
					{
						Name: "create", Usage: "create a user", Action: userCreate, Before: need("email", "password"),
						Flags: dbFlags(
							&cli.StringFlag{Name: "email", Usage: "(required)"},
							&cli.StringFlag{Name: "password", Usage: "8 to 72 bytes (required)"},
							&cli.StringFlag{Name: "name", Usage: "display name"},
							&cli.StringSliceFlag{Name: "role", Usage: "trainer, operator, admin, sudo or accounting (repeatable)"},
						),
					},
					{Name: "list", Usage: "list users with their roles", Flags: dbFlags(), Action: userList},
					{
						Name: "roles", Usage: "replace a user's roles (no --role: remove all)", Action: userRoles, Before: need("email"),
						Flags: dbFlags(
							&cli.StringFlag{Name: "email", Usage: "(required)"},
							&cli.StringSliceFlag{Name: "role", Usage: "trainer, operator, admin, sudo or accounting (repeatable)"},
						),
					},
					{
						Name: "password", Usage: "set a user's password", Action: userPassword, Before: need("email", "password"),
						Flags: dbFlags(
							&cli.StringFlag{Name: "email", Usage: "(required)"},
							&cli.StringFlag{Name: "password", Usage: "8 to 72 bytes (required)"},
						),
					},
				},
			},
			machineCommand(),
			{
				Name: "token", Usage: "mint an access token for a user with clubd's signing key file (on clubd's machine)", Action: token,
				Before: need("email"),
				Flags: append(app.FlagsNamed("database-url", "auth-signing-key-file", "public-base-url", "port", "auth-audience", "access-token-ttl"),
					&cli.StringFlag{Name: "email", Usage: "(required)"},
					&cli.StringFlag{Name: "scope", Value: "openid panel"},
				),
			},
			loginCommand(),
			bookingCommand(),
			paymentCommand(),
			clientCommand(),
			ticketsCommand(),
			eventsCommand(),
			accountingCommand(),
			standinCommand(),
		},
	}
	strict(a)
	return a
}

// env is the database and the auth service, opened as clubd would.
type env struct {
	db    *sqldb.DB
	auth  *auth.Service
	users *users.Service
}

// installer is who the installation commands act as: the operator of the
// installation, with the rights of a super administrator.
var installer = clubhouse.Sudo("clubctl")

// open connects to the database of the flag database-url; create makes it
// first when missing. The auth service has the options o on that database.
func open(c *cli.Context, create bool, o auth.Options) (*env, error) {
	dsn := c.String("database-url")
	ctx, cancel := context.WithTimeout(c.Context, time.Minute)
	defer cancel()
	if create {
		if err := sqldb.EnsureDatabase(ctx, dsn); err != nil {
			return nil, fmt.Errorf("database: %w", err)
		}
	}
	db, err := sqldb.Open(ctx, dsn)
	if err == nil {
		err = db.PingContext(ctx)
	}
	if err != nil {
		return nil, fmt.Errorf("database: %w", err)
	}
	o.DB = db
	o.Users = users.New(db.DB, users.Options{BcryptCost: o.BcryptCost})
	return &env{db: db, auth: auth.NewService(o), users: o.Users}, nil
}

func dbMigrate(c *cli.Context) error {
	e, err := open(c, true, auth.Options{})
	if err != nil {
		return err
	}
	defer e.db.Close()
	applied, err := migrations.Up(c.Context, e.db.DB.DB, migrations.Main())
	if err != nil {
		return err
	}
	if len(applied) == 0 {
		fmt.Fprintln(c.App.Writer, "main database: up to date")
	}
	for _, v := range applied {
		fmt.Fprintf(c.App.Writer, "main database: applied %05d\n", v)
	}
	return nil
}

func dbStatus(c *cli.Context) error {
	e, err := open(c, false, auth.Options{})
	if err != nil {
		return err
	}
	defer e.db.Close()
	st, err := migrations.Status(c.Context, e.db.DB.DB, migrations.Main())
	if err != nil {
		return err
	}
	w := tabwriter.NewWriter(c.App.Writer, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "VERSION\tSTATE\tFILE")
	for _, s := range st {
		state := "pending"
		if s.Applied {
			state = "applied"
		}
		fmt.Fprintf(w, "%05d\t%s\t%s\n", s.Version, state, s.Source)
	}
	return w.Flush()
}

func parseRoles(names []string) (map[clubhouse.Role]bool, error) {
	roles := map[clubhouse.Role]bool{}
	for _, n := range names {
		for _, part := range strings.Split(n, ",") {
			r, err := clubhouse.ParseRole(strings.TrimSpace(part))
			if err != nil {
				return nil, err
			}
			roles[r] = true
		}
	}
	return roles, nil
}

func userCreate(c *cli.Context) error {
	roles, err := parseRoles(c.StringSlice("role"))
	if err != nil {
		return err
	}
	e, err := open(c, false, auth.Options{})
	if err != nil {
		return err
	}
	defer e.db.Close()
	u, err := e.users.Create(c.Context, installer, users.Input{Email: c.String("email"), Password: c.String("password"),
		DisplayName: c.String("name"), Roles: roles})
	if err != nil {
		return err
	}
	fmt.Fprintf(c.App.Writer, "created %s uid=%s roles=%s\n", c.String("email"), u.LocalID, roleList(u.Roles()))
	return nil
}

func userList(c *cli.Context) error {
	e, err := open(c, false, auth.Options{})
	if err != nil {
		return err
	}
	defer e.db.Close()
	w := tabwriter.NewWriter(c.App.Writer, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "EMAIL\tUID\tROLES\tDISABLED\tCREATED")
	token := ""
	for {
		p, err := e.users.List(c.Context, installer, token, users.UserPaging.Max)
		if err != nil {
			return err
		}
		for _, u := range p.Users {
			email := "-"
			if u.Email != nil {
				email = *u.Email
			}
			fmt.Fprintf(w, "%s\t%s\t%s\t%t\t%s\n", email, u.LocalID, roleList(u.Roles()), u.Disabled, u.CreationTime.Format(time.DateTime))
		}
		if token = p.NextToken; token == "" {
			return w.Flush()
		}
	}
}

func userRoles(c *cli.Context) error {
	roles, err := parseRoles(c.StringSlice("role"))
	if err != nil {
		return err
	}
	e, err := open(c, false, auth.Options{})
	if err != nil {
		return err
	}
	defer e.db.Close()
	u, err := e.users.SetRoles(c.Context, installer, c.String("email"), roles)
	if err != nil {
		return err
	}
	fmt.Fprintf(c.App.Writer, "%s roles=%s (from the user's next request on)\n", c.String("email"), roleList(u.Roles()))
	return nil
}

func userPassword(c *cli.Context) error {
	e, err := open(c, false, auth.Options{})
	if err != nil {
		return err
	}
	defer e.db.Close()
	if err := e.auth.ResetPassword(c.Context, c.String("email"), c.String("password")); err != nil {
		return err
	}
	fmt.Fprintf(c.App.Writer, "password set for %s\n", c.String("email"))
	return nil
}

// token mints a token with clubd's signing key, which it only reads: a key
// of its own would sign tokens clubd refuses.
func token(c *cli.Context) error {
	path := c.String("auth-signing-key-file")
	key, err := auth.LoadSigningKey(path)
	if errors.Is(err, fs.ErrNotExist) {
		if abs, err := filepath.Abs(path); err == nil {
			path = abs
		}
		return fmt.Errorf("no signing key file %s: clubctl token signs with clubd's key, never a key of its own; "+
			"set AUTH_SIGNING_KEY_FILE (or --auth-signing-key-file) to clubd's key file, or get a token from clubd with clubctl login", path)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	issuer, err := app.BaseURL(c)
	if err != nil {
		return err
	}
	e, err := open(c, false, auth.Options{Issuer: &auth.Issuer{Key: key, Issuer: issuer, Audience: c.String("auth-audience"),
		TTL: c.Duration("access-token-ttl"), Now: time.Now}})
	if err != nil {
		return err
	}
	defer e.db.Close()
	tok, _, err := e.auth.MintFor(c.Context, c.String("email"), c.String("scope"))
	if err != nil {
		return err
	}
	fmt.Fprintln(c.App.Writer, tok)
	return nil
}

// roleList names the roles held in roles, comma-separated, or "-" for none.
func roleList(roles map[clubhouse.Role]bool) string {
	var names []string
	for _, r := range clubhouse.Roles {
		if roles[r] {
			names = append(names, string(r))
		}
	}
	if len(names) == 0 {
		return "-"
	}
	return strings.Join(names, ",")
}
