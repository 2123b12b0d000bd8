package web

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"time"

	"golang.org/x/text/language"
)

//go:embed catalog/*.json
var catalogFiles embed.FS

// The languages of the catalog, the default first: Spanish as spoken in
// Colombia, the club's, then English.
var (
	Spanish = language.MustParse("es-CO")
	English = language.English
)

// message is one entry of a catalog: a plain text, or the forms of a
// plural ("one", "other") chosen by the argument named count.
type message struct {
	text   string
	plural map[string]string
}

func (m *message) UnmarshalJSON(b []byte) error {
	if err := json.Unmarshal(b, &m.text); err == nil {
		return nil
	}
	if err := json.Unmarshal(b, &m.plural); err != nil {
		return fmt.Errorf("a message is a string or an object of plural forms: %w", err)
	}
	if m.plural["one"] == "" || m.plural["other"] == "" {
		return fmt.Errorf("a plural message needs the forms one and other")
	}
	return nil
}

// Catalog holds the messages people read, one set per language, read
// from the embedded files catalog/<tag>.json: a key names either a text
// or an object of plural forms {"one": ..., "other": ...}, and {name} in
// a text is a named placeholder. JSON rather than TOML or gettext because
// the standard library reads it, and a text editor and a translator's
// tool both open it.
type Catalog struct {
	tags     []language.Tag
	messages []map[string]message
	matcher  language.Matcher
}

// LoadCatalog reads the embedded catalogs of Spanish (Colombia), the
// default, and English. It returns an error when a file is missing or
// malformed; the tests prove the embedded ones are neither.
func LoadCatalog() (*Catalog, error) { return loadCatalog(catalogFiles) }

func loadCatalog(fsys fs.FS) (*Catalog, error) {
	c := &Catalog{tags: []language.Tag{Spanish, English}}
	for _, tag := range c.tags {
		b, err := fs.ReadFile(fsys, "catalog/"+tag.String()+".json")
		if err != nil {
			return nil, fmt.Errorf("catalog %s: %w", tag, err)
		}
		var m map[string]message
		if err := json.Unmarshal(b, &m); err != nil {
			return nil, fmt.Errorf("catalog %s: %w", tag, err)
		}
		c.messages = append(c.messages, m)
	}
	c.matcher = language.NewMatcher(c.tags)
	return c, nil
}

// Tags returns the catalog's languages, the default first.
func (c *Catalog) Tags() []language.Tag { return append([]language.Tag(nil), c.tags...) }

// index returns the position of tag among the catalog's languages, or -1.
func (c *Catalog) index(tag string) int {
	for i, t := range c.tags {
		if strings.EqualFold(t.String(), tag) {
			return i
		}
	}
	return -1
}

// Negotiate returns the language of r: the one its lang cookie names
// when the catalog has it, else the best match of its Accept-Language
// header (RFC 9110 quality values, regional variants matched to their
// language: es-MX reads Spanish, en-GB English), else the default.
func (c *Catalog) Negotiate(r *http.Request) language.Tag {
	if ck, err := r.Cookie(LangCookie); err == nil {
		if i := c.index(ck.Value); i >= 0 {
			return c.tags[i]
		}
	}
	prefs, _, err := language.ParseAcceptLanguage(r.Header.Get("Accept-Language"))
	if err != nil || len(prefs) == 0 {
		return c.tags[0]
	}
	_, i, conf := c.matcher.Match(prefs...)
	if conf == language.No {
		return c.tags[0]
	}
	return c.tags[i]
}

// Printer returns the printer of lang in the club's zone: its messages
// and formats. A language the catalog lacks gets the default's.
func (c *Catalog) Printer(lang language.Tag, zone *time.Location) *Printer {
	i := max(c.index(lang.String()), 0)
	if zone == nil {
		zone = time.UTC
	}
	return &Printer{tag: c.tags[i], messages: c.messages[i], locale: locales[c.tags[i].String()], zone: zone}
}

// Printer gives a person's messages and the club's formats in one
// language: every text a page shows goes through it.
type Printer struct {
	tag      language.Tag
	messages map[string]message
	locale   locale
	zone     *time.Location
}

// Lang returns the printer's language, as <html lang> wants it.
func (p *Printer) Lang() string { return p.tag.String() }

// Has reports whether the catalog holds key in the printer's language.
func (p *Printer) Has(key string) bool {
	_, ok := p.messages[key]
	return ok
}

var placeholder = regexp.MustCompile(`\{([a-z_][a-z0-9_]*)\}`)

// T returns the message of key with its placeholders filled from args,
// which are pairs of a name and a value: T("form.errors", "count", 2).
// A plural message takes the form of the count argument (one for 1,
// other otherwise, as Spanish and English both count). A missing key
// returns the key itself, so the gap shows on the page; the catalog
// tests keep the pages' keys in both languages.
func (p *Printer) T(key string, args ...any) string {
	m, ok := p.messages[key]
	if !ok {
		return key
	}
	vals := make(map[string]string, len(args)/2)
	for i := 0; i+1 < len(args); i += 2 {
		vals[fmt.Sprint(args[i])] = argText(args[i+1])
	}
	text := m.text
	if m.plural != nil {
		text = m.plural["other"]
		if n, err := strconv.Atoi(vals["count"]); err == nil && n == 1 {
			text = m.plural["one"]
		}
	}
	return placeholder.ReplaceAllStringFunc(text, func(ph string) string {
		if v, ok := vals[ph[1:len(ph)-1]]; ok {
			return v
		}
		return ph
	})
}

// argText is a message's argument as text: a pointer (an optional column:
// *string, *int64, ...) by what it points to, "" for a nil one, never its
// address.
func argText(v any) string {
	rv := reflect.ValueOf(v)
	for rv.Kind() == reflect.Pointer {
		if rv.IsNil() {
			return ""
		}
		rv = rv.Elem()
	}
	if !rv.IsValid() {
		return ""
	}
	return fmt.Sprint(rv.Interface())
}
