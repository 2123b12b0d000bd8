package webhooks

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
)

// TestMatches: no types is every event; a type is itself; resource.* is
// the resource's types and no other's.
func TestMatches(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		types []string
		typ   string
		want  bool
	}{
		{nil, "booking.created", true},
		{[]string{"booking.created"}, "booking.created", true},
		{[]string{"booking.created"}, "booking.cancelled", false},
		{[]string{"booking.*"}, "booking.cancelled", true},
		{[]string{"booking.*"}, "bookings.cancelled", false},
		{[]string{"book.*"}, "booking.created", false},
		{[]string{"payment.completed", "period.*"}, "period.closed", true},
	} {
		assert.Equal(t, tc.want, Matches(tc.types, tc.typ), "%v %s", tc.types, tc.typ)
	}
}

// TestCheckTypes: well-formed types pass, repeats dropped; anything else
// is refused naming the entry.
func TestCheckTypes(t *testing.T) {
	t.Parallel()
	got, err := checkTypes([]string{"booking.*", "payment.completed", "booking.*"})
	require.NoError(t, err)
	assert.Equal(t, []string{"booking.*", "payment.completed"}, got)
	got, err = checkTypes(nil)
	require.NoError(t, err)
	assert.Equal(t, []string{}, got)
	for _, bad := range []string{"", "*", "booking", "booking.", "Booking.created", "booking.*.x", "*.created", "booking.cre*", strings.Repeat("a", 70) + ".b"} {
		_, err := checkTypes([]string{"booking.created", bad})
		require.ErrorIs(t, err, ErrInvalidEventType, bad)
		assert.Contains(t, err.Error(), "event_types[1]")
	}
	_, err = checkTypes(make([]string, MaxEventTypes+1))
	require.ErrorIs(t, err, clubhouse.ErrLimit)
}

// TestCheckURL: https on a public host; plain http and private or
// loopback addresses only with private networks open; never user
// information, a fragment or another scheme.
func TestCheckURL(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		url          string
		allowPrivate bool
		ok           bool
	}{
		{"https://hooks.example.com/clubhouse?token=1", false, true},
		{"http://hooks.example.com/clubhouse", false, false},
		{"https://127.0.0.1/x", false, false},
		{"https://localhost:8443/x", false, false},
		{"https://10.1.2.3/x", false, false},
		{"https://[::1]/x", false, false},
		{"https://169.254.169.254/latest", true, false},
		{"http://127.0.0.1:8080/x", true, true},
		{"http://192.168.1.10/x", true, true},
		{"http://hooks.example.com/x", true, false},
		{"ftp://hooks.example.com/x", false, false},
		{"https://user:pw@hooks.example.com/x", false, false},
		{"https://hooks.example.com/x#frag", false, false},
		{"/relative", false, false},
		{"https://hooks.example.com/a b", false, false},
	} {
		err := checkURL(tc.url, tc.allowPrivate)
		if tc.ok {
			assert.NoError(t, err, tc.url)
		} else {
			assert.ErrorIs(t, err, ErrInvalidURL, tc.url)
		}
	}
	assert.ErrorIs(t, checkURL("https://hooks.example.com/"+strings.Repeat("a", MaxURL), false), clubhouse.ErrInvalidData)
}

// TestSign: the signature is the specification's, computed here from
// its words: v1, the base64 of the HMAC-SHA256 of id.timestamp.body, one
// per key, separated by spaces.
func TestSign(t *testing.T) {
	t.Parallel()
	k1, k2 := newKey(), newKey()
	at := time.Unix(1_700_000_000, 0)
	body := []byte(`{"type":"booking.created"}`)
	mac := func(k []byte) string {
		h := hmac.New(sha256.New, k)
		h.Write([]byte("msg_1.1700000000." + string(body)))
		return "v1," + base64.StdEncoding.EncodeToString(h.Sum(nil))
	}
	assert.Equal(t, mac(k1), sign([][]byte{k1}, "msg_1", at, body))
	assert.Equal(t, mac(k1)+" "+mac(k2), sign([][]byte{k1, k2}, "msg_1", at, body))
	text := secretText(k1)
	require.True(t, strings.HasPrefix(text, "whsec_"))
	back, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(text, "whsec_"))
	require.NoError(t, err)
	assert.Equal(t, k1, back)
	assert.Len(t, k1, 32)
}

// TestSchedule: a message is tried for about three days: more than 72
// hours even with every wait drawn short, and no wait beyond its jitter;
// a Retry-After lengthens a wait, never shortens it, and is bounded.
func TestSchedule(t *testing.T) {
	t.Parallel()
	require.Len(t, schedule, MaxAttempts-1)
	var shortest, longest time.Duration
	for _, d := range schedule {
		shortest += time.Duration(float64(d) * (1 - Jitter))
		longest += time.Duration(float64(d) * (1 + Jitter))
	}
	assert.Greater(t, shortest, 72*time.Hour)
	assert.Less(t, longest, 4*24*time.Hour)
	for attempt := 1; attempt < MaxAttempts; attempt++ {
		for range 50 {
			d, ok := wait(attempt, 0)
			require.True(t, ok)
			base := schedule[attempt-1]
			assert.GreaterOrEqual(t, d, time.Duration(float64(base)*(1-Jitter)))
			assert.LessOrEqual(t, d, time.Duration(float64(base)*(1+Jitter)))
		}
	}
	_, ok := wait(MaxAttempts, 0)
	assert.False(t, ok, "the last attempt is the last")
	d, _ := wait(1, time.Hour)
	assert.Equal(t, time.Hour, d, "a Retry-After longer than the schedule's wait")
	d, _ = wait(1, 48*time.Hour)
	assert.Equal(t, MaxRetryAfter, d)
	d, _ = wait(5, time.Second)
	assert.Greater(t, d, 4*time.Hour, "a Retry-After shorter than the schedule's wait")
}

// TestRetryAfter: seconds or an HTTP date; anything else is no wait.
func TestRetryAfter(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	h := func(v string) http.Header { return http.Header{"Retry-After": []string{v}} }
	assert.Equal(t, 120*time.Second, retryAfter(h("120"), now))
	assert.Equal(t, time.Hour, retryAfter(h(now.Add(time.Hour).Format(http.TimeFormat)), now))
	assert.Equal(t, MaxRetryAfter, retryAfter(h("999999999"), now))
	for _, v := range []string{"", "-5", "soon", now.Add(-time.Hour).Format(http.TimeFormat)} {
		assert.Zero(t, retryAfter(h(v), now), v)
	}
}
