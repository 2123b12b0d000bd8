package httpapi_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
)

// ledgerBalances is the trial balance at asOf, each account's balance
// (debit minus credit) as the exact decimal the API sent.
func ledgerBalances(t *testing.T, acc *apptest.Client, asOf string) map[string]decimal.Decimal {
	t.Helper()
	var tb struct {
		Rows []struct {
			Code    string      `json:"code"`
			Balance json.Number `json:"balance"`
		} `json:"rows"`
	}
	d := json.NewDecoder(bytes.NewReader(acc.Get("/api/accounting/trial-balance?as_of="+asOf).Status(t, http.StatusOK).Body))
	d.UseNumber()
	require.NoError(t, d.Decode(&tb))
	out := map[string]decimal.Decimal{}
	for _, r := range tb.Rows {
		if b := decimal.RequireFromString(r.Balance.String()); !b.IsZero() {
			out[r.Code] = b
		}
	}
	return out
}

// assertBalances checks the balances of the ticket accounts, to the cent;
// an account left out of want holds nothing.
func assertBalances(t *testing.T, got map[string]decimal.Decimal, want map[string]string, msg string) {
	t.Helper()
	for _, code := range []string{"1.1.05.01", "2.8.10", "4.1.15", "4.1.20"} {
		w := decimal.Zero
		if s, ok := want[code]; ok {
			w = decimal.RequireFromString(s)
		}
		assert.True(t, w.Equal(got[code]), "%s: account %s holds %s, want %s", msg, code, got[code], w)
	}
}

// TestTickets_operatorDay follows a day at the front desk through the
// server: the operator sets up a program, quotes and sells a strip, creates
// an event, seats participants with tickets (by code and by id) and with a
// client, removes one, checks a ticket at the door, deletes the event, and
// refunds what is left; the ledger follows each step, to the cent.
func TestTickets_operatorDay(t *testing.T) {
	t.Parallel()
	app := apptest.New(t, apptest.WithLedger(t))
	admin, acc := app.AsAdmin(), app.AsAccounting()
	today := time.Now().In(app.Config.ClubTimezone)
	from := time.Date(today.Year(), today.Month(), 1, 0, 0, 0, 0, time.UTC).Format(time.DateOnly)
	to := time.Date(today.Year(), today.Month()+1, 0, 0, 0, 0, 0, time.UTC).Format(time.DateOnly)
	acc.Post("/api/accounting/periods", map[string]any{"name": "this month", "start_date": from, "end_date": to}).Status(t, http.StatusCreated)
	post := func() {
		t.Helper()
		_, waiting, err := app.Poster.PostPending(t.Context())
		require.NoError(t, err)
		require.Zero(t, waiting, "every posting finds its period")
	}

	// The catalog: a program and a package whose tickets cost 18,000.55.
	program := admin.Post("/api/admin/tickets/programs", map[string]any{"name": "Open play"}).Status(t, http.StatusCreated).ID(t)
	ten := admin.Post("/api/admin/tickets/packages", map[string]any{"program_id": program, "name": "Ten", "ticket_count": 10,
		"unit_price": 18000.55, "valid_days": 60}).Status(t, http.StatusCreated).ID(t)
	cash := admin.Post("/api/admin/payment-types", map[string]any{"name": "Cash", "ledger_account": "1.1.05.01"}).Status(t, http.StatusCreated).ID(t)

	// A quote, and the sale that honours it.
	q := admin.Post("/api/admin/tickets/quote", map[string]any{"package_id": ten}).Status(t, http.StatusOK).Object(t)
	assert.EqualValues(t, 180005.5, q["total"])
	var sale saleView
	admin.Post("/api/admin/tickets/sales", map[string]any{"quote_id": q["quote_id"],
		"buyer":   map[string]any{"name": "Laura Méndez", "document": "CC 1000000003"},
		"phones":  []string{"+57 300 000 0003"},
		"payment": map[string]any{"payment_type_id": cash, "amount": 180005.5}}).Status(t, http.StatusCreated).JSON(t, &sale)
	require.Len(t, sale.Strips, 1)
	tk := sale.Strips[0].Tickets
	require.Len(t, tk, 10)
	post()
	assertBalances(t, ledgerBalances(t, acc, to), map[string]string{"1.1.05.01": "180005.50", "2.8.10": "-180005.50"},
		"the sale: cash against the tickets' liability, no income yet")

	// An event tomorrow evening, and its participants.
	padel := admin.Post("/api/admin/court-types", map[string]any{"name": "Padel"}).Status(t, http.StatusCreated).ID(t)
	court := admin.Post("/api/admin/courts", map[string]any{"name": "Padel 1", "court_type_id": padel, "price": 80000}).Status(t, http.StatusCreated).ID(t)
	eventType := admin.Post("/api/admin/reservation-types", map[string]any{"name": "Event", "is_event": true}).Status(t, http.StatusCreated).ID(t)
	doc := admin.Post("/api/admin/document-types", map[string]any{"name": "CC"}).Status(t, http.StatusCreated).ID(t)
	client := admin.Post("/api/admin/clients", map[string]any{"first_name": "Carla", "last_name": "Ríos", "document": "77",
		"document_type_id": doc}).Status(t, http.StatusCreated).ID(t)
	day := today.AddDate(0, 0, 1).Format(time.DateOnly)
	event := admin.Post("/api/admin/events", map[string]any{"court_id": court, "event_type_id": eventType, "title": "Americano night",
		"capacity": 8, "checking": day + " 18:00", "checkout": day + " 20:00", "override_rules": true}).Status(t, http.StatusCreated).ID(t)
	participants := path("/api/admin/events/%d/participants", event)

	typed := strings.ToLower(tk[0].Code[:4] + "-" + tk[0].Code[4:8] + "-" + tk[0].Code[8:])
	first := admin.Post(participants, map[string]any{"ticket_code": typed}).Status(t, http.StatusCreated).Object(t)
	assert.EqualValues(t, 1, first["slot"])
	assert.Equal(t, tk[0].Code, first["ticket_code"])
	assert.Equal(t, "Laura Méndez", first["buyer_name"])
	assert.Nil(t, first["client_id"])
	second := admin.Post(participants, map[string]any{"ticket_id": tk[1].ID}).Status(t, http.StatusCreated).ID(t)
	admin.Post(participants, map[string]any{"ticket_id": tk[2].ID, "slot": 5}).Status(t, http.StatusCreated)
	admin.Post(participants, map[string]any{"client_id": client}).Status(t, http.StatusCreated)
	admin.Post(participants, map[string]any{"ticket_code": tk[0].Code}).Status(t, http.StatusConflict).Error(t, "ticket used")
	admin.Post(participants, map[string]any{"ticket_id": tk[3].ID, "slot": 5}).Status(t, http.StatusConflict).Error(t, "slot taken")
	post()
	assertBalances(t, ledgerBalances(t, acc, to), map[string]string{"1.1.05.01": "180005.50", "2.8.10": "-126003.85", "4.1.15": "-54001.65"},
		"three tickets used: their price moved to ticket income")

	// One leaves before the event: the ticket goes back to its strip.
	admin.Delete(path("/api/admin/events/%d/participants/%d", event, second), nil).Status(t, http.StatusNoContent)
	door := admin.Get("/api/admin/tickets/"+tk[1].Code).Status(t, http.StatusOK).Object(t)
	assert.Equal(t, "available", door["status"])
	door = admin.Get("/api/admin/tickets/"+tk[0].Code).Status(t, http.StatusOK).Object(t)
	assert.Equal(t, "used", door["status"])
	assert.EqualValues(t, event, door["event_id"], "the door sees where a used ticket sits")
	post()
	assertBalances(t, ledgerBalances(t, acc, to), map[string]string{"1.1.05.01": "180005.50", "2.8.10": "-144004.40", "4.1.15": "-36001.10"},
		"a ticket returned: its price back in the liability")

	var detail saleView
	admin.Get(path("/api/admin/tickets/sales/%d", sale.ID)).Status(t, http.StatusOK).JSON(t, &detail)
	assert.Equal(t, 8, detail.Available)
	used := 0
	for _, x := range detail.Strips[0].Tickets {
		if x.Status == "used" {
			used++
		}
	}
	assert.Equal(t, 2, used)

	// The event is called off: its court is free and its tickets return.
	admin.Delete(path("/api/admin/events/%d", event), nil).Status(t, http.StatusNoContent)
	admin.Get(path("/api/admin/tickets/sales/%d", sale.ID)).Status(t, http.StatusOK).JSON(t, &detail)
	assert.Equal(t, 10, detail.Available)
	post()
	assertBalances(t, ledgerBalances(t, acc, to), map[string]string{"1.1.05.01": "180005.50", "2.8.10": "-180005.50"},
		"the event deleted: every use reversed")

	// The buyer gives back three tickets: the cash goes back out of the liability.
	admin.Post(path("/api/admin/tickets/sales/%d/refund", sale.ID), map[string]any{"ticket_ids": []int64{tk[7].ID, tk[8].ID, tk[9].ID},
		"reason": "Moving away"}).Status(t, http.StatusOK)
	post()
	assertBalances(t, ledgerBalances(t, acc, to), map[string]string{"1.1.05.01": "126003.85", "2.8.10": "-126003.85"},
		"three tickets refunded in cash")

	// Exactly once: a poster run again posts nothing.
	posted, _, err := app.Poster.PostPending(t.Context())
	require.NoError(t, err)
	assert.Zero(t, posted)
}
