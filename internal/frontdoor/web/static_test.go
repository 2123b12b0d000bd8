package web

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"net/http/httptest"
	"path"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAssets(t *testing.T) {
	door := fstest.MapFS{"panel.js": {Data: []byte("export const x = 1;\n")}, "base.css": {Data: []byte("body{}")}}
	a, err := NewAssets("/panel/static", door)
	require.NoError(t, err)

	css, err := a.URL("base.css")
	require.NoError(t, err)
	assert.Regexp(t, `^/panel/static/base\.[0-9a-f]{8}\.css$`, css)
	sum := sha256.Sum256([]byte("body{}"))
	assert.Equal(t, "/panel/static/base."+hex.EncodeToString(sum[:4])+".css", css, "the front door's base.css replaces the kit's")
	js, err := a.URL("panel.js")
	require.NoError(t, err)
	kitJS, err := a.URL("enhance.js")
	require.NoError(t, err)
	_, err = a.URL("missing.js")
	assert.Error(t, err)

	for _, tc := range []struct {
		path, contentType string
		status            int
	}{
		{css, "text/css; charset=utf-8", 200},
		{js, "text/javascript; charset=utf-8", 200},
		{kitJS, "text/javascript; charset=utf-8", 200},
		{"/panel/static/panel.js", "", 404},
		{"/panel/static/panel.00000000.js", "", 404},
		{"/elsewhere/" + path.Base(js), "", 404},
	} {
		t.Run(tc.path, func(t *testing.T) {
			rec := httptest.NewRecorder()
			a.ServeHTTP(rec, httptest.NewRequest("GET", tc.path, nil))
			assert.Equal(t, tc.status, rec.Code)
			if tc.status == 200 {
				assert.Equal(t, tc.contentType, rec.Header().Get("Content-Type"))
				assert.Equal(t, "public, max-age=31536000, immutable", rec.Header().Get("Cache-Control"))
				assert.NotEmpty(t, rec.Body.Bytes())
			}
		})
	}

	_, err = NewAssets("/x/", fstest.MapFS{"notes.txt": {Data: []byte("x")}})
	assert.ErrorContains(t, err, "not served")
}

// TestAssets_budget holds the embedded assets to the budget of issue 28,
// per page at most 40 KB of JavaScript and 30 KB of CSS, gzipped: all
// the kit's files together, an upper bound of what any page loads.
func TestAssets_budget(t *testing.T) {
	sizes := map[string]int{}
	err := fs.WalkDir(staticFiles, "static", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(staticFiles, p)
		if err != nil {
			return err
		}
		var buf bytes.Buffer
		z, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		if _, err := z.Write(b); err != nil {
			return err
		}
		if err := z.Close(); err != nil {
			return err
		}
		sizes[path.Ext(p)] += buf.Len()
		return nil
	})
	require.NoError(t, err)
	t.Logf("gzipped: js %d B, css %d B", sizes[".js"], sizes[".css"])
	assert.LessOrEqual(t, sizes[".js"], 40*1024, "JavaScript budget")
	assert.LessOrEqual(t, sizes[".css"], 30*1024, "CSS budget")
}
