package panel

import (
	"bytes"
	"compress/gzip"
	"net/http"
	"net/http/httptest"
	"path"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// assetLink finds the stylesheets and modules a page links.
var assetLink = regexp.MustCompile(`(?:href|src)="(/panel/static/[^"]+)"`)

// TestAssets_budget: what a page of the panel loads (every page has the
// same layout, stylesheets and modules) stays within the budget of
// 40 KB of JavaScript and 30 KB of CSS, gzipped, and comes from clubd
// itself: no other host.
func TestAssets_budget(t *testing.T) {
	p, err := New(Options{})
	require.NoError(t, err)
	rec := httptest.NewRecorder()
	p.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/panel/login", nil))
	require.Equal(t, http.StatusOK, rec.Code)
	page := rec.Body.String()
	assert.NotRegexp(t, `(?:href|src)="(?:https?:)?//`, page, "nothing from another host")
	sizes := map[string]int{}
	links := assetLink.FindAllStringSubmatch(page, -1)
	require.NotEmpty(t, links)
	for _, m := range links {
		rec := httptest.NewRecorder()
		p.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, m[1], nil))
		require.Equal(t, http.StatusOK, rec.Code, m[1])
		var buf bytes.Buffer
		z, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		require.NoError(t, err)
		_, err = z.Write(rec.Body.Bytes())
		require.NoError(t, err)
		require.NoError(t, z.Close())
		sizes[path.Ext(m[1])] += buf.Len()
	}
	t.Logf("a page loads, gzipped: js %d B, css %d B", sizes[".js"], sizes[".css"])
	assert.Positive(t, sizes[".js"])
	assert.LessOrEqual(t, sizes[".js"], 40*1024, "JavaScript budget")
	assert.LessOrEqual(t, sizes[".css"], 30*1024, "CSS budget")
}
