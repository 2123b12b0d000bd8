package httpapi_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/eventlog"
	"github.com/clubhouse-go/clubhouse/httpapi"
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

// TestEventsLog_payloads: what staff do through the API writes its events,
// each payload the resource as the API answered it (a booking made on the
// fast path too, whose id and status the database chose), and every event
// matches the schema of its type in the API description.
func TestEventsLog_payloads(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	c := newClub(t, app)
	admin := app.AsAdmin()
	made := admin.Post("/api/admin/booking", c.slot(c.courtA, "2026-03-02 10:00", "2026-03-02 11:00")).Status(t, http.StatusCreated).Object(t)
	id := int64(made["id"].(float64))
	moved := admin.Patch(path("/api/admin/booking/%d", id), map[string]any{"court_id": c.courtB}).
		Status(t, http.StatusOK).Object(t)
	paid := admin.Post("/api/admin/payments", map[string]any{"reservation_id": id, "amount": 60000, "status": true}).
		Status(t, http.StatusCreated).Object(t)
	admin.Post(path("/api/admin/booking/%d/cancel", id), map[string]any{"reason": "rain"}).Status(t, http.StatusOK)

	var page struct {
		Data []struct {
			ID, Type, Actor, Timestamp, Cursor string
			Data                               map[string]any
		}
	}
	admin.Get("/api/admin/events-log").Status(t, http.StatusOK).JSON(t, &page)
	var types []string
	for _, e := range page.Data {
		types = append(types, e.Type)
		assert.Equal(t, "admin@test.club", e.Actor, e.Type)
	}
	require.Equal(t, []string{"booking.created", "booking.updated", "payment.created", "payment.completed", "booking.cancelled"}, types)
	sameResource(t, made, page.Data[0].Data)
	sameResource(t, moved, page.Data[1].Data)
	sameResource(t, paid, page.Data[3].Data)
	assert.NotNil(t, page.Data[4].Data["cancelled_at"])

	doc, err := httpapi.OpenAPI()
	require.NoError(t, err)
	for _, typ := range httpapi.EventTypes() {
		require.Contains(t, doc.Components.Schemas, httpapi.EventSchemaPrefix+typ)
	}
	raw := admin.Get("/api/admin/events-log").Status(t, http.StatusOK)
	var events struct{ Data []map[string]any }
	raw.JSON(t, &events)
	for _, e := range events.Data {
		schema := doc.Components.Schemas[httpapi.EventSchemaPrefix+e["type"].(string)]
		require.NotNil(t, schema, e["type"])
		assert.NoError(t, schema.Value.VisitJSON(e), "%s: %v", e["type"], e["data"])
	}
}

// sameResource asserts that an event's data is the resource the API
// answered: the same fields with the same values, times the same
// instants however written, in the objects it holds too.
func sameResource(t *testing.T, answered, data map[string]any) {
	t.Helper()
	for k, want := range answered {
		got, ok := data[k]
		if !ok {
			continue // a field of the answer beside the resource (a created booking's price)
		}
		switch w := want.(type) {
		case map[string]any:
			g, ok := got.(map[string]any)
			require.True(t, ok, "%s: %v is no object", k, got)
			sameResource(t, w, g)
			continue
		case string:
			if wt, err := time.Parse(time.RFC3339Nano, w); err == nil {
				gt, err := time.Parse(time.RFC3339Nano, got.(string))
				require.NoError(t, err, k)
				assert.True(t, wt.Equal(gt), "%s: %s, not %s", k, got, want)
				continue
			}
		}
		assert.Equal(t, want, got, k)
	}
	for k := range data {
		assert.Contains(t, answered, k, "the event's data has no field the answer lacks")
	}
}
