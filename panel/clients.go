package panel

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/web"
)

// clientsPage is how many clients a page of the search lists.
const clientsPage = 25

// clientsView is the data of the clients' search: the term, one page of
// the clients it matches and the links to the pages around it.
type clientsView struct {
	Q        string
	Clients  []booking.Client
	From, To int    // the positions of the first and last client listed, from 1
	Prev     string // the page before; "" on the first
	Next     string // the page after; "" on the last
}

// clients searches the clients by name, document, email or phone (the
// query's q; all of them without one), a page at a time from the query's
// offset, which the service checks.
func (p *Panel) clients(w http.ResponseWriter, r *http.Request) error {
	v := visitOf(r)
	f := p.rd.Fields(r)
	data := clientsView{Q: f.Text("q", false, 255)}
	if !f.OK() {
		vw := view(r, data)
		vw.Errors = f.Errors()
		return p.rd.Render(w, r, http.StatusBadRequest, "clients.html", vw)
	}
	offset, err := queryOffset(r)
	var rows []booking.Client
	if err == nil {
		// One more than a page tells whether a page follows.
		rows, err = v.Club.Clients.List(r.Context(), v.Actor, data.Q, clientsPage+1, offset)
	}
	if err != nil {
		return p.rd.Form(w, r, "clients.html", view(r, data), "", err)
	}
	if len(rows) > clientsPage {
		rows, data.Next = rows[:clientsPage], clientsLink(data.Q, offset+clientsPage)
	}
	if offset > 0 {
		data.Prev = clientsLink(data.Q, max(0, offset-clientsPage))
	}
	data.Clients, data.From, data.To = rows, offset+1, offset+len(rows)
	return p.rd.Render(w, r, http.StatusOK, "clients.html", view(r, data))
}

// queryOffset reads the query's offset, 0 when absent; the service checks
// its bounds. Errors: clubhouse.ErrInvalidQuery for one that is not an
// integer.
func queryOffset(r *http.Request) (int, error) {
	s := r.URL.Query().Get("offset")
	if s == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, clubhouse.ErrInvalidQuery.Withf("offset must be an integer, not %q.", s)
	}
	return n, nil
}

// clientsLink is the search of q from offset.
func clientsLink(q string, offset int) string {
	v := url.Values{}
	if q != "" {
		v.Set("q", q)
	}
	if offset > 0 {
		v.Set("offset", strconv.Itoa(offset))
	}
	if len(v) == 0 {
		return Prefix + "clients"
	}
	return Prefix + "clients?" + v.Encode()
}

// clientPath is the page of the client with id.
func clientPath(id int64) string { return Prefix + "clients/" + strconv.FormatInt(id, 10) }

// clientFields are the fields of the client's form, as typed.
type clientFields struct {
	FirstName, LastName string
	DocumentTypeID      int64
	Document            string
	Email               string
	Phone, Address      string
}

// clientForm is the data of the form that creates (ID 0) or changes a
// client: the values, the document types to choose from and, on a
// change, the client's email, which the form does not change (shown when
// the form opens; a refused change does not read it again).
type clientForm struct {
	ID            int64
	Email         string
	Fields        clientFields
	DocumentTypes []booking.DocumentType
	// Back is the booking form a new client was created from, which the
	// new client's id is sent back to.
	Back string
}

// readClient reads the client's form; the email only on a new client.
func readClient(f *web.FormReader, isNew bool) clientFields {
	c := clientFields{
		FirstName:      f.Text("first_name", true, 255),
		LastName:       f.Text("last_name", true, 255),
		DocumentTypeID: f.ID("document_type_id", true),
		Document:       f.Text("document", true, 255),
		Phone:          f.Text("phone", false, 255),
		Address:        f.Text("address", false, 255),
	}
	if isNew {
		c.Email = f.Text("email", false, 255)
	}
	return c
}

// input is the service's input of the fields: every field set, so a
// change clears a phone or an address left empty; an email only when one
// was typed, which invites the new client.
func (c clientFields) input() booking.ClientInput {
	in := booking.ClientInput{FirstName: clubhouse.Some(c.FirstName), LastName: clubhouse.Some(c.LastName),
		DocumentTypeID: clubhouse.Some(c.DocumentTypeID), Document: clubhouse.Some(c.Document),
		Phone: clubhouse.Some(c.Phone), Address: clubhouse.Some(c.Address)}
	if c.Email != "" {
		in.Email = clubhouse.Some(c.Email)
	}
	return in
}

// clientFieldOf names the field of the form a service's refusal is about;
// "" for the form as a whole.
func clientFieldOf(err error) string {
	switch {
	case errors.Is(err, booking.ErrInvalidEmail), errors.Is(err, booking.ErrEmailInUse):
		return "email"
	case errors.Is(err, booking.ErrDocumentInUse):
		return "document"
	case errors.Is(err, booking.ErrPhoneInUse):
		return "phone"
	case errors.Is(err, clubhouse.ErrInvalidReference):
		return "document_type_id"
	}
	return ""
}

// showClientForm renders the client's form with status, the document types
// read for its choice, and the fields' messages of errs; with err, a
// service's refusal, the form shows it beside its field and takes its
// kind's status (web.Renderer.Form), and an error of another kind goes to
// the funnel.
func (p *Panel) showClientForm(w http.ResponseWriter, r *http.Request, status int, data clientForm, errs web.FormErrors, err error) error {
	v := visitOf(r)
	types, terr := v.Club.Catalogs.DocumentTypes.List(r.Context(), v.Actor, "")
	if terr != nil {
		return terr
	}
	data.DocumentTypes = types
	vw := view(r, data)
	vw.Errors = errs
	if err != nil {
		return p.rd.Form(w, r, "client_form.html", vw, clientFieldOf(err), err)
	}
	return p.rd.Render(w, r, status, "client_form.html", vw)
}

// newClient is the empty form of a new client.
func (p *Panel) newClient(w http.ResponseWriter, r *http.Request) error {
	return p.showClientForm(w, r, http.StatusOK, clientForm{Back: localOr(r.FormValue("booking_form"), "")}, nil, nil)
}

// createClient creates the client of the form (the service invites one
// with an email to set a password) and shows their page.
func (p *Panel) createClient(w http.ResponseWriter, r *http.Request) error {
	v := visitOf(r)
	f := p.rd.Fields(r)
	data := clientForm{Fields: readClient(f, true), Back: localOr(r.FormValue("booking_form"), "")}
	if !f.OK() {
		return p.showClientForm(w, r, http.StatusBadRequest, data, f.Errors(), nil)
	}
	c, err := v.Club.Clients.Create(r.Context(), v.Actor, data.Fields.input())
	if err != nil {
		return p.showClientForm(w, r, 0, data, nil, err)
	}
	http.Redirect(w, r, withClient(data.Back, c.ID), http.StatusSeeOther)
	return nil
}

// withClient is the booking form back, with the client of id chosen in
// it; the client's own page without one.
func withClient(back string, id int64) string {
	u, err := url.Parse(back)
	if back == "" || err != nil {
		return clientPath(id)
	}
	q := u.Query()
	q.Set("client", strconv.FormatInt(id, 10))
	u.RawQuery = q.Encode()
	return u.String()
}

// editClient is the form of a client's data, filled with them.
func (p *Panel) editClient(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r)
	if err != nil {
		return err
	}
	v := visitOf(r)
	c, err := v.Club.Clients.Get(r.Context(), v.Actor, id)
	if err != nil {
		return err
	}
	data := clientForm{ID: c.ID, Email: deref(c.Email), Fields: clientFields{FirstName: c.FirstName, LastName: c.LastName,
		DocumentTypeID: c.DocumentTypeID, Document: c.Document, Phone: deref(c.Phone), Address: deref(c.Address)}}
	return p.showClientForm(w, r, http.StatusOK, data, nil, nil)
}

// updateClient changes the client's data as the form says and shows
// their page.
func (p *Panel) updateClient(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r)
	if err != nil {
		return err
	}
	v := visitOf(r)
	f := p.rd.Fields(r)
	data := clientForm{ID: id, Fields: readClient(f, false)}
	if !f.OK() {
		return p.showClientForm(w, r, http.StatusBadRequest, data, f.Errors(), nil)
	}
	if _, err := v.Club.Clients.Update(r.Context(), v.Actor, id, data.Fields.input()); err != nil {
		return p.showClientForm(w, r, 0, data, nil, err)
	}
	http.Redirect(w, r, clientPath(id), http.StatusSeeOther)
	return nil
}

// client is a client's page: their data, bookings, class enrollments,
// payments and what they owe (classes.Enrollments.Statement).
func (p *Panel) client(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r)
	if err != nil {
		return err
	}
	v := visitOf(r)
	st, err := v.Club.Classes.Enrollments.Statement(r.Context(), v.Actor, id)
	if err != nil {
		return err
	}
	return p.rd.Render(w, r, http.StatusOK, "client.html", view(r, st))
}
