package web

import (
	"encoding/json"
	"io/fs"
	"maps"
	"net/http/httptest"
	"regexp"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func testCatalog(t testing.TB) *Catalog {
	t.Helper()
	c, err := LoadCatalog()
	require.NoError(t, err)
	return c
}

// placeholders returns the placeholders of each form of each message.
func placeholders(t *testing.T, file string) map[string][]string {
	t.Helper()
	b, err := fs.ReadFile(catalogFiles, file)
	require.NoError(t, err)
	var raw map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(b, &raw))
	out := map[string][]string{}
	for key, v := range raw {
		var m message
		require.NoError(t, json.Unmarshal(v, &m), "%s: %s", file, key)
		forms := map[string]string{"": m.text}
		if m.plural != nil {
			forms = m.plural
		}
		for form, text := range forms {
			names := []string{}
			for _, ph := range placeholder.FindAllStringSubmatch(text, -1) {
				names = append(names, ph[1])
			}
			slices.Sort(names)
			out[key+"#"+form] = names
		}
	}
	return out
}

func TestCatalog_parity(t *testing.T) {
	es := placeholders(t, "catalog/es-CO.json")
	en := placeholders(t, "catalog/en.json")
	assert.ElementsMatch(t, slices.Collect(maps.Keys(es)), slices.Collect(maps.Keys(en)), "the same keys and plural forms in both catalogs")
	for k, names := range es {
		if other, ok := en[k]; ok {
			assert.Equal(t, names, other, "placeholders of %s", k)
		}
	}
}

// TestCatalog_kitKeys proves that every key the kit's templates and code
// ask for is in the catalog.
func TestCatalog_kitKeys(t *testing.T) {
	p := testCatalog(t).Printer(Spanish, nil)
	keys := []string{"error.400.title", "error.401.title", "error.403.title", "error.404.title", "error.409.title",
		"error.413.title", "error.415.title", "error.422.title", "error.429.title", "error.500.title", "error.500.message",
		"error.503.title", "error.503.message", "err.csrf_token", "err.cross_site_request", "error.csrf_token.title",
		"error.cross_site_request.title", "lang.es-CO", "lang.en", "sign_in", "sign_out"}
	uses := regexp.MustCompile(`\.T "([^"]+)"`)
	files, err := fs.Glob(kitTemplates, "templates/*.html")
	require.NoError(t, err)
	for _, f := range files {
		b, err := fs.ReadFile(kitTemplates, f)
		require.NoError(t, err)
		for _, m := range uses.FindAllStringSubmatch(string(b), -1) {
			keys = append(keys, m[1])
		}
	}
	for _, k := range keys {
		assert.True(t, p.Has(k), "key %s", k)
	}
}

func TestPrinter_T(t *testing.T) {
	c := testCatalog(t)
	es, en := c.Printer(Spanish, nil), c.Printer(English, nil)
	for _, tc := range []struct {
		name string
		p    *Printer
		key  string
		args []any
		want string
	}{
		{"plain", es, "sign_in", nil, "Iniciar sesión"},
		{"plain en", en, "sign_out", nil, "Sign out"},
		{"placeholder", es, "signed_in_as", []any{"name", "Ana <b>"}, "Sesión iniciada como Ana <b>"},
		{"missing placeholder stays", en, "signed_in_as", nil, "Signed in as {name}"},
		{"plural one", es, "form.errors", []any{"count", 1}, "Hay 1 campo por corregir."},
		{"plural other", es, "form.errors", []any{"count", 3}, "Hay 3 campos por corregir."},
		{"plural zero", en, "form.errors", []any{"count", 0}, "0 fields need correcting."},
		{"missing key", en, "no.such.key", nil, "no.such.key"},
		{"a pointer's value, not its address", es, "signed_in_as", []any{"name", ptr("Ana")}, "Sesión iniciada como Ana"},
		{"a nil pointer is empty", es, "signed_in_as", []any{"name", (*string)(nil)}, "Sesión iniciada como "},
		{"a pointer to a count", es, "form.errors", []any{"count", ptr(1)}, "Hay 1 campo por corregir."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, tc.p.T(tc.key, tc.args...))
		})
	}
}

func TestCatalog_Negotiate(t *testing.T) {
	c := testCatalog(t)
	for _, tc := range []struct {
		accept, cookie, want string
	}{
		{"", "", "es-CO"},
		{"es-CO,es;q=0.9", "", "es-CO"},
		{"es", "", "es-CO"},
		{"es-MX", "", "es-CO"},
		{"en-US,en;q=0.9", "", "en"},
		{"en-GB", "", "en"},
		{"fr-FR,fr;q=0.9", "", "es-CO"},
		{"fr;q=1, en;q=0.8, es;q=0.5", "", "en"},
		{"es;q=0.2, en;q=0.9", "", "en"},
		{"en;q=0, es;q=0.1", "", "es-CO"},
		{"*", "", "es-CO"},
		{"garbage;;;q=x", "", "es-CO"},
		{"en-US", "es-CO", "es-CO"},
		{"es-CO", "en", "en"},
		{"en", "de", "en"},
	} {
		t.Run(tc.accept+"|"+tc.cookie, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/", nil)
			if tc.accept != "" {
				r.Header.Set("Accept-Language", tc.accept)
			}
			if tc.cookie != "" {
				r.Header.Set("Cookie", LangCookie+"="+tc.cookie)
			}
			assert.Equal(t, tc.want, c.Negotiate(r).String())
		})
	}
}

func ptr[T any](v T) *T { return &v }
