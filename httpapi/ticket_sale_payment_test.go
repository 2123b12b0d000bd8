package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/apptest"
)

// TestTicketSalePayment_frozen: the payment of a ticket sale is part of
// the sale: deleting it or changing its amount is 409 "ticket sale
// payment", which says to refund the tickets instead, and it stays as it
// was.
func TestTicketSalePayment_frozen(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	ctx := t.Context()
	var payment int64
	require.NoError(t, app.DB.GetContext(ctx, &payment, `WITH program AS (
			INSERT INTO ticket_programs (name) VALUES ('Open play') RETURNING id
		), pkg AS (
			INSERT INTO ticket_packages (program_id, name, ticket_count, unit_price) SELECT id, 'Ten', 10, 18000 FROM program RETURNING id
		), sale AS (
			INSERT INTO ticket_sales (package_id, ticket_count, unit_price, total, buyer_name, buyer_document, sold_by_label)
			SELECT id, 10, 18000, 180000, 'Ana Ruiz', '100', 'test' FROM pkg RETURNING id, total
		)
		INSERT INTO payments (ticket_sale_id, amount, status, status_detail) SELECT id, total, true, 'completed' FROM sale RETURNING id`))

	admin := app.AsAdmin()
	msg := admin.Delete(path("/api/admin/payments/%d", payment), nil).Status(t, http.StatusConflict).Error(t, "ticket sale payment").
		Object(t)["message"]
	assert.Contains(t, msg, "Refund the unused tickets instead")
	admin.Patch(path("/api/admin/payments/%d", payment), map[string]any{"amount": 1000}).Status(t, http.StatusConflict).
		Error(t, "ticket sale payment")
	got := admin.Get(path("/api/admin/payments/%d", payment)).Status(t, http.StatusOK).Object(t)
	assert.EqualValues(t, 180000, got["amount"], "the payment is unchanged")
}
