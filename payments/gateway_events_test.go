package payments_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/payments"
	"github.com/clubhouse-go/clubhouse/payments/mercadopago"
	"github.com/clubhouse-go/clubhouse/payments/mercadopago/mptest"
	"github.com/clubhouse-go/clubhouse/payments/wompi"
	"github.com/clubhouse-go/clubhouse/payments/wompi/wompitest"
)

// moving is a clock the tests move.
type moving struct {
	mu sync.Mutex
	t  time.Time
}

func (m *moving) Now() time.Time {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.t
}

func (m *moving) advance(d time.Duration) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.t = m.t.Add(d)
}

// wompiRig is the payment club with Wompi as its gateway: the stand-in,
// whose events go to a receiver that hands them to the service (when
// sendEvents), and a clock both follow.
type wompiRig struct {
	*payClub
	svc   *payments.Service
	sw    *wompitest.Server
	clock *moving
	admin *wompi.Client // the merchant's client, to void
}

// The stand-in's keys.
var wompiKeys = wompitest.Options{PublicKey: "pub_test_club", PrivateKey: "prv_test_club", IntegritySecret: "test_integrity_club",
	EventsSecret: "test_events_club"}

// receiver answers a gateway's notifications as the webhooks do: 200 once
// kept, 401 for a bad signature or a stale one, 400 otherwise.
func receiver(svc func() *payments.Service, gateway string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, err := svc().ReceiveNotification(r.Context(), gateway, r.Body, r.Header, r.URL.Query())
		switch {
		case err == nil:
			w.WriteHeader(http.StatusOK)
		case errors.Is(err, payments.ErrGatewaySignature), errors.Is(err, payments.ErrGatewayStale):
			w.WriteHeader(http.StatusUnauthorized)
		default:
			w.WriteHeader(http.StatusBadRequest)
		}
	})
}

func newWompiRig(t *testing.T, sendEvents bool) *wompiRig {
	t.Helper()
	r := &wompiRig{payClub: newPayClub(t), clock: &moving{t: clock()}}
	o := wompiKeys
	o.Now = r.clock.Now
	if sendEvents {
		recv := httptest.NewServer(receiver(func() *payments.Service { return r.svc }, "wompi"))
		t.Cleanup(recv.Close)
		o.EventsURL = recv.URL
	}
	r.sw = wompitest.New(o)
	t.Cleanup(r.sw.Close)
	cfg := wompi.Config{PublicKey: o.PublicKey, PrivateKey: o.PrivateKey, IntegritySecret: o.IntegritySecret, EventsSecret: o.EventsSecret,
		APIURL: r.sw.APIURL(), CheckoutURL: r.sw.CheckoutURL()}
	r.admin = wompi.New(cfg)
	r.svc = payments.New(r.db.DB, payments.Options{Now: r.clock.Now, Log: r.log, Bookings: r.bookings,
		Gateway: payments.Wompi{C: r.admin}})
	return r
}

// pay opens a checkout of the booking with id as Ana and pays it with card
// on the stand-in.
func (r *wompiRig) pay(t *testing.T, id int64, card string) (payments.Attempt, wompi.Transaction) {
	t.Helper()
	a, err := r.svc.CheckoutBooking(t.Context(), r.ana, id)
	require.NoError(t, err)
	return a, r.payForm(t, formOf(a), card)
}

func (r *wompiRig) payForm(t *testing.T, form url.Values, card string) wompi.Transaction {
	t.Helper()
	tx, _, err := r.sw.Pay(t.Context(), form, card)
	require.NoError(t, err)
	return tx
}

func formOf(a payments.Attempt) url.Values {
	form := url.Values{}
	for _, f := range a.Fields {
		form.Set(f.Name, f.Value)
	}
	return form
}

// receive hands body to the service as Wompi's event, with its checksum
// header when header is not empty.
func (r *wompiRig) receive(t *testing.T, body []byte, header string) error {
	t.Helper()
	h := http.Header{}
	if header != "" {
		h.Set(wompi.ChecksumHeader, header)
	}
	_, err := r.svc.ReceiveNotification(t.Context(), "wompi", bytes.NewReader(body), h, nil)
	return err
}

// sentEvents waits until the stand-in has sent n events (a void's goes
// after its answer, as Wompi's) and returns them.
func (r *wompiRig) sentEvents(t *testing.T, n int) []wompitest.Delivery {
	t.Helper()
	require.Eventually(t, func() bool { return len(r.sw.Sent()) >= n }, 5*time.Second, 5*time.Millisecond, "%d events sent", n)
	return r.sw.Sent()
}

// settle settles what is due and returns how many were settled.
func (r *wompiRig) settle(t *testing.T) int {
	t.Helper()
	n, err := r.svc.SettleDue(t.Context())
	require.NoError(t, err)
	return n
}

// paymentOf is the payment of the gateway's transaction txid; ok is false
// when there is none.
type txPayment struct {
	ID            int64  `db:"id"`
	StatusDetail  string `db:"status_detail"`
	Status        bool   `db:"status"`
	Amount        string `db:"amount"`
	ReservationID *int64 `db:"reservation_id"`
}

func (r *wompiRig) paymentOf(t *testing.T, txid string) (txPayment, bool) {
	t.Helper()
	var ps []txPayment
	require.NoError(t, r.db.SelectContext(t.Context(), &ps, `SELECT id, status_detail, status, amount::text, reservation_id
		FROM payments WHERE transaction_id = $1`, txid))
	require.LessOrEqual(t, len(ps), 1)
	if len(ps) == 0 {
		return txPayment{}, false
	}
	return ps[0], true
}

// TestSettle_wompiApproved: the approved card's event, delivered by the
// stand-in over HTTP, is kept and answered 200; settling reads the
// transaction and completes the payment of the checkout's booking once,
// owed to the ledger once; the event again changes nothing.
func TestSettle_wompiApproved(t *testing.T) {
	t.Parallel()
	r := newWompiRig(t, true)
	a, tx := r.pay(t, r.booking, wompitest.CardApproved)
	sent := r.sw.Sent()
	require.Len(t, sent, 1)
	assert.Equal(t, http.StatusOK, sent[0].Status, "the event is answered 200 once kept")
	assert.Equal(t, 0, count(t, r.db, `SELECT count(*) FROM payments WHERE transaction_id = $1`, tx.ID), "nothing is settled before the job")

	assert.Equal(t, 1, r.settle(t))
	p, ok := r.paymentOf(t, tx.ID)
	require.True(t, ok)
	assert.Equal(t, payments.DetailCompleted, p.StatusDetail)
	assert.True(t, p.Status)
	assert.Equal(t, "60000.00", p.Amount)
	assert.Equal(t, r.booking, *p.ReservationID)
	assert.Equal(t, 1, count(t, r.db, `SELECT count(*) FROM checkout_attempts WHERE id = $1 AND payment_id = $2`, a.ID, p.ID))
	assert.Equal(t, 1, count(t, r.db, `SELECT count(*) FROM ledger_outbox WHERE payment_id = $1 AND kind = 'post'`, p.ID))
	assert.Len(t, r.events.Take(), 1)

	assert.Equal(t, http.StatusOK, r.sw.Send(t.Context(), tx), "the same event again")
	assert.Equal(t, 1, r.settle(t))
	assert.Equal(t, 0, r.settle(t), "nothing is due")
	assert.Empty(t, r.events.Take(), "a repeat changes nothing")
	assert.Equal(t, 1, count(t, r.db, `SELECT count(*) FROM payments WHERE transaction_id = $1`, tx.ID))
	assert.Equal(t, 2, count(t, r.db, `SELECT deliveries FROM gateway_events WHERE transaction_id = $1`, tx.ID))
}

// TestSettle_onlyWhatTheGatewaySays: an event that says APPROVED for a
// declined transaction, signed with the events secret (as if the secret
// had leaked), settles what the gateway's API says: failed. An approval
// voided later marks the payment refunded, and its posting is reversed.
func TestSettle_onlyWhatTheGatewaySays(t *testing.T) {
	t.Parallel()
	r := newWompiRig(t, false)
	_, declined := r.pay(t, r.booking, wompitest.CardDeclined)
	lie := declined
	lie.Status = wompi.StatusApproved
	require.NoError(t, r.receive(t, r.sw.Event(lie, r.clock.Now()), ""))
	r.settle(t)
	p, ok := r.paymentOf(t, declined.ID)
	require.True(t, ok)
	assert.Equal(t, payments.DetailFailed, p.StatusDetail)
	assert.False(t, p.Status)

	_, approved := r.pay(t, r.booking, wompitest.CardApproved)
	require.NoError(t, r.receive(t, r.sw.Sent()[1].Body, ""))
	r.settle(t)
	p, _ = r.paymentOf(t, approved.ID)
	assert.Equal(t, payments.DetailCompleted, p.StatusDetail)
	r.clock.advance(26 * time.Hour) // the next day
	require.NoError(t, r.admin.Void(t.Context(), approved.ID, approved.AmountInCents))
	voided := r.sentEvents(t, 3)[2]
	require.NoError(t, r.receive(t, voided.Body, ""))
	r.settle(t)
	p, _ = r.paymentOf(t, approved.ID)
	assert.Equal(t, payments.DetailRefunded, p.StatusDetail)
	assert.Equal(t, 1, count(t, r.db, `SELECT count(*) FROM ledger_outbox WHERE payment_id = $1 AND kind = 'reverse'`, p.ID))
	assert.Equal(t, 1, count(t, r.db, `SELECT count(*) FROM ledger_outbox WHERE payment_id = $1 AND kind = 'reverse' AND paid_at = $2`,
		p.ID, r.clock.Now()), "the void's reversal is dated when it was settled")

	old, _ := r.sw.Transaction(approved.ID)
	old.Status = wompi.StatusApproved
	require.NoError(t, r.receive(t, r.sw.Event(old, r.clock.Now()), ""), "the approval's event, late")
	r.settle(t)
	p, _ = r.paymentOf(t, approved.ID)
	assert.Equal(t, payments.DetailRefunded, p.StatusDetail, "an event out of order changes nothing")
}

// TestReceiveNotification_refusals: a tampered, missing or mismatched
// checksum, a stale or future timestamp, a body that is no event and
// another gateway's address are refused, and nothing is kept; an event of
// another type is acknowledged and not kept.
func TestReceiveNotification_refusals(t *testing.T) {
	t.Parallel()
	r := newWompiRig(t, false)
	_, tx := r.pay(t, r.booking, wompitest.CardApproved)
	now := r.clock.Now()
	good := r.sw.Event(tx, now)
	tampered := bytes.Replace(good, []byte(`"status":"APPROVED"`), []byte(`"status":"APPROVEd"`), 1)
	require.NotEqual(t, good, tampered)
	noChecksum := bytes.Replace(good, []byte(`"checksum":"`), []byte(`"checksum":"0`), 1)
	other := bytes.Replace(good, []byte(`"event":"transaction.updated"`), []byte(`"event":"nequi_token.updated"`), 1)
	for _, c := range []struct {
		name   string
		body   []byte
		header string
		want   error
	}{
		{"tampered value", tampered, "", payments.ErrGatewaySignature},
		{"wrong checksum", noChecksum, "", payments.ErrGatewaySignature},
		{"header disagrees", good, strings.Repeat("0", 64), payments.ErrGatewaySignature},
		{"stale", r.sw.Event(tx, now.Add(-payments.MaxNoticeAge-time.Minute)), "", payments.ErrGatewayStale},
		{"future", r.sw.Event(tx, now.Add(payments.NoticeSkew+time.Minute)), "", payments.ErrGatewayStale},
		{"not JSON", []byte(`transaction.updated`), "", payments.ErrGatewayNotice},
		{"no data", []byte(`{"event":"transaction.updated"}`), "", payments.ErrGatewayNotice},
		{"too large", append(bytes.Repeat([]byte(" "), payments.MaxDelivery), good...), "", payments.ErrDeliveryTooLarge},
	} {
		assert.ErrorIs(t, r.receive(t, c.body, c.header), c.want, c.name)
	}
	_, err := r.svc.ReceiveNotification(t.Context(), "mercadopago", bytes.NewReader(good), http.Header{}, nil)
	assert.ErrorIs(t, err, payments.ErrNoGateway)
	require.NoError(t, r.receive(t, other, ""), "another verified event is acknowledged")
	assert.Equal(t, 0, count(t, r.db, `SELECT count(*) FROM gateway_events`), "nothing is kept")

	require.NoError(t, r.receive(t, good, ""), "without the header")
	upper := wompitest.New(func() wompitest.Options { o := wompiKeys; o.UpperChecksum = true; o.Now = r.clock.Now; return o }())
	t.Cleanup(upper.Close)
	body := upper.Event(tx, now)
	require.NoError(t, r.receive(t, body, wompitest.ChecksumOf(body)), "capitals, as the documentation prints them")
	assert.Equal(t, 2, count(t, r.db, `SELECT deliveries FROM gateway_events WHERE transaction_id = $1`, tx.ID))
}

// TestSettle_gatewayFailsFirst: while the gateway's API fails, the event
// stays kept and is read again after a wait that doubles; once the API
// answers, it settles. A row given up after MaxSettleTries keeps why, and
// a new event of the transaction makes it due again.
func TestSettle_gatewayFailsFirst(t *testing.T) {
	t.Parallel()
	r := newWompiRig(t, false)
	_, tx := r.pay(t, r.booking, wompitest.CardApproved)
	r.sw.FailNext(2)
	require.NoError(t, r.receive(t, r.sw.Sent()[0].Body, ""))
	assert.Equal(t, 0, r.settle(t))
	assert.Equal(t, 0, r.settle(t), "not due before its wait")
	r.clock.advance(payments.SettleRetry)
	assert.Equal(t, 0, r.settle(t), "the second answer fails too")
	r.clock.advance(payments.SettleRetry)
	assert.Equal(t, 0, r.settle(t), "the second wait is twice the first")
	var lastError string
	require.NoError(t, r.db.GetContext(t.Context(), &lastError, `SELECT last_error FROM gateway_events WHERE transaction_id = $1`, tx.ID))
	assert.Contains(t, lastError, "did not answer")
	r.clock.advance(payments.SettleRetry)
	assert.Equal(t, 1, r.settle(t))
	p, ok := r.paymentOf(t, tx.ID)
	require.True(t, ok)
	assert.Equal(t, payments.DetailCompleted, p.StatusDetail)
}

// TestSettle_givesUp: a gateway that fails every read gets MaxSettleTries
// of them, and then the row is given up with the reason kept, until a
// new event of the transaction makes it due again.
func TestSettle_givesUp(t *testing.T) {
	t.Parallel()
	r := newWompiRig(t, false)
	_, tx := r.pay(t, r.booking, wompitest.CardApproved)
	r.sw.FailNext(1 << 20)
	event := r.sw.Sent()[0].Body
	require.NoError(t, r.receive(t, event, ""))
	for range payments.MaxSettleTries {
		assert.Equal(t, 0, r.settle(t))
		r.clock.advance(payments.MaxSettleRetry)
	}
	assert.Equal(t, 1, count(t, r.db, `SELECT count(*) FROM gateway_events WHERE transaction_id = $1 AND due_at IS NULL
		AND gave_up_at IS NOT NULL AND tries = $2 AND last_error LIKE '%did not answer%'`, tx.ID, payments.MaxSettleTries))
	r.sw.FailNext(0)
	assert.Equal(t, 0, r.settle(t))
	require.NoError(t, r.receive(t, r.sw.Event(tx, r.clock.Now()), ""))
	assert.Equal(t, 1, r.settle(t))
	p, _ := r.paymentOf(t, tx.ID)
	assert.Equal(t, payments.DetailCompleted, p.StatusDetail)
	assert.Equal(t, 1, count(t, r.db, `SELECT count(*) FROM gateway_events WHERE transaction_id = $1 AND gave_up_at IS NULL
		AND settled_at IS NOT NULL`, tx.ID))
}

// TestSettle_inbox: a transaction under a reference nobody issued, one
// whose amount is not its checkout's, and an approval that comes after
// its booking was cancelled confirm nothing: each waits in the inbox with
// a note saying why.
func TestSettle_inbox(t *testing.T) {
	t.Parallel()
	r := newWompiRig(t, false)
	a, err := r.svc.CheckoutBooking(t.Context(), r.ana, r.booking)
	require.NoError(t, err)
	forged := func(reference string, cents int64) url.Values {
		f := formOf(a)
		f.Set("reference", reference)
		f.Set("amount-in-cents", strconv.FormatInt(cents, 10))
		f.Set("signature:integrity", wompi.IntegritySignature(reference, cents, "COP", f.Get("expiration-time"), wompiKeys.IntegritySecret))
		return f
	}
	unknown := r.payForm(t, forged("NOBODY-1", a.AmountInCents()), wompitest.CardApproved)
	cheap := r.payForm(t, forged(a.Reference, 100_00), wompitest.CardApproved)
	for _, d := range r.sw.Sent() {
		require.NoError(t, r.receive(t, d.Body, ""))
	}
	assert.Equal(t, 2, r.settle(t))
	entries, err := r.svc.Inbox(t.Context(), desk, payments.InboxFilter{Open: true})
	require.NoError(t, err)
	require.Len(t, entries, 2)
	notes := map[string]string{}
	for _, e := range entries {
		notes[e.TransactionID] = *e.Note
	}
	assert.Contains(t, notes[unknown.ID], `names reference "NOBODY-1", which no checkout of this club issued`)
	assert.Contains(t, notes[cheap.ID], "paid 100 COP")
	assert.Contains(t, notes[cheap.ID], "whose checkout asked 60000 COP")
	assert.Equal(t, 0, count(t, r.db, `SELECT count(*) FROM payments WHERE transaction_id IS NOT NULL`))

	late, err := r.svc.CheckoutBooking(t.Context(), r.ana, r.booking)
	require.NoError(t, err)
	_, err = r.bookings.Cancel(t.Context(), desk, r.booking, "not paid in time")
	require.NoError(t, err)
	tx := r.payForm(t, formOf(late), wompitest.CardApproved)
	require.NoError(t, r.receive(t, r.sw.Event(tx, r.clock.Now()), ""))
	assert.Equal(t, 1, r.settle(t))
	_, ok := r.paymentOf(t, tx.ID)
	assert.False(t, ok, "a cancelled booking is not paid")
	entries, err = r.svc.Inbox(t.Context(), desk, payments.InboxFilter{Open: true})
	require.NoError(t, err)
	require.Len(t, entries, 3)
	assert.Equal(t, tx.ID, entries[2].TransactionID)
	assert.Contains(t, *entries[2].Note, "was cancelled at")
	assert.Contains(t, *entries[2].Note, "refund the payer or book again")
}

// TestSettle_racingDuplicates: many deliveries of one event at once, and
// several settlers at once (as several instances), keep one row and make
// one payment, changed once.
func TestSettle_racingDuplicates(t *testing.T) {
	t.Parallel()
	r := newWompiRig(t, false)
	_, tx := r.pay(t, r.booking, wompitest.CardApproved)
	event := r.sw.Sent()[0].Body
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i%4 == 0 {
				_, err := r.svc.SettleDue(context.Background())
				errs <- err
				return
			}
			_, err := r.svc.ReceiveNotification(context.Background(), "wompi", bytes.NewReader(event), http.Header{}, nil)
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	r.settle(t)
	assert.Equal(t, 1, count(t, r.db, `SELECT count(*) FROM payments WHERE transaction_id = $1`, tx.ID))
	assert.Equal(t, 30, count(t, r.db, `SELECT deliveries FROM gateway_events WHERE transaction_id = $1`, tx.ID))
	assert.Equal(t, 0, count(t, r.db, `SELECT count(*) FROM gateway_events WHERE due_at IS NOT NULL`))
	completed := 0
	for _, m := range updatesOf(t, r.events.Take()) {
		if m.StatusDetail == payments.DetailCompleted {
			completed++
		}
	}
	assert.Equal(t, 1, completed, "confirmed once")
}

// newMercadoPagoRig is the payment club with Mercado Pago's stand-in as
// its gateway, whose notifications go to a receiver that hands them to
// the service.
func newMercadoPagoRig(t *testing.T) (*payClub, *mptest.Server, *payments.Service) {
	t.Helper()
	c := newPayClub(t)
	var svc *payments.Service
	recv := httptest.NewServer(receiver(func() *payments.Service { return svc }, "mercadopago"))
	t.Cleanup(recv.Close)
	sm := mptest.New(mptest.Options{AccessToken: "TEST-club", WebhookSecret: "club-secret", Now: clock})
	t.Cleanup(sm.Close)
	gw := payments.MercadoPago{C: mercadopago.New(mercadopago.Config{AccessToken: "TEST-club", WebhookSecret: "club-secret", APIURL: sm.URL})}
	svc = payments.New(c.db.DB, payments.Options{Now: clock, Log: c.log, Bookings: c.bookings, Gateway: gw, NotifyURL: recv.URL,
		ReturnURL: "https://club.example/app/pay/return"})
	return c, sm, svc
}

// TestSettle_mercadoPago: Mercado Pago's signed notification, sent by its
// stand-in to the preference's notification_url, is kept; settling reads
// the payment and completes the checkout's booking; a rejected one is
// failed; a notification signed with another secret is refused with 401.
func TestSettle_mercadoPago(t *testing.T) {
	t.Parallel()
	c, sm, svc := newMercadoPagoRig(t)
	open := func() string {
		a, err := svc.CheckoutBooking(t.Context(), c.ana, c.booking)
		require.NoError(t, err)
		u, err := url.Parse(a.URL)
		require.NoError(t, err)
		return u.Query().Get("pref_id")
	}
	rejected, _, err := sm.Pay(t.Context(), open(), "OTHE")
	require.NoError(t, err)
	approved, _, err := sm.Pay(t.Context(), open(), "APRO")
	require.NoError(t, err)
	for _, d := range sm.Sent() {
		assert.Equal(t, http.StatusOK, d.Status)
	}
	n, err := svc.SettleDue(t.Context())
	require.NoError(t, err)
	assert.Equal(t, 2, n)
	var details []string
	require.NoError(t, c.db.SelectContext(t.Context(), &details, `SELECT status_detail FROM payments WHERE transaction_id = ANY($1)
		ORDER BY transaction_id = $2`, []string{strconv.FormatInt(rejected.ID, 10), strconv.FormatInt(approved.ID, 10)},
		strconv.FormatInt(approved.ID, 10)))
	assert.Equal(t, []string{payments.DetailFailed, payments.DetailCompleted}, details)

	forged := sm.Sent()[1]
	h := forged.Header.Clone()
	h.Set(mercadopago.SignatureHeader, "ts=1,v1="+mercadopago.Sign("id:1;ts:1;", "another-secret"))
	assert.Equal(t, http.StatusUnauthorized, sm.Deliver(t.Context(), forged.URL, h, forged.Body))
	old := forged.Header.Clone()
	ts := strconv.FormatInt(clock().Add(-payments.MaxNoticeAge-time.Hour).UnixMilli(), 10)
	id := strconv.FormatInt(approved.ID, 10)
	old.Set(mercadopago.SignatureHeader, "ts="+ts+",v1="+mercadopago.Sign(mercadopago.Manifest(id, old.Get(mercadopago.RequestIDHeader), ts), "club-secret"))
	assert.Equal(t, http.StatusUnauthorized, sm.Deliver(t.Context(), forged.URL, old, forged.Body), "stale")
}

// TestSettle_randomNotifications is a property test: for many random runs
// of checkouts paid with the sandbox's cards, voids, and notifications
// delivered in any order, repeated, forged (a status the gateway never
// gave, signed), tampered or stale, with a gateway that fails some
// answers, each transaction ends with at most one payment, in the state
// the gateway's API gives last; no payment is ever completed for a
// transaction the gateway did not approve, none is completed twice, and
// none exists for a transaction no valid notification named.
func TestSettle_randomNotifications(t *testing.T) {
	t.Parallel()
	runs := 12
	if testing.Short() {
		runs = 4
	}
	for seed := range runs {
		t.Run(strconv.Itoa(seed), func(t *testing.T) {
			t.Parallel()
			randomRun(t, rand.New(rand.NewPCG(uint64(seed), 30)))
		})
	}
}

func randomRun(t *testing.T, rng *rand.Rand) {
	r := newWompiRig(t, false)
	cards := []string{wompitest.CardApproved, wompitest.CardDeclined, "4000000000000002"}
	var attempts []payments.Attempt
	for range 2 + rng.IntN(4) {
		a, err := r.svc.CheckoutBooking(t.Context(), r.ana, r.booking)
		require.NoError(t, err)
		attempts = append(attempts, a)
	}
	var txs []wompi.Transaction
	approved := map[string]bool{} // ever approved by the gateway
	for _, a := range attempts {
		tx := r.payForm(t, formOf(a), cards[rng.IntN(len(cards))])
		txs = append(txs, tx)
		approved[tx.ID] = tx.Status == wompi.StatusApproved
	}
	valid := map[string]bool{} // named by a notification that was kept
	deliver := func(body []byte, tx wompi.Transaction, want error) {
		err := r.receive(t, body, "")
		if want != nil {
			require.ErrorIs(t, err, want)
			return
		}
		require.NoError(t, err)
		valid[tx.ID] = true
	}
	for range 10 + rng.IntN(30) {
		tx := txs[rng.IntN(len(txs))]
		now := r.clock.Now()
		switch rng.IntN(9) {
		case 0: // a void of an approval, unless the gateway fails it
			if cur, _ := r.sw.Transaction(tx.ID); cur.Status == wompi.StatusApproved {
				if err := r.admin.Void(t.Context(), tx.ID, tx.AmountInCents); err != nil {
					require.ErrorIs(t, err, wompi.ErrUnavailable)
				}
			}
		case 1: // a forged status, signed
			lie := tx
			lie.Status = []string{wompi.StatusApproved, wompi.StatusDeclined, wompi.StatusVoided}[rng.IntN(3)]
			deliver(r.sw.Event(lie, now), tx, nil)
		case 2: // tampered
			body := bytes.Replace(r.sw.Event(tx, now), []byte(tx.ID), []byte(txs[0].ID+"x"), 1)
			deliver(body, tx, payments.ErrGatewaySignature)
		case 3: // stale
			deliver(r.sw.Event(tx, now.Add(-payments.MaxNoticeAge-time.Second)), tx, payments.ErrGatewayStale)
		case 4:
			r.sw.FailNext(rng.IntN(3))
		case 5:
			r.settle(t)
		case 6:
			r.clock.advance(time.Duration(rng.IntN(20)) * time.Second)
		default: // an event the gateway sent, maybe an old one
			sent := r.sw.Sent()
			d := sent[rng.IntN(len(sent))]
			var e struct {
				Data struct {
					Transaction wompi.Transaction `json:"transaction"`
				} `json:"data"`
			}
			require.NoError(t, json.Unmarshal(d.Body, &e))
			deliver(d.Body, e.Data.Transaction, nil)
		}
	}
	// The gateway tells the last state of every transaction it changed
	// after its last kept notification; then everything due is settled.
	r.sw.FailNext(0)
	for _, tx := range txs {
		if valid[tx.ID] {
			cur, _ := r.sw.Transaction(tx.ID)
			deliver(r.sw.Event(cur, r.clock.Now()), cur, nil)
		}
	}
	for count(t, r.db, `SELECT count(*) FROM gateway_events WHERE due_at IS NOT NULL`) > 0 {
		r.clock.advance(payments.MaxSettleRetry)
		r.settle(t)
	}

	completedOnce := map[int64]int{}
	for _, m := range updatesOf(t, r.events.Take()) {
		if m.StatusDetail == payments.DetailCompleted {
			completedOnce[m.ID]++
		}
	}
	want := map[string]string{wompi.StatusApproved: payments.DetailCompleted, wompi.StatusDeclined: payments.DetailFailed,
		wompi.StatusError: payments.DetailFailed, wompi.StatusVoided: payments.DetailRefunded}
	for _, tx := range txs {
		p, ok := r.paymentOf(t, tx.ID)
		if !valid[tx.ID] {
			assert.False(t, ok, "no notification kept, no payment: %s", tx.ID)
			continue
		}
		require.True(t, ok, tx.ID)
		cur, _ := r.sw.Transaction(tx.ID)
		assert.Equal(t, want[cur.Status], p.StatusDetail, "%s is %s at the gateway", tx.ID, cur.Status)
		assert.LessOrEqual(t, completedOnce[p.ID], 1, "completed once at most")
		if !approved[tx.ID] {
			assert.Zero(t, completedOnce[p.ID], "never completed without the gateway's approval: %s", tx.ID)
		}
		assert.LessOrEqual(t, count(t, r.db, `SELECT count(*) FROM ledger_outbox WHERE payment_id = $1 AND kind = 'post'`, p.ID), 1)
	}
	assert.Equal(t, 0, count(t, r.db, `SELECT count(*) FROM payments WHERE transaction_id IS NOT NULL AND transaction_id <> ALL($1)`,
		idsOf(txs)), "no payment for a transaction nobody made")
}

func idsOf(txs []wompi.Transaction) []string {
	out := make([]string, len(txs))
	for i, tx := range txs {
		out[i] = tx.ID
	}
	return out
}

// TestSettle_checkoutPaidTwice: a Mercado Pago preference paid twice
// (rejected, then approved, then approved again) completes one payment;
// the checkout records the approved one, and the second approval waits in
// the inbox for staff to refund.
func TestSettle_checkoutPaidTwice(t *testing.T) {
	t.Parallel()
	c, sm, svc := newMercadoPagoRig(t)
	a, err := svc.CheckoutBooking(t.Context(), c.ana, c.booking)
	require.NoError(t, err)
	u, err := url.Parse(a.URL)
	require.NoError(t, err)
	pref := u.Query().Get("pref_id")
	_, _, err = sm.Pay(t.Context(), pref, "OTHE")
	require.NoError(t, err)
	first, _, err := sm.Pay(t.Context(), pref, "APRO")
	require.NoError(t, err)
	second, _, err := sm.Pay(t.Context(), pref, "APRO")
	require.NoError(t, err)
	_, err = svc.SettleDue(t.Context())
	require.NoError(t, err)
	assert.Equal(t, 1, count(t, c.db, `SELECT count(*) FROM payments WHERE reservation_id = $1 AND status`, c.booking), "paid once")
	assert.Equal(t, 1, count(t, c.db, `SELECT count(*) FROM checkout_attempts a JOIN payments p ON p.id = a.payment_id
		WHERE a.id = $1 AND p.transaction_id = $2`, a.ID, strconv.FormatInt(first.ID, 10)), "the checkout records the approved payment")
	entries, err := svc.Inbox(t.Context(), desk, payments.InboxFilter{Open: true})
	require.NoError(t, err)
	require.Len(t, entries, 1)
	assert.Equal(t, strconv.FormatInt(second.ID, 10), entries[0].TransactionID)
	assert.Contains(t, *entries[0].Note, "its checkout was paid already by transaction "+strconv.FormatInt(first.ID, 10))
}

// TestSettle_paidAnotherWay: two checkouts of one booking, both paid, or
// one paid after staff took the payment at the desk, complete one payment:
// the approval that finds the booking owing less than it paid confirms
// nothing and waits in the inbox for the payer's refund.
func TestSettle_paidAnotherWay(t *testing.T) {
	t.Parallel()
	r := newWompiRig(t, false)
	_, first := r.pay(t, r.booking, wompitest.CardApproved)
	_, second := r.pay(t, r.booking, wompitest.CardApproved)
	for _, tx := range []wompi.Transaction{first, second} {
		require.NoError(t, r.receive(t, r.sw.Event(tx, r.clock.Now()), ""))
	}
	assert.Equal(t, 2, r.settle(t))
	assert.Equal(t, 1, count(t, r.db, `SELECT count(*) FROM payments WHERE reservation_id = $1 AND status`, r.booking), "paid once")
	entries, err := r.svc.Inbox(t.Context(), desk, payments.InboxFilter{Open: true})
	require.NoError(t, err)
	require.Len(t, entries, 1)
	assert.Contains(t, *entries[0].Note, "was approved for 60000, but booking")
	assert.Contains(t, *entries[0].Note, "owes 0 now (paid meanwhile another way)")

	other := r.heldBooking(t, 3, clock().Add(time.Hour))
	_, late := r.pay(t, other, wompitest.CardApproved)
	in := r.input(other, "60000", "desk-1")
	in.Status = clubhouse.Some(true)
	_, err = r.svc.Create(t.Context(), desk, in)
	require.NoError(t, err)
	require.NoError(t, r.receive(t, r.sw.Event(late, r.clock.Now()), ""))
	assert.Equal(t, 1, r.settle(t))
	_, ok := r.paymentOf(t, late.ID)
	assert.False(t, ok, "the desk took the payment first")
}

// TestSettle_pendingThenPaidAnotherWay: a payment the gateway first holds
// pending (Mercado Pago's contingency) and approves after the booking was
// paid through another checkout confirms nothing: its pending payment
// stays, and the approval waits in the inbox for the payer's refund.
func TestSettle_pendingThenPaidAnotherWay(t *testing.T) {
	t.Parallel()
	c, sm, svc := newMercadoPagoRig(t)
	prefOf := func() string {
		t.Helper()
		a, err := svc.CheckoutBooking(t.Context(), c.ana, c.booking)
		require.NoError(t, err)
		u, err := url.Parse(a.URL)
		require.NoError(t, err)
		return u.Query().Get("pref_id")
	}
	pending, _, err := sm.Pay(t.Context(), prefOf(), "CONT")
	require.NoError(t, err)
	_, err = svc.SettleDue(t.Context())
	require.NoError(t, err)
	_, _, err = sm.Pay(t.Context(), prefOf(), "APRO")
	require.NoError(t, err)
	_, err = svc.SettleDue(t.Context())
	require.NoError(t, err)
	_, err = sm.Accredit(t.Context(), pending.ID)
	require.NoError(t, err)
	_, err = svc.SettleDue(t.Context())
	require.NoError(t, err)
	assert.Equal(t, 1, count(t, c.db, `SELECT count(*) FROM payments WHERE reservation_id = $1 AND status`, c.booking), "paid once")
	entries, err := svc.Inbox(t.Context(), desk, payments.InboxFilter{Open: true})
	require.NoError(t, err)
	require.Len(t, entries, 1)
	assert.Equal(t, strconv.FormatInt(pending.ID, 10), entries[0].TransactionID)
	assert.Contains(t, *entries[0].Note, "(paid meanwhile another way)")
}
