package clubhouse_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/clubhouse-go/clubhouse"
)

// sameAsJSON checks that an Optional[T] in an object reads b as
// encoding/json reads it into a *T: the same value, or the same error.
func sameAsJSON[T any](t *testing.T, b string) {
	t.Helper()
	var opt struct {
		V clubhouse.Optional[T] `json:"v"`
	}
	var plain struct {
		V *T `json:"v"`
	}
	doc := []byte(`{"v": ` + b + `}`)
	optErr, plainErr := json.Unmarshal(doc, &opt), json.Unmarshal(doc, &plain)
	if plainErr != nil {
		assert.EqualError(t, optErr, plainErr.Error(), "%T from %s", *new(T), b)
		return
	}
	if assert.NoError(t, optErr, "%T from %s", *new(T), b) {
		assert.True(t, opt.V.Set)
		assert.Equal(t, plain.V, opt.V.Value, "%T from %s", *new(T), b)
	}
}

// TestOptional_UnmarshalJSON: integers and strings, read directly when
// they can be, come out as encoding/json reads them, errors included;
// other types go to encoding/json.
func TestOptional_UnmarshalJSON(t *testing.T) {
	t.Parallel()
	for _, b := range []string{"0", "-0", "7", "-42", "9223372036854775807", "-9223372036854775808",
		"9223372036854775808", "-9223372036854775809", "1.0", "1e3", "-", `"7"`, "true", "[]", "{}", "null"} {
		sameAsJSON[int64](t, b)
	}
	for _, b := range []string{`""`, `"Court 1"`, `"añil ☂"`, `"a\"b"`, `"a\\b"`, `"\u00e9"`, `"\ud83d\ude00"`, `"\ud800"`,
		"\"\xff\"", "\"a\xc3\"", `"2026-03-02 10:00:00"`, "7", "true", "null"} {
		sameAsJSON[string](t, b)
	}
	for _, b := range []string{"7", "7.5", `"7"`, "null"} {
		sameAsJSON[float64](t, b)
	}
	var o clubhouse.Optional[int64]
	assert.NoError(t, json.Unmarshal([]byte("null"), &o))
	assert.Equal(t, clubhouse.Optional[int64]{Set: true}, o, "null is sent, without a value")
}

// FuzzOptional_UnmarshalJSON: for any value, Optional[int64] and
// Optional[string] read what encoding/json reads, or fail as it fails.
func FuzzOptional_UnmarshalJSON(f *testing.F) {
	for _, b := range []string{"0", "-12", "01", "1e2", `"x"`, `"a\nb"`, "\"\xe2\x98\"", `"\t"`, "null", "[1]"} {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b string) {
		if !json.Valid(fmt.Appendf(nil, `{"v": %s}`, b)) {
			return
		}
		sameAsJSON[int64](t, b)
		sameAsJSON[string](t, b)
	})
}
