package eventlog_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/eventlog"
	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
)

// TestLog_seek: the cursor for a time lies just before the first event at
// or after it, also once the log's start is purged; before every event it
// is the log's start, after every event its end; a client may not seek.
func TestLog_seek(t *testing.T) {
	t.Parallel()
	db := dbtest.New(t)
	start := time.Date(2026, 12, 6, 15, 0, 0, 0, time.UTC)
	at := start
	log := eventlog.New(db.DB, eventlog.Options{Now: func() time.Time { return at }, Retention: 30 * time.Hour})
	for h := range 40 { // one event an hour, the eleventh one an hour early (a long transaction)
		at = start.Add(time.Duration(h) * time.Hour)
		if h == 10 {
			at = at.Add(-90 * time.Minute)
		}
		record(t, log, db.DB, entry("booking.created", h))
	}
	first := func(when time.Time) []int {
		t.Helper()
		c, err := log.Seek(t.Context(), desk, when)
		require.NoError(t, err)
		page, err := log.List(t.Context(), desk, eventlog.Query{After: c, Limit: 2})
		require.NoError(t, err)
		return ids(t, page)
	}
	assert.Equal(t, []int{0, 1}, first(start.Add(-time.Hour)))
	assert.Equal(t, []int{0, 1}, first(start))
	assert.Equal(t, []int{21, 22}, first(start.Add(20*time.Hour+time.Minute)))
	assert.Equal(t, []int{39}, first(start.Add(39*time.Hour)))
	assert.Empty(t, first(start.Add(40*time.Hour)))
	assert.Equal(t, []int{9, 10}, first(start.Add(8*time.Hour+30*time.Minute)), "the event out of order")

	at = start.Add(40 * time.Hour)
	_, err := log.Purge(t.Context())
	require.NoError(t, err)
	assert.Equal(t, []int{11, 12}, first(start), "from the oldest event kept")
	assert.Equal(t, []int{12, 13}, first(start.Add(12*time.Hour)))
	_, err = log.Seek(t.Context(), member, start)
	assert.ErrorIs(t, err, clubhouse.ErrForbidden)
}
