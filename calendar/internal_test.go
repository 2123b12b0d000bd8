package calendar

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestToken(t *testing.T) {
	t.Parallel()
	key := []byte(strings.Repeat("k", 32))
	nonce := []byte("0123456789abcdef")
	tok := deriveToken(key, KindMember, 7, nonce)
	assert.True(t, wellFormed(tok), tok)
	assert.Len(t, tok, tokenLength)
	assert.Equal(t, tok, deriveToken(key, KindMember, 7, nonce), "the same key and nonce give the same token")
	assert.NotEqual(t, tok, deriveToken(key, KindMember, 8, nonce), "another subject")
	assert.NotEqual(t, tok, deriveToken(key, KindCourt, 7, nonce), "another kind")
	assert.NotEqual(t, tok, deriveToken([]byte(strings.Repeat("j", 32)), KindMember, 7, nonce), "another key")
	assert.Len(t, hashToken(tok), 32)
	for _, bad := range []string{"", tok[:42], tok + "A", strings.Repeat("+", 43), strings.Repeat("ñ", 21) + "a", "../" + tok[3:]} {
		assert.False(t, wellFormed(bad), bad)
	}
}

func TestLimiter(t *testing.T) {
	t.Parallel()
	l := newLimiter(Rate{Every: 10 * time.Second, Burst: 3})
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for range 3 {
		_, ok := l.take(1, now)
		require.True(t, ok)
	}
	wait, ok := l.take(1, now)
	assert.False(t, ok)
	assert.Equal(t, 10*time.Second, wait)
	_, ok = l.take(2, now)
	assert.True(t, ok, "each feed has its own bucket")
	wait, ok = l.take(1, now.Add(4*time.Second))
	assert.False(t, ok)
	assert.Equal(t, 6*time.Second, wait)
	_, ok = l.take(1, now.Add(10*time.Second))
	assert.True(t, ok, "one read back after Every")
	l.forget(now.Add(time.Hour))
	assert.Empty(t, l.buckets, "full buckets are forgotten")
}

func TestObservances(t *testing.T) {
	t.Parallel()
	bogota, err := time.LoadLocation("America/Bogota")
	require.NoError(t, err)
	from := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	obs := observances(bogota, from, from.AddDate(3, 0, 0))
	require.Len(t, obs, 1)
	assert.Equal(t, -5*3600, obs[0].from)
	assert.Equal(t, "20241231T190000", obs[0].start())
	assert.Equal(t, "-0500", utcOffset(obs[0].to))

	ny, err := time.LoadLocation("America/New_York")
	require.NoError(t, err)
	obs = observances(ny, from, from.AddDate(1, 0, 0))
	require.Len(t, obs, 3, "standard, daylight in March, standard in November")
	assert.True(t, obs[1].daylight)
	assert.Equal(t, "20250309T020000", obs[1].start())
	assert.Equal(t, "20251102T020000", obs[2].start())
	assert.Equal(t, "+0530", utcOffset(5*3600+30*60))
	assert.Equal(t, "-003456", utcOffset(-(34*60 + 56)))
}

func TestClean(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "a\nb\nc", clean("a\r\nb\rc"))
	assert.Equal(t, "ab", clean("a\x00\x07b"))
	assert.True(t, utf8.ValidString(clean("ñ")))
}
