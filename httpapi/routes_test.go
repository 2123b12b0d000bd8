package httpapi_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/httpapi"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
)

// TestEveryRouteDocumented: each registered route has its operation in the
// API description, and the description lists no route the server lacks.
func TestEveryRouteDocumented(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	doc, err := httpapi.OpenAPI()
	require.NoError(t, err)
	registered := map[string]bool{}
	for _, p := range app.Server.Patterns() {
		method, path, ok := strings.Cut(p, " ")
		require.True(t, ok, "pattern %q has a method", p)
		path = strings.TrimSuffix(path, "{$}")
		registered[method+" "+path] = true
		item := doc.Paths.Find(path)
		if !assert.NotNil(t, item, "%s is not in the API description", p) {
			continue
		}
		assert.NotNil(t, item.GetOperation(method), "%s %s is not in the API description", method, path)
	}
	for path, item := range doc.Paths.Map() {
		for method := range item.Operations() {
			assert.True(t, registered[method+" "+path], "the description lists %s %s, which the server does not serve", method, path)
		}
	}
}

// TestReceiptFormsDocumented: the multipart bodies carry the receipt file,
// required when a payment is created.
func TestReceiptFormsDocumented(t *testing.T) {
	t.Parallel()
	doc, err := httpapi.OpenAPI()
	require.NoError(t, err)
	post := doc.Paths.Find("/api/admin/booking/{bookingId}/payment").Post.RequestBody.Value.Content.Get("multipart/form-data")
	require.NotNil(t, post)
	assert.Equal(t, "binary", post.Schema.Value.Properties["foto"].Value.Format)
	assert.Contains(t, post.Schema.Value.Required, "foto")
	patch := doc.Paths.Find("/api/admin/booking/{bookingId}/payment/{paymentId}").Patch.RequestBody.Value.Content.Get("multipart/form-data")
	require.NotNil(t, patch)
	assert.NotContains(t, patch.Schema.Value.Required, "foto")
	assert.Contains(t, patch.Schema.Value.Properties, "foto")
}

// rawResponse is the answer to a request sent as raw bytes.
type rawResponse struct {
	*http.Response
	body errorBody
}

type errorBody struct {
	Error   string `json:"error"`
	Message string `json:"message"`
}

// sendRaw writes raw to a new connection to the server at base and reads
// one response, whose body must be a JSON error body of the length the
// response declares.
func sendRaw(tb testing.TB, base, raw string) rawResponse {
	tb.Helper()
	c, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	require.NoError(tb, err)
	defer c.Close()
	require.NoError(tb, c.SetDeadline(time.Now().Add(30*time.Second)))
	// The server may answer and hang up before it has read everything.
	go func() { _, _ = io.WriteString(c, raw) }()
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	require.NoError(tb, err)
	b, err := io.ReadAll(res.Body)
	res.Body.Close()
	require.NoError(tb, err)
	assert.Equal(tb, "application/json; charset=utf-8", res.Header.Get("Content-Type"))
	assert.Equal(tb, strconv.Itoa(len(b)), res.Header.Get("Content-Length"))
	var out rawResponse
	out.Response = res
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	require.NoError(tb, dec.Decode(&out.body), "%s", b)
	assert.NotEmpty(tb, out.body.Message, "%s", b)
	return out
}

// TestDispatch_muxAnswersJSON: the requests no route answers, including
// those the mux redirects to their clean path, get JSON error bodies.
func TestDispatch_muxAnswersJSON(t *testing.T) {
	t.Parallel()
	club := apptest.New(t)
	tests := []struct {
		name, raw string
		status    int
		error     string
		header    map[string]string
	}{
		{"double slash", "GET //health HTTP/1.1\r\nHost: x\r\n\r\n", 307, "temporary redirect", map[string]string{"Location": "/health"}},
		{"dot segments", "POST /a/../api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n", 307, "temporary redirect", map[string]string{"Location": "/api/auth/login"}},
		{"encoded dot segments are a name", "GET /api/%2e%2e/health HTTP/1.1\r\nHost: x\r\n\r\n", 404, "not found", nil},
		{"unknown path", "GET /no/such/path HTTP/1.1\r\nHost: x\r\n\r\n", 404, "not found", nil},
		{"invented method", "XFOO /health HTTP/1.1\r\nHost: x\r\n\r\n", 405, "method not allowed", map[string]string{"Allow": "GET, HEAD"}},
		{"CONNECT to a host", "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n", 404, "not found", nil},
		{"CONNECT to a route", "CONNECT /health HTTP/1.1\r\nHost: x\r\n\r\n", 405, "method not allowed", nil},
		{"asterisk target", "GET * HTTP/1.1\r\nHost: x\r\n\r\n", 400, "bad request", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res := sendRaw(t, club.URL, tt.raw)
			assert.Equal(t, tt.status, res.StatusCode)
			assert.Equal(t, tt.error, res.body.Error)
			for k, v := range tt.header {
				assert.Equal(t, v, res.Header.Get(k), k)
			}
		})
	}
}
