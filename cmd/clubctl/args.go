package main

import (
	"strconv"
	"time"

	"github.com/urfave/cli/v2"
)

// checkDate is the action of a date flag: YYYY-MM-DD or a usage error.
func checkDate(c *cli.Context, v string) error {
	if _, err := time.Parse(time.DateOnly, v); err != nil {
		return usagef(c, "%q is not a date YYYY-MM-DD", v)
	}
	return nil
}

// checkClock is the action of a time-of-day flag: HH:MM, or 24:00 for the
// midnight that ends a day; the API checks the 30-minute grid.
func checkClock(c *cli.Context, v string) error {
	if v == "24:00" {
		return nil
	}
	if _, err := time.Parse("15:04", v); err != nil || len(v) != 5 {
		return usagef(c, "%q is not a time of day HH:MM (24:00 for the midnight that ends the day)", v)
	}
	return nil
}

// idArg returns the one argument of c, the id of a what: a positive
// integer, or a usage error.
func idArg(c *cli.Context, what string) (string, error) {
	if err := arity(c, 1, "give the "+what+" id, a positive integer"); err != nil {
		return "", err
	}
	id := c.Args().First()
	if n, err := strconv.ParseInt(id, 10, 64); err != nil || n <= 0 {
		return "", usagef(c, "the %s id must be a positive integer, not %q", what, id)
	}
	return id, nil
}
