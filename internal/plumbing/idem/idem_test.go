package idem_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/idem"
)

func TestIdempotencyCheckKey(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		key string
		ok  bool
	}{
		{"a", true},
		{"550e8400-e29b-41d4-a716-446655440000", true},
		{"!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", true},
		{strings.Repeat("k", idem.MaxKeyLen), true},
		{"", false},
		{strings.Repeat("k", idem.MaxKeyLen+1), false},
		{"with space", false},
		{"tab\there", false},
		{"nul\x00", false},
		{"del\x7f", false},
		{"clé", false},
	} {
		err := idem.CheckKey(tc.key)
		if tc.ok {
			assert.NoError(t, err, "%q", tc.key)
			continue
		}
		require.ErrorIs(t, err, idem.ErrInvalidKey, "%q", tc.key)
		assert.Equal(t, clubhouse.Invalid, clubhouse.KindOf(err))
	}
}

func TestIdempotencyFingerprint(t *testing.T) {
	t.Parallel()
	ab := idem.Fingerprint([]byte("ab"), []byte("c"))
	assert.Equal(t, ab, idem.Fingerprint([]byte("ab"), []byte("c")), "deterministic")
	assert.NotEqual(t, ab, idem.Fingerprint([]byte("a"), []byte("bc")), "parts are delimited")
	assert.NotEqual(t, ab, idem.Fingerprint([]byte("abc")))
	assert.NotEqual(t, idem.Fingerprint(), idem.Fingerprint(nil), "an empty part counts")
}

// TestIdempotencyErrors_kinds: each error answers with its kind's status in every
// front door: 400, 422 and 409 (twice).
func TestIdempotencyErrors_kinds(t *testing.T) {
	t.Parallel()
	assert.Equal(t, clubhouse.Invalid, clubhouse.KindOf(idem.ErrInvalidKey))
	assert.Equal(t, clubhouse.Unprocessable, clubhouse.KindOf(idem.ErrKeyReused))
	assert.Equal(t, clubhouse.Conflict, clubhouse.KindOf(idem.ErrInProgress))
	assert.Equal(t, "request in progress", idem.ErrInProgress.Code)
	assert.Equal(t, clubhouse.Conflict, clubhouse.KindOf(idem.ErrAlreadyApplied))
	assert.Equal(t, "request already applied", idem.ErrAlreadyApplied.Code)
	assert.NotErrorIs(t, idem.ErrAlreadyApplied, idem.ErrInProgress)
}
