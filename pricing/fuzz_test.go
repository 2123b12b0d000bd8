package pricing

import (
	"fmt"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"
)

// fuzzTariffs builds a deterministic tariff set from fuzzer bytes.
func fuzzTariffs(seed []byte) []Tariff {
	adjs := []string{"+20%", "-15.5%", "+5000", "-2500.50", "-100%", "+1000%", "-99999", "+0.01"}
	rules := []string{"", "FREQ=WEEKLY;BYDAY=SA,SU", "FREQ=DAILY;INTERVAL=3", "FREQ=MONTHLY;BYMONTHDAY=1,15", "FREQ=WEEKLY;BYDAY=FR"}
	var ts []Tariff
	for i := 0; i+3 < len(seed) && len(ts) < 12; i += 4 {
		t := Tariff{ID: int64(len(ts) + 1), Active: seed[i]&1 == 0, Adjustment: adj(adjs[int(seed[i+1])%len(adjs)]),
			RRule: rules[int(seed[i+2])%len(rules)]}
		if seed[i+3]&1 == 1 {
			s, e := TimeOfDay(int(seed[i+3]>>1)%48*30), TimeOfDay(int(seed[i])%48*30+30)
			if s != e {
				t.StartTime, t.EndTime = &s, &e
			}
		}
		if seed[i+2]&8 == 8 {
			t.CourtID = id(int64(seed[i+2]>>4) % 3)
		}
		ts = append(ts, t)
	}
	return ts
}

func fuzzRequest(start uint16, slots uint8, price uint32) Request {
	s := at("2026-01-01 00:00").Add(time.Duration(start%(365*48)) * 30 * time.Minute)
	n := int(slots%96) + 1
	return Request{CourtID: 1, ReservationTypeID: 1, PricePerHour: decimal.New(int64(price%1_000_000), -1),
		Start: s, End: s.Add(time.Duration(n) * 30 * time.Minute)}
}

// FuzzQuote checks the invariants of every quote: never negative, the same
// input gives the same output, and a span split at any slot costs the same
// as the whole.
func FuzzQuote(f *testing.F) {
	f.Add([]byte{0, 1, 1, 0, 2, 3, 4, 5}, uint16(100), uint8(4), uint32(600000))
	f.Add([]byte{0, 6, 0, 1, 0, 2, 1, 9}, uint16(4000), uint8(30), uint32(1))
	f.Add([]byte{0, 3, 4, 0x2d, 0, 0, 0, 0}, uint16(7), uint8(95), uint32(123457))
	f.Fuzz(func(t *testing.T, seed []byte, start uint16, slots uint8, price uint32) {
		set, err := Compile(fuzzTariffs(seed), window)
		require.NoError(t, err)
		r := fuzzRequest(start, slots, price)
		q, err := set.Quote(r)
		require.NoError(t, err)
		require.False(t, q.FinalPrice.IsNegative(), "negative quote")
		for _, s := range q.Slots {
			require.False(t, s.Price.IsNegative(), "negative slot")
		}
		again, err := set.Quote(r)
		require.NoError(t, err)
		require.True(t, q.FinalPrice.Equal(again.FinalPrice), "same input, other output")
		require.Equal(t, fmt.Sprint(q.Applied), fmt.Sprint(again.Applied))

		n := len(q.Slots)
		cut := r.Start.Add(time.Duration(int(seed0(seed))%n) * 30 * time.Minute)
		if cut.After(r.Start) {
			a, err := set.Quote(Request{CourtID: 1, ReservationTypeID: 1, PricePerHour: r.PricePerHour, Start: r.Start, End: cut})
			require.NoError(t, err)
			b, err := set.Quote(Request{CourtID: 1, ReservationTypeID: 1, PricePerHour: r.PricePerHour, Start: cut, End: r.End})
			require.NoError(t, err)
			require.True(t, a.FinalPrice.Add(b.FinalPrice).Equal(q.FinalPrice), "split %s+%s != whole %s", a.FinalPrice, b.FinalPrice, q.FinalPrice)
		}
	})
}

func seed0(b []byte) byte {
	if len(b) == 0 {
		return 0
	}
	return b[0]
}
