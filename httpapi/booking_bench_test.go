package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
)

// The booking benchmarks compare POST /api/admin/booking, sent over HTTP to
// the real handler stack, with raw pgx inserts into the same table. The disk
// of a test machine can change speed within minutes, so absolute figures say
// little: each iteration alternates short rounds in the order raw, API, API,
// raw, so that both paths meet the same conditions, and the benchmarks report
// the ratios. Run them with
//
//	go test ./httpapi/ -run XXX -bench Booking -benchtime 3x
//
// for three iterations of each. Both paths get a pgx pool with the app's
// settings (the same MaxConns), so the ratio measures the handler stack, not
// the pool size; the HTTP client keeps its connections alive and skips
// apptest's contract checks, which would dominate the timing.
const (
	benchClients   = 32 // concurrent clients, raw or HTTP
	benchPerClient = 50 // inserts per client in a round of BenchmarkBookingInsert
	benchWaves     = 50 // races of each path per iteration of BenchmarkBookingRace
)

// rawInsertSQL is the raw baseline: the insert the store makes, with the
// columns the API fills for a bot (the pending status, no operator).
const rawInsertSQL = `INSERT INTO reservations (court_id, reservation_type_id, reservation_status_id, checking, checkout)
	VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING id`

// overlapsSQL counts the pairs of bookings of a court that overlap; the
// exclusion constraint keeps it at zero.
const overlapsSQL = `SELECT count(*) FROM reservations a JOIN reservations b
	ON a.court_id = b.court_id AND a.id < b.id
	AND tsrange(a.checking, a.checkout, '[)') && tsrange(b.checking, b.checkout, '[)')`

// benchSlot is a span on a court.
type benchSlot struct {
	court    int64
	from, to time.Time
}

// bookingBench is a test app with a club to book, a raw pgx pool on its
// database and a keep-alive HTTP client for it.
type bookingBench struct {
	pool    *pgxpool.Pool
	client  *http.Client
	url     string
	typeID  int64
	pending int64
	courts  []int64
	aborted atomic.Int64 // raw inserts that failed with 40P01 or 23P01
}

func newBookingBench(b *testing.B, courts int) *bookingBench {
	b.Helper()
	app := apptest.New(b)
	app.Watch() // as clubd does
	admin := app.AsAdmin()
	typeID := admin.Post("/api/admin/court-types", map[string]any{"name": "Padel"}).Status(b, http.StatusCreated).ID(b)
	bb := &bookingBench{url: app.URL + "/api/admin/booking",
		typeID:  admin.Post("/api/admin/reservation-types", map[string]any{"name": "Rental"}).Status(b, http.StatusCreated).ID(b),
		pending: admin.Post("/api/admin/reservation-statuses", map[string]any{"name": "Pending", "color": "#F9A825"}).Status(b, http.StatusCreated).ID(b),
	}
	for i := range courts {
		bb.courts = append(bb.courts, admin.Post("/api/admin/courts",
			map[string]any{"name": fmt.Sprintf("Court %d", i+1), "court_type_id": typeID, "price": 60000}).Status(b, http.StatusCreated).ID(b))
	}
	pool, err := pgxpool.NewWithConfig(b.Context(), app.DB.Pool.Config())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(pool.Close)
	bb.pool = pool
	tr := &http.Transport{MaxIdleConns: 2 * benchClients, MaxIdleConnsPerHost: 2 * benchClients, IdleConnTimeout: time.Minute}
	b.Cleanup(tr.CloseIdleConnections)
	bb.client = &http.Client{Transport: tr, Timeout: time.Minute}
	b.Logf("pool MaxConns %d for each path; GOMAXPROCS %d", pool.Config().MaxConns, runtime.GOMAXPROCS(0))
	return bb
}

// raw inserts s with pgx; created is false when the slot was taken. A
// deadlock or an exclusion violation that still arrives counts as taken.
func (bb *bookingBench) raw(ctx context.Context, s benchSlot) (created bool, err error) {
	var id int64
	err = bb.pool.QueryRow(ctx, rawInsertSQL, s.court, bb.typeID, bb.pending, s.from, s.to).Scan(&id)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return false, nil
	case sqldb.Code(err) == "40P01" || sqldb.Code(err) == "23P01":
		bb.aborted.Add(1)
		return false, nil
	}
	return err == nil, err
}

// api posts s as the bot and answers the status.
func (bb *bookingBench) api(ctx context.Context, s benchSlot) (int, error) {
	return bb.post(ctx, bb.url, s)
}

// post posts s to url as the bot and answers the status.
func (bb *bookingBench) post(ctx context.Context, url string, s benchSlot) (int, error) {
	body := fmt.Appendf(nil, `{"court_id":%d,"reservation_type_id":%d,"checking":%q,"checkout":%q}`,
		s.court, bb.typeID, s.from.Format(time.DateTime), s.to.Format(time.DateTime))
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Auth", apptest.BotKey)
	resp, err := bb.client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	_, err = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, err
}

// count returns a number that SQL query answers.
func (bb *bookingBench) count(b *testing.B, query string) int {
	b.Helper()
	var n int
	if err := bb.pool.QueryRow(b.Context(), query).Scan(&n); err != nil {
		b.Fatal(err)
	}
	return n
}

// clients runs op n times in each of benchClients goroutines, all released
// at once, and returns the wall time of the whole and each call's latency.
// The first error stops every client.
func clients(ctx context.Context, n int, op func(ctx context.Context, client, i int) error) (time.Duration, []time.Duration, error) {
	return workers(ctx, benchClients, n, op)
}

// workers is clients with w goroutines.
func workers(ctx context.Context, w, n int, op func(ctx context.Context, client, i int) error) (time.Duration, []time.Duration, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	lat := make([][]time.Duration, w)
	var ready, done sync.WaitGroup
	start := make(chan struct{})
	for c := range w {
		ready.Add(1)
		done.Go(func() {
			lat[c] = make([]time.Duration, 0, n)
			ready.Done()
			<-start
			for i := range n {
				if ctx.Err() != nil {
					return
				}
				t := time.Now()
				if err := op(ctx, c, i); err != nil {
					cancel(err)
					return
				}
				lat[c] = append(lat[c], time.Since(t))
			}
		})
	}
	ready.Wait()
	t := time.Now()
	close(start)
	done.Wait()
	return time.Since(t), slices.Concat(lat...), context.Cause(ctx)
}

// side accumulates the rounds of one path.
type side struct {
	ops     int
	elapsed time.Duration
	lat     []time.Duration
}

func (s *side) add(ops int, elapsed time.Duration, lat []time.Duration) {
	s.ops += ops
	s.elapsed += elapsed
	s.lat = append(s.lat, lat...)
}

func (s *side) rate() float64 { return float64(s.ops) / s.elapsed.Seconds() }

// p99 returns the 99th percentile latency in milliseconds.
func (s *side) p99() float64 {
	if len(s.lat) == 0 {
		return 0
	}
	l := slices.Clone(s.lat)
	slices.Sort(l)
	return float64(l[(len(l)*99+99)/100-1]) / float64(time.Millisecond)
}

// abba runs round reps times in the order raw, API, API, raw at each
// iteration of b, then end (when not nil). It logs each iteration's figures,
// reports the median of the iterations' ratios (robust to a burst of load
// from elsewhere) and returns the totals of each side.
func abba(b *testing.B, unit string, reps int, round func(api bool) side, end func()) (raw, api side) {
	b.Helper()
	var ratios []float64
	for i := 0; b.Loop(); i++ {
		var r, a side
		for range reps {
			for _, isAPI := range []bool{false, true, true, false} {
				s := round(isAPI)
				if isAPI {
					a.add(s.ops, s.elapsed, s.lat)
				} else {
					r.add(s.ops, s.elapsed, s.lat)
				}
			}
		}
		if end != nil {
			end()
		}
		ratios = append(ratios, a.rate()/r.rate())
		b.Logf("iteration %d: raw %.0f %s p99 %.1f ms, api %.0f %s p99 %.1f ms, ratio %.2f",
			i, r.rate(), unit, r.p99(), a.rate(), unit, a.p99(), a.rate()/r.rate())
		raw.add(r.ops, r.elapsed, r.lat)
		api.add(a.ops, a.elapsed, a.lat)
	}
	slices.Sort(ratios)
	n := len(ratios)
	b.ReportMetric((ratios[(n-1)/2]+ratios[n/2])/2, "ratio-median")
	return raw, api
}

// BenchmarkBookingInsert books distinct free slots from 32 clients, raw pgx
// against POST /api/admin/booking. Every insert must succeed.
func BenchmarkBookingInsert(b *testing.B) {
	bb := newBookingBench(b, 8)
	ctx := b.Context()
	base := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	var next atomic.Int64
	free := func() benchSlot { // the next 30-minute slot, round robin over the courts
		k := next.Add(1) - 1
		from := base.Add(time.Duration(k/int64(len(bb.courts))) * 30 * time.Minute)
		return benchSlot{court: bb.courts[k%int64(len(bb.courts))], from: from, to: from.Add(30 * time.Minute)}
	}
	rawOp := func(ctx context.Context, _, _ int) error {
		s := free()
		created, err := bb.raw(ctx, s)
		if err == nil && !created {
			err = fmt.Errorf("raw insert of free slot %v refused", s)
		}
		return err
	}
	var fivexx atomic.Int64
	apiOp := func(ctx context.Context, _, _ int) error {
		s := free()
		code, err := bb.api(ctx, s)
		if err != nil {
			return err
		}
		if code >= 500 {
			fivexx.Add(1)
		}
		if code != http.StatusCreated {
			return fmt.Errorf("POST of free slot %v: status %d", s, code)
		}
		return nil
	}
	round := func(api bool, n int) side {
		op := rawOp
		if api {
			op = apiOp
		}
		d, lat, err := clients(ctx, n, op)
		if err != nil {
			b.Fatalf("api %v (%d 5xx): %v", api, fivexx.Load(), err)
		}
		return side{ops: len(lat), elapsed: d, lat: lat}
	}
	// Warm up: connections of both pools and the HTTP client, statement caches.
	round(false, 4)
	round(true, 4)

	raw, api := abba(b, "ops/s", 2, func(api bool) side { return round(api, benchPerClient) }, nil)

	if n := fivexx.Load(); n != 0 {
		b.Fatalf("%d responses were 5xx", n)
	}
	if n := bb.count(b, overlapsSQL); n != 0 {
		b.Fatalf("%d pairs of bookings overlap", n)
	}
	if n, want := bb.count(b, "SELECT count(*) FROM reservations"), int(next.Load()); n != want {
		b.Fatalf("%d bookings stored, want %d", n, want)
	}
	b.ReportMetric(0, "ns/op")
	b.ReportMetric(raw.rate(), "raw-ops/s")
	b.ReportMetric(api.rate(), "api-ops/s")
	b.ReportMetric(api.rate()/raw.rate(), "ratio")
	b.ReportMetric(raw.p99(), "raw-p99-ms")
	b.ReportMetric(api.p99(), "api-p99-ms")
	b.ReportMetric(api.p99()/raw.p99(), "p99-ratio")
}

// BenchmarkBookingCreateFloor is the measure of the create path:
// POST /api/admin/booking through clubd's whole stack against its floor, a
// bare net/http handler that decodes the same body and runs the store's
// INSERT on the same table with native pgx, answering 201 with the id. Both
// are served on loopback listeners, called by the same 32 clients over one
// keep-alive HTTP client, with pools of the same size; "raw" in the log is
// the floor. Each iteration's ratio is logged.
func BenchmarkBookingCreateFloor(b *testing.B) {
	bb := newBookingBench(b, 8)
	ctx := b.Context()
	floorURL := floorServer(b, bb)
	base := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	var next atomic.Int64
	free := func() benchSlot {
		k := next.Add(1) - 1
		from := base.Add(time.Duration(k/int64(len(bb.courts))) * 30 * time.Minute)
		return benchSlot{court: bb.courts[k%int64(len(bb.courts))], from: from, to: from.Add(30 * time.Minute)}
	}
	op := func(url string) func(ctx context.Context, _, _ int) error {
		return func(ctx context.Context, _, _ int) error {
			s := free()
			code, err := bb.post(ctx, url, s)
			if err == nil && code != http.StatusCreated {
				err = fmt.Errorf("POST %s of free slot %v: status %d", url, s, code)
			}
			return err
		}
	}
	round := func(api bool, n int) side {
		f := op(floorURL)
		if api {
			f = op(bb.url)
		}
		d, lat, err := clients(ctx, n, f)
		if err != nil {
			b.Fatalf("api %v: %v", api, err)
		}
		return side{ops: len(lat), elapsed: d, lat: lat}
	}
	round(false, 4)
	round(true, 4)
	floor, api := abba(b, "ops/s", 2, func(api bool) side { return round(api, benchPerClient) }, nil)
	if n, want := bb.count(b, "SELECT count(*) FROM reservations"), int(next.Load()); n != want {
		b.Fatalf("%d bookings stored, want %d", n, want)
	}
	b.ReportMetric(0, "ns/op")
	b.ReportMetric(floor.rate(), "floor-ops/s")
	b.ReportMetric(api.rate(), "api-ops/s")
	b.ReportMetric(api.rate()/floor.rate(), "ratio")
}

// floorServer serves the floor of BenchmarkBookingCreateFloor on a loopback
// port and returns its URL: decode, one INSERT with native pgx, encode.
func floorServer(b *testing.B, bb *bookingBench) string {
	b.Helper()
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var in struct {
			CourtID           int64  `json:"court_id"`
			ReservationTypeID int64  `json:"reservation_type_id"`
			Checking          string `json:"checking"`
			Checkout          string `json:"checkout"`
		}
		if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		from, err1 := time.Parse(time.DateTime, in.Checking)
		to, err2 := time.Parse(time.DateTime, in.Checkout)
		if err := errors.Join(err1, err2); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		var id int64
		err := bb.pool.QueryRow(r.Context(), rawInsertSQL, in.CourtID, in.ReservationTypeID, bb.pending, from, to).Scan(&id)
		if errors.Is(err, pgx.ErrNoRows) {
			http.Error(w, "taken", http.StatusConflict)
			return
		}
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		_ = json.NewEncoder(w).Encode(map[string]int64{"id": id})
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	b.Cleanup(func() { _ = srv.Close() })
	return "http://" + ln.Addr().String() + "/"
}

// BenchmarkBookingRace releases 32 clients at once on 4 slots, 8 clients
// each with overlapping spans, wave after wave, raw pgx against POST
// /api/admin/booking. No answer may be a 5xx, and afterwards no two bookings
// of a court may overlap.
func BenchmarkBookingRace(b *testing.B) {
	bb := newBookingBench(b, 2)
	ctx := b.Context()
	base := time.Date(2030, 1, 1, 10, 0, 0, 0, time.UTC)
	var wave atomic.Int64 // each wave races for 4 fresh slots, a day later than the last
	// contested returns the span client asks for in wave w: slot client%4 is
	// a 2-hour window on one of the courts, and its 8 clients start at :00,
	// :30 or +1h, so that every span holds the window's last hour.
	contested := func(w int64, client int) benchSlot {
		slot := client % 4
		start := base.AddDate(0, 0, int(w)).Add(time.Duration(slot/2) * 2 * time.Hour)
		return benchSlot{court: bb.courts[slot%2], from: start.Add(time.Duration(client/4%3) * 30 * time.Minute), to: start.Add(2 * time.Hour)}
	}
	var rawWon, apiWon, fivexx, conflicts, waves atomic.Int64
	waveOp := func(api bool) func(context.Context, int, int) error {
		return func(ctx context.Context, client, _ int) error {
			s := contested(wave.Load(), client)
			if !api {
				created, err := bb.raw(ctx, s)
				if created {
					rawWon.Add(1)
				}
				return err
			}
			code, err := bb.api(ctx, s)
			switch {
			case err != nil:
				return err
			case code == http.StatusCreated:
				apiWon.Add(1)
			case code == http.StatusConflict:
				conflicts.Add(1)
			case code >= 500:
				fivexx.Add(1)
				return fmt.Errorf("POST %v: status %d", s, code)
			default:
				return fmt.Errorf("POST %v: status %d", s, code)
			}
			return nil
		}
	}
	// round is one race, on fresh slots.
	round := func(api bool) side {
		d, lat, err := clients(ctx, 1, waveOp(api))
		if err != nil {
			b.Fatalf("api %v (%d 5xx): %v", api, fivexx.Load(), err)
		}
		wave.Add(1)
		if api {
			waves.Add(1)
		}
		return side{ops: len(lat), elapsed: d, lat: lat}
	}
	// end checks that no bookings overlap and frees the slots again.
	end := func() {
		if n := bb.count(b, overlapsSQL); n != 0 {
			b.Fatalf("%d pairs of bookings overlap", n)
		}
		if _, err := bb.pool.Exec(ctx, "DELETE FROM reservations"); err != nil {
			b.Fatal(err)
		}
	}
	for range 4 { // warm up
		round(false)
		round(true)
	}
	end()
	rawWon.Store(0)
	apiWon.Store(0)
	conflicts.Store(0)
	waves.Store(0)
	bb.aborted.Store(0)

	raw, api := abba(b, "attempts/s", benchWaves/2, round, end)

	if n := fivexx.Load(); n != 0 {
		b.Fatalf("%d responses were 5xx", n)
	}
	slots := waves.Load() * 4
	if rawWon.Load() > slots || apiWon.Load() > slots {
		b.Fatalf("more winners than slots: raw %d, api %d, slots %d", rawWon.Load(), apiWon.Load(), slots)
	}
	b.Logf("%d slots each: raw won %d (40P01/23P01: %d), api won %d (409: %d), 5xx %d, overlaps 0",
		slots, rawWon.Load(), bb.aborted.Load(), apiWon.Load(), conflicts.Load(), fivexx.Load())
	b.ReportMetric(0, "ns/op")
	b.ReportMetric(raw.rate(), "raw-attempts/s")
	b.ReportMetric(api.rate(), "api-attempts/s")
	b.ReportMetric(api.rate()/raw.rate(), "ratio")
	b.ReportMetric(raw.p99(), "raw-p99-ms")
	b.ReportMetric(api.p99(), "api-p99-ms")
	b.ReportMetric(float64(fivexx.Load()), "5xx")
	b.ReportMetric(0, "overlaps") // any overlap failed the benchmark above
}
