package web

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net/http"
	"path"
	"slices"
	"strings"
)

//go:embed static
var staticFiles embed.FS

// Assets serves embedded stylesheets, modules and images under
// content-hashed names (base.css as base.3f2a9c1e.css: the first 8 hex
// digits of its SHA-256), so a browser keeps each for a year and a new
// build is a new name.
type Assets struct {
	prefix string
	byName map[string]string // file name -> hashed name
	files  map[string]asset  // hashed name -> file
}

type asset struct {
	body        []byte
	contentType string
}

var contentTypes = map[string]string{
	".css":         "text/css; charset=utf-8",
	".js":          "text/javascript; charset=utf-8",
	".svg":         "image/svg+xml",
	".png":         "image/png",
	".webmanifest": "application/manifest+json",
}

// NewAssets returns the assets under the URL path prefix (such as
// "/panel/static/"): the kit's own (base.css, enhance.js) and the files
// at the root of each fsys, a front door's own; a later file of the
// same name replaces an earlier. It returns an error when a file cannot
// be read or its type is not one served (.css, .js, .svg, .png,
// .webmanifest).
func NewAssets(prefix string, fsys ...fs.FS) (*Assets, error) {
	kit, err := fs.Sub(staticFiles, "static")
	if err != nil {
		return nil, err
	}
	a := &Assets{prefix: strings.TrimSuffix(prefix, "/") + "/", byName: map[string]string{}, files: map[string]asset{}}
	for _, f := range append([]fs.FS{kit}, fsys...) {
		entries, err := fs.ReadDir(f, ".")
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			if e.IsDir() {
				continue
			}
			if err := a.add(f, e.Name()); err != nil {
				return nil, err
			}
		}
	}
	return a, nil
}

func (a *Assets) add(f fs.FS, name string) error {
	ext := path.Ext(name)
	ct, ok := contentTypes[ext]
	if !ok {
		return fmt.Errorf("asset %s: type %q is not served", name, ext)
	}
	body, err := fs.ReadFile(f, name)
	if err != nil {
		return fmt.Errorf("asset %s: %w", name, err)
	}
	sum := sha256.Sum256(body)
	hashed := strings.TrimSuffix(name, ext) + "." + hex.EncodeToString(sum[:4]) + ext
	if old, ok := a.byName[name]; ok {
		delete(a.files, old)
	}
	a.byName[name] = hashed
	a.files[hashed] = asset{body: body, contentType: ct}
	return nil
}

// URL returns the path of the named file under its hashed name, for the
// templates' asset function. It returns an error for an unknown file, so
// a page naming one fails its tests rather than a browser.
func (a *Assets) URL(name string) (string, error) {
	hashed, ok := a.byName[name]
	if !ok {
		return "", fmt.Errorf("no asset %q", name)
	}
	return a.prefix + hashed, nil
}

// URLs returns the path of every file under its hashed name, sorted: what
// a service worker keeps for a page opened offline.
func (a *Assets) URLs() []string {
	out := make([]string, 0, len(a.files))
	for hashed := range a.files {
		out = append(out, a.prefix+hashed)
	}
	slices.Sort(out)
	return out
}

// ServeHTTP serves a file by its hashed name under the prefix, immutable
// for a year; any other path is 404.
func (a *Assets) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f, ok := a.files[strings.TrimPrefix(r.URL.Path, a.prefix)]
	if !ok || !strings.HasPrefix(r.URL.Path, a.prefix) {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Content-Type", f.contentType)
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	h.Set("X-Content-Type-Options", "nosniff")
	if r.Method == http.MethodHead {
		return
	}
	_, _ = w.Write(f.body)
}
