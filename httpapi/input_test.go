package httpapi

import (
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/clubhouse-go/clubhouse"
)

func TestJSONPathAt(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		body, want string
	}{
		{`{"name":"X"}`, "name"},
		{`{"a":1,"b":[true,null],"notes":"X"}`, "notes"},
		{`{"lines":[{"account_code":"1.1","memo":"ok"},{"memo":"X"}]}`, "lines[1].memo"},
		{`{"ids":["1","X"]}`, "ids[1]"},
		{`{"o":{"p":{"q":"X"}},"r":"s"}`, "o.p.q"},
		{`"X"`, ""},       // the top value has no name
		{`{"X":"v"}`, ""}, // a key is no value
		{`{"a":X}`, ""},   // not JSON
	} {
		at := strings.Index(tc.body, "X")
		assert.Equal(t, tc.want, jsonPathAt([]byte(tc.body), at), tc.body)
	}
}

func TestUTF8Error(t *testing.T) {
	t.Parallel()
	e := clubhouse.AsError(utf8Error([]byte("{\"lines\":[{\"memo\":\"caf\xe9\"}]}")))
	assert.Equal(t, clubhouse.Invalid, e.Kind)
	assert.Equal(t, "invalid data", e.Code)
	assert.Equal(t, "lines[0].memo must be UTF-8 text.", e.Message)
	e = clubhouse.AsError(utf8Error([]byte("{\"caf\xe9\":1}")))
	assert.Equal(t, "invalid JSON", e.Code, "a key names no field")
}

func TestCheckFields(t *testing.T) {
	t.Parallel()
	type line struct {
		Memo string `json:"memo" maxLength:"5"`
	}
	type input struct {
		Name    clubhouse.Optional[string] `json:"name" maxLength:"3"`
		Plain   string                     `json:"plain"`
		Count   clubhouse.Optional[int]    `json:"count" minimum:"1" maximum:"2147483647"`
		Lines   []line                     `json:"lines"`
		Nothing *string                    `json:"nothing"`
		hidden  string
	}
	check := func(in input) string {
		err := checkFields(reflect.ValueOf(in), "", "")
		if err == nil {
			return ""
		}
		return clubhouse.AsError(err).Message
	}
	assert.Empty(t, check(input{Name: clubhouse.Some("ñaé"), Plain: strings.Repeat("x", defaultMaxLength), hidden: "\x00",
		Count: clubhouse.Some(2147483647), Lines: []line{{Memo: "😀😀😀😀😀"}}}), "limits count characters, not bytes")
	assert.Equal(t, "name must be at most 3 characters long.", check(input{Name: clubhouse.Some("abcd")}))
	assert.Equal(t, "name must not contain NUL characters.", check(input{Name: clubhouse.Some("a\x00")}))
	assert.Equal(t, "name must be UTF-8 text.", check(input{Name: clubhouse.Some("a\xff")}))
	assert.Equal(t, "plain must be at most 255 characters long.", check(input{Plain: strings.Repeat("x", defaultMaxLength+1)}),
		"a field without maxLength has the default")
	assert.Equal(t, "count must be an integer from 1 to 2147483647.", check(input{Count: clubhouse.Some(2147483648)}))
	assert.Equal(t, "count must be an integer from 1 to 2147483647.", check(input{Count: clubhouse.Some(0)}))
	assert.Equal(t, "lines[1].memo must not contain NUL characters.", check(input{Lines: []line{{}, {Memo: "\x00"}}}))
}
