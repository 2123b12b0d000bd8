package tickets_test

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/tickets"
)

// TestPackage_Price: each documented outcome of the pure quote rule.
func TestPackage_Price(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 2, 15, 0, 0, 0, time.UTC)
	active := tickets.Package{ID: 7, TicketCount: 10, UnitPrice: decimal.RequireFromString("12500.50"), IsActive: true, ProgramActive: true}
	for _, tc := range []struct {
		name      string
		pkg       func(tickets.Package) tickets.Package
		count     clubhouse.Optional[int]
		wantCount int
		wantTotal string
		want      error
	}{
		{"the package's count", nil, clubhouse.Optional[int]{}, 10, "125005", nil},
		{"another count", nil, clubhouse.Some(3), 3, "37501.5", nil},
		{"the most tickets", nil, clubhouse.Some(tickets.MaxTicketCount), 1000, "12500500", nil},
		{"free tickets", func(p tickets.Package) tickets.Package { p.UnitPrice = decimal.Zero; return p }, clubhouse.Some(4), 4, "0", nil},
		{"zero tickets", nil, clubhouse.Some(0), 0, "", clubhouse.ErrInvalidData},
		{"too many tickets", nil, clubhouse.Some(tickets.MaxTicketCount + 1), 0, "", clubhouse.ErrInvalidData},
		{"a null count", nil, clubhouse.Optional[int]{Set: true}, 0, "", clubhouse.ErrIncomplete},
		{"inactive package", func(p tickets.Package) tickets.Package { p.IsActive = false; return p }, clubhouse.Optional[int]{}, 0, "", tickets.ErrPackageInactive},
		{"inactive program", func(p tickets.Package) tickets.Package { p.ProgramActive = false; return p }, clubhouse.Optional[int]{}, 0, "", tickets.ErrProgramInactive},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := active
			if tc.pkg != nil {
				p = tc.pkg(p)
			}
			q, err := p.Price(tc.count, now)
			require.ErrorIs(t, err, tc.want)
			if tc.want != nil {
				return
			}
			assert.Equal(t, int64(7), q.PackageID)
			assert.Equal(t, tc.wantCount, q.TicketCount)
			assert.True(t, p.UnitPrice.Equal(q.UnitPrice))
			assert.Equal(t, tc.wantTotal, q.Total.String())
			assert.Equal(t, now, q.CreatedAt)
			assert.Equal(t, now.Add(15*time.Minute), q.ValidUntil, "a quote holds for 15 minutes")
		})
	}
}

// FuzzPackage_Price: an accepted quote is never negative, is exactly the
// unit price times the count, and keeps two decimals.
func FuzzPackage_Price(f *testing.F) {
	f.Add(int64(1250050), 10)
	f.Add(int64(0), 1)
	f.Add(int64(999999999999), 1000)
	f.Fuzz(func(t *testing.T, cents int64, count int) {
		if cents < 0 || cents >= 1e12 {
			t.Skip()
		}
		p := tickets.Package{ID: 1, TicketCount: 1, UnitPrice: decimal.New(cents, -2), IsActive: true, ProgramActive: true}
		q, err := p.Price(clubhouse.Some(count), time.Now())
		if count < 1 || count > tickets.MaxTicketCount {
			require.ErrorIs(t, err, clubhouse.ErrInvalidData)
			return
		}
		require.NoError(t, err)
		assert.False(t, q.Total.IsNegative())
		assert.True(t, q.Total.Equal(decimal.New(cents*int64(count), -2)), "%s x %d = %s", p.UnitPrice, count, q.Total)
		assert.True(t, q.Total.Equal(q.Total.Round(2)))
	})
}
