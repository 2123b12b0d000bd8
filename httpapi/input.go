package httpapi

import (
	"bytes"
	"encoding/json"
	"math"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/wiretext"
)

// The limits of what a request may carry, checked where it is decoded so
// that no route has to. PostgreSQL stores neither NUL characters nor
// invalid UTF-8, a unique index refuses a value of more than about 2,700
// bytes (and reports it as a duplicate), and an integer column holds int32.
// Each text field declares its limit once, where the API description reads
// it: the maxLength struct tag of a DTO field (and minimum and maximum for
// integers), the maxlength attribute of a @Param. Limits of fields under a
// unique index stay far below the index's, in characters of up to 4 bytes.

// defaultMaxLength bounds a text field or parameter that declares no
// maxLength of its own (the general description of the API says so).
const defaultMaxLength = 255

// checkFields checks the decoded request v (a struct, or a pointer, slice
// or field of one, at path name with struct tag tag): text with checkText
// against its maxLength tag, integers against their minimum and maximum
// tags. A field without a JSON name of its own, such as the Value of a
// clubhouse.Optional, is checked as its parent.
func checkFields(v reflect.Value, name string, tag reflect.StructTag) error {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return nil
		}
		return checkFields(v.Elem(), name, tag)
	case reflect.String:
		return wiretext.Check(name, v.String(), tagInt(tag, "maxLength", defaultMaxLength))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		lo, hi := tagInt(tag, "minimum", math.MinInt64), tagInt(tag, "maximum", math.MaxInt64)
		if n := v.Int(); n < int64(lo) || n > int64(hi) {
			return clubhouse.ErrInvalidData.Withf("%s must be an integer from %d to %d.", name, lo, hi)
		}
	case reflect.Slice:
		for i := range v.Len() {
			if err := checkFields(v.Index(i), name+"["+strconv.Itoa(i)+"]", tag); err != nil {
				return err
			}
		}
	case reflect.Struct:
		for _, f := range checkedFields(v.Type()) {
			fname, ftag := name, tag
			if f.json != "" {
				fname, ftag = joinPath(name, f.json), f.tag
			}
			if err := checkFields(v.Field(f.index), fname, ftag); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkedField is an exported field of a struct, as checkFields visits it:
// its index, its JSON name ("" when it has none of its own) and its tag.
type checkedField struct {
	index int
	json  string
	tag   reflect.StructTag
}

var checkedCache sync.Map // reflect.Type -> []checkedField

// checkedFields lists the exported fields of the struct type t, read from
// its reflection once per type.
func checkedFields(t reflect.Type) []checkedField {
	if v, ok := checkedCache.Load(t); ok {
		return v.([]checkedField)
	}
	var fields []checkedField
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		j, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if j == "-" {
			j = ""
		}
		fields = append(fields, checkedField{index: i, json: j, tag: f.Tag})
	}
	checkedCache.Store(t, fields)
	return fields
}

// tagInt is the integer value of key in tag, def when absent. A malformed
// tag is a bug, which swag refuses already when it writes the description.
func tagInt(tag reflect.StructTag, key string, def int) int {
	s, ok := tag.Lookup(key)
	if !ok {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		panic("httpapi: struct tag " + key + ":" + strconv.Quote(s) + " is not an integer")
	}
	return n
}

func joinPath(parent, name string) string {
	if parent == "" {
		return name
	}
	return parent + "." + name
}

// utf8Error is the error for a JSON body that is not UTF-8 (encoding/json
// would store U+FFFD in place of each bad byte): it names the field whose
// string holds the first bad byte, or the body when none does.
func utf8Error(body []byte) error {
	at := 0
	for at < len(body) {
		r, size := utf8.DecodeRune(body[at:])
		if r == utf8.RuneError && size == 1 {
			break
		}
		at += size
	}
	if field := jsonPathAt(body, at); field != "" {
		return wiretext.NotUTF8(field)
	}
	return clubhouse.ErrInvalidJSON.Withf("The request body must be UTF-8 text.")
}

// jsonFrame is an object or array being read by jsonPathAt.
type jsonFrame struct {
	array   bool
	path    string // of the container
	key     string // object: the key of the value being read
	wantKey bool   // object: the next string is a key
	index   int    // array: the index of the value being read
}

// valuePath is the path of the value being read in f (nil: the top).
func (f *jsonFrame) valuePath() string {
	switch {
	case f == nil:
		return ""
	case f.array:
		return f.path + "[" + strconv.Itoa(f.index) + "]"
	}
	return joinPath(f.path, f.key)
}

// next moves f past a value it holds.
func (f *jsonFrame) next() {
	switch {
	case f == nil:
	case f.array:
		f.index++
	default:
		f.wantKey = true
	}
}

// jsonPathAt returns the path (lines[0].memo) of the string value of the
// JSON document body that holds byte offset at, or "" when no string
// value does.
func jsonPathAt(body []byte, at int) string {
	dec := json.NewDecoder(bytes.NewReader(body))
	var stack []*jsonFrame
	for {
		tok, err := dec.Token()
		if err != nil {
			return ""
		}
		var top *jsonFrame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		isKey := top != nil && !top.array && top.wantKey
		switch tok := tok.(type) {
		case json.Delim:
			if tok == '{' || tok == '[' {
				stack = append(stack, &jsonFrame{array: tok == '[', path: top.valuePath(), wantKey: tok == '{'})
				continue
			}
			stack = stack[:len(stack)-1]
			if len(stack) > 0 {
				stack[len(stack)-1].next()
			}
		case string:
			if dec.InputOffset() > int64(at) {
				if isKey {
					return ""
				}
				return top.valuePath()
			}
			if isKey {
				top.key, top.wantKey = tok, false
				continue
			}
			top.next()
		default:
			top.next()
		}
	}
}

// textParam is a text parameter of a route: where it travels (query, path
// or header), its name, and its maxLength.
type textParam struct {
	in, name string
	max      int
}

// textParams lists the text parameters of each operation of doc, by route
// pattern ("GET /api/admin/courts").
func textParams(doc *openapi3.T) map[string][]textParam {
	out := map[string][]textParam{}
	for p, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			for _, prm := range op.Parameters {
				v := prm.Value
				if v.Schema == nil || v.Schema.Value == nil || !v.Schema.Value.Type.Is(openapi3.TypeString) {
					continue
				}
				max := defaultMaxLength
				if v.Schema.Value.MaxLength != nil {
					max = int(*v.Schema.Value.MaxLength)
				}
				out[method+" "+p] = append(out[method+" "+p], textParam{in: v.In, name: v.Name, max: max})
			}
		}
	}
	return out
}

// checkParams checks the text parameters params of r with checkText.
func checkParams(r *http.Request, params []textParam) error {
	for _, p := range params {
		var values []string
		switch p.in {
		case openapi3.ParameterInQuery:
			values = r.URL.Query()[p.name]
		case openapi3.ParameterInPath:
			values = []string{r.PathValue(p.name)}
		case openapi3.ParameterInHeader:
			values = r.Header.Values(p.name)
		}
		for _, v := range values {
			if err := wiretext.Check(p.name, v, p.max); err != nil {
				return err
			}
		}
	}
	return nil
}
