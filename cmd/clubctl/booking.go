package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/clubhouse-go/clubhouse/internal/compose/app"
)

// bookingCommand holds the front desk's booking commands; they call the API.
func bookingCommand() *cli.Command {
	court := func(usage string) cli.Flag { return &cli.StringFlag{Name: "court", Usage: "court id or name" + usage} }
	return &cli.Command{
		Name:  "booking",
		Usage: "a day's bookings: list, create, cancel (calls the API at CLUBD_URL with CLUBD_TOKEN)",
		Subcommands: []*cli.Command{
			{
				Name: "list", Usage: "list the bookings of a day, of every court or of one", Action: bookingList,
				Flags: apiFlags(append(app.FlagsNamed("club-timezone"),
					&cli.StringFlag{Name: "date", Usage: "day YYYY-MM-DD (default today in the club's zone)", Action: checkDate},
					court(" (default every court)"),
					formatFlag())...),
			},
			{
				Name: "create", Usage: "book a court and print the booking", Action: bookingCreate,
				Before: need("court", "date", "from", "to", "type"),
				Flags: apiFlags(
					court(" (required)"),
					&cli.StringFlag{Name: "date", Usage: "day YYYY-MM-DD (required)", Action: checkDate},
					&cli.StringFlag{Name: "from", Usage: "start HH:MM, on the half hour (required)", Action: checkClock},
					&cli.StringFlag{Name: "to", Usage: "end HH:MM, on the half hour; 24:00 ends at midnight (required)", Action: checkClock},
					&cli.StringFlag{Name: "type", Usage: "reservation type id or name (required)"},
					&cli.Int64Flag{Name: "client", Usage: "client id (clubctl client find shows it)"},
					&cli.StringFlag{Name: "notes", Usage: "notes on the booking"},
					&cli.BoolFlag{Name: "override-rules", Usage: "book against the club's rules (hours, notice, ...); the booking records who did"},
					formatFlag(),
				),
			},
			{
				Name: "cancel", Usage: "cancel a booking: it frees the court and stays in the history", ArgsUsage: "BOOKING_ID",
				Flags: apiFlags(formatFlag()), Action: bookingCancel,
			},
		},
	}
}

// lookup returns the id of the record of catalog (an admin list with a
// search query) that value names: value itself when it is an id, else the
// record whose name is value, in any case.
func (a *api) lookup(ctx context.Context, catalog, what, value string) (int64, error) {
	if id, err := strconv.ParseInt(value, 10, 64); err == nil && id > 0 {
		return id, nil
	}
	var items []struct {
		ID   int64  `json:"id"`
		Name string `json:"name"`
	}
	if _, err := a.do(ctx, http.MethodGet, catalog+"?search="+url.QueryEscape(value), nil, &items); err != nil {
		return 0, err
	}
	var similar []string
	for _, it := range items {
		if strings.EqualFold(it.Name, value) {
			return it.ID, nil
		}
		similar = append(similar, fmt.Sprintf("%q (%d)", it.Name, it.ID))
	}
	if len(similar) > 0 {
		return 0, fmt.Errorf("no %s is named %q; similar: %s", what, value, strings.Join(similar, ", "))
	}
	return 0, fmt.Errorf("no %s is named %q", what, value)
}

// booking is a booking as the API's full view gives it; the fields of the
// other views are a part of it.
type booking struct {
	ID              int64       `json:"id"`
	CourtID         int64       `json:"court_id"`
	TypeID          int64       `json:"reservation_type_id"`
	StatusID        *int64      `json:"reservation_status_id"`
	ClientID        *int64      `json:"client_id"`
	Checking        string      `json:"checking"`
	CheckingDate    string      `json:"checking_date"`
	CheckingTime    string      `json:"checking_time"`
	CheckoutDate    string      `json:"checkout_date"`
	CheckoutTime    string      `json:"checkout_time"`
	Notes           *string     `json:"notes"`
	CourtName       string      `json:"court_name"`
	TypeName        string      `json:"reservation_type_name"`
	StatusName      *string     `json:"status_name"`
	ClientFirstName *string     `json:"client_first_name"`
	ClientLastName  *string     `json:"client_last_name"`
	TotalAmount     json.Number `json:"total_amount"`
	TotalPaid       json.Number `json:"total_paid"`
	TotalDebt       json.Number `json:"total_debt"`
}

// hhmm is a time HH:MM:SS as HH:MM (the grid has no seconds).
func hhmm(t string) string {
	if len(t) == len("15:04:05") {
		return t[:len("15:04")]
	}
	return t
}

// to is the end of b: HH:MM on the day it starts, else the date too.
func (b booking) to() string {
	if b.CheckoutDate != b.CheckingDate {
		return b.CheckoutDate + " " + hhmm(b.CheckoutTime)
	}
	return hhmm(b.CheckoutTime)
}

// client is the name of b's client, or "".
func (b booking) client() string {
	return strings.TrimSpace(text(b.ClientFirstName) + " " + text(b.ClientLastName))
}

func bookingList(c *cli.Context) error {
	zone, err := time.LoadLocation(c.String("club-timezone"))
	if err != nil {
		return fmt.Errorf("CLUB_TIMEZONE: %w", err)
	}
	day := c.String("date")
	if day == "" {
		day = time.Now().In(zone).Format(time.DateOnly)
	}
	a, err := newAPI(c, true)
	if err != nil {
		return err
	}
	q := url.Values{"start_date": {day}, "end_date": {day}}
	if name := c.String("court"); name != "" {
		id, err := a.lookup(c.Context, "/api/admin/courts", "court", name)
		if err != nil {
			return err
		}
		q.Set("court_id", strconv.FormatInt(id, 10))
	}
	items, err := a.list(c.Context, "/api/admin/booking/full", q, 1000)
	if err != nil {
		return err
	}
	bs, err := decodeAll[booking](items)
	if err != nil {
		return err
	}
	// The API lists the latest first; a day reads from its morning on.
	order := make([]int, len(bs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int {
		return strings.Compare(bs[i].Checking+"\x00"+bs[i].CourtName, bs[j].Checking+"\x00"+bs[j].CourtName)
	})
	v := view{title: "Bookings of " + day, header: []string{"ID", "FROM", "TO", "COURT", "TYPE", "STATUS", "CLIENT", "TOTAL", "PAID", "DEBT", "NOTES"}}
	sorted := make([]json.RawMessage, len(bs))
	for k, i := range order {
		b := bs[i]
		sorted[k] = items[i]
		v.rows = append(v.rows, []string{strconv.FormatInt(b.ID, 10), hhmm(b.CheckingTime), b.to(), b.CourtName, b.TypeName,
			text(b.StatusName), b.client(), b.TotalAmount.String(), b.TotalPaid.String(), b.TotalDebt.String(), text(b.Notes)})
	}
	v.raw = rawList(sorted)
	return v.print(c)
}

// bookingView is the view of one booking the API answered with raw.
func bookingView(raw json.RawMessage) (view, error) {
	var b booking
	if err := json.Unmarshal(raw, &b); err != nil {
		return view{}, fmt.Errorf("unexpected answer from clubd: %w", err)
	}
	return view{raw: raw, header: []string{"ID", "DATE", "FROM", "TO", "COURT_ID", "TYPE_ID", "STATUS_ID", "CLIENT_ID", "NOTES"},
		rows: [][]string{{strconv.FormatInt(b.ID, 10), b.CheckingDate, hhmm(b.CheckingTime), b.to(), strconv.FormatInt(b.CourtID, 10),
			strconv.FormatInt(b.TypeID, 10), ref(b.StatusID), ref(b.ClientID), text(b.Notes)}}}, nil
}

func bookingCreate(c *cli.Context) error {
	day, _ := time.Parse(time.DateOnly, c.String("date")) // checked by the flag's action
	from, to := c.String("from"), c.String("to")
	end := day
	if to == "24:00" {
		end, to = day.AddDate(0, 0, 1), "00:00"
	}
	a, err := newAPI(c, true)
	if err != nil {
		return err
	}
	court, err := a.lookup(c.Context, "/api/admin/courts", "court", c.String("court"))
	if err != nil {
		return err
	}
	typ, err := a.lookup(c.Context, "/api/admin/reservation-types", "reservation type", c.String("type"))
	if err != nil {
		return err
	}
	body := map[string]any{"court_id": court, "reservation_type_id": typ,
		"checking": day.Format(time.DateOnly) + " " + from + ":00", "checkout": end.Format(time.DateOnly) + " " + to + ":00"}
	if c.IsSet("client") {
		body["client_id"] = c.Int64("client")
	}
	if c.IsSet("notes") {
		body["notes"] = c.String("notes")
	}
	if c.Bool("override-rules") {
		body["override_rules"] = true
	}
	raw, err := a.do(c.Context, http.MethodPost, "/api/admin/booking", body, nil)
	if err != nil {
		return err
	}
	v, err := bookingView(raw)
	if err != nil {
		return err
	}
	return v.print(c)
}

func bookingCancel(c *cli.Context) error {
	id, err := idArg(c, "booking")
	if err != nil {
		return err
	}
	a, err := newAPI(c, true)
	if err != nil {
		return err
	}
	var cancelled struct {
		At *string `json:"cancelled_at"`
		By *string `json:"cancelled_by"`
	}
	raw, err := a.do(c.Context, http.MethodPost, "/api/admin/booking/"+id+"/cancel", nil, &cancelled)
	if err != nil {
		return err
	}
	v, err := bookingView(raw)
	if err != nil {
		return err
	}
	v.header = append(v.header, "CANCELLED_AT", "CANCELLED_BY")
	v.rows[0] = append(v.rows[0], text(cancelled.At), text(cancelled.By))
	return v.print(c)
}
