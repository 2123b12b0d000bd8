package realtime_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/redis/go-redis/v9"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/realtime"
)

// The load benchmarks measure how fast the relay delivers a broadcast (a
// message whose audience is everyone) to many WebSocket connections, each
// time against a floor measured in the same run: a minimal gorilla
// broadcast server (gorilla's chat example: a hub goroutine, a writer
// goroutine and a bounded queue per connection, the envelope encoded once
// per message) in the same server process, without the relay's handshake
// checks, rooms, audiences and broker. The arms alternate floor, relay,
// relay, floor in each iteration, every arm on sockets dialed for it; each
// iteration logs one line: every arm's p50/p95/p99 and the ratio of the
// relay's p99 to the floor's (the output of a benchmark keeps 10 lines).
//
// The broadcasts of an arm are 250 ms apart: on two processors that also
// run the 10,000 clients, one broadcast takes about 100 ms to reach every
// socket, so each is measured alone. 50 ms apart, each arm falls behind
// and measures the machine's throughput rather than a broadcast (p99s of
// 150 to 600 ms, the floor's as the relay's).
//
// 10,000 sockets need 10,000 descriptors on each side and a process may
// open 20,000, so the relay runs in a process of its own: the benchmark
// starts its own test binary again with RELAY_BENCH_SERVER=1, which runs
// TestBenchServer, and dials the sockets from the benchmark's process. Both
// processes read the same clock: a socket's latency is the moment it read
// the message less the envelope's at, the moment of Publish. With
// RELAY_BENCH_CPUPROFILE=<file> each server process writes its CPU
// profile to <file>.a (the second of the Redis benchmark to <file>.b),
// the connections' goroutines labelled arm=relay or arm=floor:
//
//	go tool pprof -tags realtime.test <file>.a
//
// Run them with
//
//	go test ./realtime -run XXX -bench Broadcast10k -benchtime 3x
//	go test ./realtime -run XXX -bench Redis10k -benchtime 3x
//	go test ./realtime -run XXX -bench SlowReader -benchtime 3x
const (
	envServer  = "RELAY_BENCH_SERVER"     // "1": TestBenchServer serves
	envRedis   = "RELAY_BENCH_REDIS"      // a channel prefix: the server's relay and floor go through Redis
	envProfile = "RELAY_BENCH_CPUPROFILE" // a file: the server's CPU profile
	benchEvent = "bench"
	benchRedis = "redis://127.0.0.1:6379/0"
)

// everyone is the benchmark's payload: nothing but an audience of every
// connection.
type everyone struct{}

// Audience implements clubhouse.Addressed.
func (everyone) Audience() clubhouse.Audience { return clubhouse.Audience{All: true} }

// serverStats is what a server process reports at /stats.
type serverStats struct {
	Relay realtime.Stats `json:"relay"`
	Floor int            `json:"floor"` // the floor's open connections
	Bytes uint64         `json:"bytes"` // HeapInuse+StackInuse after a collection
}

// TestBenchServer is the server process of the load benchmarks; it serves
// only when RELAY_BENCH_SERVER=1. It listens on a loopback port, which it
// prints, and serves until its standard input ends:
//
//	GET /realtime          the relay; the token "bench:<n>" is user n, an operator
//	GET /floor             the floor's WebSocket
//	POST /publish?arm=     relay or floor: one broadcast
//	GET /stats             serverStats
func TestBenchServer(t *testing.T) {
	if os.Getenv(envServer) != "1" {
		t.Skip("the server process of the load benchmarks (RELAY_BENCH_SERVER=1)")
	}
	if path := os.Getenv(envProfile); path != "" {
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		defer pprof.StopCPUProfile()
	}
	ctx := context.Background()
	var broker realtime.Broker = realtime.NewMemory()
	fl := &floor{conns: map[*floorConn]struct{}{}, hub: make(chan []byte, realtime.DefaultPublishQueue)}
	fctx, stop := context.WithCancel(ctx)
	defer stop()
	go fl.run(fctx)
	prefix := os.Getenv(envRedis)
	if prefix != "" {
		b, err := realtime.OpenRedis(benchRedis, prefix, nil)
		if err != nil {
			t.Fatal(err)
		}
		broker = b
		opt, _ := redis.ParseURL(benchRedis)
		fl.redis, fl.channel = redis.NewClient(opt), prefix+":floor"
		defer fl.redis.Close()
		if err := fl.subscribe(ctx); err != nil {
			t.Fatal(err)
		}
	}
	relay := realtime.New(realtime.Options{Broker: broker, Authenticate: benchAuthenticate})
	if err := relay.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer relay.Close()

	mux := http.NewServeMux()
	// The connections' goroutines carry the label arm=relay or arm=floor in
	// the profile.
	mux.HandleFunc("GET /realtime", func(w http.ResponseWriter, r *http.Request) {
		pprof.Do(r.Context(), pprof.Labels("arm", "relay"), func(context.Context) {
			if err := relay.Serve(w, r); err != nil {
				http.Error(w, err.Error(), http.StatusUnauthorized)
			}
		})
	})
	mux.HandleFunc("GET /floor", func(w http.ResponseWriter, r *http.Request) {
		pprof.Do(r.Context(), pprof.Labels("arm", "floor"), func(context.Context) { fl.serve(w, r) })
	})
	mux.HandleFunc("POST /publish", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("arm") == "floor" {
			if err := fl.publish(r.Context()); err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
			}
			return
		}
		relay.Publish(benchEvent, everyone{})
	})
	mux.HandleFunc("GET /stats", func(w http.ResponseWriter, _ *http.Request) {
		runtime.GC()
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		_ = json.NewEncoder(w).Encode(serverStats{Relay: relay.Stats(), Floor: fl.count(), Bytes: ms.HeapInuse + ms.StackInuse})
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: mux}
	go func() { _ = srv.Serve(ln) }()
	fmt.Printf("listening http://%s\n", ln.Addr())
	_, _ = io.Copy(io.Discard, os.Stdin) // until the benchmark ends
	_ = srv.Close()
	fl.close()
}

// benchAuthenticate lets in the token "bench:<n>" as user n, an operator.
func benchAuthenticate(_ context.Context, c realtime.Credentials) (clubhouse.Actor, time.Time, error) {
	n, ok := strings.CutPrefix(c.Token, "bench:")
	id, err := strconv.ParseInt(n, 10, 64)
	if !ok || err != nil {
		return clubhouse.Actor{}, time.Time{}, clubhouse.Errorf(clubhouse.Unauthenticated, "unauthorized", "not a bench token")
	}
	return clubhouse.Actor{UserID: id, UID: c.Token, Roles: map[clubhouse.Role]bool{clubhouse.RoleOperator: true}}, time.Time{}, nil
}

// floor is the minimal broadcast server the relay is measured against:
// gorilla's chat example (a hub goroutine that hands each broadcast to
// every connection's queue, a writer goroutine per connection), with the
// relay's buffer sizes and queue bound. Like the relay's Publish, its
// publish only queues the broadcast for the hub goroutine, or with Redis
// publishes it to a channel of its own, whose subscription hands it to
// the connections.
type floor struct {
	mu      sync.Mutex
	conns   map[*floorConn]struct{}
	hub     chan []byte
	redis   *redis.Client
	channel string
	stop    context.CancelFunc
}

type floorConn struct {
	ws   *websocket.Conn
	send chan []byte
	done chan struct{}
}

var floorUpgrader = websocket.Upgrader{ReadBufferSize: 1024, WriteBufferSize: 4096, WriteBufferPool: &sync.Pool{}}

func (f *floor) serve(w http.ResponseWriter, r *http.Request) {
	ws, err := floorUpgrader.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	c := &floorConn{ws: ws, send: make(chan []byte, realtime.DefaultQueueSize), done: make(chan struct{})}
	f.mu.Lock()
	f.conns[c] = struct{}{}
	f.mu.Unlock()
	go func() {
		for {
			select {
			case b := <-c.send:
				_ = ws.SetWriteDeadline(time.Now().Add(realtime.DefaultWriteTimeout))
				if ws.WriteMessage(websocket.TextMessage, b) != nil {
					_ = ws.Close()
				}
			case <-c.done:
				_ = ws.Close()
				return
			}
		}
	}()
	go func() {
		defer close(c.done)
		for {
			if _, _, err := ws.ReadMessage(); err != nil {
				break
			}
		}
		f.mu.Lock()
		delete(f.conns, c)
		f.mu.Unlock()
	}()
}

// publish encodes one broadcast and sends it to every connection, or to
// the floor's Redis channel.
func (f *floor) publish(ctx context.Context) error {
	data, err := json.Marshal(everyone{})
	if err != nil {
		return err
	}
	b, err := json.Marshal(realtime.Envelope{Type: realtime.TypeMessage, ID: strconv.FormatInt(time.Now().UnixNano(), 16),
		Event: benchEvent, Data: data, At: time.Now().UTC()})
	if err != nil {
		return err
	}
	if f.redis != nil {
		return f.redis.Publish(ctx, f.channel, b).Err()
	}
	f.hub <- b
	return nil
}

// run hands the broadcasts to the connections until ctx ends.
func (f *floor) run(ctx context.Context) {
	for {
		select {
		case b := <-f.hub:
			f.broadcast(b)
		case <-ctx.Done():
			return
		}
	}
}

func (f *floor) broadcast(b []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for c := range f.conns {
		select {
		case c.send <- b:
		default:
		}
	}
}

// subscribe broadcasts what the floor's Redis channel carries.
func (f *floor) subscribe(ctx context.Context) error {
	ps := f.redis.Subscribe(ctx, f.channel)
	if _, err := ps.Receive(ctx); err != nil {
		return err
	}
	rctx, stop := context.WithCancel(ctx)
	f.stop = stop
	go func() {
		defer ps.Close()
		for {
			m, err := ps.ReceiveMessage(rctx)
			if err != nil {
				return
			}
			f.broadcast([]byte(m.Payload))
		}
	}()
	return nil
}

func (f *floor) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.conns)
}

func (f *floor) close() {
	if f.stop != nil {
		f.stop()
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for c := range f.conns {
		_ = c.ws.Close()
	}
}

// benchServer is a server process, as the benchmark sees it.
type benchServer struct {
	url  string
	http *http.Client
}

// startServer starts a server process (on Redis with prefix, when not
// empty), stopped when tb ends; name tells its profile from another's.
func startServer(tb testing.TB, prefix, name string) *benchServer {
	tb.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestBenchServer$", "-test.count=1")
	cmd.Env = append(os.Environ(), envServer+"=1", envRedis+"="+prefix)
	if path := os.Getenv(envProfile); path != "" && name != "" {
		cmd.Env = append(cmd.Env, envProfile+"="+path+"."+name)
	}
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		tb.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		_ = stdin.Close()
		_ = cmd.Wait()
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	url, ok := strings.CutPrefix(strings.TrimSpace(line), "listening ")
	if err != nil || !ok {
		tb.Fatalf("server process: %q, %v", line, err)
	}
	go func() { _, _ = io.Copy(io.Discard, stdout) }()
	return &benchServer{url: url, http: &http.Client{Timeout: time.Minute}}
}

func (s *benchServer) stats(tb testing.TB) serverStats {
	tb.Helper()
	resp, err := s.http.Get(s.url + "/stats")
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	var st serverStats
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		tb.Fatal(err)
	}
	return st
}

func (s *benchServer) publish(tb testing.TB, arm string) {
	tb.Helper()
	resp, err := s.http.Post(s.url+"/publish?arm="+arm, "", nil)
	if err != nil {
		tb.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		tb.Fatalf("publish: status %d", resp.StatusCode)
	}
}

// open is the number of connections the arm holds open on s.
func (s *benchServer) open(tb testing.TB, arm string) int {
	st := s.stats(tb)
	if arm == "floor" {
		return st.Floor
	}
	return st.Relay.Connections
}

// sock is a client's socket: its reader records the latency of every
// message, in nanoseconds; the slow reader reads nothing.
type sock struct {
	ws  *websocket.Conn
	lat []int64
}

// fleet is the benchmark's sockets.
type fleet struct {
	socks   []*sock
	got     atomic.Int64 // messages read by all the sockets
	bad     atomic.Int64 // messages whose at could not be read
	readers sync.WaitGroup
}

var benchDialer = websocket.Dialer{ReadBufferSize: 512, WriteBufferSize: 256, HandshakeTimeout: time.Minute}

// dial opens n sockets to the arm's path, spread over servers, 64 at a
// time, each with a reader that expects up to k messages (more grow its
// slice).
func dial(tb testing.TB, servers []*benchServer, arm string, n, k int) *fleet {
	tb.Helper()
	f := &fleet{socks: make([]*sock, n)}
	var next atomic.Int64
	var failed atomic.Pointer[error]
	var wg sync.WaitGroup
	for range 64 {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < n && failed.Load() == nil; i = int(next.Add(1) - 1) {
				s, err := dialOne(servers[i%len(servers)], arm, i+1, k)
				if err != nil {
					failed.Store(&err)
					return
				}
				f.socks[i] = s
				f.readers.Add(1)
				go f.read(s)
			}
		})
	}
	wg.Wait()
	if err := failed.Load(); err != nil {
		f.close()
		tb.Fatalf("dial %s: %v", arm, *err)
	}
	return f
}

func dialOne(s *benchServer, arm string, user, k int) (*sock, error) {
	h := http.Header{"Authorization": {"Bearer bench:" + strconv.Itoa(user)}}
	path := "/realtime"
	if arm == "floor" {
		path = "/floor"
	}
	ws, resp, err := benchDialer.Dial("ws"+strings.TrimPrefix(s.url, "http")+path, h)
	if err != nil {
		return nil, err
	}
	_ = resp.Body.Close()
	return &sock{ws: ws, lat: make([]int64, 0, k)}, nil
}

var atField = []byte(`"at":"`)

// read records the latency of each message s reads until it closes.
func (f *fleet) read(s *sock) {
	defer f.readers.Done()
	var buf [512]byte
	for {
		_, r, err := s.ws.NextReader()
		if err != nil {
			return
		}
		n, err := io.ReadFull(r, buf[:])
		now := time.Now()
		if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
			return
		}
		at, ok := envelopeAt(buf[:n])
		if !ok {
			f.bad.Add(1)
		}
		s.lat = append(s.lat, now.Sub(at).Nanoseconds())
		f.got.Add(1)
	}
}

// envelopeAt reads the at of an envelope without decoding the rest.
func envelopeAt(b []byte) (time.Time, bool) {
	i := bytes.Index(b, atField)
	if i < 0 {
		return time.Time{}, false
	}
	b = b[i+len(atField):]
	j := bytes.IndexByte(b, '"')
	if j < 0 {
		return time.Time{}, false
	}
	at, err := time.Parse(time.RFC3339Nano, string(b[:j]))
	return at, err == nil
}

// close closes every socket, without a close frame, and waits for the
// readers.
func (f *fleet) close() {
	for _, s := range f.socks {
		if s != nil {
			_ = s.ws.Close()
		}
	}
	f.readers.Wait()
}

// broadcast publishes k broadcasts of arm to s, gap apart, waits until
// every socket of f read them, and returns the latencies of this run, in
// milliseconds.
func (f *fleet) broadcast(tb testing.TB, s *benchServer, arm string, k int, gap time.Duration) []float64 {
	tb.Helper()
	from := make([]int, len(f.socks))
	for i, so := range f.socks {
		from[i] = len(so.lat)
	}
	want := f.got.Load() + int64(len(f.socks)*k)
	tick := time.NewTicker(gap)
	for i := range k {
		if i > 0 {
			<-tick.C
		}
		s.publish(tb, arm)
	}
	tick.Stop()
	deadline := time.Now().Add(time.Minute)
	for f.got.Load() < want {
		if time.Now().After(deadline) {
			tb.Fatalf("%s: %d of %d messages arrived", arm, f.got.Load()-want+int64(len(f.socks)*k), len(f.socks)*k)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if n := f.bad.Load(); n > 0 {
		tb.Fatalf("%s: %d messages without a readable at", arm, n)
	}
	lat := make([]float64, 0, len(f.socks)*k)
	for i, so := range f.socks {
		for _, ns := range so.lat[from[i]:] {
			lat = append(lat, float64(ns)/1e6)
		}
	}
	return lat
}

// quantiles are a run's p50, p95 and p99, in milliseconds.
type quantiles struct{ p50, p95, p99 float64 }

func quantilesOf(ms []float64) quantiles {
	slices.Sort(ms)
	at := func(q float64) float64 { return ms[max(0, int(math.Ceil(q*float64(len(ms))))-1)] }
	return quantiles{at(0.50), at(0.95), at(0.99)}
}

func (q quantiles) String() string {
	return fmt.Sprintf("%.1f/%.1f/%.1f", q.p50, q.p95, q.p99)
}

// waitOpen waits until the servers hold n connections of arm in all.
func waitOpen(tb testing.TB, servers []*benchServer, arm string, n int) {
	tb.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		total := 0
		for _, s := range servers {
			total += s.open(tb, arm)
		}
		if total == n {
			return
		}
		if time.Now().After(deadline) {
			tb.Fatalf("%s: %d connections open, want %d", arm, total, n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// heap is the servers' HeapInuse+StackInuse, in bytes.
func heap(tb testing.TB, servers []*benchServer) float64 {
	total := 0.0
	for _, s := range servers {
		total += float64(s.stats(tb).Bytes)
	}
	return total
}

// armResult is one arm's run: its latencies and the memory of each idle
// connection on the servers.
type armResult struct {
	q       quantiles
	perConn float64 // bytes
}

// runArm dials n sockets to arm over servers, publishes k broadcasts to
// the first server, gap apart, and closes the sockets.
func runArm(tb testing.TB, servers []*benchServer, arm string, n, k int, gap time.Duration) armResult {
	tb.Helper()
	waitOpen(tb, servers, arm, 0)
	before := heap(tb, servers)
	f := dial(tb, servers, arm, n, k)
	waitOpen(tb, servers, arm, n)
	perConn := (heap(tb, servers) - before) / float64(n)
	lat := f.broadcast(tb, servers[0], arm, k, gap)
	f.close()
	return armResult{q: quantilesOf(lat), perConn: perConn}
}

// benchBroadcast alternates floor, relay, relay, floor in each iteration,
// n sockets spread over servers and k broadcasts per arm, logs each arm
// and each iteration's ratio of p99s, and reports the worst p99s, the
// median ratio and the memory per idle connection.
func benchBroadcast(b *testing.B, servers []*benchServer, n, k int, gap time.Duration) {
	var ratios, relayP99, floorP99, relayMem, floorMem []float64
	for i := 0; b.Loop(); i++ {
		var relay, fl []armResult
		var line strings.Builder
		for _, arm := range []string{"floor", "relay", "relay", "floor"} {
			r := runArm(b, servers, arm, n, k, gap)
			fmt.Fprintf(&line, "%s %s, ", arm, r.q)
			if arm == "relay" {
				relay = append(relay, r)
				relayP99, relayMem = append(relayP99, r.q.p99), append(relayMem, r.perConn)
			} else {
				fl = append(fl, r)
				floorP99, floorMem = append(floorP99, r.q.p99), append(floorMem, r.perConn)
			}
		}
		ratio := (relay[0].q.p99 + relay[1].q.p99) / (fl[0].q.p99 + fl[1].q.p99)
		ratios = append(ratios, ratio)
		b.Logf("iteration %d, p50/p95/p99 ms of %d messages per arm: %sp99 relay/floor %.2f; B per idle connection: relay %.0f, %.0f, floor %.0f, %.0f",
			i, n*k, line.String(), ratio, relay[0].perConn, relay[1].perConn, fl[0].perConn, fl[1].perConn)
	}
	b.ReportMetric(slices.Max(relayP99), "relay-p99-max-ms")
	b.ReportMetric(slices.Max(floorP99), "floor-p99-max-ms")
	b.ReportMetric(median(ratios), "p99-ratio-median")
	b.ReportMetric(median(relayMem), "relay-B/conn")
	b.ReportMetric(median(floorMem), "floor-B/conn")
}

func median(v []float64) float64 {
	v = slices.Clone(v)
	slices.Sort(v)
	n := len(v)
	return (v[(n-1)/2] + v[n/2]) / 2
}

// BenchmarkBroadcast10k: 10,000 sockets on one relay (memory broker), 20
// broadcasts 250 ms apart per arm; the target is a p99 of at most 150 ms.
func BenchmarkBroadcast10k(b *testing.B) {
	benchBroadcast(b, []*benchServer{startServer(b, "", "a")}, 10000, 20, 250*time.Millisecond)
}

// BenchmarkRedis10k: two relays sharing a Redis channel, 5,000 sockets on
// each, 20 broadcasts 250 ms apart per arm published on the first; the
// target is a p99 of at most 200 ms. The floor goes through a Redis
// channel of its own.
func BenchmarkRedis10k(b *testing.B) {
	prefix := fmt.Sprintf("clubhouse-bench:%d", time.Now().UnixNano())
	servers := []*benchServer{startServer(b, prefix, "a"), startServer(b, prefix, "b")}
	benchBroadcast(b, servers, 10000, 20, 250*time.Millisecond)
}

// BenchmarkSlowReader: 1,000 sockets on one relay read 300 broadcasts 20
// ms apart per run; the runs alternate without, with, with, without a
// 1,001st socket that never reads (the slowest reader: a stuck client
// whose receive buffer is as small as the kernel allows), dialed for the
// run. Each pair's ratio of the others' p99, with over without, must be
// at most 1.10. The kernel's buffers take the stuck socket's 300 messages
// (3,000 did not fill them on loopback), so the relay never closes it
// here; closing a client whose queue filled is tested by httpapi's
// TestRealtime_slowClient.
func BenchmarkSlowReader(b *testing.B) {
	const n, k, gap = 1000, 300, 20 * time.Millisecond
	servers := []*benchServer{startServer(b, "", "a")}
	f := dial(b, servers, "relay", n, k)
	b.Cleanup(f.close)
	waitOpen(b, servers, "relay", n)
	run := func(slow bool) quantiles {
		if !slow {
			return quantilesOf(f.broadcast(b, servers[0], "relay", k, gap))
		}
		s, err := dialOne(servers[0], "relay", n+1, 0)
		if err != nil {
			b.Fatal(err)
		}
		if tcp, ok := s.ws.NetConn().(*net.TCPConn); ok {
			_ = tcp.SetReadBuffer(1)
		}
		waitOpen(b, servers, "relay", n+1)
		q := quantilesOf(f.broadcast(b, servers[0], "relay", k, gap))
		_ = s.ws.Close()
		waitOpen(b, servers, "relay", n)
		return q
	}
	var ratios []float64
	for i := 0; b.Loop(); i++ {
		var q [4]quantiles
		for j, slow := range []bool{false, true, true, false} {
			q[j] = run(slow)
		}
		pairs := [2]float64{q[1].p99 / q[0].p99, q[2].p99 / q[3].p99}
		ratios = append(ratios, pairs[:]...)
		b.Logf("iteration %d, the others' p50/p95/p99 ms of %d messages per run: without %s, with %s, with %s, without %s; p99 with/without %.2f, %.2f",
			i, n*k, q[0], q[1], q[2], q[3], pairs[0], pairs[1])
	}
	st := servers[0].stats(b)
	b.Logf("relay: %d messages queued to connections, %d connections closed as too slow", st.Relay.Delivered, st.Relay.Slow)
	b.ReportMetric(slices.Max(ratios), "p99-ratio-max")
	b.ReportMetric(median(ratios), "p99-ratio-median")
}
