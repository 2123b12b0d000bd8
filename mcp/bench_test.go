package mcp_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/clubhouse-go/clubhouse/internal/compose/app"
	"github.com/clubhouse-go/clubhouse/mcp"
)

// BenchmarkMCPQuote prices the same span through the real server three
// ways: tools/call booking_calculate_price in 16 MCP sessions (revision
// 2025-11-25), the same call from 16 stateless MCP clients (revision
// 2026-07-28: no session, each request stands alone), and GET
// /api/admin/booking/calculate-price from 16 HTTP clients, with the same
// user's token; all end in booking.Bookings.Quote. A test machine's speed
// drifts, so each iteration runs short rounds in the order HTTP, sessions,
// stateless, stateless, sessions, HTTP and the benchmark reports each
// path's time per call, the ratio of HTTP's time to each MCP path's (its
// throughput relative to HTTP's; the target is 0.8 or more stateless) and
// the median of the iterations' ratios. The garbage collector runs at clubd's
// target (app.TuneGC; GOGC overrides it). Run it with
//
//	go test ./mcp/ -run XXX -bench MCPQuote -benchtime 5x
const (
	quoteClients   = 16 // concurrent sessions or HTTP clients
	quotePerClient = 25 // calls per client in a round
)

func BenchmarkMCPQuote(b *testing.B) {
	app.TuneGC() // as clubd runs
	// The sessions of one user, opened at once: above the defaults.
	a := newClub(b, func(_ *app.Config, o *app.Options) {
		o.MCPLimits = mcp.Limits{MaxUserSessions: 2 * quoteClients, InitializeBurst: 2 * quoteClients, MaxUserRequests: 2 * quoteClients}
	})
	ctx := b.Context()
	token := staffToken(a, "bench@test.club")
	tr := &http.Transport{MaxIdleConns: 4 * quoteClients, MaxIdleConnsPerHost: 4 * quoteClients, IdleConnTimeout: time.Minute}
	b.Cleanup(tr.CloseIdleConnections)
	hc := &http.Client{Transport: bearer{token: token, next: tr}, Timeout: time.Minute}

	// The sessions are opened by the SDK's client; the calls are sent as
	// the HTTP route's are, by net/http with a body made once, so that
	// both sides spend the same on their client and the ratio measures the
	// server's two front doors.
	cs := connect(b, a, token)
	courts := rowsOK(b, cs, "court_list", nil, "courts")
	types := rowsOK(b, cs, "reservation_type_list", nil, "reservation_types")
	court, rental := named(b, courts, "Padel 1"), named(b, types, "Rental")
	sessions := make([]string, quoteClients)
	for i := range sessions {
		sessions[i] = connect(b, a, token).ID()
	}
	args := fmt.Sprintf(`"arguments":{"court_id":%d,"reservation_type_id":%d,"checking":"2030-03-05T18:00:00","checkout":"2030-03-05T19:30:00"}`, court, rental)
	call := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"booking_calculate_price",` + args + `}}`)
	statelessCall := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"booking_calculate_price",` + args +
		`,` + statelessMeta + `}}`)
	url := fmt.Sprintf("%s/api/admin/booking/calculate-price?date=2030-03-05&checking=18:00&checkout=19:30&court_id=%d&reservation_type_id=%d",
		a.URL, court, rental)

	// viaMCP calls the tool in client c's session, or stateless when
	// c is negative (client -c-1).
	viaMCP := func(ctx context.Context, c int) error {
		body := call
		if c < 0 {
			body = statelessCall
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.URL+"/mcp", bytes.NewReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if c < 0 {
			req.Header.Set("MCP-Protocol-Version", statelessVersion)
			req.Header.Set("Mcp-Method", "tools/call")
			req.Header.Set("Mcp-Name", "booking_calculate_price")
		} else {
			req.Header.Set("Mcp-Session-Id", sessions[c])
			req.Header.Set("MCP-Protocol-Version", sessionVersion)
		}
		res, err := hc.Do(req)
		if err != nil {
			return err
		}
		defer res.Body.Close()
		answer, err := io.ReadAll(res.Body)
		if err != nil {
			return err
		}
		if res.StatusCode != http.StatusOK || !bytes.Contains(answer, []byte(`final_price`)) || bytes.Contains(answer, []byte(`"isError":true`)) {
			return fmt.Errorf("tools/call booking_calculate_price: %d %s", res.StatusCode, answer)
		}
		return nil
	}
	viaStateless := func(ctx context.Context, c int) error { return viaMCP(ctx, -c-1) }
	viaHTTP := func(ctx context.Context, _ int) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		res, err := hc.Do(req)
		if err != nil {
			return err
		}
		defer res.Body.Close()
		if _, err := io.Copy(io.Discard, res.Body); err != nil {
			return err
		}
		if res.StatusCode != http.StatusOK {
			return fmt.Errorf("GET calculate-price: %d", res.StatusCode)
		}
		return nil
	}
	round := func(op func(context.Context, int) error, n int) time.Duration {
		d, err := concurrently(ctx, n, op)
		if err != nil {
			b.Fatal(err)
		}
		return d
	}
	round(viaHTTP, 4) // warm up: connections, statement caches, the compiled tariffs
	round(viaMCP, 4)
	round(viaStateless, 4)
	b.Logf("GOMAXPROCS %d, %d clients each side, %d calls per client and round", runtime.GOMAXPROCS(0), quoteClients, quotePerClient)

	var httpTime, mcpTime, statelessTime time.Duration
	var ratios, statelessRatios []float64
	calls := 0
	for i := 0; b.Loop(); i++ {
		var h, m, s time.Duration
		h += round(viaHTTP, quotePerClient)
		m += round(viaMCP, quotePerClient)
		s += round(viaStateless, quotePerClient)
		s += round(viaStateless, quotePerClient)
		m += round(viaMCP, quotePerClient)
		h += round(viaHTTP, quotePerClient)
		n := 2 * quoteClients * quotePerClient // calls of each path
		ratios = append(ratios, float64(h)/float64(m))
		statelessRatios = append(statelessRatios, float64(h)/float64(s))
		b.Logf("iteration %d: http %.0f ns/op, mcp sessions %.0f ns/op (ratio %.2f), mcp stateless %.0f ns/op (ratio %.2f)", i,
			float64(h)/float64(n), float64(m)/float64(n), float64(h)/float64(m), float64(s)/float64(n), float64(h)/float64(s))
		httpTime, mcpTime, statelessTime, calls = httpTime+h, mcpTime+m, statelessTime+s, calls+n
	}
	b.ReportMetric(0, "ns/op")
	b.ReportMetric(float64(httpTime)/float64(calls), "http-ns/op")
	b.ReportMetric(float64(mcpTime)/float64(calls), "mcp-ns/op")
	b.ReportMetric(float64(statelessTime)/float64(calls), "stateless-ns/op")
	b.ReportMetric(float64(httpTime)/float64(mcpTime), "ratio")
	b.ReportMetric(median(ratios), "ratio-median")
	b.ReportMetric(float64(httpTime)/float64(statelessTime), "stateless-ratio")
	b.ReportMetric(median(statelessRatios), "stateless-ratio-median")
}

// median returns the median of xs, which it sorts.
func median(xs []float64) float64 {
	slices.Sort(xs)
	k := len(xs)
	return (xs[(k-1)/2] + xs[k/2]) / 2
}

// concurrently runs op n times in each of quoteClients goroutines, all
// released at once, and returns the wall time of the whole. The first
// error stops every client.
func concurrently(ctx context.Context, n int, op func(ctx context.Context, client int) error) (time.Duration, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var ready, done sync.WaitGroup
	start := make(chan struct{})
	for c := range quoteClients {
		ready.Add(1)
		done.Go(func() {
			ready.Done()
			<-start
			for range n {
				if ctx.Err() != nil {
					return
				}
				if err := op(ctx, c); err != nil {
					cancel(err)
					return
				}
			}
		})
	}
	ready.Wait()
	t := time.Now()
	close(start)
	done.Wait()
	return time.Since(t), context.Cause(ctx)
}
