package main

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/tickets"
)

// TestTickets: the front desk lists the catalog, sells a package at its
// quoted price, and finds a ticket by its printed code.
func TestTickets(t *testing.T) {
	d := newDesk(t)
	program := d.admin.Post("/api/admin/tickets/programs", map[string]any{"name": "Open play"}).Status(t, http.StatusCreated).ID(t)
	ten := d.admin.Post("/api/admin/tickets/packages", map[string]any{"program_id": program, "name": "Ten", "ticket_count": 10,
		"unit_price": 18000, "valid_days": 30}).Status(t, http.StatusCreated).ID(t)
	trial := d.admin.Post("/api/admin/tickets/packages", map[string]any{"program_id": program, "name": "Trial", "ticket_count": 1,
		"unit_price": 0}).Status(t, http.StatusCreated).ID(t)
	d.admin.Post("/api/admin/payment-types", map[string]any{"name": "Cash"}).Status(t, http.StatusCreated)

	out := mustCtl(t, d.app, d.token, "tickets", "programs")
	assertTable(t, out, "", []string{"PACKAGE", "PROGRAM", "NAME", "TICKETS", "UNIT_PRICE", "VALID_DAYS", "ON_SALE"}, [][]string{
		{itoa(ten), "Open play", "Ten", "10", "18000", "30", "yes"},
		{itoa(trial), "Open play", "Trial", "1", "0", "never expire", "yes"},
	})

	out = mustCtl(t, d.app, d.token, "tickets", "sell", "--package", itoa(ten), "--count", "12", "--buyer", "Marta Gómez",
		"--document", "CC 52123456", "--phone", "+57 300 123 4567", "--transaction", "V-1")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 2+12, "%s", out)
	assert.Regexp(t, `^Sale \d+ to Marta Gómez: 12 tickets of Open play / Ten, 216000 paid by Cash$`, lines[0])
	saleID := strings.Fields(lines[0])[1]
	var stored struct {
		Phones  []string `json:"phones"`
		Payment struct {
			TransactionID string `json:"transaction_id"`
		} `json:"payment"`
		Strips []struct {
			Tickets []struct {
				ID        int64  `json:"id"`
				Code      string `json:"code"`
				ExpiresAt string `json:"expires_at"`
			} `json:"tickets"`
		} `json:"strips"`
	}
	d.get(t, "/api/admin/tickets/sales/"+saleID, &stored)
	assert.Equal(t, []string{"+57 300 123 4567"}, stored.Phones)
	assert.Equal(t, "V-1", stored.Payment.TransactionID)
	require.Len(t, stored.Strips, 2)
	var rows [][]string
	for i, st := range stored.Strips {
		for _, tk := range st.Tickets {
			rows = append(rows, []string{itoa(int64(i + 1)), itoa(tk.ID), tickets.FormatCode(tk.Code), "18000", tk.ExpiresAt})
		}
	}
	assertTable(t, strings.Join(lines[1:], "\n")+"\n", "", []string{"STRIP", "TICKET", "CODE", "PRICE", "EXPIRES"}, rows)

	// The door types the printed code in any case.
	first := stored.Strips[0].Tickets[0]
	out = mustCtl(t, d.app, d.token, "tickets", "show", strings.ToLower(tickets.FormatCode(first.Code)))
	assertTable(t, out, "", []string{"CODE", "STATUS", "SALE", "TICKET", "PRICE", "EXPIRES", "USED_AT", "EVENT"},
		[][]string{{tickets.FormatCode(first.Code), "available", saleID, itoa(first.ID), "18000", first.ExpiresAt, "", ""}})

	// A free package takes no payment.
	out = mustCtl(t, d.app, d.token, "tickets", "sell", "--package", itoa(trial), "--buyer", "Tom", "--document", "9", "--format", "csv")
	recs := records(t, out)
	require.Len(t, recs, 2)
	assert.Equal(t, []string{"STRIP", "TICKET", "CODE", "PRICE", "EXPIRES"}, recs[0])
	assert.Equal(t, "never", recs[1][4])

	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"tickets", "show", "0000"}, `"0000" is not a ticket code`},
		{[]string{"tickets", "show", "2222-2222-2222"}, "(404 not found)"},
		{[]string{"tickets", "sell", "--package", itoa(ten), "--buyer", "X"}, "missing --document"},
		{[]string{"tickets", "sell", "--package", "999", "--buyer", "X", "--document", "1"}, "(404 not found)"},
		{[]string{"tickets", "sell", "--package", itoa(ten), "--buyer", "X", "--document", "1", "--payment-type", "Bitcoin"}, `no payment type is named "Bitcoin"`},
		{[]string{"tickets", "sell", "--package", itoa(ten), "--buyer", "X", "--document", "1", "--phone", "call me"}, "(400 invalid data)"},
	} {
		_, err := clubctl(t, d.app, d.token, tt.args...)
		require.Error(t, err, "%v", tt.args)
		assert.Contains(t, err.Error(), tt.want)
	}
}

// TestEventsList: the day's events as a table, with their filters.
func TestEventsList(t *testing.T) {
	d := newDesk(t)
	eventType := d.admin.Post("/api/admin/reservation-types", map[string]any{"name": "Event", "is_event": true}).Status(t, http.StatusCreated).ID(t)
	create := func(court int64, title, from, to string) int64 {
		return d.admin.Post("/api/admin/events", map[string]any{"court_id": court, "event_type_id": eventType, "title": title,
			"capacity": 8, "checking": from, "checkout": to}).Status(t, http.StatusCreated).ID(t)
	}
	night := create(d.courtA, "Americano night", "2030-03-04 18:00", "2030-03-04 21:00")
	late := create(d.courtB, "Midnight padel", "2030-03-05 23:00", "2030-03-06 01:00")
	d.admin.Post("/api/admin/events/"+itoa(night)+"/participants", map[string]any{"client_id": d.ana}).Status(t, http.StatusCreated)
	d.admin.Patch("/api/admin/events/"+itoa(late)+"/cancel", nil).Status(t, http.StatusOK)

	header := []string{"ID", "DATE", "FROM", "TO", "COURT", "TITLE", "STATUS", "TAKEN", "CAPACITY"}
	nightRow := []string{itoa(night), "2030-03-04", "18:00", "21:00", "Court A", "Americano night", "scheduled", "1", "8"}
	lateRow := []string{itoa(late), "2030-03-05", "23:00", "2030-03-06 01:00", "Court B", "Midnight padel", "cancelled", "0", "8"}
	assertTable(t, mustCtl(t, d.app, d.token, "events", "list"), "", header, [][]string{nightRow, lateRow})
	assertTable(t, mustCtl(t, d.app, d.token, "events", "list", "--status", "scheduled"), "", header, [][]string{nightRow})
	assertTable(t, mustCtl(t, d.app, d.token, "events", "list", "--court", "court b"), "", header, [][]string{lateRow})
	assertTable(t, mustCtl(t, d.app, d.token, "events", "list", "--from", "2030-03-05", "--to", "2030-03-05"), "", header, [][]string{lateRow})

	_, err := clubctl(t, d.app, d.token, "events", "list", "--status", "done")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "--status must be scheduled, cancelled or completed")
	_, err = clubctl(t, d.app, d.token, "events", "list", "--from", "tomorrow")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "is not a date")
}
