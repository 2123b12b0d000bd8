package mcp_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMCP_badValuesSweep is the tool endpoint's part of the bad-input
// sweep: every text argument of every tool gets a NUL, bytes that are not
// UTF-8 and text far over any limit, and every integer argument values
// beyond int64, each sent raw in a real session. Each is an invalid_input
// result, never an internal error and never stored (no booking, payment,
// cancellation, enrollment or event participant).
func TestMCP_badValuesSweep(t *testing.T) {
	t.Parallel()
	a := newClub(t)
	token := staffToken(a, "desk@test.club")
	cs := connect(t, a, token)
	tools, err := cs.ListTools(t.Context(), nil)
	require.NoError(t, err)
	written := func() int {
		var n int
		require.NoError(t, a.DB.GetContext(t.Context(), &n, `SELECT (SELECT count(*) FROM reservations) + (SELECT count(*) FROM payments)
			+ (SELECT count(*) FROM reservations WHERE cancelled_at IS NOT NULL) + (SELECT count(*) FROM enrollments)
			+ (SELECT count(*) FROM event_participants)`))
		return n
	}
	before := written()
	texts := map[string]string{ // the JSON text of each bad string value
		"nul":  `"bad\u0000value"`,
		"utf8": "\"bad\xff\xfevalue\"",
		"long": `"` + strings.Repeat("x", 10_000) + `"`,
		"wide": `"` + strings.Repeat("😀", 2_100) + `"`,
	}
	integers := []string{"9223372036854775808", "-9223372036854775809", "1e400"}
	calls := 0
	swept := map[string]bool{}
	for _, tool := range tools.Tools {
		schema, err := json.Marshal(tool.InputSchema)
		require.NoError(t, err)
		var s struct {
			Properties map[string]struct {
				Type  any `json:"type"`
				Types any `json:"types"`
			} `json:"properties"`
		}
		require.NoError(t, json.Unmarshal(schema, &s))
		for name, p := range s.Properties {
			kind := fmt.Sprint(p.Type, p.Types)
			var values []string
			switch {
			case strings.Contains(kind, "string"):
				for _, v := range texts {
					values = append(values, v)
				}
			case strings.Contains(kind, "integer"):
				values = integers
			}
			slices.Sort(values)
			for _, v := range values {
				calls++
				swept[tool.Name] = true
				body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":{%q:%s}}}`, calls, tool.Name, name, v)
				res := post(t, a, token, cs.ID(), body)
				require.Equal(t, http.StatusOK, res.StatusCode, "%s %s: %s", tool.Name, name, res)
				var msg struct {
					Result struct {
						IsError bool `json:"isError"`
						Content []struct{ Text string }
					}
				}
				require.NoError(t, json.Unmarshal([]byte(res.message(t)), &msg), res)
				require.True(t, msg.Result.IsError, "%s %s=%.40s: %s", tool.Name, name, v, res)
				var te toolError
				require.NoError(t, json.Unmarshal([]byte(msg.Result.Content[0].Text), &te))
				assert.Equal(t, "invalid_input", te.Code, "%s %s=%.40s: %+v", tool.Name, name, v, te)
			}
		}
	}
	assert.Greater(t, calls, 100, "the sweep reached the tools' arguments")
	for _, tool := range tools.Tools {
		assert.True(t, swept[tool.Name], "the sweep reached %s", tool.Name)
	}
	assert.Equal(t, before, written(), "nothing was written")
}
