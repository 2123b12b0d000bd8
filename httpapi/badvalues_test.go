package httpapi_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math/big"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/httpapi"
	"github.com/clubhouse-go/clubhouse/internal/compose/app"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/objtest"
)

// badValue is a value the sweep puts in one field or parameter.
type badValue struct {
	cause string // what PostgreSQL would make of it: nul, utf8, long, integer
	text  string // the value; an integer literal when cause is integer
}

// badValues are values PostgreSQL cannot store (NUL, invalid UTF-8), text
// longer than a btree index row (about 2,700 bytes), text a bit below that
// (which a unique index took, or mistook for a duplicate), text of wide
// characters, and integers beyond int32 and int64.
var badValues = func() []badValue {
	r := rand.New(rand.NewPCG(1, 2)) // random text does not compress below the index row limit
	random := func(n int) string {
		const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		return string(b)
	}
	return []badValue{
		{"nul", "bad\x00value"},
		{"utf8", "bad\xff\xfevalue"},
		{"long", random(10_000)},
		{"long", random(3_000)},
		{"long", random(2_600)},
		{"long", strings.Repeat("😀", 700)},
		{"integer", "2147483648"},
		{"integer", "-2147483649"},
		{"integer", "9223372036854775808"},
	}
}()

// TestBadInputValues sends every documented operation, in every place it
// takes input (JSON body fields, multipart fields, query, path and header
// parameters), the badValues, one field at a time, the other fields holding
// good values, so that the bad one travels as far as it can. No answer may
// be a 5xx other than a documented 503. A value the API description rules
// out (NUL, invalid UTF-8, text over the maxLength, an integer outside the
// minimum and maximum or outside int64, a parameter that is not of its
// type) must be refused with 400 and a message naming the field.
func TestBadInputValues(t *testing.T) {
	t.Parallel()
	store := objtest.Store(t, objtest.New(t))
	_, gw := withWompi(t)
	a := apptest.New(t, apptest.WithLedger(t), apptest.WithObjects(store), gw,
		func(c *app.Config, _ *app.Options) { c.PaymentWebhookSecrets = []string{webhookSecret} })
	c := newClub(t, a)
	member, _ := withClient(t, a, "member@test.club")
	root := a.User("root@test.club", clubhouse.RoleSudo, clubhouse.RoleAdmin, clubhouse.RoleOperator, clubhouse.RoleAccounting, clubhouse.RoleTrainer)
	staff := a.As(root)
	bookingID := staff.Post("/api/admin/booking", c.slot(c.courtA, "2026-03-02 10:00", "2026-03-02 11:00")).Status(t, http.StatusCreated).ID(t)
	staff.Post(path("/api/admin/booking/%d/payment", bookingID), map[string]any{"amount": 1000, "transaction_id": "TX-fixture"}).
		Status(t, http.StatusCreated)
	staff.Post("/api/accounting/periods", map[string]any{"name": "2026-03", "start_date": "2026-03-01", "end_date": "2026-03-31"}).
		Status(t, http.StatusCreated)
	doc, err := httpapi.OpenAPI()
	if err != nil {
		t.Fatal(err)
	}
	s := &sweep{t: t, app: a, doc: doc, staff: staff, member: member, sent: map[string]int{}, failed: map[string]int{},
		goodPath: map[string]string{"id": "1", "bookingId": itoa(bookingID), "paymentId": "1", "code": "1.1.05.01",
			"transaction_id": "TX-fixture", "uid": root.LocalID, "file": "swagger-ui.css", "participantId": "1", "feed": "x.ics"}}
	paths := doc.Paths.InMatchingOrder()
	sort.Strings(paths)
	for _, p := range paths {
		if p == "/metrics" {
			continue
		}
		ops := doc.Paths.Value(p).Operations()
		for _, method := range slices.Sorted(maps.Keys(ops)) {
			s.operation(method, p, ops[method])
		}
	}
	for _, kind := range []string{"body", "multipart", "query", "path", "header"} {
		if s.sent[kind] == 0 {
			t.Errorf("no bad %s value sent: the sweep misses a kind of parameter", kind)
		}
	}
	t.Logf("bad values sent: %v; 5xx answers by cause: %v", s.sent, s.failed)
}

// sweep sends bad values to the operations of the API description.
type sweep struct {
	t             *testing.T
	app           *apptest.App
	doc           *openapi3.T
	staff, member *apptest.Client
	goodPath      map[string]string // a value of each path parameter that names a record
	sent          map[string]int    // requests by kind of parameter
	failed        map[string]int    // 5xx answers by cause
	n             int               // makes good strings unique
}

// uniqueFields are fields that a unique index covers: their examples are
// made unique, so that a good value is no duplicate.
var uniqueFields = map[string]bool{"name": true, "transaction_id": true, "email": true, "phone": true, "document": true, "idempotency_key": true}

// goodValues are values of fields and query parameters that pass their
// checks, by name, for those the description gives no example of.
var goodValues = map[string]any{
	"date": "2026-03-07", "checking": "10:00", "checkout": "11:00", "court_id": 1, "reservation_type_id": 1,
	"normal_side": "debit", "action": "dismiss", "amount": 1000,
	// A balanced entry; the bad value goes into its first line.
	"lines": []any{map[string]any{"account_code": "1.1.05.01", "debit": 1000}, map[string]any{"account_code": "1.1.05.02", "credit": 1000}},
}

func (s *sweep) operation(method, p string, op *openapi3.Operation) {
	caller := s.staff
	if strings.HasPrefix(p, "/api/account/") || strings.HasPrefix(p, "/api/reservations") {
		caller = s.member
	}
	allowed503 := op.Responses.Value("503") != nil
	// The authorization endpoint answers a bad parameter by the client and
	// redirect URI it names (RFC 6749, section 4.1.2.1): a 400 for an
	// untrusted one, else a redirect with error=; TestOAuth_authorizeRefusals
	// checks those answers, and here it must only never fail.
	ownAnswers := strings.HasSuffix(p, "/authorize")
	for _, prm := range op.Parameters {
		v := prm.Value
		sch := s.resolve(v.Schema)
		for _, bad := range badValues {
			if bad.cause == "integer" && !sch.Type.Is(openapi3.TypeInteger) {
				continue
			}
			target, cl := s.target(p, op, v.In, v.Name, bad.text), caller
			if v.In == "header" {
				if strings.Contains(bad.text, "\x00") {
					continue // net/http sends no control characters in headers
				}
				cl = caller.WithHeader(v.Name, bad.text)
			}
			var body []byte
			if op.RequestBody != nil {
				body = s.jsonBody(op, "", badValue{})
				if strings.HasSuffix(p, "/webhooks/payment") && v.In == "header" {
					cl = signed(s.app, body, time.Now()).WithHeader(v.Name, bad.text)
				}
			}
			s.check(v.In, bad, v.Name, refused(sch, bad, true) && !ownAnswers, allowed503, cl.Do(method, target, rawOrNil(body)))
		}
	}
	if op.RequestBody == nil {
		return
	}
	target := s.target(p, op, "", "", "")
	if js := op.RequestBody.Value.Content.Get("application/json"); js != nil {
		for _, f := range s.fields(s.resolve(js.Schema), "") {
			for _, bad := range badValues {
				if bad.cause == "integer" && !f.schema.Type.Is(openapi3.TypeInteger) || bad.cause != "integer" && !f.schema.Type.Is(openapi3.TypeString) {
					continue // a value of another JSON type is a type error, tested in TestNoServerErrorOnBadInput
				}
				body := s.jsonBody(op, f.name, bad)
				cl := caller
				if strings.HasSuffix(p, "/webhooks/payment") {
					cl = signed(s.app, body, time.Now())
				}
				s.check("body", bad, f.name, refused(f.schema, bad, false), allowed503, cl.Do(method, target, body))
			}
		}
	}
	if mp := op.RequestBody.Value.Content.Get("multipart/form-data"); mp != nil {
		schema := s.resolve(mp.Schema)
		for _, name := range slices.Sorted(maps.Keys(schema.Properties)) {
			if name == "foto" {
				continue // the receipt, tested in TestReceipt_badInput
			}
			sch := s.resolve(schema.Properties[name])
			for _, bad := range badValues {
				if bad.cause == "integer" && !sch.Type.Is(openapi3.TypeInteger) || bad.cause != "integer" && !sch.Type.Is(openapi3.TypeString) {
					continue
				}
				body, ct := s.formBody(method, schema, name, bad.text)
				s.check("multipart", bad, name, refused(sch, bad, true), allowed503,
					caller.WithHeader("Content-Type", ct).Do(method, target, body))
			}
		}
	}
}

// check fails the test on a 5xx (other than an allowed 503), and, when the
// value must be refused, on anything but a 400 whose message names the
// field.
func (s *sweep) check(kind string, bad badValue, field string, refuse, allowed503 bool, r *apptest.Response) {
	s.t.Helper()
	s.sent[kind]++
	if r.Code >= 500 && !(r.Code == http.StatusServiceUnavailable && allowed503) {
		s.failed[kind+" "+bad.cause]++
		s.t.Errorf("%s %s %s (%d bytes): %.300s", kind, field, bad.cause, len(bad.text), r)
		return
	}
	if !refuse {
		return
	}
	// lines[0].memo is named memo at least; ids[0] ids.
	name := strings.TrimSuffix(field[strings.LastIndex(field, ".")+1:], "[0]")
	var e struct{ Error, Message string }
	if r.Code != http.StatusBadRequest || json.Unmarshal(r.Body, &e) != nil || e.Error == "" || !strings.Contains(e.Message, name) {
		s.t.Errorf("%s %s %s (%d bytes): want 400 naming %s: %.300s", kind, field, bad.cause, len(bad.text), field, r)
	}
}

// refused tells whether the description rules bad out for a field of
// schema sch. Parameters travel as text: one that is not of its type is
// ruled out too.
func refused(sch *openapi3.Schema, bad badValue, param bool) bool {
	if strings.Contains(bad.text, "\x00") || !utf8.ValidString(bad.text) {
		return true
	}
	switch {
	case sch.Type.Is(openapi3.TypeInteger):
		n, ok := new(big.Int).SetString(bad.text, 10)
		if !ok {
			return param
		}
		if !n.IsInt64() {
			return true
		}
		f, _ := new(big.Float).SetInt(n).Float64()
		return sch.Max != nil && f > *sch.Max || sch.Min != nil && f < *sch.Min
	case sch.Type.Is(openapi3.TypeBoolean):
		_, err := strconv.ParseBool(bad.text)
		return err != nil
	case sch.Type.Is(openapi3.TypeString):
		return sch.MaxLength != nil && uint64(utf8.RuneCountInString(bad.text)) > *sch.MaxLength
	}
	return false
}

// target is the URL of operation p with good path parameters and its
// required query parameters, and bad in the parameter name of in.
func (s *sweep) target(p string, op *openapi3.Operation, in, name, bad string) string {
	q := url.Values{}
	for _, prm := range op.Parameters {
		v := prm.Value
		switch {
		case v.In == "path" && v.Name == name && in == "path":
			p = strings.Replace(p, "{"+v.Name+"}", url.PathEscape(bad), 1)
		case v.In == "path":
			p = strings.Replace(p, "{"+v.Name+"}", s.goodPath[v.Name], 1)
		case v.In == "query" && v.Name == name && in == "query":
			q.Set(v.Name, bad)
		case v.In == "query" && v.Required:
			q.Set(v.Name, fmt.Sprint(s.good(v.Name, s.resolve(v.Schema))))
		}
	}
	if len(q) > 0 {
		return p + "?" + q.Encode()
	}
	return p
}

// field is a field of a JSON body: its name as a message would give it
// (lines[0].memo) and its schema.
type field struct {
	name   string
	schema *openapi3.Schema
}

// fields lists the scalar fields of a body schema, and those of the
// objects of its arrays, whose first element they stand in.
func (s *sweep) fields(sch *openapi3.Schema, prefix string) []field {
	var out []field
	for _, name := range slices.Sorted(maps.Keys(sch.Properties)) {
		ps := s.resolve(sch.Properties[name])
		switch {
		case ps.Type.Is(openapi3.TypeArray) && s.resolve(ps.Items).Type.Is(openapi3.TypeObject):
			out = append(out, s.fields(s.resolve(ps.Items), prefix+name+"[0].")...)
		case ps.Type.Is(openapi3.TypeArray):
			out = append(out, field{prefix + name + "[0]", s.resolve(ps.Items)})
		case ps.Type.Is(openapi3.TypeObject) && len(ps.Properties) > 0:
			out = append(out, s.fields(ps, prefix+name+".")...)
		default:
			out = append(out, field{prefix + name, ps})
		}
	}
	return out
}

// attackMark stands in the good body for the bad value, which json.Marshal
// would not leave as it is.
const attackMark = "\x01bad\x01"

// jsonBody is a good body of op (its required fields and the field named
// bad) with the bad value in that field.
func (s *sweep) jsonBody(op *openapi3.Operation, name string, bad badValue) []byte {
	sch := s.resolve(op.RequestBody.Value.Content.Get("application/json").Schema)
	v := s.object(sch, "", name)
	b, err := json.Marshal(v)
	if err != nil {
		s.t.Fatal(err)
	}
	lit := `"` + strings.ReplaceAll(bad.text, "\x00", `\u0000`) + `"`
	if bad.cause == "integer" {
		lit = bad.text
	}
	mark, _ := json.Marshal(attackMark)
	return bytes.Replace(b, mark, []byte(lit), 1)
}

// object is a good value of an object schema, with attackMark in the field
// named bad (a path as fields gives it).
func (s *sweep) object(sch *openapi3.Schema, prefix, bad string) map[string]any {
	out := map[string]any{}
	for _, name := range slices.Sorted(maps.Keys(sch.Properties)) {
		ps := s.resolve(sch.Properties[name])
		full := prefix + name
		isArray := ps.Type.Is(openapi3.TypeArray)
		switch {
		case full == bad:
			out[name] = attackMark
		case ps.Type.Is(openapi3.TypeObject) && len(ps.Properties) > 0 &&
			(strings.HasPrefix(bad, full+".") || slices.Contains(sch.Required, name)):
			out[name] = s.object(ps, full+".", bad)
		case isArray && bad == full+"[0]":
			out[name] = []any{attackMark}
		case isArray && strings.HasPrefix(bad, full+"[0]."):
			items, _ := s.good(name, ps).([]any)
			first := map[string]any{}
			if len(items) > 0 {
				maps.Copy(first, items[0].(map[string]any))
				items = items[1:]
			}
			first[strings.TrimPrefix(bad, full+"[0].")] = attackMark
			out[name] = append([]any{first}, items...)
		case slices.Contains(sch.Required, name):
			out[name] = s.good(name, ps)
		}
	}
	return out
}

// formBody is a multipart body of the fields of schema: the required ones
// good, the field named bad holding the raw bad value, and a receipt when
// the payment is created.
func (s *sweep) formBody(method string, schema *openapi3.Schema, bad, text string) ([]byte, string) {
	var fields []string
	for _, name := range schema.Required {
		if name != bad && name != "foto" {
			fields = append(fields, name, fmt.Sprint(s.good(name, s.resolve(schema.Properties[name]))))
		}
	}
	fields = append(fields, bad, text)
	var files []formFile
	if method == http.MethodPost {
		files = append(files, formFile{"foto", "receipt.jpg", "image/jpeg", jpegImage})
	}
	return form(s.t, fields, files...)
}

// good is a value of a field that passes its checks: the example of the
// description, else a goodValues entry, else the first enum value, else a
// unique string, 1, or true.
func (s *sweep) good(name string, sch *openapi3.Schema) any {
	if sch.Example != nil {
		if ex, ok := sch.Example.(string); ok && uniqueFields[name] {
			s.n++
			return "u" + strconv.Itoa(s.n) + ex
		}
		return sch.Example
	}
	if v, ok := goodValues[name]; ok {
		return v
	}
	if len(sch.Enum) > 0 {
		return sch.Enum[0]
	}
	switch {
	case sch.Type.Is(openapi3.TypeInteger), sch.Type.Is(openapi3.TypeNumber):
		return 1
	case sch.Type.Is(openapi3.TypeBoolean):
		return true
	}
	s.n++
	return "good-" + strconv.Itoa(s.n)
}

// resolve returns the schema of r, following a reference.
func (s *sweep) resolve(r *openapi3.SchemaRef) *openapi3.Schema {
	if r.Value == nil && r.Ref != "" {
		return s.resolve(s.doc.Components.Schemas[strings.TrimPrefix(r.Ref, "#/components/schemas/")])
	}
	return r.Value
}

// rawOrNil is b as a raw body, or no body when b is nil.
func rawOrNil(b []byte) any {
	if b == nil {
		return nil
	}
	return b
}

// TestBadInputLimitsDocumented requires a maxLength of every text
// parameter and every text field of a request body in the API description:
// the server checks the same limits, so a client can know them.
func TestBadInputLimitsDocumented(t *testing.T) {
	t.Parallel()
	doc, err := httpapi.OpenAPI()
	if err != nil {
		t.Fatal(err)
	}
	s := &sweep{doc: doc}
	for p, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			for _, prm := range op.Parameters {
				if sch := s.resolve(prm.Value.Schema); sch.Type.Is(openapi3.TypeString) && sch.MaxLength == nil {
					t.Errorf("%s %s: %s parameter %s has no maxLength", method, p, prm.Value.In, prm.Value.Name)
				}
			}
			if op.RequestBody == nil {
				continue
			}
			for ct, mt := range op.RequestBody.Value.Content {
				for _, f := range s.fields(s.resolve(mt.Schema), "") {
					if f.schema.Type.Is(openapi3.TypeString) && f.schema.Format != "binary" && f.schema.MaxLength == nil {
						t.Errorf("%s %s: %s field %s has no maxLength", method, p, ct, f.name)
					}
				}
			}
		}
	}
}
