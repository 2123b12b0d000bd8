package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
)

// usageError is a mistake in the command line: an unknown command, a
// missing or invalid flag or argument. main prints it on one line with a
// hint to the help of the command, and exits with status 2.
type usageError struct {
	msg     string
	command string // the command's full name, "clubctl booking create"
}

func (e *usageError) Error() string { return e.msg }

// usagef returns a usageError of the command of c.
func usagef(c *cli.Context, format string, args ...any) error {
	name := c.App.Name
	if c.Command != nil && c.Command.HelpName != "" {
		name = c.Command.HelpName
	}
	return &usageError{msg: fmt.Sprintf(format, args...), command: name}
}

// report writes err to stderr and returns the exit status: 0 for no error,
// 2 for a usageError (one line, then the hint), 1 for any other (one line).
func report(stderr io.Writer, err error) int {
	if err == nil {
		return 0
	}
	var u *usageError
	if errors.As(err, &u) {
		fmt.Fprintf(stderr, "%s: %s\nrun '%s --help'\n", u.command, oneLine(u), u.command)
		return 2
	}
	fmt.Fprintln(stderr, "clubctl:", oneLine(err))
	return 1
}

// strict makes every mistake in a command line of a a usageError, which
// cli would otherwise answer with the whole help: a bad flag, an unknown
// command, an argument to a command that takes none.
func strict(a *cli.App) {
	onUsage := func(c *cli.Context, err error, _ bool) error {
		msg := err.Error()
		if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
			msg = "unknown flag --" + strings.TrimLeft(name, "-")
		}
		return usagef(c, "%s", msg)
	}
	a.OnUsageError = onUsage
	a.Action = group(cli.ShowAppHelp)
	var walk func(cmds []*cli.Command)
	walk = func(cmds []*cli.Command) {
		for _, cmd := range cmds {
			cmd.OnUsageError = onUsage
			switch {
			case len(cmd.Subcommands) > 0:
				cmd.HideHelpCommand = true
				cmd.Action = group(cli.ShowSubcommandHelp)
				walk(cmd.Subcommands)
			case cmd.ArgsUsage == "":
				cmd.Before = noArgs(cmd.Before)
			}
		}
	}
	walk(a.Commands)
}

// group is the action of a command that only holds others: without
// arguments it shows its help, with one it refuses the unknown command.
func group(help func(*cli.Context) error) cli.ActionFunc {
	return func(c *cli.Context) error {
		if c.Args().Present() {
			return usagef(c, "unknown command %q", c.Args().First())
		}
		return help(c)
	}
}

// noArgs refuses arguments to a command that takes none (such as a date
// given without its --date), then runs before.
func noArgs(before cli.BeforeFunc) cli.BeforeFunc {
	return func(c *cli.Context) error {
		if c.Args().Present() {
			return usagef(c, "unexpected argument %q (this command takes flags only)", c.Args().First())
		}
		if before != nil {
			return before(c)
		}
		return nil
	}
}

// need returns a Before hook that refuses to run without the named flags,
// given on the command line or in their environment variables.
func need(names ...string) cli.BeforeFunc {
	return func(c *cli.Context) error {
		for _, n := range names {
			if !c.IsSet(n) || fmt.Sprint(c.Value(n)) == "" {
				return usagef(c, "missing --%s", n)
			}
		}
		return nil
	}
}

// arity refuses a command line whose arguments are not n; what says which
// arguments the command takes.
func arity(c *cli.Context, n int, what string) error {
	if c.NArg() != n {
		return usagef(c, "%s", what)
	}
	return nil
}

// flagsFirst returns args with the flags given to the command that takes
// arguments moved before its arguments: cli reads everything after the
// first argument as arguments, and "clubctl booking cancel 12 --format
// json" should read as "clubctl booking cancel --format json 12". After
// "--" everything is an argument.
func flagsFirst(a *cli.App, args []string) []string {
	cmds, i := a.Commands, 1
	var cmd *cli.Command
	for ; i < len(args); i++ {
		cmd = nil
		for _, c := range cmds {
			if c.HasName(args[i]) {
				cmd = c
			}
		}
		if cmd == nil || len(cmd.Subcommands) == 0 {
			break
		}
		cmds = cmd.Subcommands
	}
	if cmd == nil || cmd.ArgsUsage == "" || i >= len(args) {
		return args
	}
	out := slices.Clone(args[:i+1])
	var positional []string
	for rest := args[i+1:]; len(rest) > 0; rest = rest[1:] {
		tok := rest[0]
		switch {
		case tok == "--":
			positional = append(positional, rest...)
			rest = rest[:1]
		case len(tok) > 1 && tok[0] == '-':
			out = append(out, tok)
			if takesValue(cmd, tok) && len(rest) > 1 {
				out = append(out, rest[1])
				rest = rest[1:]
			}
		default:
			positional = append(positional, tok)
		}
	}
	return append(out, positional...)
}

// takesValue reports whether tok, a flag of cmd without "=value", is
// followed by its value: every flag but a boolean one is.
func takesValue(cmd *cli.Command, tok string) bool {
	name := strings.TrimLeft(tok, "-")
	if strings.Contains(name, "=") {
		return false
	}
	for _, f := range cmd.Flags {
		if slices.Contains(f.Names(), name) {
			_, boolean := f.(*cli.BoolFlag)
			return !boolean
		}
	}
	return false
}
