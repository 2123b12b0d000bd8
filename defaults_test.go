package clubhouse_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/clubhouse-go/clubhouse"
)

// TestSetDefaults: what is missing gets its default, what is given stays,
// and a nil pointer is skipped.
func TestSetDefaults(t *testing.T) {
	t.Parallel()
	var zone *time.Location
	var now func() time.Time
	clubhouse.SetDefaults(&zone, &now)
	assert.Equal(t, time.UTC, zone)
	assert.NotNil(t, now)

	bogota := time.FixedZone("-05", -5*3600)
	fixed := time.Date(2026, 3, 1, 10, 0, 0, 0, bogota)
	zone, now = bogota, func() time.Time { return fixed }
	clubhouse.SetDefaults(&zone, &now)
	assert.Equal(t, bogota, zone)
	assert.Equal(t, fixed, now())
}
