package main

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"

	"github.com/urfave/cli/v2"
)

// paymentCommand holds the front desk's payment commands; they call the API.
func paymentCommand() *cli.Command {
	return &cli.Command{
		Name:  "payment",
		Usage: "payments waiting for staff: list, validate (calls the API at CLUBD_URL with CLUBD_TOKEN)",
		Subcommands: []*cli.Command{
			{
				Name: "pending", Usage: "list the payments not completed (pending, and failed or refunded ones), oldest last",
				Flags: apiFlags(formatFlag()), Action: paymentPending,
			},
			{
				Name: "validate", Usage: "mark a payment completed, once its money is seen: it then counts toward what its booking owes", ArgsUsage: "PAYMENT_ID",
				Flags: apiFlags(formatFlag()), Action: paymentValidate,
			},
		},
	}
}

// payment is a payment as staff see it.
type payment struct {
	ID            int64       `json:"id"`
	ReservationID *int64      `json:"reservation_id"`
	EnrollmentID  *int64      `json:"enrollment_id"`
	TypeName      *string     `json:"payment_type_name"`
	Amount        json.Number `json:"amount"`
	TransactionID *string     `json:"transaction_id"`
	ClientClaim   bool        `json:"client_claim"`
	StatusDetail  string      `json:"status_detail"`
	Date          string      `json:"date"`
	Description   *string     `json:"description"`
}

// paymentHeader is the header of payment rows.
func paymentHeader() []string {
	return []string{"ID", "DATE", "BOOKING", "ENROLLMENT", "AMOUNT", "TYPE", "TRANSACTION", "STATUS", "CLIENT_CLAIM", "DESCRIPTION"}
}

func (p payment) row() []string {
	return []string{strconv.FormatInt(p.ID, 10), p.Date, ref(p.ReservationID), ref(p.EnrollmentID), p.Amount.String(), text(p.TypeName),
		text(p.TransactionID), p.StatusDetail, strconv.FormatBool(p.ClientClaim), text(p.Description)}
}

func paymentPending(c *cli.Context) error {
	a, err := newAPI(c, true)
	if err != nil {
		return err
	}
	items, err := a.list(c.Context, "/api/admin/payments", url.Values{"status": {"false"}}, 1000)
	if err != nil {
		return err
	}
	ps, err := decodeAll[payment](items)
	if err != nil {
		return err
	}
	v := view{raw: rawList(items), header: paymentHeader()}
	for _, p := range ps {
		v.rows = append(v.rows, p.row())
	}
	return v.print(c)
}

func paymentValidate(c *cli.Context) error {
	id, err := idArg(c, "payment")
	if err != nil {
		return err
	}
	a, err := newAPI(c, true)
	if err != nil {
		return err
	}
	var p payment
	raw, err := a.do(c.Context, http.MethodPatch, "/api/admin/payments/"+id, map[string]bool{"status": true}, &p)
	if err != nil {
		return err
	}
	return view{raw: raw, header: paymentHeader(), rows: [][]string{p.row()}}.print(c)
}
