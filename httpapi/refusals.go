package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// net/http answers some requests before any handler runs, writing the
// answer straight to the connection in text/plain or with no body:
//
//   - 400 for a request it cannot parse (request line, target, header,
//     Content-Length), with a reason for a missing or malformed Host and an
//     invalid header name or value;
//   - 431 for a header over the server's MaxHeaderBytes;
//   - 501 for a transfer coding other than chunked;
//   - 505 for a protocol version other than HTTP/1.x;
//   - 417 for an Expect other than 100-continue.
//
// net/http offers no hook for these, so Listener recognises them in what
// the server writes to a connection and rewrites them into the API's JSON
// error body. Every other write passes through unchanged.

// Listener returns ln whose connections answer net/http's own refusals with
// JSON error bodies, count them in clubhouse_http_refused_total by status
// and log one line each. The server must serve on it (clubd does).
func (s *Server) Listener(ln net.Listener) net.Listener {
	return &refusalListener{Listener: ln, refused: s.refused}
}

// refused counts and logs one refusal of net/http.
func (s *Server) refused(code int, reason string) {
	s.metrics.refused.WithLabelValues(strconv.Itoa(code)).Inc()
	s.log.LogAttrs(context.Background(), slog.LevelInfo, "refused",
		slog.Int("status", code), slog.String("reason", reason))
}

type refusalListener struct {
	net.Listener
	refused func(code int, reason string)
}

func (l *refusalListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &refusalConn{Conn: c, refused: l.refused}, nil
}

// refusalConn rewrites net/http's refusals among the writes to its
// connection. net/http writes a refusal in one Write, right after it read
// the request it refuses; only such a first write after a read is looked
// at, so that a response body that happens to hold the bytes of a refusal
// (a receipt image is the client's bytes) is never taken for one. A
// refusal of a request that arrived pipelined behind another, in the read
// that brought the first, keeps net/http's text. A hijacked connection (a
// websocket) keeps the wrapper; its frames never begin as a response does.
//
// refusalConn has no ReadFrom: net/http then copies response bodies
// through Write instead of sending files directly, which the API, serving
// no files from disk, does not miss.
type refusalConn struct {
	net.Conn
	refused func(code int, reason string)
	read    atomic.Bool // bytes were read since the last write
}

func (c *refusalConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 {
		c.read.Store(true)
	}
	return n, err
}

func (c *refusalConn) Write(p []byte) (int, error) {
	if !c.read.Swap(false) {
		return c.Conn.Write(p)
	}
	code, reason, ok := parseRefusal(p)
	if !ok {
		return c.Conn.Write(p)
	}
	c.refused(code, reason)
	if _, err := c.Conn.Write(refusalResponse(code, reason, time.Now())); err != nil {
		return 0, err
	}
	return len(p), nil
}

// CloseWrite half-closes the connection when it can. net/http does so
// after a 431, so that the client reads the answer before the connection
// is reset.
func (c *refusalConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// The forms of net/http's refusals (net/http/server.go, conn.serve and
// response.sendExpectationFailed).
const (
	refusalHeaders  = "\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n"
	unsupportedTE   = "Unsupported transfer encoding"
	expectationLine = "HTTP/1.1 417 Expectation Failed\r\n"
)

// parseRefusal reports whether p is one of net/http's refusals in full, and
// returns its status and the reason net/http gave, if any. Any other
// response fails at its first header line.
func parseRefusal(p []byte) (code int, reason string, ok bool) {
	if head, found := bytes.CutPrefix(p, []byte(expectationLine)); found {
		return http.StatusExpectationFailed, "", expectationFailed(string(head))
	}
	rest, found := bytes.CutPrefix(p, []byte("HTTP/1.1 "))
	end := bytes.Index(rest, []byte("\r\n"))
	if !found || end < 4 || !bytes.HasPrefix(rest[end:], []byte(refusalHeaders)) || rest[3] != ' ' {
		return 0, "", false
	}
	line, body := string(rest[:end]), string(rest[end+len(refusalHeaders):])
	code, err := strconv.Atoi(line[:3])
	if err != nil || code < 400 || code > 599 {
		return 0, "", false
	}
	if code == http.StatusNotImplemented && body == unsupportedTE {
		return code, "", true
	}
	// The body repeats the status line: "400 Bad Request", or with a
	// reason, "400 Bad Request: missing required Host header".
	if body != line {
		return 0, "", false
	}
	text := strings.TrimPrefix(line[4:], http.StatusText(code))
	if text == "" {
		return code, "", true
	}
	reason, found = strings.CutPrefix(text, ": ")
	return code, reason, found && reason != ""
}

// expectationFailed reports whether head is the rest of net/http's 417: its
// header lines (Connection, Date, Content-Length: 0) and no body.
func expectationFailed(head string) bool {
	lines, found := strings.CutSuffix(head, "\r\n\r\n")
	if !found {
		return false
	}
	var length bool
	for _, l := range strings.Split(lines, "\r\n") {
		name, value, _ := strings.Cut(l, ": ")
		switch {
		case name == "Content-Length" && value == "0":
			length = true
		case name == "Connection" && value == "close", name == "Date":
		default:
			return false
		}
	}
	return length
}

// refusalMessages are the messages of the refusals for which net/http
// gives no reason.
var refusalMessages = map[int]string{
	http.StatusBadRequest:                  "The request is not valid HTTP/1.1: its request line, target or header is malformed.",
	http.StatusExpectationFailed:           "The only expectation accepted is Expect: 100-continue.",
	http.StatusRequestHeaderFieldsTooLarge: "The request's header is too large.",
	http.StatusNotImplemented:              "The request's Transfer-Encoding is not supported; send chunked or a Content-Length.",
}

// refusalResponse is the answer that replaces a refusal: the same status,
// a JSON error body, and the connection closed as net/http closes it.
func refusalResponse(code int, reason string, now time.Time) []byte {
	msg := refusalMessages[code]
	switch {
	case reason != "":
		msg = "The request was refused: " + reason + "."
	case msg == "":
		msg = "The request was refused."
	}
	body, _ := json.Marshal(errorBody{Error: strings.ToLower(http.StatusText(code)), Message: msg}) // strings always encode
	body = append(body, '\n')
	return fmt.Appendf(nil, "HTTP/1.1 %d %s\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: %d\r\nConnection: close\r\nDate: %s\r\n\r\n%s",
		code, http.StatusText(code), len(body), now.UTC().Format(http.TimeFormat), body)
}
