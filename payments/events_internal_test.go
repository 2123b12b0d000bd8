package payments

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
)

// TestChangeEvents: the events of each kind of change of a payment, one
// row per rule of changeEvents.
func TestChangeEvents(t *testing.T) {
	t.Parallel()
	str := func(s string) *string { return &s }
	at := time.Date(2026, 3, 2, 15, 0, 0, 0, time.UTC)
	pending := Payment{ID: 7, ReservationID: new(int64(3)), PaymentTypeID: new(int64(1)), Amount: decimal.NewFromInt(60000),
		ClaimedTransactionID: str("T-1"), StatusDetail: DetailPending, Date: at, Foto: str("receipts/3/a.jpg"), FotoType: str("image/jpeg"),
		CreatedAt: at, UpdatedAt: at}
	completed := with(pending, func(p *Payment) { p.Status, p.StatusDetail, p.TransactionID = true, DetailCompleted, str("T-1") })
	for _, tc := range []struct {
		name   string
		before *Payment
		after  Payment
		want   []string
	}{
		{"created pending", nil, pending, []string{EventCreated}},
		{"created completed", nil, completed, []string{EventCreated, EventCompleted}},
		{"created failed", nil, with(pending, func(p *Payment) { p.StatusDetail = DetailFailed }), []string{EventCreated, EventFailed}},
		{"created refunded", nil, with(pending, func(p *Payment) { p.StatusDetail = DetailRefunded }), []string{EventCreated, EventRefunded}},
		{"validated", &pending, completed, []string{EventCompleted}},
		{"rejected", &pending, with(pending, func(p *Payment) { p.StatusDetail = DetailFailed }), []string{EventFailed}},
		{"failed, then approved", new(with(pending, func(p *Payment) { p.StatusDetail = DetailFailed })), completed, []string{EventCompleted}},
		{"completed and edited at once", &pending, with(completed, func(p *Payment) { p.Amount = decimal.NewFromInt(50000) }),
			[]string{EventCompleted}},
		{"refunded in part", &completed, with(completed, func(p *Payment) { p.Refunded = decimal.NewFromInt(20000) }), []string{EventRefunded}},
		{"refunded whole", &completed, with(completed, func(p *Payment) {
			p.Status, p.StatusDetail, p.Refunded = false, DetailRefunded, p.Amount
		}), []string{EventRefunded}},
		{"refunded at the gateway", &completed, with(completed, func(p *Payment) { p.Status, p.StatusDetail = false, DetailRefunded }),
			[]string{EventRefunded}},
		{"back to pending", &completed, with(completed, func(p *Payment) { p.Status, p.StatusDetail = false, DetailPending }),
			[]string{EventUpdated}},
		{"another amount", &pending, with(pending, func(p *Payment) { p.Amount = decimal.RequireFromString("59999.99") }), []string{EventUpdated}},
		{"a claim confirmed with its id, still pending", &pending, with(pending, func(p *Payment) { p.TransactionID = str("T-1") }),
			[]string{EventUpdated}},
		{"another type", &pending, with(pending, func(p *Payment) { p.PaymentTypeID = new(int64(2)) }), []string{EventUpdated}},
		{"another booking", &pending, with(pending, func(p *Payment) { p.ReservationID = new(int64(4)) }), []string{EventUpdated}},
		{"a description", &pending, with(pending, func(p *Payment) { p.Description = str("cash") }), []string{EventUpdated}},
		{"a gateway response", &completed, with(completed, func(p *Payment) { p.GatewayResponse = str(`{"fee":1}`) }), []string{EventUpdated}},
		{"its receipt removed", &pending, with(pending, func(p *Payment) { p.Foto, p.FotoType = nil, nil }), []string{EventUpdated}},
		{"nothing", &pending, pending, nil},
		{"the same values, other pointers", &pending, with(pending, func(p *Payment) {
			p.ReservationID, p.ClaimedTransactionID = new(int64(3)), str("T-1")
		}), nil},
		{"the same amount, written otherwise", &pending, with(pending, func(p *Payment) { p.Amount = decimal.RequireFromString("60000.00") }), nil},
		{"only written again, and its booking's names read", &pending, with(pending, func(p *Payment) {
			p.UpdatedAt, p.CourtName, p.PaymentTypeName = at.Add(time.Minute), str("Padel 1"), str("Card")
		}), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, changeEvents(tc.before, tc.after))
		})
	}
}

// with returns p changed by edit.
func with(p Payment, edit func(*Payment)) Payment {
	edit(&p)
	return p
}
