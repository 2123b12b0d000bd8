package club_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/club"
	"github.com/clubhouse-go/clubhouse/internal/dbtest"
	"github.com/clubhouse-go/clubhouse/migrations"
)

// TestNew: the services share the club's zone and clock; the ledger and
// its poster exist only with an accounting database.
func TestNew(t *testing.T) {
	t.Parallel()
	bogota, err := time.LoadLocation("America/Bogota")
	require.NoError(t, err)
	db := dbtest.New(t)
	s := club.New(db.DB, club.Options{Zone: bogota})
	assert.Equal(t, bogota, s.Zone)
	require.NotNil(t, s.Now)
	for name, v := range map[string]any{"Catalogs": s.Catalogs, "Clients": s.Clients, "Tariffs": s.Tariffs,
		"Bookings": s.Bookings, "Discounts": s.Discounts, "Payments": s.Payments, "Classes": s.Classes, "Tickets": s.Tickets,
		"Expirer": s.Expirer} {
		assert.NotNil(t, v, name)
	}
	assert.Nil(t, s.Ledger, "no accounting database, no ledger")
	assert.Nil(t, s.Poster)

	acc, _ := dbtest.NewWith(t, migrations.Accounting())
	s = club.New(db.DB, club.Options{Accounting: acc.DB})
	assert.NotNil(t, s.Ledger)
	assert.NotNil(t, s.Poster)
	assert.Equal(t, time.UTC, s.Zone, "UTC by default")
}

// TestServices_WithDefaults: a front door given no services still has a
// zone and a clock, and never changes the value it was given.
func TestServices_WithDefaults(t *testing.T) {
	t.Parallel()
	var none *club.Services
	d := none.WithDefaults()
	assert.Equal(t, time.UTC, d.Zone)
	require.NotNil(t, d.Now)

	given := &club.Services{}
	assert.NotSame(t, given, given.WithDefaults())
	assert.Nil(t, given.Zone, "the given value is not changed")
}
