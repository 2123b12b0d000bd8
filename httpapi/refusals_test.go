package httpapi_test

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
)

// TestRefusals_answerJSON sends, as raw bytes, the requests net/http
// refuses before any handler runs, to a server wired as clubd wires it:
// each answer keeps net/http's status and carries a JSON error body, and
// is counted and logged.
func TestRefusals_answerJSON(t *testing.T) {
	t.Parallel()
	club := apptest.New(t)
	tests := []struct {
		name, raw string
		status    int
		error     string
		message   string // a part of the message
		handler   bool   // answered by the handler, not net/http
	}{
		{"no Host", "GET /health HTTP/1.1\r\n\r\n", 400, "bad request", "missing required Host header", false},
		{"malformed Host", "GET /health HTTP/1.1\r\nHost: a b\r\n\r\n", 400, "bad request", "malformed Host header", false},
		{"two Hosts", "GET /health HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400, "bad request", "not valid HTTP/1.1", false},
		{"invalid header name", "GET /health HTTP/1.1\r\nHost: x\r\nBad Name: y\r\n\r\n", 400, "bad request", "invalid header name", false},
		{"malformed request line", "GARBAGE\r\n\r\n", 400, "bad request", "not valid HTTP/1.1", false},
		{"invalid escape in the target", "GET /%zz HTTP/1.1\r\nHost: x\r\n\r\n", 400, "bad request", "not valid HTTP/1.1", false},
		{"two Content-Lengths", "POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", 400, "bad request", "not valid HTTP/1.1", false},
		{"header over 64 KiB", "GET /health HTTP/1.1\r\nHost: x\r\nX-Big: " + strings.Repeat("a", 100<<10) + "\r\n\r\n", 431, "request header fields too large", "header is too large", false},
		{"unsupported transfer coding", "POST /api/auth/login HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", 501, "not implemented", "Transfer-Encoding", false},
		{"transfer coding twice", "POST /api/auth/login HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, chunked\r\n\r\n", 501, "not implemented", "Transfer-Encoding", false},
		{"HTTP/2.1", "GET /health HTTP/2.1\r\nHost: x\r\n\r\n", 505, "http version not supported", "unsupported protocol version", false},
		{"unknown expectation", "GET /health HTTP/1.1\r\nHost: x\r\nExpect: magic\r\n\r\n", 417, "expectation failed", "100-continue", false},
		// Reached the handler already, which reads the body: for contrast.
		{"bad chunk", "POST /api/auth/login HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\nzz\r\n", 400, "invalid JSON", "chunk", true},
	}
	refused := map[int]int{}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := sendRaw(t, club.URL, tt.raw)
			assert.Equal(t, tt.status, res.StatusCode)
			assert.Equal(t, tt.error, res.body.Error)
			assert.Contains(t, res.body.Message, tt.message)
			if !tt.handler {
				refused[tt.status]++
				assert.True(t, res.Close, "net/http hangs up after a refusal")
				assert.NotEmpty(t, res.Header.Get("Date"))
			}
		})
	}

	body := string(club.Anonymous().Get("/metrics").Status(t, http.StatusOK).Body)
	total := 0
	for status, n := range refused {
		assert.Contains(t, body, fmt.Sprintf(`clubhouse_http_refused_total{status="%d"} %d`, status, n))
		total += n
	}
	logs := club.Logs.String()
	assert.Regexp(t, `(?m)^.*level=INFO msg=refused status=400 reason="missing required Host header"$`, logs)
	assert.Len(t, regexp.MustCompile(`(?m)msg=refused `).FindAllString(logs, -1), total)
}
