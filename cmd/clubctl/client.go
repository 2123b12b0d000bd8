package main

import (
	"net/http"
	"net/url"
	"strconv"

	"github.com/urfave/cli/v2"
)

// clientCommand holds the front desk's client commands; they call the API.
func clientCommand() *cli.Command {
	return &cli.Command{
		Name:  "client",
		Usage: "the club's clients: find, create (calls the API at CLUBD_URL with CLUBD_TOKEN)",
		Subcommands: []*cli.Command{
			{
				Name: "find", Usage: "list the clients whose name, email, document or phone holds TEXT (any case)", ArgsUsage: "TEXT",
				Flags: apiFlags(formatFlag()), Action: clientFind,
			},
			{
				Name: "create", Usage: "create a client and print it", Action: clientCreate,
				Before: need("first-name", "last-name", "document-type", "document"),
				Flags: apiFlags(
					&cli.StringFlag{Name: "first-name", Usage: "(required)"},
					&cli.StringFlag{Name: "last-name", Usage: "(required)"},
					&cli.StringFlag{Name: "document-type", Usage: "document type id or name, such as CC (required)"},
					&cli.StringFlag{Name: "document", Usage: "document number, one client's per document type (required)"},
					&cli.StringFlag{Name: "email", Usage: "makes the client a user, who gets a link to set a password"},
					&cli.StringFlag{Name: "phone"},
					&cli.StringFlag{Name: "address"},
					formatFlag(),
				),
			},
		},
	}
}

// client is a client of the club.
type client struct {
	ID             int64   `json:"id"`
	FirstName      string  `json:"first_name"`
	LastName       string  `json:"last_name"`
	DocumentTypeID int64   `json:"document_type_id"`
	Document       string  `json:"document"`
	Email          *string `json:"email"`
	Phone          *string `json:"phone"`
}

// clientHeader is the header of client rows.
func clientHeader() []string {
	return []string{"ID", "FIRST_NAME", "LAST_NAME", "DOCUMENT_TYPE", "DOCUMENT", "EMAIL", "PHONE"}
}

func (cl client) row() []string {
	return []string{strconv.FormatInt(cl.ID, 10), cl.FirstName, cl.LastName, strconv.FormatInt(cl.DocumentTypeID, 10), cl.Document,
		text(cl.Email), text(cl.Phone)}
}

func clientFind(c *cli.Context) error {
	if err := arity(c, 1, "give the text to look for, one argument (quote it if it has spaces)"); err != nil {
		return err
	}
	a, err := newAPI(c, true)
	if err != nil {
		return err
	}
	items, err := a.list(c.Context, "/api/admin/clients", url.Values{"search": {c.Args().First()}}, 1000)
	if err != nil {
		return err
	}
	cs, err := decodeAll[client](items)
	if err != nil {
		return err
	}
	v := view{raw: rawList(items), header: clientHeader()}
	for _, cl := range cs {
		v.rows = append(v.rows, cl.row())
	}
	return v.print(c)
}

func clientCreate(c *cli.Context) error {
	a, err := newAPI(c, true)
	if err != nil {
		return err
	}
	docType, err := a.lookup(c.Context, "/api/admin/document-types", "document type", c.String("document-type"))
	if err != nil {
		return err
	}
	body := map[string]any{"first_name": c.String("first-name"), "last_name": c.String("last-name"),
		"document_type_id": docType, "document": c.String("document")}
	for _, f := range []string{"email", "phone", "address"} {
		if c.IsSet(f) {
			body[f] = c.String(f)
		}
	}
	var cl client
	raw, err := a.do(c.Context, http.MethodPost, "/api/admin/clients", body, &cl)
	if err != nil {
		return err
	}
	return view{raw: raw, header: clientHeader(), rows: [][]string{cl.row()}}.print(c)
}
