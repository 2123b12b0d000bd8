package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"

	"github.com/urfave/cli/v2"
	"golang.org/x/term"
)

// loginCommand signs a user in at clubd and prints the access token: a
// token for the front desk on any machine that reaches clubd, without the
// signing key.
func loginCommand() *cli.Command {
	return &cli.Command{
		Name: "login", Usage: "sign in at clubd and print an access token: export CLUBD_TOKEN=$(clubctl login --email E)",
		Description: "The password comes from CLUBD_PASSWORD, else it is asked on the terminal (not echoed), else read as the first line of\n" +
			"standard input. The token lasts clubd's ACCESS_TOKEN_TTL (15 minutes by default); sign in again when it expires.",
		Action: login, Before: need("email"),
		Flags: append(clubdFlags(),
			&cli.StringFlag{Name: "email", Usage: "(required)"},
			&cli.StringFlag{Name: "password", EnvVars: []string{"CLUBD_PASSWORD"}, Usage: "the password; prefer the variable or the prompt, since a flag shows in ps and the shell's history"},
		),
	}
}

func login(c *cli.Context) error {
	a, err := newAPI(c, false)
	if err != nil {
		return err
	}
	password, err := readPassword(c)
	if err != nil {
		return err
	}
	var t struct {
		AccessToken string `json:"access_token"`
		ExpiresIn   int    `json:"expires_in"`
	}
	body := map[string]string{"email": c.String("email"), "password": password}
	if _, err := a.do(c.Context, http.MethodPost, "/api/auth/login", body, &t); err != nil {
		return err
	}
	if t.AccessToken == "" {
		return errors.New("unexpected answer from clubd: no access_token")
	}
	fmt.Fprintln(c.App.Writer, t.AccessToken)
	fmt.Fprintf(c.App.ErrWriter, "signed in as %s; the token lasts %d minutes\n", c.String("email"), t.ExpiresIn/60)
	return nil
}

// readPassword returns the password of the flag password, else the one
// typed at the terminal of stdin, else the first line of stdin.
func readPassword(c *cli.Context) (string, error) {
	if p := c.String("password"); p != "" {
		return p, nil
	}
	if f, ok := c.App.Reader.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		fmt.Fprintf(c.App.ErrWriter, "password for %s: ", c.String("email"))
		b, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(c.App.ErrWriter)
		if err != nil {
			return "", fmt.Errorf("read password: %w", err)
		}
		return string(b), nil
	}
	line, err := bufio.NewReader(c.App.Reader).ReadString('\n')
	line = strings.TrimRight(line, "\r\n")
	if line == "" {
		if err != nil && !errors.Is(err, io.EOF) {
			return "", fmt.Errorf("read password: %w", err)
		}
		return "", errors.New("no password: set CLUBD_PASSWORD, type it when asked, or give it as a line on standard input")
	}
	return line, nil
}
