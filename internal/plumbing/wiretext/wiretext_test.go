package wiretext_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/clubhouse-go/clubhouse/internal/plumbing/wiretext"
)

func TestLoneSurrogate(t *testing.T) {
	for in, want := range map[string]int{
		`{"a":"plain"}`:               -1,
		`{"a":"\u00e9\n\\ud800"}`:     -1, // an escaped backslash, then text "ud800"
		`{"a":"\ud83d\ude00"}`:        -1, // a pair: one emoji
		`{"a":"\uD83D\uDE00 ok"}`:     -1,
		`{"a":"\ud800"}`:              6,
		`{"a":"x\ud800y"}`:            7,
		`{"a":"\udc00"}`:              6,
		`{"a":"\ud800\ud800\udc00"}`:  6,
		`{"a":"\ud83d","b":"\ude00"}`: 6,
		`{"a":"\ud83d\n"}`:            6,
		`{"a":"ok"} `:                 -1,
		`["\ud800`:                    2,
		`{"a":"\u12"}`:                -1, // malformed: encoding/json refuses it
	} {
		assert.Equal(t, want, wiretext.LoneSurrogate([]byte(in)), in)
		if want >= 0 && strings.HasSuffix(in, "}") {
			var v map[string]string
			if json.Unmarshal([]byte(in), &v) == nil {
				assert.Contains(t, v["a"]+v["b"], "\uFFFD", "encoding/json alters it: %s", in)
			}
		}
	}
}
