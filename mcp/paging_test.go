package mcp_test

import (
	"net/http"
	"net/url"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestPaging_bothDoors: a page out of bounds is refused by the list's
// service, once, so the HTTP route and the tool answer the same message,
// and a limit of 0 is the default page at both.
func TestPaging_bothDoors(t *testing.T) {
	t.Parallel()
	a := newClub(t)
	cs := connect(t, a, staffToken(a, "desk@test.club"))
	admin := a.AsAdmin()
	lists := []struct{ tool, route string }{
		{"client_search", "/api/admin/clients?search=a"},
		{"booking_list", "/api/admin/booking"},
		{"event_list", "/api/admin/events"},
	}
	for _, tc := range []struct {
		name          string
		limit, offset int64
		want          map[string]string // per tool
	}{
		{"negative limit", -1, 0, map[string]string{
			"client_search": "limit must be an integer from 1 to 1000, not -1.",
			"booking_list":  "limit must be an integer from 1 to 5000, not -1.",
			"event_list":    "limit must be an integer from 1 to 1000, not -1."}},
		{"limit above the maximum", 5001, 0, map[string]string{
			"client_search": "limit must be an integer from 1 to 1000, not 5001.",
			"booking_list":  "limit must be an integer from 1 to 5000, not 5001.",
			"event_list":    "limit must be an integer from 1 to 1000, not 5001."}},
		{"negative offset", 10, -1, map[string]string{
			"client_search": "offset must be an integer from 0 to 2147483647, not -1.",
			"booking_list":  "offset must be an integer from 0 to 2147483647, not -1.",
			"event_list":    "offset must be an integer from 0 to 2147483647, not -1."}},
		{"offset above the maximum", 10, 1 << 31, map[string]string{
			"client_search": "offset must be an integer from 0 to 2147483647, not 2147483648.",
			"booking_list":  "offset must be an integer from 0 to 2147483647, not 2147483648.",
			"event_list":    "offset must be an integer from 0 to 2147483647, not 2147483648."}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, l := range lists {
				args := map[string]any{"limit": tc.limit, "offset": tc.offset}
				if l.tool == "client_search" {
					args["query"] = "a"
				}
				e := callErr(t, cs, l.tool, args)
				assert.Equal(t, "invalid_input", e.Code, l.tool)
				assert.Equal(t, "invalid query", e.Error, l.tool)
				assert.Equal(t, tc.want[l.tool], e.Message, l.tool)

				q := url.Values{"limit": {strconv.FormatInt(tc.limit, 10)}, "offset": {strconv.FormatInt(tc.offset, 10)}}
				var body struct{ Error, Message string }
				admin.Get(l.route+sep(l.route)+q.Encode()).Status(t, http.StatusBadRequest).JSON(t, &body)
				assert.Equal(t, "invalid query", body.Error, l.route)
				assert.Equal(t, tc.want[l.tool], body.Message, l.route)
			}
		})
	}
	t.Run("limit 0 is the default page", func(t *testing.T) {
		for _, l := range lists {
			args := map[string]any{"limit": 0}
			if l.tool == "client_search" {
				args["query"] = "a"
			}
			_, isErr := call(t, cs, l.tool, args)
			assert.False(t, isErr, l.tool)
			admin.Get(l.route+sep(l.route)+"limit=0").Status(t, http.StatusOK)
		}
	})
}

func sep(route string) string {
	if u, _ := url.Parse(route); u.RawQuery != "" {
		return "&"
	}
	return "?"
}
