package httpapi_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/clubhouse-go/clubhouse/internal/compose/app"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/fixture"
	"github.com/clubhouse-go/clubhouse/payments"
)

// BenchmarkWebhook compares POST /webhooks/payment, signed and sent over
// HTTP to the real handler stack, with raw pgx upserts of the same rows.
// Each round delivers whPerRound events from whClients concurrent clients;
// every event is delivered twice in a row, so half the deliveries are
// duplicates that often race their original. Each iteration runs the
// rounds in the order raw, API, API, raw, so that a change of machine speed
// within the run hits both sides alike. Run it with
//
//	go test ./httpapi/ -run XXX -bench Webhook -benchtime 3x
//
// Both sides get a pgx pool with the app's settings; the HTTP client keeps
// its connections alive and skips apptest's contract checks, which would
// dominate the timing. Bodies and signatures are made before the clock
// starts: signing is the gateway's work.
const (
	whClients      = 16
	whPerRound     = 800 // deliveries per round, half of them duplicates
	whReservations = 64
)

// whUpsertSQL is the raw baseline: the row the webhook stores, created once
// and changed only when the state differs.
const whUpsertSQL = `INSERT INTO payments (reservation_id, amount, transaction_id, gateway_response, status, status_detail, date)
	VALUES ($1, $2, $3, $4, $5, $6, $7)
	ON CONFLICT (transaction_id) DO UPDATE SET status = EXCLUDED.status, status_detail = EXCLUDED.status_detail,
		gateway_response = EXCLUDED.gateway_response, updated_at = now()
	WHERE payments.status_detail IS DISTINCT FROM EXCLUDED.status_detail
		OR payments.gateway_response IS DISTINCT FROM EXCLUDED.gateway_response`

// whDelivery is one delivery of an event, ready to send either way.
type whDelivery struct {
	txid        string
	reservation int64
	body        []byte
	signature   string
}

type webhookBench struct {
	app          *apptest.App
	pool         *pgxpool.Pool
	client       *http.Client
	url          string
	reservations []int64
}

func newWebhookBench(b *testing.B) *webhookBench {
	b.Helper()
	a := apptest.New(b, func(c *app.Config, _ *app.Options) { c.PaymentWebhookSecrets = []string{webhookSecret} })
	a.Watch() // as clubd does
	ctx := b.Context()
	wb := &webhookBench{app: a, url: a.URL + "/webhooks/payment"}
	must := func(err error) {
		if err != nil {
			b.Fatal(err)
		}
	}
	club := fixture.New(b, a.DB.DB, fixture.Options{})
	court, rental := club.Court(club.CourtType("Padel").ID, "A").ID, club.ReservationType("Rental").ID
	first := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range whReservations {
		start := first.Add(time.Duration(i) * time.Hour)
		wb.reservations = append(wb.reservations, club.Reservation(court, rental, 0, start.Format("2006-01-02 15:04"),
			start.Add(30*time.Minute).Format("2006-01-02 15:04")).ID)
	}
	pool, err := pgxpool.NewWithConfig(ctx, a.DB.Pool.Config())
	must(err)
	b.Cleanup(pool.Close)
	wb.pool = pool
	tr := &http.Transport{MaxIdleConns: 2 * whClients, MaxIdleConnsPerHost: 2 * whClients, IdleConnTimeout: time.Minute}
	b.Cleanup(tr.CloseIdleConnections)
	wb.client = &http.Client{Transport: tr, Timeout: time.Minute}
	b.Logf("pool MaxConns %d for each path; GOMAXPROCS %d; %d clients", pool.Config().MaxConns, runtime.GOMAXPROCS(0), whClients)
	return wb
}

// deliveries returns the n deliveries of a round named name: event i is
// delivered at positions 2i and 2i+1.
func (wb *webhookBench) deliveries(name string, n int) []whDelivery {
	out := make([]whDelivery, n)
	now := time.Now()
	for d := range out {
		i := d / 2
		if d%2 == 1 {
			out[d] = out[d-1]
			continue
		}
		txid := fmt.Sprintf("%s-%d", name, i)
		res := wb.reservations[i%len(wb.reservations)]
		body := fmt.Appendf(nil, `{"transaction_id":%q,"amount":60000,"status":"completed","gateway_response":"{\"id\":\"%s\"}","date":"2030-01-01T10:00:00Z","reservation_id":%d}`,
			txid, txid, res)
		out[d] = whDelivery{txid: txid, reservation: res, body: body, signature: payments.Sign(body, now, webhookSecret)}
	}
	return out
}

// api sends d to the webhook and returns the status.
func (wb *webhookBench) api(ctx context.Context, d whDelivery) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, wb.url, bytes.NewReader(d.body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(payments.SignatureHeader, d.signature)
	resp, err := wb.client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	_, err = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, err
}

// raw upserts the row of d with pgx.
func (wb *webhookBench) raw(ctx context.Context, d whDelivery) error {
	gw := `{"id":"` + d.txid + `"}`
	_, err := wb.pool.Exec(ctx, whUpsertSQL, d.reservation, "60000", d.txid, gw, true, payments.DetailCompleted,
		time.Date(2030, 1, 1, 10, 0, 0, 0, time.UTC))
	return err
}

// whRound is the outcome of a round.
type whRound struct {
	n       int
	elapsed time.Duration
	lat     []time.Duration
}

// run sends the deliveries from whClients clients, released at once, each
// taking the next delivery in order; the first error stops all of them.
func (wb *webhookBench) run(ctx context.Context, ds []whDelivery, op func(context.Context, whDelivery) error) (whRound, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var next atomic.Int64
	lat := make([][]time.Duration, whClients)
	var ready, done sync.WaitGroup
	start := make(chan struct{})
	for c := range whClients {
		ready.Add(1)
		done.Go(func() {
			ready.Done()
			<-start
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= len(ds) {
					return
				}
				t := time.Now()
				if err := op(ctx, ds[i]); err != nil {
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
	all := slices.Concat(lat...)
	return whRound{n: len(all), elapsed: time.Since(t), lat: all}, context.Cause(ctx)
}

// whSide sums the rounds of one path.
type whSide struct{ whRound }

func (s *whSide) add(r whRound) {
	s.n += r.n
	s.elapsed += r.elapsed
	s.lat = append(s.lat, r.lat...)
}

func (s *whSide) rate() float64 { return float64(s.n) / s.elapsed.Seconds() }

func (s *whSide) p99ms() float64 {
	if len(s.lat) == 0 {
		return 0
	}
	l := slices.Clone(s.lat)
	slices.Sort(l)
	return float64(l[(len(l)*99+99)/100-1]) / float64(time.Millisecond)
}

func BenchmarkWebhook(b *testing.B) {
	wb := newWebhookBench(b)
	ctx := b.Context()
	var non200, rounds, apiEvents, rawEvents atomic.Int64
	apiOp := func(ctx context.Context, d whDelivery) error {
		code, err := wb.api(ctx, d)
		if err != nil {
			return err
		}
		if code != http.StatusOK {
			non200.Add(1)
			return fmt.Errorf("delivery of %s: status %d", d.txid, code)
		}
		return nil
	}
	round := func(api bool, n int) whRound {
		name, op, events := "raw", wb.raw, &rawEvents
		if api {
			name, op, events = "api", apiOp, &apiEvents
		}
		events.Add(int64(n / 2))
		r, err := wb.run(ctx, wb.deliveries(fmt.Sprintf("%s-%d", name, rounds.Add(1)), n), op)
		if err != nil {
			b.Fatalf("api %v: %v", api, err)
		}
		return r
	}
	round(false, 2*whClients) // warm up both pools, the HTTP client and the statement caches
	round(true, 2*whClients)

	var raw, api whSide
	var ratios []float64
	for i := 0; b.Loop(); i++ {
		var r, a whSide
		for _, isAPI := range []bool{false, true, true, false} {
			if isAPI {
				a.add(round(true, whPerRound))
			} else {
				r.add(round(false, whPerRound))
			}
		}
		ratios = append(ratios, a.rate()/r.rate())
		b.Logf("iteration %d: raw %.0f deliveries/s p99 %.1f ms, api %.0f deliveries/s p99 %.1f ms, ratio %.3f",
			i, r.rate(), r.p99ms(), a.rate(), a.p99ms(), a.rate()/r.rate())
		raw.add(r.whRound)
		api.add(a.whRound)
	}

	// One row per event, one payment:updated per API event, no error.
	if n := non200.Load(); n != 0 {
		b.Fatalf("%d deliveries were not answered 200", n)
	}
	var rows int64
	if err := wb.pool.QueryRow(ctx, `SELECT count(*) FROM payments`).Scan(&rows); err != nil {
		b.Fatal(err)
	}
	if want := apiEvents.Load() + rawEvents.Load(); rows != want {
		b.Fatalf("%d payments stored, want one per event: %d", rows, want)
	}
	if got, want := len(wb.app.Events.Topic("payment:updated")), apiEvents.Load(); int64(got) != want {
		b.Fatalf("%d payment:updated messages, want one per event: %d", got, want)
	}
	slices.Sort(ratios)
	b.ReportMetric(0, "ns/op")
	b.ReportMetric(raw.rate(), "raw-deliveries/s")
	b.ReportMetric(api.rate(), "api-deliveries/s")
	b.ReportMetric(api.rate()/raw.rate(), "ratio")
	b.ReportMetric((ratios[(len(ratios)-1)/2]+ratios[len(ratios)/2])/2, "ratio-median")
	b.ReportMetric(raw.p99ms(), "raw-p99-ms")
	b.ReportMetric(api.p99ms(), "api-p99-ms")
}
