package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/clubhouse-go/clubhouse/tickets"
)

// ticketsCommand holds the front desk's ticket commands; they call the API.
func ticketsCommand() *cli.Command {
	return &cli.Command{
		Name:  "tickets",
		Usage: "ticket packages: programs, sell, show a ticket (calls the API at CLUBD_URL with CLUBD_TOKEN)",
		Subcommands: []*cli.Command{
			{
				Name: "programs", Usage: "list the ticket programs and their packages, with the package ids to sell",
				Flags: apiFlags(formatFlag()), Action: ticketPrograms,
			},
			{
				Name: "sell", Usage: "sell tickets of a package at its quoted price and print the tickets' codes", Action: ticketsSell,
				Before: need("package", "buyer", "document"),
				Flags: apiFlags(
					&cli.Int64Flag{Name: "package", Usage: "package id, as clubctl tickets programs shows it (required)"},
					&cli.IntFlag{Name: "count", Usage: "number of tickets (default the package's count)"},
					&cli.StringFlag{Name: "buyer", Usage: "the buyer's name (required)"},
					&cli.StringFlag{Name: "document", Usage: "the buyer's document (required)"},
					&cli.StringFlag{Name: "email", Usage: "the buyer's email"},
					&cli.StringSliceFlag{Name: "phone", Usage: "a phone of the buyer (repeatable)"},
					&cli.StringFlag{Name: "payment-type", Value: "Cash", Usage: "payment type id or name (for a total above 0)"},
					&cli.StringFlag{Name: "transaction", Usage: "the payment's reference (card voucher, transfer)"},
					formatFlag(),
				),
			},
			{
				Name: "show", Usage: "show a ticket by its code (as printed: case, spaces and dashes do not count)", ArgsUsage: "CODE",
				Flags: apiFlags(formatFlag()), Action: ticketShow,
			},
		},
	}
}

// eventsCommand holds the front desk's event commands; they call the API.
func eventsCommand() *cli.Command {
	return &cli.Command{
		Name:  "events",
		Usage: "the operator's events: list (calls the API at CLUBD_URL with CLUBD_TOKEN)",
		Subcommands: []*cli.Command{
			{
				Name: "list", Usage: "list events by start, with their places taken", Action: eventsList,
				Flags: apiFlags(
					&cli.StringFlag{Name: "from", Usage: "only events that start on or after this day YYYY-MM-DD", Action: checkDate},
					&cli.StringFlag{Name: "to", Usage: "only events that start on or before this day YYYY-MM-DD", Action: checkDate},
					&cli.StringFlag{Name: "court", Usage: "only the events on this court (id or name)"},
					&cli.StringFlag{Name: "status", Usage: "scheduled, cancelled or completed (default any)", Action: func(c *cli.Context, v string) error {
						if v != tickets.StatusScheduled && v != tickets.StatusCancelled && v != tickets.StatusCompleted {
							return usagef(c, "--status must be scheduled, cancelled or completed, not %q", v)
						}
						return nil
					}},
					formatFlag(),
				),
			},
		},
	}
}

// ticketProgram is a program of the catalog with its packages.
type ticketProgram struct {
	ID       int64  `json:"id"`
	Name     string `json:"name"`
	IsActive bool   `json:"is_active"`
	Packages []struct {
		ID          int64       `json:"id"`
		Name        string      `json:"name"`
		TicketCount int         `json:"ticket_count"`
		UnitPrice   json.Number `json:"unit_price"`
		ValidDays   *int        `json:"valid_days"`
		IsActive    bool        `json:"is_active"`
	} `json:"packages"`
}

func ticketPrograms(c *cli.Context) error {
	a, err := newAPI(c, true)
	if err != nil {
		return err
	}
	var ps []ticketProgram
	raw, err := a.do(c.Context, http.MethodGet, "/api/admin/tickets/programs", nil, &ps)
	if err != nil {
		return err
	}
	v := view{raw: raw, header: []string{"PACKAGE", "PROGRAM", "NAME", "TICKETS", "UNIT_PRICE", "VALID_DAYS", "ON_SALE"}}
	for _, p := range ps {
		for _, k := range p.Packages {
			valid := "never expire"
			if k.ValidDays != nil {
				valid = strconv.Itoa(*k.ValidDays)
			}
			v.rows = append(v.rows, []string{strconv.FormatInt(k.ID, 10), p.Name, k.Name, strconv.Itoa(k.TicketCount),
				k.UnitPrice.String(), valid, yesNo(p.IsActive && k.IsActive)})
		}
	}
	return v.print(c)
}

// sale is a ticket sale as the API answers it.
type sale struct {
	ID          int64       `json:"id"`
	PackageName string      `json:"package_name"`
	ProgramName string      `json:"program_name"`
	TicketCount int         `json:"ticket_count"`
	Total       json.Number `json:"total"`
	Buyer       struct {
		Name string `json:"name"`
	} `json:"buyer"`
	Payment *struct {
		Amount   json.Number `json:"amount"`
		TypeName *string     `json:"payment_type_name"`
	} `json:"payment"`
	Strips []struct {
		Position int      `json:"position"`
		Tickets  []ticket `json:"tickets"`
	} `json:"strips"`
}

// ticket is a ticket as the API answers it.
type ticket struct {
	ID        int64       `json:"id"`
	SaleID    int64       `json:"sale_id"`
	StripID   int64       `json:"strip_id"`
	Code      string      `json:"code"`
	UnitPrice json.Number `json:"unit_price"`
	Status    string      `json:"status"`
	ExpiresAt *string     `json:"expires_at"`
	UsedAt    *string     `json:"used_at"`
	EventID   *int64      `json:"event_id"`
}

func ticketsSell(c *cli.Context) error {
	a, err := newAPI(c, true)
	if err != nil {
		return err
	}
	ask := map[string]any{"package_id": c.Int64("package")}
	if c.IsSet("count") {
		ask["ticket_count"] = c.Int("count")
	}
	var q struct {
		QuoteID string      `json:"quote_id"`
		Total   json.Number `json:"total"`
	}
	if _, err := a.do(c.Context, http.MethodPost, "/api/admin/tickets/quote", ask, &q); err != nil {
		return err
	}
	buyer := map[string]any{"name": c.String("buyer"), "document": c.String("document")}
	if c.IsSet("email") {
		buyer["email"] = c.String("email")
	}
	body := map[string]any{"quote_id": q.QuoteID, "buyer": buyer, "phones": c.StringSlice("phone")}
	if total, err := q.Total.Float64(); err != nil || total > 0 {
		payType, err := a.lookup(c.Context, "/api/admin/payment-types", "payment type", c.String("payment-type"))
		if err != nil {
			return err
		}
		pay := map[string]any{"payment_type_id": payType, "amount": q.Total}
		if c.IsSet("transaction") {
			pay["transaction_id"] = c.String("transaction")
		}
		body["payment"] = pay
	}
	var s sale
	raw, err := a.do(c.Context, http.MethodPost, "/api/admin/tickets/sales", body, &s)
	if err != nil {
		return err
	}
	paid := "no payment"
	if s.Payment != nil {
		paid = s.Payment.Amount.String() + " paid by " + text(s.Payment.TypeName)
	}
	v := view{raw: raw, header: []string{"STRIP", "TICKET", "CODE", "PRICE", "EXPIRES"},
		title: fmt.Sprintf("Sale %d to %s: %d tickets of %s / %s, %s", s.ID, s.Buyer.Name, s.TicketCount, s.ProgramName, s.PackageName, paid)}
	for _, st := range s.Strips {
		for _, t := range st.Tickets {
			v.rows = append(v.rows, []string{strconv.Itoa(st.Position), strconv.FormatInt(t.ID, 10), tickets.FormatCode(t.Code),
				t.UnitPrice.String(), orNever(t.ExpiresAt)})
		}
	}
	return v.print(c)
}

func ticketShow(c *cli.Context) error {
	if err := arity(c, 1, "give the ticket's code"); err != nil {
		return err
	}
	code, err := tickets.ParseCode(c.Args().First())
	if err != nil {
		return usagef(c, "%q is not a ticket code: 12 letters and digits (no 0, O, 1 or I), dashes and spaces aside", c.Args().First())
	}
	a, err := newAPI(c, true)
	if err != nil {
		return err
	}
	var t ticket
	raw, err := a.do(c.Context, http.MethodGet, "/api/admin/tickets/"+url.PathEscape(code), nil, &t)
	if err != nil {
		return err
	}
	return view{raw: raw, header: []string{"CODE", "STATUS", "SALE", "TICKET", "PRICE", "EXPIRES", "USED_AT", "EVENT"},
		rows: [][]string{{tickets.FormatCode(t.Code), t.Status, strconv.FormatInt(t.SaleID, 10), strconv.FormatInt(t.ID, 10),
			t.UnitPrice.String(), orNever(t.ExpiresAt), text(t.UsedAt), ref(t.EventID)}}}.print(c)
}

// event is an event as the API lists it.
type event struct {
	ID           int64  `json:"id"`
	Title        string `json:"title"`
	Status       string `json:"status"`
	CourtName    string `json:"court_name"`
	CheckingDate string `json:"checking_date"`
	CheckingTime string `json:"checking_time"`
	Checkout     string `json:"checkout"`
	Capacity     int    `json:"capacity"`
	PlacesLeft   int    `json:"places_left"`
}

func eventsList(c *cli.Context) error {
	a, err := newAPI(c, true)
	if err != nil {
		return err
	}
	q := url.Values{}
	for _, f := range []string{"from", "to", "status"} {
		if c.IsSet(f) {
			q.Set(f, c.String(f))
		}
	}
	if c.IsSet("court") {
		court, err := a.lookup(c.Context, "/api/admin/courts", "court", c.String("court"))
		if err != nil {
			return err
		}
		q.Set("court_id", strconv.FormatInt(court, 10))
	}
	items, err := a.list(c.Context, "/api/admin/events", q, 1000)
	if err != nil {
		return err
	}
	es, err := decodeAll[event](items)
	if err != nil {
		return err
	}
	v := view{raw: rawList(items), header: []string{"ID", "DATE", "FROM", "TO", "COURT", "TITLE", "STATUS", "TAKEN", "CAPACITY"}}
	for _, e := range es {
		v.rows = append(v.rows, []string{strconv.FormatInt(e.ID, 10), e.CheckingDate, hhmm(e.CheckingTime), eventEnd(e),
			e.CourtName, e.Title, e.Status, strconv.Itoa(e.Capacity - e.PlacesLeft), strconv.Itoa(e.Capacity)})
	}
	return v.print(c)
}

// eventEnd is the end of e: its time of day, with its date when it ends
// on another day.
func eventEnd(e event) string {
	date, clock, _ := strings.Cut(e.Checkout, " ")
	if date == e.CheckingDate {
		return hhmm(clock)
	}
	return date + " " + hhmm(clock)
}

// orNever is *t, or "never" for nil: an expiry.
func orNever(t *string) string {
	if t == nil {
		return "never"
	}
	return *t
}

// yesNo is "yes" or "no".
func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
