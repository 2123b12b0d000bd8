package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/eventlog"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
)

// TestEventsLog_route: the staff read the event log a page at a time,
// following next_cursor, filtered by type; an accountant reads only
// payments and periods; a client is refused; a bad cursor, type or limit
// is 400.
func TestEventsLog_route(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	tx, err := app.DB.BeginTxx(t.Context(), nil)
	require.NoError(t, err)
	require.NoError(t, app.Services.EventLog.Record(t.Context(), tx,
		eventlog.Entry{Type: "booking.created", Actor: "desk@test.club", Payload: map[string]any{"id": 1, "court_id": 2}},
		eventlog.Entry{Type: "payment.completed", Actor: "system", Payload: map[string]any{"id": 7, "amount": 60000}},
		eventlog.Entry{Type: "booking.cancelled", Actor: "ana@test.club", Payload: map[string]any{"id": 1}}))
	require.NoError(t, tx.Commit())
	admin := app.AsAdmin()

	type page struct {
		Data []struct {
			ID, Type, Actor, Cursor, Timestamp string
			Data                               map[string]any
		}
		NextCursor string `json:"next_cursor"`
	}
	var first page
	admin.Get("/api/admin/events-log?limit=2").Status(t, http.StatusOK).JSON(t, &first)
	require.Len(t, first.Data, 2)
	assert.Equal(t, "booking.created", first.Data[0].Type)
	assert.Equal(t, "desk@test.club", first.Data[0].Actor)
	assert.EqualValues(t, 2, first.Data[0].Data["court_id"])
	assert.Len(t, first.Data[0].ID, 36)
	assert.NotEmpty(t, first.Data[0].Timestamp)
	assert.Equal(t, first.Data[1].Cursor, first.NextCursor)
	var rest page
	admin.Get("/api/admin/events-log?limit=2&after="+first.NextCursor).Status(t, http.StatusOK).JSON(t, &rest)
	require.Len(t, rest.Data, 1)
	assert.Equal(t, "booking.cancelled", rest.Data[0].Type)
	var none page
	admin.Get("/api/admin/events-log?after="+rest.NextCursor).Status(t, http.StatusOK).JSON(t, &none)
	assert.Empty(t, none.Data)
	assert.Equal(t, rest.NextCursor, none.NextCursor, "an empty page keeps the cursor")

	var bookings page
	admin.Get("/api/admin/events-log?type=booking.").Status(t, http.StatusOK).JSON(t, &bookings)
	assert.Len(t, bookings.Data, 2)
	var books page
	app.AsAccounting().Get("/api/admin/events-log").Status(t, http.StatusOK).JSON(t, &books)
	require.Len(t, books.Data, 1, "an accountant reads payments and periods")
	assert.Equal(t, "payment.completed", books.Data[0].Type)
	app.AsClient().Get("/api/admin/events-log").Status(t, http.StatusForbidden)
	app.Anonymous().Get("/api/admin/events-log").Status(t, http.StatusUnauthorized)
	for _, q := range []string{"after=abc", "after=0", "after=-3", "after=999", "limit=0x", "limit=-1", "limit=1001", "type=Booking", "type=a%25"} {
		admin.Get("/api/admin/events-log?"+q).Status(t, http.StatusBadRequest).Error(t, "invalid query")
	}
}
