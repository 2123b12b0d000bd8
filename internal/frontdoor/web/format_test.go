package web

import (
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPrinter_Money(t *testing.T) {
	c := testCatalog(t)
	es, en := c.Printer(Spanish, nil), c.Printer(English, nil)
	for _, tc := range []struct {
		amount, es, en string
	}{
		{"120000", "$ 120.000", "$120,000"},
		{"120000.00", "$ 120.000", "$120,000"},
		{"1234.5", "$ 1.234,50", "$1,234.50"},
		{"-5000", "-$ 5.000", "-$5,000"},
		{"-0.5", "-$ 0,50", "-$0.50"},
		{"0", "$ 0", "$0"},
		{"999", "$ 999", "$999"},
		{"1000", "$ 1.000", "$1,000"},
		{"1234567.891", "$ 1.234.567,89", "$1,234,567.89"},
		{"0.005", "$ 0,01", "$0.01"},
		{"0.004", "$ 0", "$0"},
		{"-0.004", "$ 0", "$0"},
	} {
		t.Run(tc.amount, func(t *testing.T) {
			d := decimal.RequireFromString(tc.amount)
			assert.Equal(t, strings.ReplaceAll(tc.es, " ", nbsp), es.Money(d), "es-CO, a no-break space after $")
			assert.Equal(t, tc.en, en.Money(d), "en")
		})
	}
}

func TestPrinter_DateTime(t *testing.T) {
	bogota, err := time.LoadLocation("America/Bogota")
	require.NoError(t, err)
	c := testCatalog(t)
	es, en := c.Printer(Spanish, bogota), c.Printer(English, bogota)
	for _, tc := range []struct {
		at                   time.Time
		esDate, enDate, hhmm string
	}{
		{time.Date(2026, 12, 7, 18, 30, 0, 0, bogota), "lunes 7 de diciembre de 2026", "Monday, December 7, 2026", "18:30"},
		// 02:15 UTC on the 8th is still the 7th in Bogota (UTC-5).
		{time.Date(2026, 12, 8, 2, 15, 0, 0, time.UTC), "lunes 7 de diciembre de 2026", "Monday, December 7, 2026", "21:15"},
		{time.Date(2027, 1, 1, 0, 5, 0, 0, bogota), "viernes 1 de enero de 2027", "Friday, January 1, 2027", "00:05"},
		{time.Date(2026, 9, 16, 9, 0, 0, 0, bogota), "miércoles 16 de septiembre de 2026", "Wednesday, September 16, 2026", "09:00"},
		{time.Date(2026, 8, 1, 23, 59, 0, 0, bogota), "sábado 1 de agosto de 2026", "Saturday, August 1, 2026", "23:59"},
	} {
		t.Run(tc.esDate, func(t *testing.T) {
			assert.Equal(t, tc.esDate, es.Date(tc.at))
			assert.Equal(t, tc.enDate, en.Date(tc.at))
			assert.Equal(t, tc.hhmm, es.Time(tc.at))
			assert.Equal(t, tc.hhmm, en.Time(tc.at))
		})
	}
}

// TestPrinter_WallDateTime: a wall time shows as the club's clock read
// it, whatever the printer's zone; Date and Time would move it.
func TestPrinter_WallDateTime(t *testing.T) {
	bogota, err := time.LoadLocation("America/Bogota")
	require.NoError(t, err)
	c := testCatalog(t)
	es, en := c.Printer(Spanish, bogota), c.Printer(English, bogota)
	wall := time.Date(2026, 12, 8, 2, 15, 0, 0, time.UTC) // 02:15 on the 8th on the club's clock
	assert.Equal(t, "martes 8 de diciembre de 2026", es.WallDate(wall))
	assert.Equal(t, "Tuesday, December 8, 2026", en.WallDate(wall))
	assert.Equal(t, "02:15", es.WallTime(wall))
	assert.Equal(t, "lunes 7 de diciembre de 2026", es.Date(wall), "Date moves it to Bogota")
}
