package eventlog

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestHasNUL: the escape of a NUL character is found, the text of one (a
// backslash escaped, then "u0000") is not.
func TestHasNUL(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]bool{
		`{"a":"\u0000"}`:               true,
		`{"a":"x\u0000y"}`:             true,
		`{"a":"\\u0000"}`:              false,
		`{"a":"\\\u0000"}`:             true,
		`{"a":"\\u0000","b":"\u0000"}`: true,
		`{"a":"u0000"}`:                false,
	} {
		assert.Equal(t, want, hasNUL([]byte(in)), in)
	}
}

// TestDecidedName: a lowercase letter, then lowercase letters, digits and
// underscores.
func TestDecidedName(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]bool{
		"id": true, "reservation_status_id": true, "a1": true, "x_": true,
		"": false, "1a": false, "_a": false, "Id": false, "a-b": false, "a b": false, "ñ": false, `a"`: false,
	} {
		assert.Equal(t, want, decidedName(in), in)
	}
}
