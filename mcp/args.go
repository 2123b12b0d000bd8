package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/wiretext"
)

// The arguments of a tool are a struct of clubhouse.Optional fields, so
// that an absent argument, a null one and a value stay apart, as in the
// bodies of the HTTP API. Each field carries its JSON name, its description
// for the agent (the jsonschema tag) and, for text, its maxLength (255 when
// none is given). A field without omitzero is required: it must be present
// and not null.

// argTypes are the JSON Schema types of the argument types.
var argTypes = map[reflect.Type]string{
	reflect.TypeFor[clubhouse.Optional[int64]]():       "integer",
	reflect.TypeFor[clubhouse.Optional[string]]():      "string",
	reflect.TypeFor[clubhouse.Optional[bool]]():        "boolean",
	reflect.TypeFor[clubhouse.Optional[json.Number]](): "number", // amounts, read exactly
}

// defaultMaxLength bounds a text argument that declares no maxLength.
const defaultMaxLength = 255

// argField is one argument of a tool.
type argField struct {
	index    int
	name     string
	required bool
	text     bool
	number   bool // an amount: a JSON number, never a string
	max      int  // characters, for text
}

// args describes the arguments of a tool: their schema, advertised in
// tools/list, and what decode checks.
type args struct {
	// schema is the JSON Schema, encoded once: the SDK encodes a tool's
	// input schema on every call of the tool (it looks for x-mcp-header
	// annotations), which a *jsonschema.Schema makes costly.
	schema json.RawMessage
	fields []argField
	keyed  bool // the tool takes keyArg
}

// argsOf builds the description of the argument struct T. It panics on a
// field of another type, a mistake of this package that its tests catch.
func argsOf[T any]() args {
	t := reflect.TypeFor[T]()
	types := map[reflect.Type]*jsonschema.Schema{}
	for rt, name := range argTypes {
		types[rt] = &jsonschema.Schema{Types: []string{name, "null"}}
	}
	s, err := jsonschema.ForType(t, &jsonschema.ForOptions{TypeSchemas: types})
	if err != nil {
		panic(fmt.Sprintf("mcp: arguments %s: %v", t, err))
	}
	var a args
	for i := range t.NumField() {
		f := t.Field(i)
		kind, ok := argTypes[f.Type]
		if !ok {
			panic(fmt.Sprintf("mcp: argument %s.%s has type %s", t, f.Name, f.Type))
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		af := argField{index: i, name: name, required: slices.Contains(s.Required, name), text: kind == "string", number: kind == "number"}
		p := s.Properties[name]
		if af.required {
			p.Type, p.Types = kind, nil // null is absent, and a required argument is not
		}
		if af.text {
			af.max = defaultMaxLength
			if v, ok := f.Tag.Lookup("maxLength"); ok {
				if af.max, err = strconv.Atoi(v); err != nil {
					panic(fmt.Sprintf("mcp: argument %s.%s: maxLength %q", t, f.Name, v))
				}
			}
			p.MaxLength = &af.max
		}
		a.fields = append(a.fields, af)
		a.keyed = a.keyed || name == keyArg
	}
	if a.schema, err = json.Marshal(s); err != nil {
		panic(fmt.Sprintf("mcp: arguments %s: %v", t, err))
	}
	return a
}

// decode reads the arguments raw of a call into dst, a pointer to the
// argument struct a describes. Errors: Invalid naming the argument, for
// arguments that are not a JSON object, an unknown argument, a value of the
// wrong type, text with a NUL character or over its maxLength, and the
// missing required arguments ("incomplete data", listing them all).
func (a args) decode(raw json.RawMessage, dst any) error {
	if len(bytes.TrimSpace(raw)) > 0 && !bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		if err := a.checkRaw(raw); err != nil {
			return err
		}
		dec := json.NewDecoder(bytes.NewReader(raw)) // checkRaw refused unknown arguments
		if err := dec.Decode(dst); err != nil {
			return argError(err)
		}
		if _, err := dec.Token(); err != io.EOF {
			return clubhouse.ErrInvalidJSON.Withf("The arguments must be one JSON object.")
		}
	}
	v := reflect.ValueOf(dst).Elem()
	var missing []string
	for _, f := range a.fields {
		fv := v.Field(f.index)
		if f.required && !fv.Interface().(interface{ Present() bool }).Present() {
			missing = append(missing, f.name)
			continue
		}
		if o, ok := fv.Interface().(clubhouse.Optional[string]); ok && o.Present() {
			if err := wiretext.Check(f.name, *o.Value, f.max); err != nil {
				return err
			}
		}
	}
	if len(missing) > 0 {
		return clubhouse.ErrIncomplete.Withf("Missing required arguments: %s.", strings.Join(missing, ", "))
	}
	return nil
}

// checkRaw refuses, before decoding, what encoding/json would accept but
// alter or coerce: an argument whose name differs from the tool's only in
// case, a number argument sent as a string ("100"), and text
// that is not UTF-8 (bytes such as 0xFF, overlong or CESU-8 sequences) or
// escapes a lone surrogate, either of which would be stored as U+FFFD.
// Arguments that are not an object are left to decode; an unknown argument
// with bad bytes is refused by its name.
func (a args) checkRaw(raw json.RawMessage) error {
	var fields map[string]json.RawMessage
	if json.Unmarshal(raw, &fields) != nil {
		return nil
	}
	if !utf8.Valid(raw) {
		for _, name := range slices.Sorted(maps.Keys(fields)) {
			if !utf8.Valid(fields[name]) {
				return wiretext.NotUTF8(name)
			}
		}
		return wiretext.NotUTF8("The arguments")
	}
	// encoding/json matches names regardless of case, which would take
	// IDEMPOTENCY_KEY for idempotency_key: names match exactly here.
	for _, name := range slices.Sorted(maps.Keys(fields)) {
		if !slices.ContainsFunc(a.fields, func(f argField) bool { return f.name == name }) {
			return clubhouse.ErrUnknownField.Withf("Argument %s is not accepted by this tool; see its input schema.", name)
		}
	}
	for _, f := range a.fields {
		v := bytes.TrimSpace(fields[f.name])
		switch {
		case f.number && len(v) > 0 && v[0] == '"':
			return clubhouse.ErrInvalidData.Withf("Argument %s must be a number, such as 60000 or 45000.50, not a string.", f.name)
		case wiretext.LoneSurrogate(v) >= 0:
			return clubhouse.ErrInvalidData.Withf("%s must be UTF-8 text: it escapes a lone surrogate.", f.name)
		}
	}
	return nil
}

// argError is the Invalid error of arguments encoding/json refused.
func argError(err error) error {
	var typeErr *json.UnmarshalTypeError
	var syntaxErr *json.SyntaxError
	switch {
	case errors.As(err, &typeErr) && typeErr.Field != "":
		return clubhouse.ErrInvalidData.Withf("Argument %s must be %s.", typeErr.Field, typeName(typeErr.Type))
	case errors.As(err, &typeErr):
		return clubhouse.ErrInvalidJSON.Withf("The arguments must be a JSON object.")
	case errors.As(err, &syntaxErr), errors.Is(err, io.ErrUnexpectedEOF):
		return clubhouse.ErrInvalidJSON.Withf("The arguments are not valid JSON: %v.", err)
	}
	return clubhouse.ErrInvalidData.Withf("The arguments are not valid: %v.", err)
}

func typeName(t reflect.Type) string {
	if t == reflect.TypeFor[json.Number]() {
		return "a number"
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "an integer"
	case reflect.Bool:
		return "a boolean"
	case reflect.String:
		return "a string"
	}
	return "a JSON value of another type"
}
