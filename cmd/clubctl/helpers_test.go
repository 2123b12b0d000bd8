package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
)

// clubctl runs clubctl against the test app with token (through CLUBD_URL
// and CLUBD_TOKEN, as an operator would) and returns stdout.
func clubctl(t *testing.T, app *apptest.App, token string, args ...string) (string, error) {
	t.Helper()
	t.Setenv("CLUBD_URL", app.URL)
	t.Setenv("CLUBD_TOKEN", token)
	var out bytes.Buffer
	err := run(append([]string{"clubctl"}, args...), strings.NewReader(""), &out, io.Discard)
	return out.String(), err
}

// mustCtl is clubctl that fails the test when the command fails.
func mustCtl(t *testing.T, app *apptest.App, token string, args ...string) string {
	t.Helper()
	out, err := clubctl(t, app, token, args...)
	require.NoError(t, err, "clubctl %s", strings.Join(args, " "))
	return out
}

// decode decodes the JSON of body into v, numbers as json.Number: their
// text as the API sent it.
func decode(t *testing.T, body []byte, v any) {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	require.NoError(t, d.Decode(v), "%s", body)
}

// str is the text of a JSON value decoded by decode: "" for null.
func str(v any) string {
	if v == nil {
		return ""
	}
	return fmt.Sprint(v)
}

// records parses out as CSV.
func records(t *testing.T, out string) [][]string {
	t.Helper()
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	require.NoError(t, err, "%s", out)
	return recs
}

// assertTable checks that out is title (when not empty), then header and
// rows, each on its line as columns apart.
func assertTable(t *testing.T, out, title string, header []string, rows [][]string) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if title != "" {
		require.NotEmpty(t, lines)
		assert.Equal(t, title, lines[0])
		lines = lines[1:]
	}
	require.Len(t, lines, 1+len(rows), "%s", out)
	for i, r := range append([][]string{header}, rows...) {
		parts := make([]string, len(r))
		for j, f := range r {
			parts[j] = regexp.QuoteMeta(f)
		}
		assert.Regexp(t, "^"+strings.Join(parts, `\s\s+`)+`\s*$`, lines[i], "row %d", i)
	}
}
