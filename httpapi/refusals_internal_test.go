package httpapi

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeConn reads from in and records what is written to it.
type fakeConn struct {
	net.Conn
	in  io.Reader
	out bytes.Buffer
}

func (c *fakeConn) Read(p []byte) (int, error)  { return c.in.Read(p) }
func (c *fakeConn) Write(p []byte) (int, error) { return c.out.Write(p) }

const (
	noHost       = "HTTP/1.1 400 Bad Request: missing required Host header" + refusalHeaders + "400 Bad Request: missing required Host header"
	handlerJSON  = "HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\nDate: Mon, 02 Mar 2026 10:00:00 GMT\r\nContent-Length: 2\r\n\r\n{}"
	handlerText  = "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\nDate: Mon, 02 Mar 2026 10:00:00 GMT\r\n\r\n400 Bad Request"
	expectFailed = "HTTP/1.1 417 Expectation Failed\r\nConnection: close\r\nDate: Mon, 02 Mar 2026 10:00:00 GMT\r\nContent-Length: 0\r\n\r\n"
)

func TestParseRefusal(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, p string
		code    int
		reason  string
		ok      bool
	}{
		{"plain 400", "HTTP/1.1 400 Bad Request" + refusalHeaders + "400 Bad Request", 400, "", true},
		{"400 with a reason", noHost, 400, "missing required Host header", true},
		{"431", "HTTP/1.1 431 Request Header Fields Too Large" + refusalHeaders + "431 Request Header Fields Too Large", 431, "", true},
		{"501", "HTTP/1.1 501 Not Implemented" + refusalHeaders + "Unsupported transfer encoding", 501, "", true},
		{"505", "HTTP/1.1 505 HTTP Version Not Supported: unsupported protocol version" + refusalHeaders + "505 HTTP Version Not Supported: unsupported protocol version", 505, "unsupported protocol version", true},
		{"417", expectFailed, 417, "", true},
		{"a handler's JSON", handlerJSON, 0, "", false},
		{"a handler's text", handlerText, 0, "", false},
		{"body not the status line", "HTTP/1.1 400 Bad Request" + refusalHeaders + "400 Bad Request and more", 0, "", false},
		{"empty reason", "HTTP/1.1 400 Bad Request: " + refusalHeaders + "400 Bad Request: ", 0, "", false},
		{"reason without its colon", "HTTP/1.1 400 Bad Requests" + refusalHeaders + "400 Bad Requests", 0, "", false},
		{"not an error", "HTTP/1.1 200 OK" + refusalHeaders + "200 OK", 0, "", false},
		{"not a status", "HTTP/1.1 4x0 Bad" + refusalHeaders + "4x0 Bad", 0, "", false},
		{"417 with a body", strings.Replace(expectFailed, "Content-Length: 0", "Content-Length: 2", 1) + "{}", 0, "", false},
		{"417 with a header of a handler", strings.Replace(expectFailed, "Connection: close", "Content-Type: text/plain", 1), 0, "", false},
		{"a body chunk", "aaaa", 0, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			code, reason, ok := parseRefusal([]byte(tt.p))
			assert.Equal(t, tt.ok, ok)
			if tt.ok {
				assert.Equal(t, tt.code, code)
				assert.Equal(t, tt.reason, reason)
			}
		})
	}
}

// TestRefusalConn: only the first write after a read can be a refusal; it
// is rewritten with its length reported as written, and everything else
// passes through unchanged.
func TestRefusalConn(t *testing.T) {
	t.Parallel()
	var refused []int
	fc := &fakeConn{in: strings.NewReader("GET / HTTP/1.1\r\n\r\nGET / HTTP/1.1\r\n\r\n")}
	c := &refusalConn{Conn: fc, refused: func(code int, _ string) { refused = append(refused, code) }}
	buf := make([]byte, 18)

	n, err := c.Write([]byte(noHost))
	require.NoError(t, err)
	assert.Equal(t, len(noHost), n)
	assert.Equal(t, noHost, fc.out.String(), "nothing was read yet: not a refusal")

	_, err = c.Read(buf)
	require.NoError(t, err)
	fc.out.Reset()
	for _, p := range []string{handlerJSON, noHost} {
		n, err := c.Write([]byte(p))
		require.NoError(t, err)
		assert.Equal(t, len(p), n)
	}
	assert.Equal(t, handlerJSON+noHost, fc.out.String(), "a refusal's bytes in a second write are a body")

	_, err = c.Read(buf)
	require.NoError(t, err)
	fc.out.Reset()
	n, err = c.Write([]byte(noHost))
	require.NoError(t, err)
	assert.Equal(t, len(noHost), n, "the length net/http wrote, not the length of the rewrite")
	res, err := http.ReadResponse(bufio.NewReader(&fc.out), nil)
	require.NoError(t, err)
	body, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	assert.Equal(t, http.StatusBadRequest, res.StatusCode)
	assert.Equal(t, "application/json; charset=utf-8", res.Header.Get("Content-Type"))
	assert.Equal(t, int64(len(body)), res.ContentLength)
	assert.True(t, res.Close)
	var e errorBody
	require.NoError(t, json.Unmarshal(body, &e))
	assert.Equal(t, errorBody{Error: "bad request", Message: "The request was refused: missing required Host header."}, e)
	assert.Zero(t, fc.out.Len(), "one response and nothing after it")
	assert.Equal(t, []int{400}, refused)
}
