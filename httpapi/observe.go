package httpapi

import (
	"bufio"
	"context"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/compose/club"
	"github.com/clubhouse-go/clubhouse/internal/identity/auth"
)

// requestInfo is filled in by the route handler and read by observe once
// the response is written; it also carries the authenticated actor.
type requestInfo struct {
	route      string
	principal  string
	actor      clubhouse.Actor
	club       *club.Services // the club of the request (Options.Clubs)
	grant      auth.Principal // what the caller's credentials grant
	clientGone bool           // the client went away before the answer; nothing was written
}

// statusClientClosed is nginx's status for a request whose client went away
// before it was answered. It is never sent, only logged and counted, so
// that a client hanging up does not show as a failure of the server.
const statusClientClosed = 499

type infoKey struct{}

func infoFrom(ctx context.Context) *requestInfo {
	if ri, ok := ctx.Value(infoKey{}).(*requestInfo); ok {
		return ri
	}
	return &requestInfo{}
}

// statusWriter records the status of a response.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Hijack hands the connection to the realtime relay, whose WebSocket
// library asks for an http.Hijacker itself rather than through Unwrap.
// The relay answers the upgrade on the connection, so the request is
// logged and counted with 101 when nothing was written before.
func (w *statusWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	c, rw, err := http.NewResponseController(w.ResponseWriter).Hijack()
	if err == nil && w.status == 0 {
		w.status = http.StatusSwitchingProtocols
	}
	return c, rw, err
}

// observe logs one line per request, records its metrics, tells
// Options.Answered, and turns a panic into a 500.
func (s *Server) observe(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		// One allocation for both: they live as long as the request.
		st := &struct {
			ri requestInfo
			sw statusWriter
		}{ri: requestInfo{route: "unmatched", principal: "anonymous"}, sw: statusWriter{ResponseWriter: w}}
		ri, sw := &st.ri, &st.sw
		r = r.WithContext(context.WithValue(r.Context(), infoKey{}, ri))
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.log.ErrorContext(r.Context(), "panic", "method", r.Method, "path", r.URL.Path, "panic", v)
				if sw.status == 0 {
					writeJSONBody(sw, http.StatusInternalServerError, errorBody{Error: "internal error", Message: "The server failed to handle the request."})
				}
			}
			end := time.Now()
			d := end.Sub(start)
			s.metrics.observe(r.Method, ri.route, sw.status, d)
			s.logRequest(r, ri, sw.status, end, d)
			s.o.Answered(r.Method)
		}()
		next.ServeHTTP(sw, r)
		switch {
		case sw.status != 0:
		case ri.clientGone:
			sw.status = statusClientClosed
		default:
			sw.status = http.StatusOK
		}
	})
}

// logRequest logs the line of a request answered with status at end,
// after d. It hands the record to the handler itself, as slog's wrappers
// do, so that no caller's program counter is looked up: the source of the
// line would always be this function.
func (s *Server) logRequest(r *http.Request, ri *requestInfo, status int, end time.Time, d time.Duration) {
	ctx, h := r.Context(), s.log.Handler()
	if !h.Enabled(ctx, slog.LevelInfo) {
		return
	}
	rec := slog.NewRecord(end, slog.LevelInfo, "request", 0)
	rec.AddAttrs(slog.String("method", r.Method), slog.String("path", loggedPath(r, ri.route)), slog.String("route", ri.route),
		slog.Int("status", status), slog.Duration("duration", d), slog.String("principal", ri.principal))
	_ = h.Handle(ctx, rec)
}

// secretPaths are the routes whose path carries a credential: a calendar
// feed's token, which is all a reader of the feed needs. Their log lines
// show the route's pattern instead, so that the logs hold no address that
// reads a feed.
var secretPaths = map[string]bool{"GET " + calendarFeedPrefix + "{feed}": true}

// loggedPath is the path a request's log line shows: the path asked, but
// the pattern of a route whose path is a credential (secretPaths).
func loggedPath(r *http.Request, route string) string {
	if secretPaths[route] {
		_, pattern, _ := strings.Cut(route, " ")
		return pattern
	}
	return r.URL.Path
}

// methodLabel is the method label of a request's metrics: the method when
// it is a standard one, "other" otherwise. net/http accepts any token as a
// method, and each label value is a series kept for the life of the
// process, so a client inventing methods must not be able to add series.
func methodLabel(method string) string {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions, http.MethodConnect, http.MethodTrace:
		return method
	}
	return "other"
}

// metrics are the Prometheus collectors of one Server. Every label comes
// from a closed set: method from methodLabel, route a registered pattern or
// "unmatched", status a number the server wrote (or 499 when the client
// left first).
type metrics struct {
	reg      *prometheus.Registry
	handler  http.Handler
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	refused  *prometheus.CounterVec

	mu     sync.RWMutex
	series map[seriesKey]series // the collectors of requests and latency, by their labels
}

// seriesKey is the labels of a request's series, the status as a number.
type seriesKey struct {
	method, route string
	status        int
}

// series are the request counter and latency histogram of one seriesKey.
type series struct {
	requests prometheus.Counter
	latency  prometheus.Observer
}

// observe counts a request of method on route answered with status, and
// records its latency d. The collectors of each set of labels are looked
// up in the vectors once, on its first request, and kept: the labels come
// from closed sets.
func (m *metrics) observe(method, route string, status int, d time.Duration) {
	k := seriesKey{method: methodLabel(method), route: route, status: status}
	m.mu.RLock()
	sr, ok := m.series[k]
	m.mu.RUnlock()
	if !ok {
		code := strconv.Itoa(status)
		sr = series{requests: m.requests.WithLabelValues(k.method, route, code), latency: m.latency.WithLabelValues(k.method, route, code)}
		m.mu.Lock()
		m.series[k] = sr
		m.mu.Unlock()
	}
	sr.requests.Inc()
	sr.latency.Observe(d.Seconds())
}

// newMetrics registers the request metrics in reg, the composition's
// registry, whose every collector /metrics serves.
func newMetrics(reg *prometheus.Registry) *metrics {
	m := &metrics{
		reg:    reg,
		series: map[seriesKey]series{},
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "clubhouse_http_requests_total", Help: "HTTP requests by method (other for a non-standard one), route (unmatched when none) and status.",
		}, []string{"method", "route", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "clubhouse_http_request_duration_seconds", Help: "HTTP request latency by method, route and status.",
			Buckets: prometheus.DefBuckets,
		}, []string{"method", "route", "status"}),
		refused: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "clubhouse_http_refused_total", Help: "Requests net/http refused before routing (malformed, header too large, ...), by status.",
		}, []string{"status"}),
	}
	m.handler = promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
	m.reg.MustRegister(m.requests, m.latency, m.refused)
	return m
}
