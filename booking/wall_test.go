package booking_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
)

// wall returns the wall time s ("YYYY-MM-DD HH:MM") as ParseWall returns it.
func wall(tb testing.TB, s string) time.Time {
	tb.Helper()
	t, err := time.Parse("2006-01-02 15:04", s)
	require.NoError(tb, err)
	return t
}

func TestSpanCheck(t *testing.T) {
	t.Parallel()
	span := func(from, to string) booking.Span {
		return booking.Span{Start: wall(t, from), End: wall(t, to)}
	}
	tests := []struct {
		name string
		span booking.Span
		max  time.Duration
		want error // nil, a sentinel, or errTooLong
	}{
		{"one slot", span("2026-03-02 10:00", "2026-03-02 10:30"), booking.MaxSpan, nil},
		{"exactly the maximum", span("2026-03-02 10:00", "2026-03-03 10:00"), booking.MaxSpan, nil},
		{"no limit", span("2026-03-02 10:00", "2026-04-02 10:00"), 0, nil},
		{"start off the grid", span("2026-03-02 10:15", "2026-03-02 11:00"), booking.MaxSpan, booking.ErrOffGrid},
		{"end off the grid", span("2026-03-02 10:00", "2026-03-02 10:45"), booking.MaxSpan, booking.ErrOffGrid},
		{"seconds off the grid", booking.Span{Start: wall(t, "2026-03-02 10:00").Add(time.Second), End: wall(t, "2026-03-02 11:00")}, 0, booking.ErrOffGrid},
		{"nanoseconds off the grid", booking.Span{Start: wall(t, "2026-03-02 10:00"), End: wall(t, "2026-03-02 11:00").Add(1)}, 0, booking.ErrOffGrid},
		{"checkout before checking", span("2026-03-02 11:00", "2026-03-02 10:00"), booking.MaxSpan, booking.ErrCheckoutBeforeChecking},
		{"checkout at checking", span("2026-03-02 10:00", "2026-03-02 10:00"), booking.MaxSpan, booking.ErrCheckoutBeforeChecking},
		{"too long", span("2026-03-02 10:00", "2026-03-03 10:30"), booking.MaxSpan, errTooLong},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			err := tc.span.Check(tc.max)
			switch tc.want {
			case nil:
				assert.NoError(t, err)
			case errTooLong:
				e := clubhouse.AsError(err)
				require.NotNil(t, e)
				assert.Equal(t, clubhouse.Invalid, e.Kind)
				assert.Equal(t, "invalid date", e.Code)
				assert.Contains(t, e.Message, "at most")
			default:
				assert.Same(t, tc.want, err)
			}
		})
	}
}

// errTooLong stands for the error of a span longer than allowed, whose
// message names the limit.
var errTooLong = clubhouse.Errorf(clubhouse.Invalid, "invalid date", "too long")
