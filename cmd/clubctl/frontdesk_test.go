package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
)

// desk is a club for the front desk's commands: two courts, a rental type,
// the pending status, a document type and a client, and a token of an
// operator.
type desk struct {
	app                                  *apptest.App
	admin                                *apptest.Client
	token                                string
	courtA, courtB, rental, docType, ana int64
}

func newDesk(t *testing.T) desk {
	t.Helper()
	app := apptest.New(t)
	admin := app.AsAdmin()
	courtType := admin.Post("/api/admin/court-types", map[string]any{"name": "Padel"}).Status(t, http.StatusCreated).ID(t)
	d := desk{app: app, admin: admin, token: app.Token(app.User("desk@test.club", clubhouse.RoleOperator)),
		courtA:  admin.Post("/api/admin/courts", map[string]any{"name": "Court A", "court_type_id": courtType, "price": 60000}).Status(t, http.StatusCreated).ID(t),
		courtB:  admin.Post("/api/admin/courts", map[string]any{"name": "Court B", "court_type_id": courtType, "price": 80000}).Status(t, http.StatusCreated).ID(t),
		rental:  admin.Post("/api/admin/reservation-types", map[string]any{"name": "Rental"}).Status(t, http.StatusCreated).ID(t),
		docType: admin.Post("/api/admin/document-types", map[string]any{"name": "CC"}).Status(t, http.StatusCreated).ID(t),
	}
	admin.Post("/api/admin/reservation-statuses", map[string]any{"name": "Pending", "color": "#F9A825"}).Status(t, http.StatusCreated)
	d.ana = admin.Post("/api/admin/clients", map[string]any{"first_name": "Ana", "last_name": "Gómez", "document": "1020304050",
		"document_type_id": d.docType, "phone": "+573001234567"}).Status(t, http.StatusCreated).ID(t)
	return d
}

// book books court through the API and returns the booking's id.
func (d desk) book(t *testing.T, court int64, from, to string) int64 {
	t.Helper()
	return d.admin.Post("/api/admin/booking", map[string]any{"court_id": court, "reservation_type_id": d.rental, "checking": from, "checkout": to}).
		Status(t, http.StatusCreated).ID(t)
}

// get reads path from the API as the desk's admin, decoded by decode, and
// returns the body too.
func (d desk) get(t *testing.T, path string, v any) []byte {
	t.Helper()
	res := d.admin.Get(path).Status(t, http.StatusOK)
	decode(t, res.Body, v)
	return res.Body
}

func itoa(id int64) string { return fmt.Sprint(id) }

var bookingHeader = []string{"ID", "DATE", "FROM", "TO", "COURT_ID", "TYPE_ID", "STATUS_ID", "CLIENT_ID", "NOTES"}

// bookingRow is the row clubctl prints of a booking the API answered.
func bookingRow(b map[string]any, to string) []string {
	return []string{str(b["id"]), str(b["checking_date"]), str(b["checking_time"])[:5], to, str(b["court_id"]),
		str(b["reservation_type_id"]), str(b["reservation_status_id"]), str(b["client_id"]), str(b["notes"])}
}

func TestBookingCreate(t *testing.T) {
	d := newDesk(t)
	const day = "2030-03-04"

	// By names, in any case, with a client and notes; json is the API's answer.
	out := mustCtl(t, d.app, d.token, "booking", "create", "--court", "court a", "--date", day, "--from", "18:00", "--to", "19:30",
		"--type", "RENTAL", "--client", itoa(d.ana), "--notes", "Birthday\tparty", "--format", "json")
	var created, stored map[string]any
	decode(t, []byte(out), &created)
	id := int64(mustNumber(t, created["id"]))
	d.get(t, "/api/admin/booking/"+itoa(id), &stored)
	for _, f := range []string{"id", "court_id", "reservation_type_id", "client_id", "checking", "checkout", "notes", "reservation_status_id"} {
		assert.Equal(t, stored[f], created[f], f)
	}
	assert.Equal(t, day+" 18:00:00", stored["checking"])
	assert.Equal(t, day+" 19:30:00", stored["checkout"])
	assert.Equal(t, itoa(d.courtA), str(stored["court_id"]))
	assert.Equal(t, itoa(d.ana), str(stored["client_id"]))
	assert.Equal(t, "Birthday\tparty", stored["notes"])

	// By ids; the table shows the booking the API answered.
	out = mustCtl(t, d.app, d.token, "booking", "create", "--court", itoa(d.courtB), "--date", day, "--from", "10:00", "--to", "11:00",
		"--type", itoa(d.rental))
	require.Len(t, strings.Split(out, "\n"), 3, "%s", out)
	id2 := strings.Fields(strings.Split(out, "\n")[1])[0]
	d.get(t, "/api/admin/booking/"+id2, &stored)
	assert.Equal(t, day+" 10:00:00", stored["checking"])
	assertTable(t, out, "", bookingHeader, [][]string{bookingRow(stored, "11:00")})
	assert.Empty(t, stored["client_id"])

	// 24:00 ends at the midnight that closes the day.
	out = mustCtl(t, d.app, d.token, "booking", "create", "--court", "Court A", "--date", day, "--from", "23:00", "--to", "24:00",
		"--type", "Rental", "--format", "csv")
	recs := records(t, out)
	require.Len(t, recs, 2)
	d.get(t, "/api/admin/booking/"+recs[1][0], &stored)
	assert.Equal(t, "2030-03-05 00:00:00", stored["checkout"])
	assert.Equal(t, [][]string{bookingHeader, bookingRow(stored, "2030-03-05 00:00")}, recs)

	// The API's refusals, in one line.
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--court", "Court A", "--from", "18:30", "--to", "19:00", "--type", "Rental"}, "The court is already booked in that slot. (409 court occupied)"},
		{[]string{"--court", "Court A", "--from", "18:10", "--to", "19:00", "--type", "Rental"}, "(400 "},
		{[]string{"--court", "Court Z", "--from", "08:00", "--to", "09:00", "--type", "Rental"}, `no court is named "Court Z"`},
		{[]string{"--court", "Court", "--from", "08:00", "--to", "09:00", "--type", "Rental"},
			fmt.Sprintf(`no court is named "Court"; similar: "Court A" (%d), "Court B" (%d)`, d.courtA, d.courtB)},
		{[]string{"--court", "Court A", "--from", "08:00", "--to", "09:00", "--type", "Lesson"}, `no reservation type is named "Lesson"`},
	} {
		_, err := clubctl(t, d.app, d.token, append([]string{"booking", "create", "--date", day}, tt.args...)...)
		require.Error(t, err, "%v", tt.args)
		assert.Contains(t, err.Error(), tt.want)
		var stderr bytes.Buffer
		assert.Equal(t, 1, report(&stderr, err))
		assert.Equal(t, 1, strings.Count(stderr.String(), "\n"), "one line: %s", stderr.String())
	}
	var all []any
	d.get(t, "/api/admin/booking", &all)
	assert.Len(t, all, 3, "no refused command booked")
}

func mustNumber(t *testing.T, v any) float64 {
	t.Helper()
	f, err := v.(interface{ Float64() (float64, error) }).Float64()
	require.NoError(t, err)
	return f
}

func TestBookingList(t *testing.T) {
	d := newDesk(t)
	const day = "2030-03-04"
	evening := d.book(t, d.courtA, day+" 18:00", day+" 19:30")
	morningB := d.book(t, d.courtB, day+" 10:00", day+" 11:00")
	morningA := d.book(t, d.courtA, day+" 10:00", day+" 11:00")
	late := d.book(t, d.courtB, day+" 23:00", "2030-03-05 00:30")
	d.book(t, d.courtA, "2030-03-05 10:00", "2030-03-05 11:00") // another day
	d.admin.Patch("/api/admin/booking/"+itoa(evening), map[string]any{"client_id": d.ana, "notes": "Pays at the desk"}).Status(t, http.StatusOK)

	// The API's full view of the day, in the order of the day: by time,
	// then court.
	var full []map[string]any
	d.get(t, "/api/admin/booking/full?start_date="+day+"&end_date="+day, &full)
	require.Len(t, full, 4)
	byID := map[string]map[string]any{}
	for _, b := range full {
		byID[str(b["id"])] = b
	}
	var ordered []map[string]any
	for _, id := range []int64{morningA, morningB, evening, late} {
		ordered = append(ordered, byID[itoa(id)])
	}
	row := func(b map[string]any) []string {
		to := str(b["checkout_time"])[:5]
		if b["checkout_date"] != b["checking_date"] {
			to = str(b["checkout_date"]) + " " + to
		}
		return []string{str(b["id"]), str(b["checking_time"])[:5], to, str(b["court_name"]), str(b["reservation_type_name"]),
			str(b["status_name"]), strings.TrimSpace(str(b["client_first_name"]) + " " + str(b["client_last_name"])),
			str(b["total_amount"]), str(b["total_paid"]), str(b["total_debt"]), str(b["notes"])}
	}
	var rows [][]string
	for _, b := range ordered {
		rows = append(rows, row(b))
	}
	header := []string{"ID", "FROM", "TO", "COURT", "TYPE", "STATUS", "CLIENT", "TOTAL", "PAID", "DEBT", "NOTES"}
	assert.Equal(t, []string{itoa(evening), "18:00", "19:30", "Court A", "Rental", "Pending", "Ana Gómez", "90000", "0", "90000", "Pays at the desk"},
		rows[2])
	assert.Equal(t, "2030-03-05 00:30", rows[3][2], "a booking that ends the next day says so")

	out := mustCtl(t, d.app, d.token, "booking", "list", "--date", day)
	assertTable(t, out, "Bookings of "+day, header, rows)
	out = mustCtl(t, d.app, d.token, "booking", "list", "--date", day, "--format", "csv")
	assert.Equal(t, append([][]string{header}, rows...), records(t, out))
	out = mustCtl(t, d.app, d.token, "booking", "list", "--date", day, "--format", "json")
	var listed []map[string]any
	decode(t, []byte(out), &listed)
	assert.Equal(t, ordered, listed, "the API's objects as received, in the order of the day")

	out = mustCtl(t, d.app, d.token, "booking", "list", "--date", day, "--court", "court b", "--format", "csv")
	assert.Equal(t, [][]string{header, rows[1], rows[3]}, records(t, out), "one court's")
	out = mustCtl(t, d.app, d.token, "booking", "list", "--date", day, "--court", itoa(d.courtA), "--format", "csv")
	assert.Equal(t, [][]string{header, rows[0], rows[2]}, records(t, out))
	out = mustCtl(t, d.app, d.token, "booking", "list", "--date", "2030-03-06", "--format", "csv")
	assert.Equal(t, [][]string{header}, records(t, out), "a day without bookings")
	out = mustCtl(t, d.app, d.token, "booking", "list", "--date", "2030-03-06", "--format", "json")
	assert.Equal(t, "[]\n", out)

	// Without --date: today in the club's zone.
	zone, err := time.LoadLocation("America/Bogota")
	require.NoError(t, err)
	today := time.Now().In(zone).Format(time.DateOnly)
	now := d.book(t, d.courtB, today+" 00:00", today+" 00:30")
	out = mustCtl(t, d.app, d.token, "booking", "list", "--format", "csv")
	recs := records(t, out)
	require.Len(t, recs, 2, "%s", out)
	assert.Equal(t, itoa(now), recs[1][0])

	_, err = clubctl(t, d.app, d.token, "booking", "list", "--court", "Court Z")
	assert.ErrorContains(t, err, `no court is named "Court Z"`)
	_, err = clubctl(t, d.app, d.app.Token(d.app.User("client@test.club")), "booking", "list")
	assert.ErrorContains(t, err, "(403 ", "a client's token may not list the club's bookings")
}

func TestPaymentCommands(t *testing.T) {
	d := newDesk(t)
	b := d.book(t, d.courtA, "2030-03-04 18:00", "2030-03-04 19:30")
	pay := func(body map[string]any) int64 {
		body["reservation_id"] = b
		return d.admin.Post("/api/admin/payments", body).Status(t, http.StatusCreated).ID(t)
	}
	deposit := pay(map[string]any{"amount": 20000, "transaction_id": "TX-1", "description": "Deposit"})
	rest := pay(map[string]any{"amount": 10000.5, "transaction_id": "TX-2"})
	pay(map[string]any{"amount": 5000, "transaction_id": "TX-3", "status": true})

	header := []string{"ID", "DATE", "BOOKING", "ENROLLMENT", "AMOUNT", "TYPE", "TRANSACTION", "STATUS", "CLIENT_CLAIM", "DESCRIPTION"}
	row := func(p map[string]any) []string {
		return []string{str(p["id"]), str(p["date"]), str(p["reservation_id"]), str(p["enrollment_id"]), str(p["amount"]),
			str(p["payment_type_name"]), str(p["transaction_id"]), str(p["status_detail"]), str(p["client_claim"]), str(p["description"])}
	}
	var pending []map[string]any
	body := d.get(t, "/api/admin/payments?status=false", &pending)
	require.Len(t, pending, 2)
	var rows [][]string
	for _, p := range pending {
		rows = append(rows, row(p))
	}
	assert.ElementsMatch(t, []string{itoa(deposit), itoa(rest)}, []string{rows[0][0], rows[1][0]})

	out := mustCtl(t, d.app, d.token, "payment", "pending", "--format", "csv")
	assert.Equal(t, append([][]string{header}, rows...), records(t, out))
	out = mustCtl(t, d.app, d.token, "payment", "pending")
	assertTable(t, out, "", header, rows)
	out = mustCtl(t, d.app, d.token, "payment", "pending", "--format", "json")
	assert.JSONEq(t, string(body), out)

	out = mustCtl(t, d.app, d.token, "payment", "validate", itoa(deposit), "--format", "csv")
	var validated map[string]any
	d.get(t, "/api/admin/payments/"+itoa(deposit), &validated)
	assert.Equal(t, true, validated["status"])
	assert.Equal(t, "completed", validated["status_detail"])
	assert.Equal(t, [][]string{header, row(validated)}, records(t, out))

	out = mustCtl(t, d.app, d.token, "payment", "pending", "--format", "csv")
	recs := records(t, out)
	require.Len(t, recs, 2, "a validated payment is no longer pending")
	assert.Equal(t, itoa(rest), recs[1][0])

	_, err := clubctl(t, d.app, d.token, "payment", "validate", "9999")
	assert.ErrorContains(t, err, "(404 ")
}

func TestClientCommands(t *testing.T) {
	d := newDesk(t)
	header := []string{"ID", "FIRST_NAME", "LAST_NAME", "DOCUMENT_TYPE", "DOCUMENT", "EMAIL", "PHONE"}
	row := func(c map[string]any) []string {
		return []string{str(c["id"]), str(c["first_name"]), str(c["last_name"]), str(c["document_type_id"]), str(c["document"]),
			str(c["email"]), str(c["phone"])}
	}

	out := mustCtl(t, d.app, d.token, "client", "create", "--first-name", "Luis", "--last-name", "Gómez", "--document-type", "cc",
		"--document", "79000111", "--email", "luis@example.com", "--phone", "+573009998877", "--format", "csv")
	recs := records(t, out)
	require.Len(t, recs, 2)
	var luis map[string]any
	d.get(t, "/api/admin/clients/"+recs[1][0], &luis)
	assert.Equal(t, "luis@example.com", luis["email"])
	assert.Equal(t, itoa(d.docType), str(luis["document_type_id"]))
	assert.Equal(t, [][]string{header, row(luis)}, records(t, out))
	mustCtl(t, d.app, d.token, "client", "create", "--first-name", "Eva", "--last-name", "Ruiz", "--document-type", itoa(d.docType),
		"--document", "55")

	var found []map[string]any
	body := d.get(t, "/api/admin/clients?search="+url.QueryEscape("gómez"), &found)
	require.Len(t, found, 2)
	var rows [][]string
	for _, c := range found {
		rows = append(rows, row(c))
	}
	out = mustCtl(t, d.app, d.token, "client", "find", "gómez", "--format", "csv")
	assert.Equal(t, append([][]string{header}, rows...), records(t, out))
	out = mustCtl(t, d.app, d.token, "client", "find", "gómez")
	assertTable(t, out, "", header, rows)
	out = mustCtl(t, d.app, d.token, "client", "find", "gómez", "--format", "json")
	assert.JSONEq(t, string(body), out)
	ids := []string{rows[0][0], rows[1][0]}
	assert.True(t, slices.Contains(ids, itoa(d.ana)) && slices.Contains(ids, str(luis["id"])), "%v", ids)

	out = mustCtl(t, d.app, d.token, "client", "find", "nobody", "--format", "csv")
	assert.Equal(t, [][]string{header}, records(t, out))

	_, err := clubctl(t, d.app, d.token, "client", "create", "--first-name", "Otra", "--last-name", "Ana", "--document-type", "CC",
		"--document", "1020304050")
	assert.ErrorContains(t, err, "(409 ", "one client per document")
	_, err = clubctl(t, d.app, d.token, "client", "create", "--first-name", "Otra", "--last-name", "Ana", "--document-type", "DNI",
		"--document", "1")
	assert.ErrorContains(t, err, `no document type is named "DNI"`)
	var all []any
	d.get(t, "/api/admin/clients", &all)
	assert.Len(t, all, 3, "no refused command created a client")
}

func TestLogin(t *testing.T) {
	d := newDesk(t)
	t.Setenv("CLUBD_URL", d.app.URL)
	t.Setenv("CLUBD_TOKEN", "")
	login := func(stdin string, args ...string) (string, error) {
		var stdout bytes.Buffer
		err := run(append([]string{"clubctl", "login"}, args...), strings.NewReader(stdin), &stdout, io.Discard)
		return stdout.String(), err
	}

	out, err := login("password-desk@test.club\n", "--email", "desk@test.club")
	require.NoError(t, err)
	tok := strings.TrimSpace(out)
	assert.Equal(t, tok+"\n", out, "the token alone, for export CLUBD_TOKEN=$(clubctl login ...)")
	_, err = clubctl(t, d.app, tok, "payment", "pending")
	assert.NoError(t, err, "the token opens the front desk's commands")

	t.Setenv("CLUBD_PASSWORD", "password-desk@test.club")
	out, err = login("", "--email", "desk@test.club")
	require.NoError(t, err, "the password from CLUBD_PASSWORD")
	_, err = clubctl(t, d.app, strings.TrimSpace(out), "client", "find", "ana")
	assert.NoError(t, err)

	t.Setenv("CLUBD_PASSWORD", "")
	_, err = login("wrong-password\n", "--email", "desk@test.club")
	require.Error(t, err)
	var stderr bytes.Buffer
	assert.Equal(t, 1, report(&stderr, err))
	assert.Regexp(t, `^clubctl: .+ \(401 [a-z ]+\)\n$`, stderr.String(), "the server's message, one line")

	_, err = login("", "--email", "desk@test.club")
	assert.ErrorContains(t, err, "no password")
}

// TestBookingCreate_overrideRules: a booking the club's rules refuse is
// refused with the rule's name; --override-rules books it, recorded.
func TestBookingCreate_overrideRules(t *testing.T) {
	d := newDesk(t)
	d.admin.Patch("/api/admin/club-rules", map[string]any{"advance_days": 14}).Status(t, http.StatusOK)
	args := []string{"booking", "create", "--court", "Court A", "--date", "2030-03-04", "--from", "08:00", "--to", "09:00", "--type", "Rental"}
	_, err := clubctl(t, d.app, d.token, args...)
	require.ErrorContains(t, err, "Club rule advance_days")

	out := mustCtl(t, d.app, d.token, append(args, "--override-rules", "--format", "csv")...)
	recs := records(t, out)
	require.Len(t, recs, 2)
	var stored map[string]any
	d.get(t, "/api/admin/booking/"+recs[1][0], &stored)
	assert.Equal(t, "2030-03-04 08:00:00", stored["checking"])
	assert.Equal(t, "desk@test.club", stored["rules_overridden_by"], "the booking records who overrode the rules")
}

func TestBookingCancel(t *testing.T) {
	d := newDesk(t)
	const day = "2030-03-04"
	id := d.book(t, d.courtA, day+" 18:00", day+" 19:30")
	header := append(slices.Clone(bookingHeader), "CANCELLED_AT", "CANCELLED_BY")

	out := mustCtl(t, d.app, d.token, "booking", "cancel", itoa(id), "--format", "csv")
	var stored map[string]any
	d.get(t, "/api/admin/booking/"+itoa(id), &stored)
	assert.Equal(t, "desk@test.club", stored["cancelled_by"], "the booking stays, with who cancelled it")
	require.NotEmpty(t, stored["cancelled_at"])
	row := append(bookingRow(stored, "19:30"), str(stored["cancelled_at"]), str(stored["cancelled_by"]))
	assert.Equal(t, [][]string{header, row}, records(t, out))

	// Cancelling again changes nothing; the table and the API's answer.
	out = mustCtl(t, d.app, d.token, "booking", "cancel", itoa(id))
	assertTable(t, out, "", header, [][]string{row})
	out = mustCtl(t, d.app, d.token, "booking", "cancel", itoa(id), "--format", "json")
	var answered map[string]any
	decode(t, []byte(out), &answered)
	for _, f := range []string{"id", "checking", "checkout", "court_id", "cancelled_at", "cancelled_by", "court_name"} {
		assert.Equal(t, stored[f], answered[f], f)
	}

	// The court is free: the day's list leaves the booking out, and the
	// slot books again.
	out = mustCtl(t, d.app, d.token, "booking", "list", "--date", day, "--format", "csv")
	assert.Len(t, records(t, out), 1, "%s", out)
	mustCtl(t, d.app, d.token, "booking", "create", "--court", "Court A", "--date", day, "--from", "18:00", "--to", "19:30", "--type", "Rental")

	_, err := clubctl(t, d.app, d.token, "booking", "cancel", "9999")
	assert.ErrorContains(t, err, "(404 ")
}
