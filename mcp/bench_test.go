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

	"github.com/clubhouse-go/clubhouse/internal/app"
)

// BenchmarkMCPQuote prices the same span through the real server two ways:
// tools/call booking_calculate_price in 16 MCP sessions against GET
// /api/admin/booking/calculate-price from 16 HTTP clients, with the same
// user's token; both end in booking.Bookings.Quote. A test machine's speed drifts, so each iteration
// runs short rounds in the order HTTP, MCP, MCP, HTTP and the benchmark
// reports each path's time per call, the ratio of HTTP's time to MCP's
// (MCP's throughput relative to HTTP's; the target is 0.7 or more) and the
// median of the iterations' ratios. The garbage collector runs at clubd's
// target (app.TuneGC; GOGC overrides it). Run it with
//
//	go test ./mcp/ -run XXX -bench MCPQuote -benchtime 5x
const (
	quoteClients   = 16 // concurrent sessions or HTTP clients
	quotePerClient = 25 // calls per client in a round
)

func BenchmarkMCPQuote(b *testing.B) {
	app.TuneGC() // as clubd runs
	a := newClub(b)
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
	call := []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"booking_calculate_price",`+
		`"arguments":{"court_id":%d,"reservation_type_id":%d,"checking":"2030-03-05T18:00:00","checkout":"2030-03-05T19:30:00"}}}`, court, rental))
	url := fmt.Sprintf("%s/api/admin/booking/calculate-price?date=2030-03-05&checking=18:00&checkout=19:30&court_id=%d&reservation_type_id=%d",
		a.URL, court, rental)

	viaMCP := func(ctx context.Context, c int) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.URL+"/mcp", bytes.NewReader(call))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Session-Id", sessions[c])
		req.Header.Set("MCP-Protocol-Version", "2025-11-25")
		res, err := hc.Do(req)
		if err != nil {
			return err
		}
		defer res.Body.Close()
		body, err := io.ReadAll(res.Body)
		if err != nil {
			return err
		}
		if res.StatusCode != http.StatusOK || !bytes.Contains(body, []byte(`final_price`)) || bytes.Contains(body, []byte(`"isError":true`)) {
			return fmt.Errorf("tools/call booking_calculate_price: %d %s", res.StatusCode, body)
		}
		return nil
	}
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
	b.Logf("GOMAXPROCS %d, %d clients each side, %d calls per client and round", runtime.GOMAXPROCS(0), quoteClients, quotePerClient)

	var httpTime, mcpTime time.Duration
	var ratios []float64
	calls := 0
	for i := 0; b.Loop(); i++ {
		var h, m time.Duration
		h += round(viaHTTP, quotePerClient)
		m += round(viaMCP, quotePerClient)
		m += round(viaMCP, quotePerClient)
		h += round(viaHTTP, quotePerClient)
		n := 2 * quoteClients * quotePerClient // calls of each side
		ratios = append(ratios, float64(h)/float64(m))
		b.Logf("iteration %d: http %.0f ns/op, mcp %.0f ns/op, ratio %.2f", i, float64(h)/float64(n), float64(m)/float64(n), float64(h)/float64(m))
		httpTime, mcpTime, calls = httpTime+h, mcpTime+m, calls+n
	}
	slices.Sort(ratios)
	k := len(ratios)
	b.ReportMetric(0, "ns/op")
	b.ReportMetric(float64(httpTime)/float64(calls), "http-ns/op")
	b.ReportMetric(float64(mcpTime)/float64(calls), "mcp-ns/op")
	b.ReportMetric(float64(httpTime)/float64(mcpTime), "ratio")
	b.ReportMetric((ratios[(k-1)/2]+ratios[k/2])/2, "ratio-median")
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
