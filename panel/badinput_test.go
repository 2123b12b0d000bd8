package panel_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"maps"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/compose/app"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/objtest"
	"github.com/clubhouse-go/clubhouse/ledger"
	"github.com/clubhouse-go/clubhouse/migrations"
	"github.com/clubhouse-go/clubhouse/panel"
	"github.com/clubhouse-go/clubhouse/payments"
	"github.com/clubhouse-go/clubhouse/tickets"
)

// sweepValue is a value the sweep puts in a query parameter or a form
// field.
type sweepValue struct{ name, text string }

// sweepValues are malformed or out-of-range values of every kind a form
// reads: ids that are no number, not positive, beyond int64 or int32, or
// name no record; dates and times that do not exist or lie at the ends of
// the calendar; amounts with too many decimals or beyond any column; text
// that is empty, of 10 KB, with a NUL byte or not UTF-8.
var sweepValues = []sweepValue{
	{"letters", "x"}, {"negative", "-1"}, {"zero", "0"}, {"beyond int64", "99999999999999999999"},
	{"beyond int32", "2147483648"}, {"no such record", "99999999"}, {"no such day", "2026-02-30"},
	{"year 1", "0001-01-01"}, {"year 9999", "9999-12-31"}, {"no such time", "99:99"}, {"exponent", "1e400"},
	{"three decimals", "1.005"}, {"10 KB", strings.Repeat("a", 10<<10)}, {"NUL", "a\x00b"},
	{"invalid UTF-8", "\xff\xfe"}, {"empty", ""},
}

// queryKinds are the kinds of sweepValues each query parameter gets alone
// (all of them go in every typed parameter at once): one of each kind of
// refusal, to keep the sweep quick.
var queryKinds = map[string]bool{"letters": true, "beyond int64": true, "10 KB": true, "NUL": true}

// sweepIDs are malformed path ids, and ids no record has.
var sweepIDs = []string{"abc", "-1", "0", "99999999999999999999", "2147483648", "99999999"}

// queryNames are the query parameters the panel's pages read, and those a
// page might: each GET gets each of them bad.
var queryNames = []string{"date", "q", "offset", "claims", "inbox", "seated", "done", "next", "ended", "oauth_state",
	"lang", "back", "court", "type", "client", "start", "end", "notes", "reason", "override", "id", "page"}

// publicForms are the forms anyone may send, without a session's CSRF
// token (the browser's Sec-Fetch-Site or Origin guards them); every other
// form of the panel must refuse a request without the token.
var publicForms = map[string]bool{"POST /panel/login": true, "POST /panel/oauth/deny": true}

// endsSession are the forms that end the session they are sent in: the
// sweep sends them last, in a session of their own.
var endsSession = map[string]bool{"POST /panel/logout": true}

// fieldMessage is how a page shows a field's message, or a form's.
var fieldMessage = regexp.MustCompile(`class="field-error"|role="alert"`)

// TestBadInputSweep walks every route the panel registers (panel.Patterns),
// signed in as a user every area admits, with malformed path ids, query
// values and form fields (one at a time, the form's other fields good, so
// a bad value travels as far as it can; then all at once), empty, oversized
// and multipart bodies, and forms without their CSRF token. No answer may
// be a 5xx: a page answers 200, 303 or a 4xx that is a whole page; a form
// refused for its input (400, 409, 415, 422) comes back with the field's
// message; a form without its token is 403; and a refused form stores
// nothing: the rows of the club's main tables (and the ledger's) are the
// same, content and count, before and after each refusal.
func TestBadInputSweep(t *testing.T) {
	t.Parallel()
	start := time.Now()
	s := newSweep(t)
	patterns, err := routePatterns()
	require.NoError(t, err)
	before := s.snapshot()
	var gets, posts []string
	for _, pat := range patterns {
		method, _ := splitPattern(pat)
		switch method {
		case "", http.MethodGet:
			gets = append(gets, pat)
		}
		switch {
		case method == "":
			s.post(request{pattern: pat, method: http.MethodPost, target: target(pat, "1"), session: true, value: "a form to no form",
				contentType: "application/x-www-form-urlencoded", body: []byte("csrf_token=" + url.QueryEscape(s.csrf) + "&q=%00")})
		case method == http.MethodPost && !endsSession[pat]:
			posts = append(posts, pat)
		}
	}
	for _, pat := range gets {
		s.pages(pat)
	}
	s.run(4)
	t.Logf("pages: %d requests in %s", s.total, time.Since(start).Round(time.Millisecond))
	require.Equal(t, before, s.snapshot(), "a page stored something")
	for _, pat := range posts {
		s.forms(pat)
	}
	for _, pat := range patterns {
		if endsSession[pat] {
			s.sessionEnd(pat)
		}
	}
	require.Equal(t, http.StatusOK, s.send(request{method: http.MethodGet, target: "/panel/dashboard", session: true}).status,
		"the sweep's session lived through it")
	for _, pat := range patterns {
		method, _ := splitPattern(pat)
		if s.sent[pat] == 0 && method != http.MethodHead {
			t.Errorf("%s: no request sent", pat)
		}
	}
	if t.Failed() {
		for _, line := range strings.Split(s.app.LogText(), "\n") {
			if strings.Contains(line, "internal error") {
				t.Log(line)
			}
		}
	}
	t.Logf("%d requests to %d routes in %s (%d refused forms checked for stored rows: %v)",
		s.total, len(patterns), time.Since(start).Round(time.Millisecond), s.refusals, before)
}

// routePatterns are the patterns of every route of the panel.
func routePatterns() ([]string, error) {
	p, err := panel.New(panel.Options{})
	if err != nil {
		return nil, err
	}
	return p.Patterns(), nil
}

// splitPattern splits a ServeMux pattern into its method ("" for any) and
// path.
func splitPattern(pat string) (method, path string) {
	if m, p, ok := strings.Cut(pat, " "); ok {
		return m, p
	}
	return "", pat
}

// sweep is the club, the session and the requests of TestBadInputSweep.
type sweep struct {
	t       *testing.T
	app     *apptest.App
	ledger  *sqlx.DB
	hc      *http.Client
	cookies []*http.Cookie
	csrf    string
	ids     map[string]string     // a path id naming a record, by the path's segment before {id}
	goods   map[string]url.Values // a good form of each route the sweep knows
	fields  []string              // every field a template of the panel names
	typed   map[string]bool       // the fields a person fills in: a control that is not hidden

	mu       sync.Mutex
	queue    []request
	sent     map[string]int // requests by route pattern
	total    int
	refusals int
	last     string // the snapshot after the last form sent
}

// request is one request of the sweep and what its answer must be.
type request struct {
	pattern     string
	method      string
	target      string
	contentType string
	body        []byte
	session     bool
	// field names the field holding the bad value: a refusal of the
	// form's input must come back with a field's message.
	field string
	// value names the bad value, for the report.
	value string
	// noToken is a form sent without its session's CSRF token.
	noToken bool
}

// answer is the panel's answer to a request.
type answer struct {
	status      int
	contentType string
	location    string
	body        string
}

func newSweep(t *testing.T) *sweep {
	t.Helper()
	ctx := context.Background()
	ldb, _ := dbtest.NewWith(t, migrations.Accounting())
	require.NoError(t, ledger.New(ldb.DB, ledger.Options{}).SeedChart(ctx, clubhouse.Staff("sweep"), ledger.DemoChart))
	dc := newDeskClub(t, apptest.WithObjects(objtest.Store(t, objtest.New(t))),
		func(_ *app.Config, o *app.Options) { o.Accounting = ldb })
	a, c := dc.app, dc.club
	user := a.User("sweep@test.club", clubhouse.RoleOperator, clubhouse.RoleAdmin, clubhouse.RoleTrainer, clubhouse.RoleAccounting)
	ana := c.Client("Ana", "Ruiz")
	book := func(court int, from, to string) string {
		return fmt.Sprint(c.Reservation(dc.courts[court].ID, dc.typ.ID, ana.ID, dc.at(from), dc.at(to)).ID)
	}
	booking, cancel, noShow, checkIn := book(0, "08:00", "09:00"), book(0, "12:00", "13:00"), book(0, "13:00", "14:00"), book(0, "14:00", "15:00")
	classType := c.ClassType("Clínica")
	c.ClassTariff(dc.courts[0].CourtTypeID, classType.ID, 4)
	class := c.Class(user.ID, dc.courts[1].ID, classType.ID)
	bruno := c.Member("Bruno", "Zea")
	enrollment := c.Enrollment(bruno, class.ID, payments.Input{PaymentTypeID: clubhouse.Some(dc.cash.ID),
		Amount: clubhouse.Some(decimal.NewFromInt(25000)), TransactionID: clubhouse.Some("TX-SWEEP")})
	event := c.Event(dc.courts[0].ID, c.EventType("Torneo").ID)
	pkg := c.TicketPackage("Juego libre", 4, "10000")
	sale := c.Sale(pkg)
	pending, err := c.Payments.Pending(ctx, c.Staff, payments.PendingQuery{ClaimsPage: 1, InboxPage: 1})
	require.NoError(t, err)
	require.NotEmpty(t, pending.Claims, "the enrollment's claim waits for the desk")
	queued, err := a.Payments.Reconcile(ctx, payments.Event{TransactionID: "GW-SWEEP", Amount: decimal.NewFromInt(5000), Status: "completed"})
	require.NoError(t, err)
	require.Equal(t, payments.ResultQueued, queued.Status)
	quote, err := c.Tickets.Programs.Quote(ctx, c.Staff, tickets.QuoteInput{PackageID: pkg.ID})
	require.NoError(t, err)

	d := newDesk(t, a)
	require.Equal(t, http.StatusSeeOther, d.signIn("sweep@test.club").Status)
	require.Equal(t, http.StatusOK, d.get("/panel/dashboard").Status)
	u, err := url.Parse(a.URL + "/panel/")
	require.NoError(t, err)
	s := &sweep{t: t, app: a, ledger: ldb.DB, cookies: d.Cookies(u), csrf: d.CSRF, sent: map[string]int{},
		hc: &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }},
		ids: map[string]string{"bookings": booking, "classes": fmt.Sprint(class.ID), "payments": fmt.Sprint(pending.Claims[0].ID),
			"inbox": fmt.Sprint(queued.InboxID), "events": fmt.Sprint(event.ID), "sales": fmt.Sprint(sale.ID), "clients": fmt.Sprint(ana.ID),
			"cancel": cancel, "no-show": noShow, "check-in": checkIn},
	}
	s.fields, s.typed = templateFields(t)
	require.NotEmpty(t, s.csrf)
	tomorrow := dc.tomorrow.Format(time.DateOnly)
	id := func(n int64) string { return fmt.Sprint(n) }
	s.goods = map[string]url.Values{
		"POST /panel/login":       {"email": {"sweep@test.club"}, "password": {"password-sweep@test.club"}, "next": {"/panel/clients"}},
		"POST /panel/oauth/deny":  {"oauth_state": {"no-such-state"}},
		"POST /panel/oauth/allow": {"oauth_state": {"no-such-state"}},
		"POST /panel/bookings": {"court": {id(dc.courts[1].ID)}, "type": {id(dc.typ.ID)}, "client": {id(ana.ID)}, "date": {tomorrow},
			"start": {"15:00"}, "end": {"16:00"}, "q": {"Ana"}, "notes": {"Trae raquetas"}, "reason": {""}},
		"POST /panel/bookings/{id}/move": {"court": {id(dc.courts[0].ID)}, "type": {id(dc.typ.ID)}, "date": {tomorrow},
			"start": {"08:00"}, "end": {"09:30"}, "reason": {""}},
		"POST /panel/bookings/{id}/cancel":   {"cancel_reason": {"Lluvia"}},
		"POST /panel/bookings/{id}/no-show":  {},
		"POST /panel/bookings/{id}/check-in": {},
		"POST /panel/bookings/{id}/payments": {"payment_type": {id(dc.cash.ID)}, "amount": {"1.000"}, "reference": {"desk-sweep"}},
		"POST /panel/classes/{id}/attendance": {"enrollment": {id(enrollment.ID)}, "date": {class.StartDate.Format(time.DateOnly)},
			"present": {"1"}},
		"POST /panel/classes/{id}/accept":         {"enrollment": {id(enrollment.ID)}, "date": {class.StartDate.Format(time.DateOnly)}},
		"POST /panel/classes/{id}/reject":         {"enrollment": {id(enrollment.ID)}, "date": {class.StartDate.Format(time.DateOnly)}},
		"POST /panel/payments/{id}/validate":      {},
		"POST /panel/payments/{id}/reject":        {},
		"POST /panel/payments/{id}/refund":        {"booking": {booking}, "refund_reason": {"Lluvia"}, "refund_amount": {""}},
		"POST /panel/payments/inbox/{id}/resolve": {"action": {"attach"}, "reservation_id": {booking}, "enrollment_id": {""}, "note": {"Pago"}},
		"POST /panel/events/{id}/scan":            {"code": {tickets.FormatCode(sale.Strips[0].Tickets[0].Code)}},
		"POST /panel/tickets/quote":               {"package": {id(pkg.ID)}, "ticket_count": {"2"}},
		"POST /panel/tickets/sell": {"quote_id": {quote.ID}, "package": {id(pkg.ID)}, "quote_count": {id(int64(quote.TicketCount))},
			"quote_unit": {quote.UnitPrice.String()}, "quote_total": {quote.Total.String()}, "quote_until": {quote.ValidUntil.Format(time.RFC3339)},
			"buyer_name": {"Luis Pardo"}, "buyer_document": {"CC 77"}, "buyer_email": {"luis@test.club"}, "payment_type": {id(dc.cash.ID)},
			"amount": {quote.Total.String()}, "transaction_id": {""}},
		"POST /panel/clients": {"first_name": {"Carla"}, "last_name": {"Mejía"}, "document_type_id": {id(c.DocumentType())},
			"document": {"5550001"}, "phone": {"3001234567"}, "address": {"Calle 1"}, "email": {"carla@test.club"}},
		"POST /panel/clients/{id}": {"first_name": {"Ana"}, "last_name": {"Ruiz"}, "document_type_id": {id(c.DocumentType())},
			"document": {ana.Document}, "phone": {"3007654321"}, "address": {"Calle 2"}},
		"POST /panel/classes/calendar-feed":        {},
		"POST /panel/classes/calendar-feed/revoke": {},
	}
	return s
}

// control is a form control of a template, with its name.
var control = regexp.MustCompile(`<(?:input|select|textarea|button)\b[^>]*\bname="([a-z_]+)"[^>]*>`)

// templateFields are the names of every field of the panel's templates
// (the fields of a form the sweep does not know, a route added later,
// are among them), and those a person fills in: a field with a control
// that is not hidden. A hidden field or a button's value comes from the
// page; a bad one is forged, and its refusal may be the error page.
func templateFields(t *testing.T) ([]string, map[string]bool) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("templates", "*.html"))
	require.NoError(t, err)
	seen, typed := map[string]bool{}, map[string]bool{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		for _, m := range control.FindAllStringSubmatch(string(b), -1) {
			if m[1] == "csrf_token" {
				continue
			}
			seen[m[1]] = true
			if !strings.Contains(m[0], `type="hidden"`) && !strings.HasPrefix(m[0], "<button") {
				typed[m[1]] = true
			}
		}
	}
	names := slices.Sorted(maps.Keys(seen))
	require.Contains(t, names, "cancel_reason")
	require.True(t, typed["amount"])
	require.False(t, typed["quote_id"])
	return names, typed
}

// target is pat's path with its {id} as id and its {$} dropped; a
// pattern of a subtree (ending in /) gets a file name.
func target(pat, id string) string {
	_, p := splitPattern(pat)
	p = strings.ReplaceAll(p, "{$}", "")
	if strings.HasSuffix(p, "/") && p != panel.Prefix {
		p += "x"
	}
	return regexp.MustCompile(`\{[a-zA-Z]+\}`).ReplaceAllString(p, url.PathEscape(id))
}

// goodID is a path id of pat that names a record: the record of its
// action (cancel, no-show, check-in have bookings of their own), else of
// the segment before {id}.
func (s *sweep) goodID(pat string) string {
	_, p := splitPattern(pat)
	segs := strings.Split(strings.Trim(p, "/"), "/")
	for i, seg := range segs {
		if !strings.HasPrefix(seg, "{") || i == 0 {
			continue
		}
		if i+1 < len(segs) {
			if id, ok := s.ids[segs[i+1]]; ok {
				return id
			}
		}
		if id, ok := s.ids[segs[i-1]]; ok {
			return id
		}
	}
	return "1"
}

// isFiles reports whether pat serves the files of a folder: its answers
// are files, not pages.
func isFiles(pat string) bool {
	_, p := splitPattern(pat)
	return strings.HasSuffix(p, "/") && p != panel.Prefix
}

// hasID reports whether pat has a path parameter.
func hasID(pat string) bool { return strings.Contains(strings.ReplaceAll(pat, "{$}", ""), "{") }

// pages queues the GETs of pat: its path with bad ids, and each query
// parameter with each bad value, alone, repeated, and all at once.
func (s *sweep) pages(pat string) {
	good := target(pat, s.goodID(pat))
	get := func(field, value, tg string) {
		s.queue = append(s.queue, request{pattern: pat, method: http.MethodGet, target: tg, session: true, field: field, value: value})
	}
	shown := map[string]bool{} // the typed fields the page shows: a bad one comes back with its message
	if a := s.send(request{pattern: pat, method: http.MethodGet, target: good, session: true}); a.status == http.StatusOK {
		for _, m := range control.FindAllStringSubmatch(a.body, -1) {
			shown[m[1]] = s.typed[m[1]]
		}
	}
	if hasID(pat) {
		for _, id := range sweepIDs {
			get("", "path id "+id, target(pat, id))
		}
	}
	for _, v := range sweepValues {
		if queryKinds[v.name] {
			for _, name := range queryNames {
				field := ""
				if shown[name] {
					field = name
				}
				get(field, v.name, good+"?"+url.Values{name: {v.text}}.Encode())
			}
		}
		if len(v.text) > 1<<10 {
			continue // all parameters of 10 KB are over the server's bound of a request's head
		}
		all := url.Values{}
		for _, name := range queryNames {
			if shown[name] {
				all.Set(name, v.text)
			}
		}
		if len(all) > 0 {
			get("*", v.name, good+"?"+all.Encode())
		}
		if queryKinds[v.name] {
			get("", v.name+" repeated", good+"?"+url.Values{"date": {v.text, "2026-03-02"}, "q": {"Ana", v.text}}.Encode())
		}
	}
}

// run sends the queued requests with workers at a time and checks each
// answer.
func (s *sweep) run(workers int) {
	jobs := make(chan request)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for rq := range jobs {
				s.check(rq, s.send(rq))
			}
		}()
	}
	for _, rq := range s.queue {
		jobs <- rq
	}
	close(jobs)
	wg.Wait()
	s.queue = nil
}

// forms sends the POSTs of pat one at a time, checking after each refusal
// that nothing was stored.
func (s *sweep) forms(pat string) {
	good, known := s.goods[pat]
	fields := slices.Sorted(maps.Keys(good))
	if !known {
		fields = s.fields
	}
	tg := target(pat, s.goodID(pat))
	reads := func(field string) string {
		if _, ok := good[field]; ok || !known || field == "*" && slices.ContainsFunc(fields, func(f string) bool { return s.typed[f] }) {
			return field
		}
		return ""
	}
	post := func(field, value string, form url.Values) {
		s.post(request{pattern: pat, method: http.MethodPost, target: tg, session: true, field: reads(field), value: value,
			contentType: "application/x-www-form-urlencoded", body: []byte(form.Encode())})
	}
	with := func(edit func(url.Values)) url.Values {
		f := url.Values{"csrf_token": {s.csrf}}
		for k, v := range good {
			f[k] = slices.Clone(v)
		}
		edit(f)
		return f
	}
	csrf := !publicForms[pat]
	if csrf {
		for _, token := range []string{"", "not-the-token"} {
			f := with(func(f url.Values) { f.Set("csrf_token", token) })
			s.post(request{pattern: pat, method: http.MethodPost, target: tg, session: true, noToken: true,
				contentType: "application/x-www-form-urlencoded", body: []byte(f.Encode())})
		}
		s.post(request{pattern: pat, method: http.MethodPost, target: tg, session: true, noToken: true,
			contentType: "text/plain", body: []byte(with(func(url.Values) {}).Encode())})
	}
	post("", "empty form", url.Values{"csrf_token": {s.csrf}})
	for _, field := range fields {
		for _, v := range sweepValues {
			post(field, v.name, with(func(f url.Values) { f.Set(field, v.text) }))
		}
		post(field, "repeated", with(func(f url.Values) { f[field] = []string{"x", "y"} }))
	}
	for _, v := range sweepValues {
		post("*", v.name, with(func(f url.Values) {
			for _, name := range s.fields {
				if s.typed[name] {
					f.Set(name, v.text)
				}
			}
		}))
	}
	huge := with(func(f url.Values) { f.Set("notes", strings.Repeat("a", 70<<10)) })
	s.post(request{pattern: pat, method: http.MethodPost, target: tg, session: true, field: reads("notes"), value: "70 KB",
		contentType: "application/x-www-form-urlencoded", body: []byte(huge.Encode())})
	s.post(request{pattern: pat, method: http.MethodPost, target: tg, session: true,
		contentType: "application/x-www-form-urlencoded", body: []byte("%zz=1&csrf_token=" + url.QueryEscape(s.csrf))})
	body, ctype := multipartForm(s.t, with(func(url.Values) {}), []byte("%PDF-1.4 not an image"))
	s.post(request{pattern: pat, method: http.MethodPost, target: tg, session: true, field: reads("receipt"), value: "a PDF",
		contentType: ctype, body: body})
	if hasID(pat) {
		for _, id := range sweepIDs {
			s.post(request{pattern: pat, method: http.MethodPost, target: target(pat, id), session: true, value: "path id " + id,
				contentType: "application/x-www-form-urlencoded", body: []byte(with(func(url.Values) {}).Encode())})
		}
	}
}

// multipartForm is form as multipart/form-data with file as its receipt.
func multipartForm(t *testing.T, form url.Values, file []byte) ([]byte, string) {
	t.Helper()
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	for k, vs := range form {
		for _, v := range vs {
			require.NoError(t, mw.WriteField(k, v))
		}
	}
	fw, err := mw.CreateFormFile("receipt", "recibo.pdf")
	require.NoError(t, err)
	_, err = fw.Write(file)
	require.NoError(t, err)
	require.NoError(t, mw.Close())
	return b.Bytes(), mw.FormDataContentType()
}

// post sends rq and checks its answer; a refusal must leave the club's
// tables as they were.
func (s *sweep) post(rq request) {
	if s.last == "" {
		s.last = s.snapshot()
	}
	a := s.send(rq)
	s.check(rq, a)
	after := s.snapshot()
	if a.status >= 400 && a.status < 500 {
		s.refusals++
		if after != s.last {
			s.t.Errorf("%s %.200q (field %q): refused with %d but stored: %s -> %s", rq.method, rq.target, rq.field, a.status, s.last, after)
		}
	}
	s.last = after
}

// sessionEnd sends pat, a form that ends the session, in a session of its
// own: refused without its token, then sent with it.
func (s *sweep) sessionEnd(pat string) {
	d := newDesk(s.t, s.app)
	s.app.User("leaving@test.club", clubhouse.RoleOperator)
	require.Equal(s.t, http.StatusSeeOther, d.signIn("leaving@test.club").Status)
	_, p := splitPattern(pat)
	for _, token := range []string{"", "not-the-token"} {
		res := d.post(p, url.Values{"csrf_token": {token}})
		s.note(pat)
		if res.Status != http.StatusForbidden {
			s.t.Errorf("POST %s without its token: %d, want 403", p, res.Status)
		}
	}
	require.Equal(s.t, http.StatusOK, d.get("/panel/dashboard").Status, "a refused sign-out leaves the session")
	res := d.post(p, url.Values{"x": {"\x00"}})
	s.note(pat)
	if res.Status != http.StatusSeeOther {
		s.t.Errorf("POST %s: %d, want 303", p, res.Status)
	}
}

func (s *sweep) note(pat string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sent[pat]++
	s.total++
}

// send sends rq, with the sweep's session when rq asks for it.
func (s *sweep) send(rq request) answer {
	req, err := http.NewRequest(rq.method, s.app.URL+rq.target, bytes.NewReader(rq.body))
	require.NoError(s.t, err)
	if rq.contentType != "" {
		req.Header.Set("Content-Type", rq.contentType)
	}
	req.Header.Set("Accept-Language", "es-CO")
	if rq.session {
		for _, c := range s.cookies {
			req.AddCookie(c)
		}
	}
	res, err := s.hc.Do(req)
	require.NoError(s.t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(s.t, err)
	s.note(rq.pattern)
	return answer{status: res.StatusCode, contentType: res.Header.Get("Content-Type"), location: res.Header.Get("Location"), body: string(b)}
}

// check reports what is wrong with the answer a to rq.
func (s *sweep) check(rq request, a answer) {
	fail := func(format string, args ...any) {
		s.t.Errorf("%s %.200q (field %q, %s): %d: %s", rq.method, rq.target, rq.field, rq.value, a.status, fmt.Sprintf(format, args...))
	}
	html := strings.HasPrefix(a.contentType, "text/html")
	switch {
	case a.status >= 500:
		fail("a server error")
		return
	case rq.noToken:
		if a.status != http.StatusForbidden {
			fail("a form without its CSRF token must be refused with 403")
		}
		return
	case a.status == http.StatusSeeOther:
		if strings.HasPrefix(a.location, "/panel/login") && rq.pattern != "POST /panel/login" {
			fail("the session was lost: to %s", a.location)
		}
		return
	case a.status == http.StatusOK, a.status >= 400 && a.status < 500:
	default:
		fail("want 200, 303 or a 4xx")
		return
	}
	if a.status == http.StatusOK && !html || isFiles(rq.pattern) {
		return // a receipt image, a style sheet; the 404 of a file
	}
	if !html || !strings.Contains(a.body, "<main") {
		fail("not a whole page (%s): %.200s", a.contentType, a.body)
	}
	if (rq.field == "*" || s.typed[rq.field]) && formStatus[a.status] && !fieldMessage.MatchString(a.body) {
		fail("refused without a field's message")
	}
}

// formStatus are the statuses of a form refused for what a person typed
// in it, which comes back with the field's message.
var formStatus = map[int]bool{http.StatusBadRequest: true, http.StatusConflict: true, http.StatusUnsupportedMediaType: true,
	http.StatusUnprocessableEntity: true}

// sweepTables are the tables of the club's records that a refused form
// must leave as they were.
var sweepTables = []string{"reservations", "reservation_history", "payments", "clients", "enrollments", "enrollment_attendance",
	"events", "event_participants", "ticket_sales", "tickets", "payment_inbox", "ledger_outbox", "calendar_feeds"}

// snapshot is the count and a digest of the rows of sweepTables and of
// the ledger's entries and lines.
func (s *sweep) snapshot() string {
	read := func(db *sqlx.DB, tables []string) string {
		q := make([]string, len(tables))
		for i, table := range tables {
			q[i] = fmt.Sprintf(`(SELECT '%s=' || count(*) || '/' || left(md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')), 8) FROM %s t)`,
				table, table)
		}
		var out string
		require.NoError(s.t, db.QueryRowx("SELECT "+strings.Join(q, " || ' ' || ")).Scan(&out))
		return out
	}
	return read(s.app.DB.DB, sweepTables) + " " + read(s.ledger, []string{"entries", "lines"})
}

// TestBadInput_found holds the panel to what the sweep found: a search
// with a NUL byte or bytes that are not UTF-8 was sent to PostgreSQL
// (500), as was such an email at sign-in; a booking of a client who is not
// there came back as the error page, not the form with its message.
func TestBadInput_found(t *testing.T) {
	t.Parallel()
	dc := newDeskClub(t)
	dc.app.User("desk@test.club", clubhouse.RoleOperator)
	d := newDesk(t, dc.app)
	res := d.post("/panel/login", url.Values{"email": {"desk\x00@test.club"}, "password": {"x"}})
	require.Equal(t, http.StatusBadRequest, res.Status)
	require.Contains(t, res.Body, `id="email-error"`)
	require.Equal(t, http.StatusSeeOther, d.signIn("desk@test.club").Status)
	for _, q := range []string{"a%00b", "%ff%fe"} {
		res = d.get("/panel/bookings/new?q=" + q)
		require.Equal(t, http.StatusBadRequest, res.Status, q)
		require.Contains(t, res.Body, `id="q-error"`, q)
	}
	date := dc.tomorrow.Format(time.DateOnly)
	res = d.post("/panel/bookings", url.Values{"court": {fmt.Sprint(dc.courts[0].ID)}, "type": {fmt.Sprint(dc.typ.ID)},
		"client": {"99999999"}, "date": {date}, "start": {"10:00"}, "end": {"11:00"}})
	require.Equal(t, http.StatusBadRequest, res.Status)
	require.Contains(t, res.Body, `id="form-error"`)
	require.Contains(t, res.Body, `<form id="book"`)
	var n int
	require.NoError(t, dc.app.DB.DB.Get(&n, `SELECT count(*) FROM reservations`))
	require.Zero(t, n, "nothing was booked")
}
