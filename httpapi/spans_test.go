package httpapi

import (
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
)

func TestSplitSpan(t *testing.T) {
	t.Parallel()
	span := func(query string) (time.Time, time.Time, error) {
		return splitSpan(httptest.NewRequest("GET", "/?court_id=1&"+query, nil))
	}
	from, to, err := span("date=2026-03-07&checking=19:00&checkout=18:00")
	require.NoError(t, err, "the order of checking and checkout is the domain's rule")
	assert.True(t, to.Before(from))
	from, to, err = span("date=2026-03-07&checking=18:00&checkout=19:30")
	require.NoError(t, err)
	assert.Equal(t, [2]time.Time{wallAt(t, "2026-03-07 18:00"), wallAt(t, "2026-03-07 19:30")}, [2]time.Time{from, to})
	for _, end := range []string{"00:00", "24:00", "24:00:00"} {
		_, to, err := span("date=2026-03-07&checking=23:00&checkout=" + end)
		require.NoError(t, err, end)
		assert.Equal(t, wallAt(t, "2026-03-08 00:00"), to, "%s ends the date", end)
	}
	for query, want := range map[string]error{
		"date=2026-03-07&checking=18:00":                clubhouse.ErrIncomplete,
		"date=2026-03-07&checking=18h&checkout=19:00":   clubhouse.ErrInvalidDate,
		"date=0001-01-01&checking=18:00&checkout=19:00": clubhouse.ErrInvalidDate,
	} {
		_, _, err := span(query)
		require.ErrorIs(t, err, want, query)
	}
}

// wallAt returns the wall time s ("YYYY-MM-DD HH:MM").
func wallAt(tb testing.TB, s string) time.Time {
	tb.Helper()
	t, err := time.Parse("2006-01-02 15:04", s)
	require.NoError(tb, err)
	return t
}
