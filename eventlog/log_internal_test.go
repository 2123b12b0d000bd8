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
