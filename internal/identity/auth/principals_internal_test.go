package auth

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/clubhouse-go/clubhouse/users"
)

// TestPrincipals_staleRead keeps nothing read before an announcement that
// was handled while the read ran, nor anything while nobody listens.
func TestPrincipals_staleRead(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	var p principals
	u := User{User: users.User{ID: 1, LocalID: "ana"}}

	p.put("ana", u, p.generation(), now)
	_, ok := p.get("ana", now)
	assert.False(t, ok, "nothing is kept before listening")

	p.listening(true)
	gen := p.generation()
	p.forget("bo") // an announcement handled while ana's row was read
	p.put("ana", u, gen, now)
	_, ok = p.get("ana", now)
	assert.False(t, ok, "a read that overlapped an announcement is not kept")

	p.put("ana", u, p.generation(), now)
	got, ok := p.get("ana", now.Add(principalFor-time.Nanosecond))
	assert.True(t, ok)
	assert.Equal(t, u, got)
	_, ok = p.get("ana", now.Add(principalFor))
	assert.False(t, ok, "kept for less than principalFor")

	p.listening(false)
	_, ok = p.get("ana", now)
	assert.False(t, ok, "the end of listening drops what was kept")
}
