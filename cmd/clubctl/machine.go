package main

import (
	"fmt"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/compose/app"
	"github.com/clubhouse-go/clubhouse/internal/identity/auth"
)

// machineCommand manages the machine clients (OAuth client credentials) on
// the database, as the user commands manage users.
func machineCommand() *cli.Command {
	ref := "<id|client_id>"
	return &cli.Command{
		Name:  "machine",
		Usage: "machine clients: programs that get access tokens with a client_id and secret",
		Subcommands: []*cli.Command{
			{
				Name: "create", Usage: "create a machine client and print its client_id and secret (shown once)", Action: machineCreate,
				Before: need("name"),
				Flags: dbFlags(app.FlagsNamed("oidc-issuer-url")[0],
					&cli.StringFlag{Name: "name", Usage: "1 to 255 characters (required)"},
					&cli.StringSliceFlag{Name: "role", Usage: "trainer, operator, admin, sudo or accounting (repeatable, at least one)"},
				),
			},
			{Name: "list", Usage: "list machine clients with their roles (never their secrets)", Flags: dbFlags(), Action: machineList},
			{
				Name: "rotate", Usage: "give a machine client a new secret and print it; the old secret and its tokens stop working",
				ArgsUsage: ref, Flags: dbFlags(), Action: machineRotate,
			},
			{
				Name: "disable", Usage: "disable a machine client: no new tokens, and its tokens are refused from their next request",
				ArgsUsage: ref, Flags: dbFlags(), Action: machineSetDisabled(true),
			},
			{
				Name: "enable", Usage: "enable a disabled machine client",
				ArgsUsage: ref, Flags: dbFlags(), Action: machineSetDisabled(false),
			},
		},
	}
}

func machineCreate(c *cli.Context) error {
	parsed, err := parseRoles(c.StringSlice("role"))
	if err != nil {
		return err
	}
	var roles []clubhouse.Role
	for _, r := range clubhouse.Roles {
		if parsed[r] {
			roles = append(roles, r)
		}
	}
	// With an external issuer clubd would never see the machine's tokens.
	e, err := open(c, false, auth.Options{External: c.String("oidc-issuer-url")})
	if err != nil {
		return err
	}
	defer e.db.Close()
	m, secret, err := e.auth.CreateMachine(c.Context, auth.NewMachine{Name: c.String("name"), Roles: roles})
	if err != nil {
		return err
	}
	fmt.Fprintf(c.App.Writer, "created machine id=%d name=%q roles=%s\nclient_id=%s\nclient_secret=%s\n",
		m.ID, m.Name, roleList(m.Roles()), m.ClientID, secret)
	fmt.Fprintln(c.App.ErrWriter, "Store the client_secret now: it is not shown again.")
	return nil
}

func machineList(c *cli.Context) error {
	e, err := open(c, false, auth.Options{})
	if err != nil {
		return err
	}
	defer e.db.Close()
	w := tabwriter.NewWriter(c.App.Writer, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "ID\tCLIENT_ID\tNAME\tROLES\tDISABLED\tCREATED")
	token := ""
	for {
		p, err := e.auth.Machines(c.Context, token, 1000)
		if err != nil {
			return err
		}
		for _, m := range p.Machines {
			fmt.Fprintf(w, "%d\t%s\t%s\t%s\t%t\t%s\n", m.ID, m.ClientID, m.Name, roleList(m.Roles()), m.Disabled,
				m.CreatedAt.Format(time.DateTime))
		}
		if token = p.NextToken; token == "" {
			return w.Flush()
		}
	}
}

func machineRotate(c *cli.Context) error {
	return withMachine(c, func(e *env, id int64) error {
		secret, err := e.auth.RotateMachineSecret(c.Context, id)
		if err != nil {
			return err
		}
		fmt.Fprintf(c.App.Writer, "client_secret=%s\n", secret)
		fmt.Fprintln(c.App.ErrWriter, "Store the client_secret now: it is not shown again.")
		return nil
	})
}

func machineSetDisabled(disabled bool) cli.ActionFunc {
	return func(c *cli.Context) error {
		return withMachine(c, func(e *env, id int64) error {
			m, err := e.auth.SetMachineDisabled(c.Context, id, disabled)
			if err != nil {
				return err
			}
			state := "enabled"
			if m.Disabled {
				state = "disabled (its tokens are refused from their next request)"
			}
			fmt.Fprintf(c.App.Writer, "machine id=%d client_id=%s %s\n", m.ID, m.ClientID, state)
			return nil
		})
	}
}

// withMachine runs fn on the database with the id of the machine client
// that the one argument of c names.
func withMachine(c *cli.Context, fn func(e *env, id int64) error) error {
	ref, err := machineRef(c)
	if err != nil {
		return err
	}
	e, err := open(c, false, auth.Options{})
	if err != nil {
		return err
	}
	defer e.db.Close()
	id, err := machineID(c, e, ref)
	if err != nil {
		return err
	}
	return fn(e, id)
}

// machineRef returns the one argument of c: a machine client's id or
// client_id.
func machineRef(c *cli.Context) (string, error) {
	if err := arity(c, 1, "name one machine client by its id or client_id"); err != nil {
		return "", err
	}
	return c.Args().First(), nil
}

// machineID returns the id of the machine client ref names, by its id or
// its client_id. Errors: auth.ErrMachineNotFound for an unknown client_id.
func machineID(c *cli.Context, e *env, ref string) (int64, error) {
	if id, err := strconv.ParseInt(ref, 10, 64); err == nil {
		return id, nil
	}
	m, err := e.auth.MachineByClientID(c.Context, ref)
	return m.ID, err
}
