package web_test

import (
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/frontdoor/web"
)

func formOf(t *testing.T, vals url.Values) *web.FormReader {
	t.Helper()
	cat, err := web.LoadCatalog()
	require.NoError(t, err)
	r := httptest.NewRequest("POST", "/x", strings.NewReader(vals.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return web.NewFormReader(r, cat.Printer(web.English, time.UTC))
}

// TestFormReader_money: pesos as people type them at a Colombian desk,
// and as a number input sends them.
func TestFormReader_money(t *testing.T) {
	for in, want := range map[string]string{
		"120000": "120000", "120.000": "120000", "$ 120.000": "120000", "1.250.000": "1250000",
		"1.234,50": "1234.5", "120000,5": "120000.5", "120000.50": "120000.5", "12.5": "12.5", "-5.000": "-5000", "12.345": "12345",
	} {
		f := formOf(t, url.Values{"amount": {in}})
		got := f.Money("amount", true)
		assert.True(t, f.OK(), in)
		assert.True(t, decimal.RequireFromString(want).Equal(got), "%s: %s", in, got)
	}
	for _, in := range []string{"abc", "1.2.3,4,5", "1e5x", "1e5", "0.001", "0.500.000", "12.", ".5", "1234567890123456"} {
		f := formOf(t, url.Values{"amount": {in}})
		f.Money("amount", true)
		assert.Equal(t, "Write an amount of pesos, such as 120,000.", f.Errors()["amount"], in)
	}
}

// TestFormReader_fields: each field's own message, all at once.
func TestFormReader_fields(t *testing.T) {
	f := formOf(t, url.Values{"name": {""}, "court": {"x"}, "day": {"2026-13-01"}, "at": {"25:00"}, "notes": {strings.Repeat("a", 11)}})
	f.Text("name", true, 0)
	f.ID("court", true)
	f.Date("day", true)
	f.Clock("at", true)
	f.Text("notes", false, 10)
	assert.Equal(t, "Fill in this field.", f.Errors()["name"])
	assert.Equal(t, "Choose one of the list.", f.Errors()["court"])
	assert.Equal(t, "Write a date such as 2026-03-07.", f.Errors()["day"])
	assert.Equal(t, "Write a time such as 18:30.", f.Errors()["at"])
	assert.Equal(t, "Write at most 10 characters.", f.Errors()["notes"])

	f = formOf(t, url.Values{"court": {"3"}, "day": {"2026-03-07"}, "at": {"18:30"}, "paid": {"on"}})
	assert.Equal(t, int64(3), f.ID("court", true))
	assert.Equal(t, time.Date(2026, 3, 7, 0, 0, 0, 0, time.UTC), f.Date("day", true))
	assert.Equal(t, 18*time.Hour+30*time.Minute, f.Clock("at", true))
	assert.True(t, f.Check("paid"))
	assert.False(t, f.Check("other"))
	assert.True(t, f.OK())
}
