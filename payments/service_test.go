package payments_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/eventlog"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/objstore"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/fixture"
	"github.com/clubhouse-go/clubhouse/internal/testkit/relaytest"
	"github.com/clubhouse-go/clubhouse/payments"
)

// The table tests of the payments Service against a real database: one row
// per outcome its doc comments promise, so that a broken rule fails here,
// next to its domain file, and not only in an HTTP test. The claims' debt
// rule is TestService_ClientCreate_debt's, the webhook TestDeliver's and
// the gateway events the TestReconcile ones'.

// unknown is an id that names no record.
const unknown = 987654

// payClub is the claims fixture's club (Ana's one-hour booking on a court
// of 60,000 an hour, Bob's booking, a payment type) and a booking of nobody,
// with eve, a user without a client record, and three services over it:
// svc keeps receipts in dir, off has no receipt storage, and broken's
// store refuses every request. Their clock is clock(); log records their
// events and their payment:updated messages, which events reads.
type payClub struct {
	db                   *sqldb.DB
	club                 *fixture.Club
	svc, off, broken     *payments.Service
	dir                  *objstore.Dir
	events               *relaytest.Recorder
	log                  *eventlog.Log
	ana, eve             clubhouse.Actor
	booking, other, bare int64
	typ                  int64
	bookings             *booking.Bookings
	receiptDir           string
}

func newPayClub(tb testing.TB) *payClub {
	tb.Helper()
	db := dbtest.New(tb)
	f := newClaimFixture(tb, db)
	dir, err := objstore.NewDir(tb.TempDir())
	require.NoError(tb, err)
	log := eventlog.New(db.DB, eventlog.Options{})
	c := &payClub{db: db, club: f.club, dir: dir, events: relaytest.New(tb, log), log: log, ana: f.ana,
		booking: f.booking, other: f.other, typ: f.typ, bare: newBooking(tb, db), receiptDir: tb.TempDir()}
	c.bookings = booking.New(db.DB, booking.Options{Zone: time.UTC, Now: clock}).Bookings
	service := func(objects payments.ObjectStore) *payments.Service {
		return payments.New(db.DB, payments.Options{Objects: objects, Now: clock, Log: c.log, Bookings: c.bookings})
	}
	c.svc, c.off, c.broken = service(dir), service(nil), service(brokenStore{})
	c.eve = f.club.User("Eve")
	return c
}

// desk is the staff actor of the tests' staff operations.
var desk = clubhouse.Staff("desk")

// input is a payment of amount with transaction id txid ("" for none) of
// the booking with id (0 for none), by card.
func (c *payClub) input(id int64, amount, txid string) payments.Input {
	in := payments.Input{PaymentTypeID: clubhouse.Some(c.typ), Amount: clubhouse.Some(decimal.RequireFromString(amount))}
	if id != 0 {
		in.ReservationID = clubhouse.Some(id)
	}
	if txid != "" {
		in.TransactionID = clubhouse.Some(txid)
	}
	return in
}

// payment stores a pending payment of 1,000 on the booking with id by
// staff, with a receipt when withReceipt, and forgets its message.
func (c *payClub) payment(tb testing.TB, id int64, withReceipt bool) payments.Payment {
	tb.Helper()
	var rc *payments.Receipt
	if withReceipt {
		rc = c.receipt(tb, "old")
	}
	p, err := c.svc.CreateForBooking(context.Background(), desk, id, c.input(0, "1000", ""), rc)
	require.NoError(tb, err)
	c.events.Take()
	return p
}

// receipt is a JPEG receipt whose bytes end with body; it is closed when
// the test ends.
func (c *payClub) receipt(tb testing.TB, body string) *payments.Receipt {
	tb.Helper()
	rc, err := payments.ReadReceipt(strings.NewReader(jpeg(body)), c.receiptDir)
	require.NoError(tb, err)
	tb.Cleanup(func() { _ = rc.Close() })
	return rc
}

func jpeg(body string) string { return "\xff\xd8\xff\xe0" + body }

// keys lists the receipts in the directory store.
func (c *payClub) keys(tb testing.TB) []string {
	tb.Helper()
	keys, err := c.dir.Keys(context.Background(), "")
	require.NoError(tb, err)
	return keys
}

// object returns the content of the receipt stored under key.
func (c *payClub) object(tb testing.TB, key string) string {
	tb.Helper()
	r, err := c.dir.Get(context.Background(), key)
	require.NoError(tb, err)
	defer r.Close()
	b, err := io.ReadAll(r)
	require.NoError(tb, err)
	return string(b)
}

// samePayment asserts that a refused change left p as it was.
func (c *payClub) samePayment(t *testing.T, before payments.Payment) {
	t.Helper()
	after, err := c.svc.Get(t.Context(), desk, before.ID)
	require.NoError(t, err)
	assert.Equal(t, before, after, "a refused change changes nothing")
}

// brokenStore is an object store that refuses every request, as an
// unreachable bucket does.
type brokenStore struct{}

var errUnreachable = errors.New("bucket unreachable")

func (brokenStore) Put(context.Context, string, string, io.Reader, int64) error {
	return errUnreachable
}
func (brokenStore) Get(context.Context, string) (io.ReadCloser, error) { return nil, errUnreachable }
func (brokenStore) Delete(context.Context, string) error               { return errUnreachable }

// updated is the payment:updated messages of ms as the log records them,
// what a change of the payments ms tell of is expected to record.
func updated(ms ...payments.Updated) []relaytest.Message {
	out := make([]relaytest.Message, len(ms))
	for i, m := range ms {
		out[i] = relaytest.Of(payments.TopicUpdated, m)
	}
	return out
}

// updatesOf returns the payloads of msgs, each payment:updated, as their
// JSON tells them (without the Owner, which is their audience).
func updatesOf(t *testing.T, msgs []relaytest.Message) []payments.Updated {
	t.Helper()
	out := make([]payments.Updated, len(msgs))
	for i, m := range msgs {
		require.Equal(t, payments.TopicUpdated, m.Topic)
		require.NoError(t, json.Unmarshal([]byte(m.Data), &out[i]))
	}
	return out
}

// ownerOf is the user p's messages are for besides the staff: its owner,
// as the service read it (TestService_messages checks who that is).
func ownerOf(p payments.Payment) int64 {
	if p.UserID == nil {
		return 0
	}
	return *p.UserID
}

// with returns v changed by edit.
func with[T any](v T, edit func(*T)) T {
	edit(&v)
	return v
}

func ptr[T any](v T) *T { return &v }

func assertDec(t *testing.T, want string, got decimal.Decimal, msg string) {
	t.Helper()
	assert.True(t, decimal.RequireFromString(want).Equal(got), "%s: want %s, got %s", msg, want, got)
}

func paymentIDs(ps []payments.Payment) []int64 {
	out := make([]int64, len(ps))
	for i, p := range ps {
		out[i] = p.ID
	}
	return out
}

func TestService_Create(t *testing.T) {
	t.Parallel()
	c := newPayClub(t)
	_, err := c.svc.Create(t.Context(), desk, with(c.input(c.booking, "1000", "GW-TAKEN"), func(in *payments.Input) { in.Status = clubhouse.Some(true) }))
	require.NoError(t, err)
	c.events.Take()
	tests := []struct {
		name    string
		in      payments.Input
		wantErr error
		check   func(t *testing.T, p payments.Payment)
	}{
		{name: "pending by default", in: c.input(c.booking, "1000", " GW-1 "), check: func(t *testing.T, p payments.Payment) {
			assert.False(t, p.Status)
			assert.Equal(t, payments.DetailPending, p.StatusDetail)
			assert.Equal(t, ptr("GW-1"), p.TransactionID, "trimmed")
			assert.Nil(t, p.ClaimedTransactionID)
			assert.Equal(t, ptr("Card"), p.PaymentTypeName)
			assert.Equal(t, ptr("Padel 1"), p.CourtName, "with its booking's names")
		}},
		{name: "completed", in: with(c.input(c.booking, "1000", "GW-2"), func(in *payments.Input) { in.Status = clubhouse.Some(true) }),
			check: func(t *testing.T, p payments.Payment) {
				assert.True(t, p.Status)
				assert.Equal(t, payments.DetailCompleted, p.StatusDetail)
			}},
		{name: "pending said so", in: with(c.input(c.booking, "1000", "GW-3"), func(in *payments.Input) { in.Status = clubhouse.Some(false) }),
			check: func(t *testing.T, p payments.Payment) { assert.Equal(t, payments.DetailPending, p.StatusDetail) }},
		{name: "without transaction id or type", in: payments.Input{ReservationID: clubhouse.Some(c.bare), Amount: clubhouse.Some(decimal.NewFromInt(5))},
			check: func(t *testing.T, p payments.Payment) {
				assert.Nil(t, p.TransactionID)
				assert.Nil(t, p.PaymentTypeID)
			}},
		{name: "a transaction id over MaxTransactionID", in: c.input(c.booking, "1000", strings.Repeat("T", payments.MaxTransactionID+1)),
			wantErr: clubhouse.ErrInvalidData},
		{name: "a description over MaxDescription", in: with(c.input(c.booking, "1000", "GW-LONG"), func(in *payments.Input) {
			in.Description = clubhouse.Some(strings.Repeat("d", payments.MaxDescription+1))
		}), wantErr: clubhouse.ErrInvalidData},
		{name: "a trimmed description and gateway response", in: with(c.input(c.booking, "0.01", ""), func(in *payments.Input) {
			in.Description, in.GatewayResponse = clubhouse.Some("  cash at the desk "), clubhouse.Some(`{"code":0}`)
		}), check: func(t *testing.T, p payments.Payment) {
			assert.Equal(t, ptr("cash at the desk"), p.Description)
			assert.Equal(t, ptr(`{"code":0}`), p.GatewayResponse)
		}},
		{name: "a blank description is none", in: with(c.input(c.booking, "1", ""), func(in *payments.Input) { in.Description = clubhouse.Some(" ") }),
			check: func(t *testing.T, p payments.Payment) { assert.Nil(t, p.Description) }},
		{name: "a transaction id another payment holds", in: c.input(c.other, "1000", "GW-TAKEN"), wantErr: payments.ErrTransactionUsed},
		{name: "no booking", in: c.input(0, "1000", "GW-4"), wantErr: clubhouse.ErrIncomplete},
		{name: "no amount", in: with(c.input(c.booking, "1", "GW-4"), func(in *payments.Input) { in.Amount = clubhouse.Optional[decimal.Decimal]{} }),
			wantErr: clubhouse.ErrIncomplete},
		{name: "amount null", in: with(c.input(c.booking, "1", "GW-4"), func(in *payments.Input) { in.Amount = clubhouse.Optional[decimal.Decimal]{Set: true} }),
			wantErr: clubhouse.ErrIncomplete},
		{name: "amount zero", in: c.input(c.booking, "0", "GW-4"), wantErr: clubhouse.ErrInvalidAmount},
		{name: "amount negative", in: c.input(c.booking, "-5", "GW-4"), wantErr: clubhouse.ErrInvalidAmount},
		{name: "amount with three decimals", in: c.input(c.booking, "10.001", "GW-4"), wantErr: clubhouse.ErrInvalidAmount},
		{name: "amount too large", in: c.input(c.booking, "1000000000000", "GW-4"), wantErr: clubhouse.ErrInvalidAmount},
		{name: "booking 0", in: with(c.input(c.booking, "1", "GW-4"), func(in *payments.Input) { in.ReservationID = clubhouse.Some[int64](0) }),
			wantErr: clubhouse.ErrInvalidReference},
		{name: "unknown booking", in: c.input(unknown, "1", "GW-4"), wantErr: clubhouse.ErrInvalidReference},
		{name: "payment type 0", in: with(c.input(c.booking, "1", "GW-4"), func(in *payments.Input) { in.PaymentTypeID = clubhouse.Some[int64](0) }),
			wantErr: clubhouse.ErrInvalidReference},
		{name: "unknown payment type", in: with(c.input(c.booking, "1", "GW-4"), func(in *payments.Input) { in.PaymentTypeID = clubhouse.Some[int64](unknown) }),
			wantErr: clubhouse.ErrInvalidReference},
		{name: "blank transaction id", in: c.input(c.booking, "1", "  "), wantErr: clubhouse.ErrInvalidData},
	}
	created := 1
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := c.svc.Create(t.Context(), desk, tt.in)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				assert.Equal(t, clubhouse.KindOf(tt.wantErr), clubhouse.KindOf(err))
				assert.Empty(t, c.events.Take(), "a refused payment is no change")
				return
			}
			require.NoError(t, err)
			created++
			assert.NotZero(t, p.ID)
			assert.Equal(t, tt.in.ReservationID.Value, p.ReservationID)
			assert.True(t, tt.in.Amount.Value.Equal(p.Amount))
			tt.check(t, p)
			assert.Equal(t, updated(payments.Updated{ID: p.ID, ReservationID: p.ReservationID, Status: p.Status, StatusDetail: p.StatusDetail, Owner: ownerOf(p)}),
				c.events.Take())
			got, err := c.svc.Get(t.Context(), desk, p.ID)
			require.NoError(t, err)
			assert.Equal(t, p, got, "Create returns the payment as stored")
		})
	}
	assert.Equal(t, created, count(t, c.db, `SELECT count(*) FROM payments`), "a refused payment stores nothing")
}

func TestService_Get(t *testing.T) {
	t.Parallel()
	c := newPayClub(t)
	gw, err := c.svc.Create(t.Context(), desk, c.input(c.booking, "1000", "GW-1"))
	require.NoError(t, err)
	claim, err := c.svc.ClientCreate(t.Context(), c.ana, c.input(c.booking, "1000", "CLAIMED-1"), nil)
	require.NoError(t, err)
	_, err = c.svc.ClientCreate(t.Context(), c.ana, c.input(c.booking, "1000", "GW-1"), nil)
	require.NoError(t, err, "a claim reporting the gateway payment's id")
	// Bob's booking becomes Ana's, and her claim there reports CLAIMED-1 again.
	_, err = c.db.ExecContext(t.Context(), `UPDATE reservations SET client_id = (SELECT client_id FROM reservations WHERE id = $1) WHERE id = $2`,
		c.booking, c.other)
	require.NoError(t, err)
	_, err = c.svc.ClientCreate(t.Context(), c.ana, c.input(c.other, "1000", "CLAIMED-1"), nil)
	require.NoError(t, err)
	confirmed, err := c.svc.ClientCreate(t.Context(), c.ana, c.input(c.booking, "1000", "CLAIMED-2"), nil)
	require.NoError(t, err)
	_, err = c.svc.Update(t.Context(), desk, confirmed.ID, payments.Input{Status: clubhouse.Some(true), TransactionID: clubhouse.Some("GW-2")})
	require.NoError(t, err, "staff confirm the claim with the gateway's id")
	tests := []struct {
		name    string
		get     func(ctx context.Context) (payments.Payment, error)
		want    int64
		wantErr error
	}{
		{name: "by id", get: func(ctx context.Context) (payments.Payment, error) { return c.svc.Get(ctx, desk, gw.ID) }, want: gw.ID},
		{name: "a claim by id", get: func(ctx context.Context) (payments.Payment, error) { return c.svc.Get(ctx, desk, claim.ID) }, want: claim.ID},
		{name: "no such id", get: func(ctx context.Context) (payments.Payment, error) { return c.svc.Get(ctx, desk, unknown) }, wantErr: payments.ErrNotFound},
		{name: "by gateway transaction id, which a claim reports too", get: func(ctx context.Context) (payments.Payment, error) {
			return c.svc.ByTransaction(ctx, desk, "GW-1")
		}, want: gw.ID},
		{name: "a claim by its reported id, the first of two", get: func(ctx context.Context) (payments.Payment, error) {
			return c.svc.ByTransaction(ctx, desk, "CLAIMED-1")
		}, want: claim.ID},
		{name: "a claim confirmed with another id, by that id", get: func(ctx context.Context) (payments.Payment, error) {
			return c.svc.ByTransaction(ctx, desk, "GW-2")
		}, want: confirmed.ID},
		{name: "a claim confirmed with another id, not by its reported one", get: func(ctx context.Context) (payments.Payment, error) {
			return c.svc.ByTransaction(ctx, desk, "CLAIMED-2")
		}, wantErr: payments.ErrNotFound},
		{name: "no such transaction id", get: func(ctx context.Context) (payments.Payment, error) { return c.svc.ByTransaction(ctx, desk, "GW-3") },
			wantErr: payments.ErrNotFound},
		{name: "of its booking", get: func(ctx context.Context) (payments.Payment, error) {
			return c.svc.GetForBooking(ctx, desk, c.booking, gw.ID)
		},
			want: gw.ID},
		{name: "of another booking", get: func(ctx context.Context) (payments.Payment, error) {
			return c.svc.GetForBooking(ctx, desk, c.other, gw.ID)
		},
			wantErr: payments.ErrNotFound},
		{name: "of a booking, no such id", get: func(ctx context.Context) (payments.Payment, error) {
			return c.svc.GetForBooking(ctx, desk, c.booking, unknown)
		}, wantErr: payments.ErrNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := tt.get(t.Context())
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				assert.Equal(t, clubhouse.NotFound, clubhouse.KindOf(err))
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, p.ID)
		})
	}
}

// TestService_CreateForBooking: with a receipt, the image is stored first
// and removed again when the payment cannot be inserted.
func TestService_CreateForBooking(t *testing.T) {
	t.Parallel()
	c := newPayClub(t)
	_, err := c.svc.Create(t.Context(), desk, c.input(c.other, "1000", "GW-TAKEN"))
	require.NoError(t, err)
	c.events.Take()
	tests := []struct {
		name    string
		svc     *payments.Service
		booking int64
		in      payments.Input
		receipt bool
		wantErr error
	}{
		{name: "without a receipt; the booking in the input is ignored", svc: c.svc, booking: c.booking, in: c.input(c.other, "1000", "GW-1")},
		{name: "without a receipt nor storage", svc: c.off, booking: c.booking, in: c.input(0, "1000", "GW-2")},
		// Input's doc comment says a booking payment needs a transaction id,
		// as the API and the MCP tool demand; the service takes one without,
		// as examples/booking does for cash at the desk.
		{name: "without a transaction id", svc: c.svc, booking: c.booking, in: c.input(0, "1000", "")},
		{name: "with a receipt", svc: c.svc, booking: c.booking, in: c.input(0, "1000", "GW-3"), receipt: true},
		{name: "with a receipt, storage off", svc: c.off, booking: c.booking, in: c.input(0, "1000", "GW-4"), receipt: true,
			wantErr: payments.ErrStorageOff},
		{name: "with a receipt, the store failing", svc: c.broken, booking: c.booking, in: c.input(0, "1000", "GW-4"), receipt: true,
			wantErr: payments.ErrStorageFailed},
		{name: "no such booking", svc: c.svc, booking: unknown, in: c.input(0, "1000", "GW-4"), wantErr: booking.ErrBookingNotFound},
		{name: "no such booking, with a receipt", svc: c.svc, booking: unknown, in: c.input(0, "1000", "GW-4"), receipt: true,
			wantErr: booking.ErrBookingNotFound},
		{name: "a transaction id another payment holds", svc: c.svc, booking: c.booking, in: c.input(0, "1000", "GW-TAKEN"),
			wantErr: payments.ErrTransactionUsed},
		{name: "a transaction id another payment holds, with a receipt", svc: c.svc, booking: c.booking, in: c.input(0, "1000", "GW-TAKEN"),
			receipt: true, wantErr: payments.ErrTransactionUsed},
		{name: "an unknown payment type, with a receipt", svc: c.svc, booking: c.booking, receipt: true,
			in:      with(c.input(0, "1000", "GW-4"), func(in *payments.Input) { in.PaymentTypeID = clubhouse.Some[int64](unknown) }),
			wantErr: clubhouse.ErrInvalidReference},
		{name: "no amount", svc: c.svc, booking: c.booking, in: payments.Input{TransactionID: clubhouse.Some("GW-4")}, wantErr: clubhouse.ErrIncomplete},
		{name: "an invalid amount, with a receipt", svc: c.svc, booking: c.booking, in: c.input(0, "0.001", "GW-4"), receipt: true,
			wantErr: clubhouse.ErrInvalidAmount},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var rc *payments.Receipt
			if tt.receipt {
				rc = c.receipt(t, tt.name)
			}
			rows, objects := count(t, c.db, `SELECT count(*) FROM payments`), len(c.keys(t))
			p, err := tt.svc.CreateForBooking(t.Context(), desk, tt.booking, tt.in, rc)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				assert.Equal(t, clubhouse.KindOf(tt.wantErr), clubhouse.KindOf(err))
				assert.Equal(t, rows, count(t, c.db, `SELECT count(*) FROM payments`), "no payment")
				assert.Len(t, c.keys(t), objects, "and no object is left behind")
				assert.Empty(t, c.events.Take())
				return
			}
			require.NoError(t, err)
			assert.Equal(t, &tt.booking, p.ReservationID)
			assert.Equal(t, updated(payments.Updated{ID: p.ID, ReservationID: p.ReservationID, StatusDetail: payments.DetailPending, Owner: ownerOf(p)}), c.events.Take())
			if !tt.receipt {
				assert.Nil(t, p.Foto)
				assert.Nil(t, p.FotoType)
				return
			}
			require.NotNil(t, p.Foto)
			assert.Equal(t, ptr(payments.TypeJPEG), p.FotoType)
			assert.True(t, strings.HasPrefix(*p.Foto, fmt.Sprintf("receipts/%d/", tt.booking)), *p.Foto)
			assert.Equal(t, jpeg(tt.name), c.object(t, *p.Foto))
		})
	}
}

// TestService_Update: each row changes a payment of its own on Ana's
// booking: a pending one of 1,000 by staff, a completed one, or Ana's
// unconfirmed claim.
func TestService_Update(t *testing.T) {
	t.Parallel()
	c := newPayClub(t)
	_, err := c.svc.Create(t.Context(), desk, c.input(c.other, "1000", "GW-TAKEN"))
	require.NoError(t, err)
	tests := []struct {
		name    string
		from    string // "pending", "completed" or "claim"
		id      int64  // 0: the row's payment
		held    bool   // a gateway payment holds the claimed id
		in      payments.Input
		wantErr error
		check   func(t *testing.T, p payments.Payment)
	}{
		{name: "completed", from: "pending", in: payments.Input{Status: clubhouse.Some(true)}, check: func(t *testing.T, p payments.Payment) {
			assert.True(t, p.Status)
			assert.Equal(t, payments.DetailCompleted, p.StatusDetail)
		}},
		{name: "pending again", from: "completed", in: payments.Input{Status: clubhouse.Some(false)}, check: func(t *testing.T, p payments.Payment) {
			assert.False(t, p.Status)
			assert.Equal(t, payments.DetailPending, p.StatusDetail)
		}},
		{name: "a status null changes nothing", from: "completed", in: payments.Input{Status: clubhouse.Optional[bool]{Set: true}},
			check: func(t *testing.T, p payments.Payment) { assert.Equal(t, payments.DetailCompleted, p.StatusDetail) }},
		{name: "amount, description and gateway response", from: "pending", in: payments.Input{Amount: clubhouse.Some(decimal.RequireFromString("1500.50")),
			Description: clubhouse.Some(" half "), GatewayResponse: clubhouse.Some("ok")}, check: func(t *testing.T, p payments.Payment) {
			assertDec(t, "1500.50", p.Amount, "amount")
			assert.Equal(t, ptr("half"), p.Description)
			assert.Equal(t, ptr("ok"), p.GatewayResponse)
		}},
		{name: "moved to another booking", from: "pending", in: payments.Input{ReservationID: clubhouse.Some(c.other)},
			check: func(t *testing.T, p payments.Payment) { assert.Equal(t, &c.other, p.ReservationID) }},
		{name: "transaction id cleared", from: "pending", in: payments.Input{TransactionID: clubhouse.Optional[string]{Set: true}},
			check: func(t *testing.T, p payments.Payment) { assert.Nil(t, p.TransactionID) }},
		{name: "a claim confirmed takes its claimed id", from: "claim", in: payments.Input{Status: clubhouse.Some(true)},
			check: func(t *testing.T, p payments.Payment) {
				assert.True(t, p.Status)
				assert.Equal(t, p.ClaimedTransactionID, p.TransactionID)
			}},
		{name: "a claim confirmed with another id", from: "claim", in: payments.Input{Status: clubhouse.Some(true), TransactionID: clubhouse.Some("GW-REAL")},
			check: func(t *testing.T, p payments.Payment) {
				assert.Equal(t, ptr("GW-REAL"), p.TransactionID)
				assert.NotEqual(t, p.ClaimedTransactionID, p.TransactionID)
			}},
		{name: "a claim whose id a gateway payment holds", from: "claim", held: true, in: payments.Input{Status: clubhouse.Some(true)},
			wantErr: payments.ErrTransactionUsed},
		{name: "a transaction id another payment holds", from: "pending", in: payments.Input{TransactionID: clubhouse.Some("GW-TAKEN")},
			wantErr: payments.ErrTransactionUsed},
		{name: "an invalid amount", from: "pending", in: payments.Input{Amount: clubhouse.Some(decimal.Zero)}, wantErr: clubhouse.ErrInvalidAmount},
		{name: "amount null", from: "pending", in: payments.Input{Amount: clubhouse.Optional[decimal.Decimal]{Set: true}},
			wantErr: clubhouse.ErrInvalidAmount},
		{name: "booking 0", from: "pending", in: payments.Input{ReservationID: clubhouse.Some[int64](0)}, wantErr: clubhouse.ErrInvalidReference},
		{name: "unknown booking", from: "pending", in: payments.Input{ReservationID: clubhouse.Some[int64](unknown)},
			wantErr: clubhouse.ErrInvalidReference},
		{name: "unknown payment type", from: "pending", in: payments.Input{PaymentTypeID: clubhouse.Some[int64](unknown)},
			wantErr: clubhouse.ErrInvalidReference},
		{name: "blank transaction id", from: "pending", in: payments.Input{TransactionID: clubhouse.Some(" ")}, wantErr: clubhouse.ErrInvalidData},
		{name: "no such payment", from: "pending", id: unknown, in: payments.Input{Status: clubhouse.Some(true)}, wantErr: payments.ErrNotFound},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := t.Context()
			var p payments.Payment
			var err error
			switch tt.from {
			case "pending", "completed":
				p, err = c.svc.Create(ctx, desk, with(c.input(c.booking, "1000", fmt.Sprint("GW-", i)), func(in *payments.Input) {
					in.Status = clubhouse.Some(tt.from == "completed")
				}))
			case "claim":
				p, err = c.svc.ClientCreate(ctx, c.ana, c.input(c.booking, "1000", fmt.Sprint("CLAIMED-", i)), nil)
			}
			require.NoError(t, err)
			id := tt.id
			if id == 0 {
				id = p.ID
			}
			if tt.held {
				_, err := c.svc.Create(ctx, desk, c.input(c.other, "1000", *p.ClaimedTransactionID))
				require.NoError(t, err)
			}
			before, err := c.svc.Get(ctx, desk, p.ID)
			require.NoError(t, err)
			c.events.Take()

			got, err := c.svc.Update(ctx, desk, id, tt.in)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				assert.Equal(t, clubhouse.KindOf(tt.wantErr), clubhouse.KindOf(err))
				assert.Empty(t, c.events.Take())
				c.samePayment(t, before)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, p.ID, got.ID)
			tt.check(t, got)
			assert.Equal(t, updated(payments.Updated{ID: got.ID, ReservationID: got.ReservationID, Status: got.Status, StatusDetail: got.StatusDetail, Owner: ownerOf(got)}),
				c.events.Take())
			stored, err := c.svc.Get(ctx, desk, got.ID)
			require.NoError(t, err)
			assert.Equal(t, got, stored, "Update returns the payment as stored")
		})
	}
}

// TestService_UpdateForBooking: each row changes a payment of its own on
// Ana's booking, with or without a receipt already; a new receipt replaces
// the old only once the row is updated.
func TestService_UpdateForBooking(t *testing.T) {
	t.Parallel()
	c := newPayClub(t)
	_, err := c.svc.Create(t.Context(), desk, c.input(c.other, "1000", "GW-TAKEN"))
	require.NoError(t, err)
	amount := func(s string) payments.Input {
		return payments.Input{Amount: clubhouse.Some(decimal.RequireFromString(s))}
	}
	tests := []struct {
		name        string
		svc         *payments.Service
		booking     int64 // 0: Ana's
		id          int64 // 0: the row's payment
		had         bool  // the payment has a receipt already
		in          payments.Input
		receipt     bool
		wantErr     error
		wantReceipt bool // the payment ends with a new receipt
	}{
		{name: "its booking's payment", in: amount("2000")},
		{name: "the booking in the input is ignored", in: payments.Input{ReservationID: clubhouse.Some(c.other)}},
		{name: "without a receipt nor storage", svc: c.off, in: amount("2000")},
		{name: "another booking's payment", booking: c.other, in: amount("2000"), wantErr: payments.ErrNotFound},
		{name: "no such payment", id: unknown, in: amount("2000"), wantErr: payments.ErrNotFound},
		{name: "an invalid amount", in: amount("0"), wantErr: clubhouse.ErrInvalidAmount},
		{name: "a receipt added", in: amount("2000"), receipt: true, wantReceipt: true},
		{name: "the receipt replaced", had: true, receipt: true, wantReceipt: true},
		{name: "a receipt, storage off", svc: c.off, had: true, receipt: true, wantErr: payments.ErrStorageOff},
		{name: "a receipt, the store failing", svc: c.broken, had: true, receipt: true, wantErr: payments.ErrStorageFailed},
		{name: "a receipt for another booking's payment", booking: c.other, had: true, receipt: true, wantErr: payments.ErrNotFound},
		{name: "a receipt for no such payment", id: unknown, receipt: true, wantErr: payments.ErrNotFound},
		{name: "a receipt and an invalid amount", had: true, in: amount("-1"), receipt: true, wantErr: clubhouse.ErrInvalidAmount},
		{name: "a receipt and a transaction id another payment holds", had: true, receipt: true,
			in: payments.Input{TransactionID: clubhouse.Some("GW-TAKEN")}, wantErr: payments.ErrTransactionUsed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := t.Context()
			p := c.payment(t, c.booking, tt.had)
			svc, bookingID, id := tt.svc, tt.booking, tt.id
			if svc == nil {
				svc = c.svc
			}
			if bookingID == 0 {
				bookingID = c.booking
			}
			if id == 0 {
				id = p.ID
			}
			var rc *payments.Receipt
			if tt.receipt {
				rc = c.receipt(t, "new")
			}
			keys := c.keys(t)

			got, err := svc.UpdateForBooking(ctx, desk, bookingID, id, tt.in, rc)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				assert.Equal(t, clubhouse.KindOf(tt.wantErr), clubhouse.KindOf(err))
				assert.Empty(t, c.events.Take())
				c.samePayment(t, p)
				assert.Equal(t, keys, c.keys(t), "no new object is left behind, the old one stays")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, p.ID, got.ID)
			assert.Equal(t, &c.booking, got.ReservationID)
			if tt.in.Amount.Set {
				assert.True(t, tt.in.Amount.Value.Equal(got.Amount))
			}
			assert.Len(t, c.events.Take(), 1)
			if !tt.wantReceipt {
				assert.Equal(t, p.Foto, got.Foto)
				assert.Equal(t, keys, c.keys(t))
				return
			}
			require.NotNil(t, got.Foto)
			assert.Equal(t, jpeg("new"), c.object(t, *got.Foto))
			if tt.had {
				assert.NotEqual(t, *p.Foto, *got.Foto)
				assert.NotContains(t, c.keys(t), *p.Foto, "the old receipt is removed")
			}
			assert.Len(t, c.keys(t), len(keys)+1-len(keysOf(p)), "one receipt per payment")
		})
	}
}

// keysOf returns the receipt key of p, if any.
func keysOf(p payments.Payment) []string {
	if p.Foto == nil {
		return nil
	}
	return []string{*p.Foto}
}

// TestService_Delete: each row deletes a payment of its own on Ana's
// booking, with or without a receipt.
func TestService_Delete(t *testing.T) {
	t.Parallel()
	c := newPayClub(t)
	tests := []struct {
		name    string
		svc     *payments.Service
		booking int64 // the booking named; 0: any
		id      int64 // 0: the row's payment
		receipt bool
		wantErr error
	}{
		{name: "a payment of any booking"},
		{name: "a payment of its booking", booking: c.booking},
		{name: "another booking's payment", booking: c.other, wantErr: payments.ErrNotFound},
		{name: "no such payment", id: unknown, wantErr: payments.ErrNotFound},
		{name: "without a receipt nor storage", svc: c.off},
		{name: "with its receipt", receipt: true},
		{name: "with a receipt, storage off", svc: c.off, receipt: true, wantErr: payments.ErrStorageOff},
		{name: "with a receipt, the store failing", svc: c.broken, receipt: true, wantErr: payments.ErrStorageFailed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := t.Context()
			p := c.payment(t, c.booking, tt.receipt)
			svc, id := tt.svc, tt.id
			if svc == nil {
				svc = c.svc
			}
			if id == 0 {
				id = p.ID
			}
			err := svc.Delete(ctx, desk, tt.booking, id)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				assert.Equal(t, clubhouse.KindOf(tt.wantErr), clubhouse.KindOf(err))
				assert.Empty(t, c.events.Take())
				c.samePayment(t, p)
				if tt.receipt {
					assert.Contains(t, c.keys(t), *p.Foto, "the receipt stays")
				}
				return
			}
			require.NoError(t, err)
			_, err = c.svc.Get(ctx, desk, p.ID)
			require.ErrorIs(t, err, payments.ErrNotFound)
			assert.Equal(t, updated(payments.Updated{ID: p.ID, ReservationID: p.ReservationID, StatusDetail: payments.DetailPending, Deleted: true, Owner: ownerOf(p)}),
				c.events.Take())
			if tt.receipt {
				assert.NotContains(t, c.keys(t), *p.Foto, "the receipt goes with it")
			}
		})
	}
}

func TestService_OpenReceipt(t *testing.T) {
	t.Parallel()
	c := newPayClub(t)
	withReceipt := c.payment(t, c.booking, true)
	without := c.payment(t, c.booking, false)
	lost := c.payment(t, c.booking, true)
	require.NoError(t, c.dir.Delete(t.Context(), *lost.Foto))
	tests := []struct {
		name        string
		svc         *payments.Service
		booking, id int64
		wantErr     error
	}{
		{name: "its receipt", svc: c.svc, booking: c.booking, id: withReceipt.ID},
		{name: "its receipt, whatever its booking", svc: c.svc, booking: 0, id: withReceipt.ID},
		{name: "no such payment of any booking", svc: c.svc, booking: 0, id: unknown, wantErr: payments.ErrNotFound},
		{name: "a payment of any booking without a receipt", svc: c.svc, booking: 0, id: without.ID, wantErr: payments.ErrNoReceipt},
		{name: "storage off", svc: c.off, booking: c.booking, id: withReceipt.ID, wantErr: payments.ErrStorageOff},
		{name: "another booking's payment", svc: c.svc, booking: c.other, id: withReceipt.ID, wantErr: payments.ErrNotFound},
		{name: "no such payment", svc: c.svc, booking: c.booking, id: unknown, wantErr: payments.ErrNotFound},
		{name: "a payment without a receipt", svc: c.svc, booking: c.booking, id: without.ID, wantErr: payments.ErrNoReceipt},
		{name: "the image missing from storage", svc: c.svc, booking: c.booking, id: lost.ID, wantErr: payments.ErrObjectNotFound},
		{name: "the store failing", svc: c.broken, booking: c.booking, id: withReceipt.ID, wantErr: payments.ErrStorageFailed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := tt.svc.OpenReceipt(t.Context(), desk, tt.booking, tt.id)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				assert.Equal(t, clubhouse.KindOf(tt.wantErr), clubhouse.KindOf(err))
				return
			}
			require.NoError(t, err)
			defer f.Body.Close()
			assert.Equal(t, payments.TypeJPEG, f.ContentType)
			b, err := io.ReadAll(f.Body)
			require.NoError(t, err)
			assert.Equal(t, jpeg("old"), string(b))
		})
	}
}

// TestService_DeleteReceipt: each row removes the receipt of a payment of
// its own on Ana's booking.
func TestService_DeleteReceipt(t *testing.T) {
	t.Parallel()
	c := newPayClub(t)
	tests := []struct {
		name    string
		svc     *payments.Service
		other   bool // name Bob's booking
		id      int64
		receipt bool
		lost    bool // the image is missing from storage already
		wantErr error
	}{
		{name: "its receipt", receipt: true},
		{name: "an image missing from storage already", receipt: true, lost: true},
		{name: "storage off", svc: c.off, receipt: true, wantErr: payments.ErrStorageOff},
		{name: "the store failing", svc: c.broken, receipt: true, wantErr: payments.ErrStorageFailed},
		{name: "another booking's payment", other: true, receipt: true, wantErr: payments.ErrNotFound},
		{name: "no such payment", id: unknown, wantErr: payments.ErrNotFound},
		{name: "a payment without a receipt", wantErr: payments.ErrNoReceipt},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := t.Context()
			p := c.payment(t, c.booking, tt.receipt)
			if tt.lost {
				require.NoError(t, c.dir.Delete(ctx, *p.Foto))
			}
			svc, bookingID, id := tt.svc, c.booking, tt.id
			if svc == nil {
				svc = c.svc
			}
			if tt.other {
				bookingID = c.other
			}
			if id == 0 {
				id = p.ID
			}
			got, err := svc.DeleteReceipt(ctx, desk, bookingID, id)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				assert.Equal(t, clubhouse.KindOf(tt.wantErr), clubhouse.KindOf(err))
				assert.Empty(t, c.events.Take())
				c.samePayment(t, p)
				if tt.receipt {
					assert.Contains(t, c.keys(t), *p.Foto, "the receipt stays")
				}
				return
			}
			require.NoError(t, err)
			assert.Nil(t, got.Foto)
			assert.Nil(t, got.FotoType)
			assert.NotContains(t, c.keys(t), *p.Foto)
			stored, err := c.svc.Get(ctx, desk, p.ID)
			require.NoError(t, err)
			assert.Equal(t, got, stored)
			assert.Len(t, c.events.Take(), 1)
		})
	}
}

// TestService_ClientCreate: the outcomes of a client's claim besides its
// debt (see TestService_ClientCreate_debt).
func TestService_ClientCreate(t *testing.T) {
	t.Parallel()
	c := newPayClub(t)
	_, err := c.svc.Create(t.Context(), desk, c.input(c.other, "1000", "GW-TAKEN"))
	require.NoError(t, err)
	c.events.Take()
	tests := []struct {
		name    string
		by      clubhouse.Actor
		in      payments.Input
		wantErr error
	}{
		{name: "a claim: status and gateway response are not the client's", by: c.ana,
			in: with(c.input(c.booking, "1000", " C-1 "), func(in *payments.Input) {
				in.Status, in.GatewayResponse = clubhouse.Some(true), clubhouse.Some("approved")
			})},
		{name: "an id a gateway payment holds is no conflict", by: c.ana, in: c.input(c.booking, "1000", "GW-TAKEN")},
		{name: "the same id again for the booking", by: c.ana, in: c.input(c.booking, "500", "C-1"), wantErr: payments.ErrClaimRepeated},
		{name: "a booking of nobody", by: c.ana, in: c.input(c.bare, "1", "C-2"), wantErr: payments.ErrNotYours},
		{name: "a user without a client", by: c.eve, in: c.input(c.booking, "1", "C-2"), wantErr: payments.ErrNotYours},
		{name: "a bot", by: clubhouse.Staff("kiosk"), in: c.input(c.booking, "1", "C-2"), wantErr: payments.ErrNotYours},
		{name: "no transaction id", by: c.ana, in: c.input(c.booking, "1", ""), wantErr: clubhouse.ErrIncomplete},
		{name: "no payment type", by: c.ana, in: with(c.input(c.booking, "1", "C-2"), func(in *payments.Input) {
			in.PaymentTypeID = clubhouse.Optional[int64]{}
		}), wantErr: clubhouse.ErrIncomplete},
		{name: "no booking", by: c.ana, in: c.input(0, "1", "C-2"), wantErr: clubhouse.ErrIncomplete},
		{name: "an invalid amount", by: c.ana, in: c.input(c.booking, "0", "C-2"), wantErr: clubhouse.ErrInvalidAmount},
		{name: "unknown payment type", by: c.ana, in: with(c.input(c.booking, "1", "C-2"), func(in *payments.Input) {
			in.PaymentTypeID = clubhouse.Some[int64](unknown)
		}), wantErr: clubhouse.ErrInvalidReference},
		{name: "a blank transaction id", by: c.ana, in: c.input(c.booking, "1", "  "), wantErr: clubhouse.ErrInvalidData},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rows := count(t, c.db, `SELECT count(*) FROM payments`)
			p, err := c.svc.ClientCreate(t.Context(), tt.by, tt.in, nil)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				assert.Equal(t, clubhouse.KindOf(tt.wantErr), clubhouse.KindOf(err))
				assert.Equal(t, rows, count(t, c.db, `SELECT count(*) FROM payments`), "a refused claim stores nothing")
				assert.Empty(t, c.events.Take())
				return
			}
			require.NoError(t, err)
			assert.True(t, p.Claim())
			assert.False(t, p.Status, "a claim stays pending")
			assert.Equal(t, payments.DetailPending, p.StatusDetail)
			assert.Nil(t, p.GatewayResponse)
			assert.Nil(t, p.TransactionID, "the reported id is no gateway id")
			assert.Equal(t, ptr(strings.TrimSpace(*tt.in.TransactionID.Value)), p.ClaimedTransactionID)
			assert.Equal(t, p.ClaimedTransactionID, p.Reference())
			assert.Equal(t, &c.booking, p.ReservationID)
			assert.Len(t, c.events.Take(), 1)
		})
	}
}

func TestService_ClientGet(t *testing.T) {
	t.Parallel()
	c := newPayClub(t)
	anas := c.payment(t, c.booking, false)
	bobs := c.payment(t, c.other, false)
	nobodys := c.payment(t, c.bare, false)
	tests := []struct {
		name    string
		by      clubhouse.Actor
		id      int64
		wantErr error
	}{
		{name: "their own", by: c.ana, id: anas.ID},
		{name: "another client's", by: c.ana, id: bobs.ID, wantErr: payments.ErrNotYours},
		{name: "of a booking of nobody", by: c.ana, id: nobodys.ID, wantErr: payments.ErrNotYours},
		{name: "a user without a client", by: c.eve, id: anas.ID, wantErr: payments.ErrNotYours},
		{name: "a bot", by: clubhouse.Staff("kiosk"), id: anas.ID, wantErr: payments.ErrNotYours},
		{name: "no such payment", by: c.ana, id: unknown, wantErr: payments.ErrNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := c.svc.ClientGet(t.Context(), tt.by, tt.id)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				assert.Equal(t, clubhouse.KindOf(tt.wantErr), clubhouse.KindOf(err))
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.id, p.ID)
			assert.NotNil(t, p.ClientID)
		})
	}
}

func TestService_ClientPage(t *testing.T) {
	t.Parallel()
	c := newPayClub(t)
	first, second, third := c.payment(t, c.booking, false), c.payment(t, c.booking, false), c.payment(t, c.booking, false)
	c.payment(t, c.other, false)
	tests := []struct {
		name        string
		by          clubhouse.Actor
		page, limit int
		want        []payments.Payment
		total       int
		wantErr     error
	}{
		{name: "first page, latest first", by: c.ana, page: 1, limit: 2, want: []payments.Payment{third, second}, total: 3},
		{name: "last page", by: c.ana, page: 2, limit: 2, want: []payments.Payment{first}, total: 3},
		{name: "limit 0 is the default page", by: c.ana, page: 1, want: []payments.Payment{third, second, first}, total: 3},
		{name: "limit above the maximum", by: c.ana, page: 1, limit: booking.AccountPaging.Max + 1, wantErr: clubhouse.ErrInvalidQuery},
		{name: "page 0", by: c.ana, page: 0, wantErr: clubhouse.ErrInvalidQuery},
		{name: "a user without a client", by: c.eve, page: 1, want: []payments.Payment{}},
		{name: "a bot", by: clubhouse.Staff("kiosk"), page: 1, want: []payments.Payment{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, total, err := c.svc.ClientPage(t.Context(), tt.by, tt.page, tt.limit)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			require.NotNil(t, got)
			assert.Equal(t, paymentIDs(tt.want), paymentIDs(got))
			assert.Equal(t, tt.total, total)
		})
	}
}

// TestService_order: the lists of payments in the order each promises, on
// a booking whose older payment is pending and newer one completed.
func TestService_order(t *testing.T) {
	t.Parallel()
	c := newPayClub(t)
	older := c.payment(t, c.booking, false)
	newer, err := c.svc.Create(t.Context(), desk, with(c.input(c.booking, "1000", "GW-1"), func(in *payments.Input) { in.Status = clubhouse.Some(true) }))
	require.NoError(t, err)
	pendingFirst, latestFirst := []int64{older.ID, newer.ID}, []int64{newer.ID, older.ID}
	tests := []struct {
		name string
		list func(ctx context.Context) ([]payments.Payment, error)
		want []int64
	}{
		{name: "List: pending first, then latest first", want: pendingFirst, list: func(ctx context.Context) ([]payments.Payment, error) {
			return c.svc.List(ctx, desk, payments.Filter{ReservationID: c.booking})
		}},
		{name: "OfBookings: pending first, then latest first", want: pendingFirst, list: func(ctx context.Context) ([]payments.Payment, error) {
			m, err := c.svc.OfBookings(ctx, desk, []int64{c.booking})
			return m[c.booking], err
		}},
		{name: "ForBooking: latest first", want: latestFirst, list: func(ctx context.Context) ([]payments.Payment, error) {
			return c.svc.ForBooking(ctx, desk, c.booking)
		}},
		{name: "ClientPage: latest first", want: latestFirst, list: func(ctx context.Context) ([]payments.Payment, error) {
			rows, _, err := c.svc.ClientPage(ctx, c.ana, 1, 0)
			return rows, err
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.list(t.Context())
			require.NoError(t, err)
			assert.Equal(t, tt.want, paymentIDs(got))
		})
	}
}

func TestService_ForBooking(t *testing.T) {
	t.Parallel()
	c := newPayClub(t)
	first, second := c.payment(t, c.booking, false), c.payment(t, c.booking, false)
	c.payment(t, c.other, false)
	tests := []struct {
		name    string
		booking int64
		want    []payments.Payment
		wantErr error
	}{
		{name: "a booking's payments, latest first", booking: c.booking, want: []payments.Payment{second, first}},
		{name: "a booking without payments", booking: c.bare, want: []payments.Payment{}},
		{name: "no such booking", booking: unknown, wantErr: booking.ErrBookingNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := c.svc.ForBooking(t.Context(), desk, tt.booking)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, paymentIDs(tt.want), paymentIDs(got))
		})
	}
}

// TestService_Stats: counts by status detail and sums of amounts, as
// payments of each status arrive.
func TestService_Stats(t *testing.T) {
	t.Parallel()
	c := newPayClub(t)
	tests := []struct {
		name                                       string
		add                                        []payments.Event
		total, pending, completed, failed, refunds int
		open                                       int
		totalAmount, completedAmount               string
	}{
		{name: "no payments", totalAmount: "0", completedAmount: "0"},
		{name: "one of each status", add: []payments.Event{
			event("S-1", "60000", "completed", &c.booking), event("S-2", "2000", "pending", &c.booking),
			event("S-3", "3000", "failed", &c.booking), event("S-4", "4000", "refunded", &c.booking),
		}, total: 4, pending: 1, completed: 1, failed: 1, refunds: 1, open: 3, totalAmount: "69000", completedAmount: "60000"},
		{name: "another completed, in cents", add: []payments.Event{event("S-5", "0.50", "approved", &c.other)},
			total: 5, pending: 1, completed: 2, failed: 1, refunds: 1, open: 3, totalAmount: "69000.50", completedAmount: "60000.50"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, e := range tt.add {
				_, err := c.svc.Reconcile(t.Context(), e)
				require.NoError(t, err)
			}
			st, err := c.svc.Stats(t.Context(), desk)
			require.NoError(t, err)
			assert.Equal(t, tt.total, st.Total)
			assert.Equal(t, tt.pending, st.Pending)
			assert.Equal(t, tt.completed, st.Completed)
			assert.Equal(t, tt.failed, st.Failed)
			assert.Equal(t, tt.refunds, st.Refunded)
			assert.Equal(t, tt.open, st.Open())
			assertDec(t, tt.totalAmount, st.TotalAmount, "total amount")
			assertDec(t, tt.completedAmount, st.CompletedAmount, "completed amount")
		})
	}
}

// TestService_views: the views that join a booking with its balance and
// payments. Ana's booking has a completed payment of 20,000 and a pending
// claim of 5,000; at clock() it is over, and her booking of next week is
// the next.
func TestService_views(t *testing.T) {
	t.Parallel()
	c := newPayClub(t)
	ctx := t.Context()
	_, err := c.svc.Create(ctx, desk, with(c.input(c.booking, "20000", "GW-1"), func(in *payments.Input) { in.Status = clubhouse.Some(true) }))
	require.NoError(t, err)
	_, err = c.svc.ClientCreate(ctx, c.ana, c.input(c.booking, "5000", "C-1"), nil)
	require.NoError(t, err)
	var court, rental int64
	require.NoError(t, c.db.GetContext(ctx, &court, `SELECT court_id FROM reservations WHERE id = $1`, c.booking))
	require.NoError(t, c.db.GetContext(ctx, &rental, `SELECT reservation_type_id FROM reservations WHERE id = $1`, c.booking))
	next, err := c.bookings.ClientCreate(ctx, c.ana, booking.BookingInput{CourtID: clubhouse.Some(court), ReservationTypeID: clubhouse.Some(rental),
		Checking: clubhouse.Some(clock().AddDate(0, 0, 7)), Checkout: clubhouse.Some(clock().AddDate(0, 0, 7).Add(time.Hour))})
	require.NoError(t, err)

	type view struct {
		id, paid, debt string
		payments       int
	}
	viewOf := func(v payments.BookingView) view {
		return view{id: fmt.Sprint(v.Booking.ID), paid: v.Amount.Paid.StringFixed(2), debt: v.Amount.Debt().StringFixed(2), payments: len(v.Payments)}
	}
	mine := view{id: fmt.Sprint(c.booking), paid: "20000.00", debt: "40000.00", payments: 2}
	upcoming := view{id: fmt.Sprint(next.ID), paid: "0.00", debt: "60000.00"}
	one := func(f func(ctx context.Context) (payments.BookingView, error)) func(ctx context.Context) ([]view, int, error) {
		return func(ctx context.Context) ([]view, int, error) {
			v, err := f(ctx)
			return []view{viewOf(v)}, 1, err
		}
	}
	tests := []struct {
		name      string
		get       func(ctx context.Context) ([]view, int, error)
		want      []view
		wantTotal int
		wantErr   error
	}{
		{name: "Booking", get: one(func(ctx context.Context) (payments.BookingView, error) {
			return c.svc.Booking(ctx, desk, c.booking)
		}),
			want: []view{mine}, wantTotal: 1},
		{name: "Booking, no such booking", get: one(func(ctx context.Context) (payments.BookingView, error) {
			return c.svc.Booking(ctx, desk, unknown)
		}),
			wantErr: booking.ErrBookingNotFound},
		{name: "ClientBooking, their own", get: one(func(ctx context.Context) (payments.BookingView, error) {
			return c.svc.ClientBooking(ctx, c.ana, c.booking)
		}), want: []view{mine}, wantTotal: 1},
		{name: "ClientBooking, another client's", get: one(func(ctx context.Context) (payments.BookingView, error) {
			return c.svc.ClientBooking(ctx, c.ana, c.other)
		}), wantErr: booking.ErrBookingNotFound},
		{name: "ClientBooking, a user without a client", get: one(func(ctx context.Context) (payments.BookingView, error) {
			return c.svc.ClientBooking(ctx, c.eve, c.booking)
		}), wantErr: booking.ErrBookingNotFound},
		{name: "ClientBookings, latest first", get: func(ctx context.Context) ([]view, int, error) {
			vs, total, err := c.svc.ClientBookings(ctx, c.ana, booking.ClientPageQuery{Page: 1})
			out := []view{}
			for _, v := range vs {
				out = append(out, viewOf(v))
			}
			return out, total, err
		}, want: []view{upcoming, mine}, wantTotal: 2},
		{name: "ClientBookings, a user without a client", get: func(ctx context.Context) ([]view, int, error) {
			vs, total, err := c.svc.ClientBookings(ctx, c.eve, booking.ClientPageQuery{Page: 1})
			return make([]view, len(vs)), total, err
		}, want: []view{}},
		{name: "ClientBookings, limit above the maximum", get: func(ctx context.Context) ([]view, int, error) {
			_, _, err := c.svc.ClientBookings(ctx, c.ana, booking.ClientPageQuery{Page: 1, Limit: booking.AccountPaging.Max + 1})
			return nil, 0, err
		}, wantErr: clubhouse.ErrInvalidQuery},
		{name: "ClientSummary: the next booking with its balance", get: func(ctx context.Context) ([]view, int, error) {
			s, err := c.svc.ClientSummary(ctx, c.ana)
			if err != nil || s.Next == nil {
				return nil, 0, err
			}
			return []view{viewOf(*s.Next)}, s.Total, nil
		}, want: []view{upcoming}, wantTotal: 2},
		{name: "ClientSummary, a bot", get: func(ctx context.Context) ([]view, int, error) {
			_, err := c.svc.ClientSummary(ctx, clubhouse.Staff("kiosk"))
			return nil, 0, err
		}, wantErr: booking.ErrNotAUser},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, total, err := tt.get(t.Context())
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				assert.Equal(t, clubhouse.KindOf(tt.wantErr), clubhouse.KindOf(err))
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
			assert.Equal(t, tt.wantTotal, total)
		})
	}
}

// TestService_Dashboard: the dashboard lists the DashboardRecent latest
// payments and bookings, newest first, whoever asks for it.
func TestService_Dashboard(t *testing.T) {
	t.Parallel()
	c := newPayClub(t)
	d, err := c.svc.Dashboard(t.Context(), desk)
	require.NoError(t, err)
	assert.Empty(t, d.RecentPayments)
	assert.Len(t, d.Recent, 3, "fewer bookings than the dashboard lists")

	var made []payments.Payment
	for i := range payments.DashboardRecent + 1 {
		made = append(made, c.payment(t, []int64{c.booking, c.other}[i%2], false))
	}
	for range 3 {
		newBooking(t, c.db)
	}
	d, err = c.svc.Dashboard(t.Context(), desk)
	require.NoError(t, err)
	assert.Equal(t, 6, d.Reservations)
	assert.Equal(t, payments.DashboardRecent+1, d.Payments.Total)
	latest := slices.Clone(made[1:])
	slices.Reverse(latest)
	assert.Equal(t, paymentIDs(latest), paymentIDs(d.RecentPayments), "the latest payments, newest first")
	assert.Len(t, d.Recent, payments.DashboardRecent, "the latest bookings")
}

// TestService_ClientCreate_receipt: a client's claim keeps the photo of
// its receipt; a claim refused, on another's booking or above the debt,
// leaves no object behind; without storage, or with a broken one, nothing
// is stored at all.
func TestService_ClientCreate_receipt(t *testing.T) {
	t.Parallel()
	c := newPayClub(t)
	ctx := t.Context()
	p, err := c.svc.ClientCreate(ctx, c.ana, c.input(c.booking, "1000", "TRF-1"), c.receipt(t, "transfer"))
	require.NoError(t, err)
	require.NotNil(t, p.Foto)
	assert.False(t, p.Status, "a claim stays pending")
	assert.Equal(t, []string{*p.Foto}, c.keys(t))
	assert.Equal(t, jpeg("transfer"), c.object(t, *p.Foto))

	_, err = c.svc.ClientCreate(ctx, c.ana, c.input(c.other, "1000", "TRF-2"), c.receipt(t, "other"))
	assert.ErrorIs(t, err, payments.ErrNotYours)
	_, err = c.svc.ClientCreate(ctx, c.ana, c.input(c.booking, "999999", "TRF-3"), c.receipt(t, "above"))
	assert.ErrorIs(t, err, payments.ErrClaimAboveDebt)
	_, err = c.svc.ClientCreate(ctx, c.eve, c.input(c.booking, "1000", "TRF-4"), c.receipt(t, "eve"))
	assert.ErrorIs(t, err, payments.ErrNotYours)
	assert.Equal(t, []string{*p.Foto}, c.keys(t), "no object of a refused claim")

	_, err = c.off.ClientCreate(ctx, c.ana, c.input(c.booking, "1000", "TRF-5"), c.receipt(t, "off"))
	assert.ErrorIs(t, err, payments.ErrStorageOff)
	_, err = c.broken.ClientCreate(ctx, c.ana, c.input(c.booking, "1000", "TRF-6"), c.receipt(t, "broken"))
	assert.Equal(t, clubhouse.Unavailable, clubhouse.KindOf(err), "%v", err)
	var claims int
	require.NoError(t, c.db.GetContext(ctx, &claims, `SELECT count(*) FROM payments WHERE claimed_transaction_id IS NOT NULL`))
	assert.Equal(t, 1, claims)
}
