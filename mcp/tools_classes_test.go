package mcp_test

import (
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/testkit/fixture"
)

// TestMCP_classes: class_list and class_read show a class with its
// sessions and places left; class_enroll takes a place while one is left,
// then joins the waitlist, as the staff route does; a retry with its
// idempotency_key enrolls no one twice.
func TestMCP_classes(t *testing.T) {
	t.Parallel()
	a := newClub(t)
	cs := connect(t, a, staffToken(a, "desk@test.club"))
	list := rowsOK(t, cs, "class_list", map[string]any{"status": "scheduled"}, "classes")
	var class int64
	for _, c := range list {
		if c["title"] == "Tennis for beginners" {
			class = id(t, c)
		}
	}
	require.NotZero(t, class, "the demo class in %v", list)
	var read struct {
		ID         int64 `json:"id"`
		PlacesLeft int   `json:"places_left"`
		Sessions   []struct {
			Date          string `json:"date"`
			ReservationID *int64 `json:"reservation_id"`
		} `json:"sessions"`
	}
	callOK(t, cs, "class_read", map[string]any{"class_id": class}, &read)
	assert.Equal(t, class, read.ID)
	assert.Equal(t, 6, read.PlacesLeft)
	require.NotEmpty(t, read.Sessions)
	assert.NotNil(t, read.Sessions[0].ReservationID, "each session holds its court")
	assert.Equal(t, "not_found", callErr(t, cs, "class_read", map[string]any{"class_id": 987654}).Code)
	assert.Equal(t, "invalid_input", callErr(t, cs, "class_list", map[string]any{"from": "2026-13-01"}).Code)

	_, err := a.DB.ExecContext(t.Context(), `UPDATE training_classes SET max_capacity = 1 WHERE id = $1`, class)
	require.NoError(t, err)
	clients := rowsOK(t, cs, "client_search", map[string]any{"query": "@demo.club"}, "clients")
	require.GreaterOrEqual(t, len(clients), 2)
	first, second := id(t, clients[0]), id(t, clients[1])
	enroll := map[string]any{"class_id": class, "client_id": first, "idempotency_key": "enroll-first"}
	var e, again map[string]any
	callOK(t, cs, "class_enroll", enroll, &e)
	assert.Equal(t, "pending", e["status"], "a place is left: %v", e)
	assert.Nil(t, e["waitlist_position"])
	callOK(t, cs, "class_enroll", enroll, &again)
	assert.Equal(t, e, again, "the retry answers the first enrollment")
	var w map[string]any
	callOK(t, cs, "class_enroll", map[string]any{"class_id": class, "client_id": second}, &w)
	assert.Equal(t, "waitlisted", w["status"], "the class is full: %v", w)
	assert.Equal(t, "1", fmt.Sprint(w["waitlist_position"]))
	callOK(t, cs, "class_read", map[string]any{"class_id": class}, &read)
	assert.Zero(t, read.PlacesLeft)

	dup := callErr(t, cs, "class_enroll", map[string]any{"class_id": class, "client_id": first})
	assert.Equal(t, "conflict", dup.Code)
	assert.Equal(t, "already enrolled", dup.Error)
	assert.Equal(t, "not_found", callErr(t, cs, "class_enroll", map[string]any{"class_id": 987654, "client_id": first}).Code)
	assert.Equal(t, "invalid_input", callErr(t, cs, "class_enroll", map[string]any{"class_id": class}).Code, "client_id is required")
	var n int
	require.NoError(t, a.DB.GetContext(t.Context(), &n, `SELECT count(*) FROM enrollments WHERE class_id = $1`, class))
	assert.Equal(t, 2, n, "one enrollment each")
}

// TestMCP_classEnrollRace: clients enrolled at once in a class of two
// places take the two places and queue on the waitlist in distinct
// positions; the class never holds more than its places.
func TestMCP_classEnrollRace(t *testing.T) {
	t.Parallel()
	a := newClub(t)
	cs := connect(t, a, staffToken(a, "desk@test.club"))
	var class int64
	require.NoError(t, a.DB.GetContext(t.Context(), &class, `UPDATE training_classes SET max_capacity = 2
		WHERE id = (SELECT min(id) FROM training_classes) RETURNING id`))
	const n = 8
	club := fixture.New(t, a.DB.DB, fixture.Options{})
	clients := make([]int64, n)
	for i := range clients {
		clients[i] = club.Client("Racer", fmt.Sprint("No. ", i+1)).ID
	}
	var wg sync.WaitGroup
	results := make([]*sdk.CallToolResult, n)
	errs := make([]error, n)
	for i, client := range clients {
		wg.Go(func() { // FailNow belongs to the test's goroutine: the results are checked after
			results[i], errs[i] = cs.CallTool(t.Context(), &sdk.CallToolParams{Name: "class_enroll",
				Arguments: map[string]any{"class_id": class, "client_id": client}})
		})
	}
	wg.Wait()
	statuses := map[string]int{}
	positions := map[string]bool{}
	for i, res := range results {
		require.NoError(t, errs[i])
		require.False(t, res.IsError, "%v", res.Content)
		var e map[string]any
		require.NoError(t, json.Unmarshal([]byte(res.Content[0].(*sdk.TextContent).Text), &e))
		statuses[fmt.Sprint(e["status"])]++
		if e["status"] == "waitlisted" {
			positions[fmt.Sprint(e["waitlist_position"])] = true
		}
	}
	assert.Equal(t, map[string]int{"pending": 2, "waitlisted": n - 2}, statuses)
	assert.Len(t, positions, n-2, "one place in the queue each")
}
