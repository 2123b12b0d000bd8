package web

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSessionCookie(t *testing.T) {
	now := time.Date(2026, 12, 7, 10, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		base, name string
		secure     bool
	}{
		{"https://club.example.com", "__Host-clubhouse_session", true},
		{"HTTPS://club.example.com/base", "__Host-clubhouse_session", true},
		{"http://localhost:8080", "clubhouse_session", false},
		{"", "clubhouse_session", false},
	} {
		t.Run(tc.base, func(t *testing.T) {
			c := NewSessionCookie(tc.base)
			c.Now = func() time.Time { return now }
			assert.Equal(t, tc.name, c.Name)

			rec := httptest.NewRecorder()
			c.Set(rec, "tok123", now.Add(90*time.Minute+300*time.Millisecond))
			set := rec.Result().Cookies()
			require.Len(t, set, 1)
			ck := set[0]
			assert.Equal(t, tc.name, ck.Name)
			assert.Equal(t, "tok123", ck.Value)
			assert.Equal(t, "/", ck.Path)
			assert.Equal(t, 5401, ck.MaxAge, "seconds left, rounded up")
			assert.True(t, ck.HttpOnly)
			assert.Equal(t, tc.secure, ck.Secure)
			assert.Equal(t, http.SameSiteLaxMode, ck.SameSite)
			assert.Empty(t, ck.Domain, "__Host- forbids a Domain")

			r := httptest.NewRequest("GET", "/", nil)
			r.AddCookie(ck)
			got, ok := c.Read(r)
			assert.True(t, ok)
			assert.Equal(t, "tok123", got)

			_, ok = c.Read(httptest.NewRequest("GET", "/", nil))
			assert.False(t, ok, "no cookie")

			for name, set := range map[string]func(http.ResponseWriter){
				"clear":   c.Clear,
				"expired": func(w http.ResponseWriter) { c.Set(w, "tok123", now.Add(-time.Second)) },
			} {
				rec := httptest.NewRecorder()
				set(rec)
				ck := rec.Result().Cookies()
				require.Len(t, ck, 1, name)
				assert.Equal(t, tc.name, ck[0].Name, name)
				assert.Empty(t, ck[0].Value, name)
				assert.Equal(t, -1, ck[0].MaxAge, name)
				assert.Contains(t, rec.Header().Get("Set-Cookie"), "Max-Age=0", name)
			}
		})
	}
}
