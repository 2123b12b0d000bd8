package tickets_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/tickets"
)

// TestParseCode: a code as people type it, and the text refused, up to
// MaxCodeLength characters as typed (the front doors' limit too).
func TestParseCode(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, in, want string
	}{
		{"as printed", "ABCD-EFGH-JKMN", "ABCDEFGHJKMN"},
		{"typed", "abcd efgh jkmn", "ABCDEFGHJKMN"},
		{"dashes up to the limit", "ABCDEFGHJKMN" + strings.Repeat("-", tickets.MaxCodeLength-12), "ABCDEFGHJKMN"},
		{"over the limit", "ABCDEFGHJKMN" + strings.Repeat("-", tickets.MaxCodeLength-11), ""},
		{"short", "ABCD", ""},
		{"a letter not of the alphabet", "ABCD-EFGH-JKM0", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tickets.ParseCode(tc.in)
			if tc.want == "" {
				require.ErrorIs(t, err, clubhouse.ErrInvalidData)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}
