package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/wire"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/wiretext"
)

// maxJSONBody bounds every JSON request body.
const maxJSONBody = 1 << 20

// Errors of request decoding.
var (
	errEmptyBody = clubhouse.Errorf(clubhouse.Invalid, "invalid JSON", "The request body is empty; send a JSON object.")
	errTooLarge  = clubhouse.Errorf(clubhouse.TooLarge, "request too large", "The request body exceeds %s.", sizeText(maxJSONBody))
)

// sizeText names a limit of n bytes as its API description does: in whole
// MiB or KiB when it is one, else in bytes.
func sizeText(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// decodeJSON reads a JSON object from r into dst. Fields tagged
// validate:"required" must be present and non-null (a zero value counts as
// absent for plain fields), or the answer is 400 "incomplete data" listing
// every missing field. Unknown fields, values of the wrong type, trailing
// data and malformed JSON are 400s naming the problem, and so is text that
// is not UTF-8, holds a NUL character or exceeds its field's maxLength, and
// an integer outside its field's minimum and maximum (see checkFields).
func decodeJSON(r *http.Request, dst any) error { return decodeBody(r, dst, true) }

// decodeOptional is decodeJSON for a body that may be left out: an empty
// body leaves dst as it is.
func decodeOptional(r *http.Request, dst any) error {
	if err := decodeJSON(r, dst); !errors.Is(err, errEmptyBody) {
		return err
	}
	return nil
}

// decodeLenient is decodeJSON for a body whose unknown fields must be
// ignored rather than refused: the metadata of a client registration
// (RFC 7591, section 2).
func decodeLenient(r *http.Request, dst any) error { return decodeBody(r, dst, false) }

func decodeBody(r *http.Request, dst any, strict bool) error {
	body, err := io.ReadAll(http.MaxBytesReader(nil, r.Body, maxJSONBody))
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return errTooLarge
	}
	if err != nil {
		return clubhouse.ErrInvalidJSON.Withf("The request body could not be read: %v.", err)
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return errEmptyBody
	}
	if !utf8.Valid(body) {
		return utf8Error(body)
	}
	if at := wiretext.LoneSurrogate(body); at >= 0 {
		// encoding/json would store U+FFFD in its place: refuse, as for a bad byte.
		if field := jsonPathAt(body, at); field != "" {
			return wiretext.NotUTF8(field)
		}
		return clubhouse.ErrInvalidJSON.Withf("The request body must be UTF-8 text: it escapes a lone surrogate.")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	if strict {
		dec.DisallowUnknownFields()
	}
	if err := dec.Decode(dst); err != nil {
		return jsonError(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return clubhouse.ErrInvalidJSON.Withf("The request body must hold one JSON object and nothing after it.")
	}
	v := reflect.ValueOf(dst).Elem()
	if err := checkFields(v, "", ""); err != nil {
		return err
	}
	var missing []string
	for _, f := range requiredFields(v.Type()) {
		if absent(v.Field(f.index)) {
			missing = append(missing, f.name)
		}
	}
	if len(missing) > 0 {
		return clubhouse.ErrIncomplete.Withf("Missing required fields: %s.", strings.Join(missing, ", "))
	}
	return nil
}

// absent reports whether a decoded field, an addressable value, counts as
// not sent. Present is asked of the field's address, which goes into an
// interface without a copy of the field.
func absent(f reflect.Value) bool {
	if p, ok := f.Addr().Interface().(interface{ Present() bool }); ok {
		return !p.Present()
	}
	return f.IsZero()
}

func jsonError(err error) error {
	var typeErr *json.UnmarshalTypeError
	var syntaxErr *json.SyntaxError
	switch {
	case errors.As(err, &typeErr):
		if typeErr.Field == "" {
			return clubhouse.ErrInvalidJSON.Withf("The request body must be a JSON object.")
		}
		return clubhouse.ErrInvalidData.Withf("Field %s must be %s.", typeErr.Field, jsonTypeName(typeErr.Type))
	case errors.As(err, &syntaxErr), errors.Is(err, io.ErrUnexpectedEOF):
		return clubhouse.ErrInvalidJSON.Withf("The request body is not valid JSON: %v.", err)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return clubhouse.ErrUnknownField.Withf("Field %s is not accepted here.", strings.TrimPrefix(err.Error(), "json: unknown field "))
	}
	if e := clubhouse.AsError(err); e != nil {
		return e
	}
	return clubhouse.ErrInvalidData.Withf("%v.", err)
}

func jsonTypeName(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Bool:
		return "a boolean"
	case reflect.String:
		return "a string"
	case reflect.Slice, reflect.Array:
		return "an array"
	}
	if t.Name() == "Decimal" {
		return "a number"
	}
	return "an object"
}

var requiredCache sync.Map // reflect.Type -> []requiredField

// requiredField is a field tagged validate:"required": its index and JSON name.
type requiredField struct {
	index int
	name  string
}

// requiredFields lists the fields of t tagged validate:"required".
func requiredFields(t reflect.Type) []requiredField {
	if v, ok := requiredCache.Load(t); ok {
		return v.([]requiredField)
	}
	var fields []requiredField
	if t.Kind() == reflect.Struct {
		for i := range t.NumField() {
			f := t.Field(i)
			if !slices.Contains(strings.Split(f.Tag.Get("validate"), ","), "required") {
				continue
			}
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			fields = append(fields, requiredField{index: i, name: name})
		}
	}
	requiredCache.Store(t, fields)
	return fields
}

// writeJSON answers v with status.
func writeJSON(w http.ResponseWriter, status int, v any) error {
	writeJSONBody(w, status, v)
	return nil
}

// jsonBuffers are the buffers writeJSONBody encodes into. One that grew
// past maxPooledJSON (a long list) is left to the garbage collector rather
// than kept for every later answer.
var jsonBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

const maxPooledJSON = 64 << 10

func writeJSONBody(w http.ResponseWriter, status int, v any) {
	buf := jsonBuffers.Get().(*bytes.Buffer)
	defer func() {
		if buf.Cap() <= maxPooledJSON {
			buf.Reset()
			jsonBuffers.Put(buf)
		}
	}()
	// Encode writes what json.Marshal answers and a newline.
	if err := json.NewEncoder(buf).Encode(v); err != nil {
		buf.Reset()
		status = http.StatusInternalServerError
		buf.WriteString(`{"error":"internal error","message":"The response could not be encoded."}` + "\n")
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// noContent answers 204.
func noContent(w http.ResponseWriter) error {
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// pathID parses the path parameter name as a positive integer id.
func pathID(r *http.Request, name string) (int64, error) {
	s := r.PathValue(name)
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil || id <= 0 {
		return 0, clubhouse.ErrInvalidID.Withf("%s must be a positive integer, not %q.", name, s)
	}
	return id, nil
}

// queryPage reads the page of a list from query parameters limit and
// offset (wire.Page: 0 when absent); the list's service checks their
// bounds. Errors: ErrInvalidQuery for a parameter that is not an integer.
func queryPage(r *http.Request) (limit, offset int, err error) {
	l, err := queryInt64(r, "limit")
	if err != nil {
		return 0, 0, err
	}
	o, err := queryInt64(r, "offset")
	if err != nil {
		return 0, 0, err
	}
	limit, offset = wire.Page(l, o)
	return limit, offset, nil
}

// queryMaxResults reads the page size of a list paged by cursor from
// query parameter maxResults, 0 when absent; the list's service checks it.
// Errors: ErrInvalidQuery for a value that is not an integer.
func queryMaxResults(r *http.Request) (int, error) {
	n, err := queryInt64(r, "maxResults")
	return int(n.Or(0)), err
}

// queryNumbered reads the page of a list paged by number from query
// parameters page (1 when absent) and limit (0 when absent); the list's
// service checks their bounds. Errors: ErrInvalidQuery for a parameter
// that is not an integer.
func queryNumbered(r *http.Request) (page, limit int, err error) {
	p, err := queryInt64(r, "page")
	if err != nil {
		return 0, 0, err
	}
	l, err := queryInt64(r, "limit")
	if err != nil {
		return 0, 0, err
	}
	return int(p.Or(1)), int(l.Or(0)), nil
}

// queryInt64 reads the optional integer of query parameter name.
func queryInt64(r *http.Request, name string) (clubhouse.Optional[int64], error) {
	s := r.URL.Query().Get(name)
	if s == "" {
		return clubhouse.Optional[int64]{}, nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return clubhouse.Optional[int64]{}, clubhouse.ErrInvalidQuery.Withf("%s must be an integer, not %q.", name, s)
	}
	return clubhouse.Some(n), nil
}

// queryID parses an optional id filter; 0 when absent.
func queryID(r *http.Request, name string) (int64, error) {
	s := r.URL.Query().Get(name)
	if s == "" {
		return 0, nil
	}
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil || id <= 0 {
		return 0, clubhouse.ErrInvalidID.Withf("%s must be a positive integer, not %q.", name, s)
	}
	return id, nil
}

// actOnID runs act, one call of a service, on the record the path
// parameter param names, and answers what it returns in the shape view
// gives, 200.
func actOnID[B, T any](w http.ResponseWriter, r *http.Request, param string,
	act func(context.Context, clubhouse.Actor, int64) (B, error), view func(B) T) error {
	id, err := pathID(r, param)
	if err != nil {
		return err
	}
	b, err := act(r.Context(), actor(r), id)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, view(b))
}
