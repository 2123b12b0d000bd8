package httpapi_test

import (
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
)

// ticketSaleBody is a sale of n tickets of package at 18,000.50 each,
// paid with payment type card.
func ticketSaleBody(pkg, card int64, n int, buyer string) map[string]any {
	return map[string]any{"package_id": pkg, "ticket_count": n,
		"buyer":   map[string]any{"name": buyer, "document": "CC 52" + buyer, "email": strings.ToLower(buyer) + "@example.com"},
		"phones":  []string{"+57 300 123 4567"},
		"payment": map[string]any{"payment_type_id": card, "amount": 18000.5 * float64(n)}}
}

type saleView struct {
	ID        int64   `json:"id"`
	PackageID int64   `json:"package_id"`
	Total     float64 `json:"total"`
	Available int     `json:"available"`
	Refunded  int     `json:"refunded"`
	Buyer     struct {
		Name string `json:"name"`
	} `json:"buyer"`
	Payment *struct {
		ID     int64   `json:"id"`
		Amount float64 `json:"amount"`
		Status string  `json:"status"`
	} `json:"payment"`
	Strips []struct {
		ID       int64 `json:"id"`
		Position int   `json:"position"`
		Tickets  []struct {
			ID      int64  `json:"id"`
			StripID int64  `json:"strip_id"`
			Code    string `json:"code"`
			Status  string `json:"status"`
		} `json:"tickets"`
	} `json:"strips"`
}

func TestTicketSales(t *testing.T) {
	t.Parallel()
	app := newWebhookApp(t)
	admin := app.AsAdmin()
	program, _, ten := ticketCatalog(t, admin)
	card := admin.Post("/api/admin/payment-types", map[string]any{"name": "Card"}).Status(t, http.StatusCreated).ID(t)

	var sale saleView
	res := admin.Post("/api/admin/tickets/sales", ticketSaleBody(ten, card, 12, "Marta")).Status(t, http.StatusCreated).JSON(t, &sale)
	assert.Equal(t, path("/api/admin/tickets/sales/%d", sale.ID), res.Header.Get("Location"))
	assert.Equal(t, ten, sale.PackageID)
	assert.InDelta(t, 216006, sale.Total, 0.001)
	assert.Equal(t, 12, sale.Available)
	require.NotNil(t, sale.Payment)
	assert.Equal(t, "completed", sale.Payment.Status)
	require.Len(t, sale.Strips, 2, "12 tickets of a 10-ticket package: strips of 10 and 2")
	assert.Len(t, sale.Strips[1].Tickets, 2)
	code := sale.Strips[0].Tickets[0].Code
	assert.Regexp(t, `^[2-9A-HJ-NP-Z]{12}$`, code)

	var got saleView
	admin.Get(path("/api/admin/tickets/sales/%d", sale.ID)).Status(t, http.StatusOK).JSON(t, &got)
	assert.Equal(t, sale, got)
	admin.Get("/api/admin/tickets/sales/9999").Status(t, http.StatusNotFound).Error(t, "not found")

	// The door: the code as typed, grouped and in lower case.
	typed := strings.ToLower(code[:4] + "-" + code[4:8] + " " + code[8:])
	tk := admin.Get("/api/admin/tickets/"+url.PathEscape(typed)).Status(t, http.StatusOK).Object(t)
	assert.Equal(t, code, tk["code"])
	assert.Equal(t, "available", tk["status"])
	assert.Nil(t, tk["event_id"])
	admin.Get("/api/admin/tickets/2222-2222-2222").Status(t, http.StatusNotFound).Error(t, "not found")
	admin.Get("/api/admin/tickets/OOOO").Status(t, http.StatusBadRequest).Error(t, "invalid data")

	// A quote's figures hold after a price change.
	q := admin.Post("/api/admin/tickets/quote", map[string]any{"package_id": ten, "ticket_count": 2}).Status(t, http.StatusOK).Object(t)
	admin.Put("/api/admin/tickets/packages", map[string]any{"packages": []map[string]any{{"id": ten, "unit_price": 25000}}}).Status(t, http.StatusOK)
	quoted := ticketSaleBody(ten, card, 2, "Quoted")
	delete(quoted, "package_id")
	delete(quoted, "ticket_count")
	quoted["quote_id"] = q["quote_id"]
	var qs saleView
	admin.Post("/api/admin/tickets/sales", quoted).Status(t, http.StatusCreated).JSON(t, &qs)
	assert.InDelta(t, 36001, qs.Total, 0.001)
	admin.Post("/api/admin/tickets/sales", quoted).Status(t, http.StatusConflict).Error(t, "quote used")
	admin.Put("/api/admin/tickets/packages", map[string]any{"packages": []map[string]any{{"id": ten, "unit_price": 18000.5}}}).Status(t, http.StatusOK)

	// Bad input, each a 4xx that stores nothing.
	for _, tc := range []struct {
		name   string
		change func(map[string]any)
		code   int
		error  string
	}{
		{"no buyer", func(b map[string]any) { delete(b, "buyer") }, 400, "incomplete data"},
		{"buyer without document", func(b map[string]any) { delete(b["buyer"].(map[string]any), "document") }, 400, "incomplete data"},
		{"bad email", func(b map[string]any) { b["buyer"].(map[string]any)["email"] = "x@" }, 400, "invalid data"},
		{"bad phone", func(b map[string]any) { b["phones"] = []string{"ring me"} }, 400, "invalid data"},
		{"phones not a list", func(b map[string]any) { b["phones"] = "3001234567" }, 400, ""},
		{"amount short", func(b map[string]any) { b["payment"].(map[string]any)["amount"] = 1 }, 400, "invalid amount"},
		{"no payment", func(b map[string]any) { delete(b, "payment") }, 400, "incomplete data"},
		{"unknown payment type", func(b map[string]any) { b["payment"].(map[string]any)["payment_type_id"] = 999 }, 400, "invalid reference"},
		{"unknown package", func(b map[string]any) { b["package_id"] = 999 }, 404, "not found"},
		{"ticket_count 0", func(b map[string]any) { b["ticket_count"] = 0 }, 400, ""},
		{"malformed quote", func(b map[string]any) { b["quote_id"] = "quote-1" }, 400, ""},
		{"unknown field", func(b map[string]any) { b["discount"] = 10 }, 400, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := ticketSaleBody(ten, card, 1, "Bad")
			tc.change(b)
			res := admin.Post("/api/admin/tickets/sales", b).Status(t, tc.code)
			if tc.error != "" {
				res.Error(t, tc.error)
			} else {
				res.JSONHas(t, "message")
			}
		})
	}
	admin.Patch(path("/api/admin/tickets/packages/%d", ten), map[string]any{"is_active": false}).Status(t, http.StatusOK)
	admin.Post("/api/admin/tickets/sales", ticketSaleBody(ten, card, 1, "Late")).Status(t, http.StatusConflict).Error(t, "package inactive")
	admin.Patch(path("/api/admin/tickets/packages/%d", ten), map[string]any{"is_active": true}).Status(t, http.StatusOK)

	// The list, its filters and its headers.
	var list []saleView
	res = admin.Get("/api/admin/tickets/sales?limit=1").Status(t, http.StatusOK).JSON(t, &list)
	assert.Equal(t, "2", res.Header.Get("X-Total-Count"))
	assert.Equal(t, "1", res.Header.Get("X-Limit"))
	assert.Equal(t, "0", res.Header.Get("X-Offset"))
	require.Len(t, list, 1)
	assert.Equal(t, qs.ID, list[0].ID, "newest first")
	assert.Nil(t, list[0].Strips)
	admin.Get("/api/admin/tickets/sales?search=marta&program_id="+itoa(program)).Status(t, http.StatusOK).JSON(t, &list)
	require.Len(t, list, 1)
	assert.Equal(t, "Marta", list[0].Buyer.Name)
	for _, q := range []string{"limit=-1", "limit=501", "offset=-1", "from=yesterday", "program_id=x", "from=2030-01-02&to=2030-01-01"} {
		admin.Get("/api/admin/tickets/sales?"+q).Status(t, http.StatusBadRequest).JSONHas(t, "message")
	}

	// Refunds.
	var refunded saleView
	admin.Post(path("/api/admin/tickets/sales/%d/refund", sale.ID), map[string]any{"ticket_ids": []int64{sale.Strips[1].Tickets[0].ID},
		"reason": "Gift returned"}).Status(t, http.StatusOK).JSON(t, &refunded)
	assert.Equal(t, 1, refunded.Refunded)
	assert.Equal(t, 11, refunded.Available)
	admin.Post(path("/api/admin/tickets/sales/%d/refund", sale.ID), map[string]any{}).Status(t, http.StatusBadRequest).Error(t, "incomplete data")
	admin.Post(path("/api/admin/tickets/sales/%d/refund", sale.ID), map[string]any{"ticket_ids": []int64{qs.Strips[0].Tickets[0].ID},
		"reason": "x"}).Status(t, http.StatusBadRequest).Error(t, "invalid reference")
	admin.Post(path("/api/admin/tickets/sales/%d/refund", sale.ID), map[string]any{"ticket_ids": []int64{sale.Strips[1].Tickets[0].ID},
		"reason": "again"}).Status(t, http.StatusConflict).Error(t, "nothing to refund")

	// The sale's payment is the sale's: it is not deleted on its own.
	msg := admin.Delete(path("/api/admin/payments/%d", sale.Payment.ID), nil).Status(t, http.StatusConflict).
		Error(t, "ticket sale payment").Object(t)["message"]
	assert.Contains(t, msg, "Refund its unused tickets instead")
	admin.Patch(path("/api/admin/payments/%d", sale.Payment.ID), map[string]any{"amount": 1}).Status(t, http.StatusConflict).Error(t, "ticket sale payment")
	// Its description may change; a gateway's refund of it is held in the
	// inbox, since a sale's money changes by a refund of its tickets.
	admin.Patch(path("/api/admin/payments/%d", sale.Payment.ID), map[string]any{"description": "Strip of Marta"}).Status(t, http.StatusOK)
	gateway := ticketSaleBody(ten, card, 1, "Gateway")
	gateway["payment"].(map[string]any)["transaction_id"] = "GW-SALE-1"
	var paid saleView
	admin.Post("/api/admin/tickets/sales", gateway).Status(t, http.StatusCreated).JSON(t, &paid)
	held := result(t, deliver(t, app, map[string]any{"transaction_id": "GW-SALE-1", "amount": 18000.5, "status": "refunded"}))
	assert.False(t, held.Changed)
	require.NotNil(t, held.InboxID, "the refund waits in the inbox for staff")
	assert.Equal(t, "completed", admin.Get(path("/api/admin/payments/%d", paid.Payment.ID)).Status(t, http.StatusOK).Object(t)["status_detail"])
	same := result(t, deliver(t, app, map[string]any{"transaction_id": "GW-SALE-1", "amount": 18000.5, "status": "completed",
		"gateway_response": "settled"}))
	assert.True(t, same.Changed, "a repeated completed with the gateway's word applies")
	pay := admin.Get(path("/api/admin/payments/%d", sale.Payment.ID)).Status(t, http.StatusOK).Object(t)
	assert.Equal(t, "Strip of Marta", pay["description"])
	assert.EqualValues(t, sale.ID, pay["ticket_sale_id"])
	assert.EqualValues(t, sale.Payment.Amount, pay["amount"], "the payment is unchanged")

	// Staff only.
	app.AsClient().Get("/api/admin/tickets/sales").Status(t, http.StatusForbidden)
}

// TestTicketSales_idempotent: a retried sale with its Idempotency-Key sells
// once.
func TestTicketSales_idempotent(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	admin := app.AsAdmin()
	_, _, ten := ticketCatalog(t, admin)
	card := admin.Post("/api/admin/payment-types", map[string]any{"name": "Card"}).Status(t, http.StatusCreated).ID(t)
	keyed := admin.WithHeader("Idempotency-Key", "sale-1")
	body := ticketSaleBody(ten, card, 3, "Retry")
	first := keyed.Post("/api/admin/tickets/sales", body).Status(t, http.StatusCreated)
	again := keyed.Post("/api/admin/tickets/sales", body).Status(t, http.StatusCreated)
	assert.Equal(t, "true", again.Header.Get("Idempotent-Replayed"))
	assert.JSONEq(t, string(first.Body), string(again.Body))
	keyed.Post("/api/admin/tickets/sales", ticketSaleBody(ten, card, 4, "Retry")).Status(t, http.StatusUnprocessableEntity)
	res := admin.Get("/api/admin/tickets/sales").Status(t, http.StatusOK)
	assert.Equal(t, "1", res.Header.Get("X-Total-Count"))
}

// TestTicketSales_concurrent: eight desks sell at once; every sale gets
// its own tickets and payment.
func TestTicketSales_concurrent(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	admin := app.AsAdmin()
	_, _, ten := ticketCatalog(t, admin)
	card := admin.Post("/api/admin/payment-types", map[string]any{"name": "Card"}).Status(t, http.StatusCreated).ID(t)
	codes := make([][]string, 8)
	var wg sync.WaitGroup
	for i := range codes {
		wg.Go(func() {
			var s saleView
			admin.Post("/api/admin/tickets/sales", ticketSaleBody(ten, card, 10, "Desk")).Status(t, http.StatusCreated).JSON(t, &s)
			for _, st := range s.Strips {
				for _, tk := range st.Tickets {
					codes[i] = append(codes[i], tk.Code)
				}
			}
		})
	}
	wg.Wait()
	seen := map[string]bool{}
	for _, cs := range codes {
		assert.Len(t, cs, 10)
		for _, c := range cs {
			seen[c] = true
		}
	}
	assert.Len(t, seen, 80, "no code is given twice")
	res := admin.Get("/api/admin/tickets/sales").Status(t, http.StatusOK)
	assert.Equal(t, "8", res.Header.Get("X-Total-Count"))
}
