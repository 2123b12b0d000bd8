package httpapi

import (
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/wire"
	"github.com/clubhouse-go/clubhouse/payments"
)

// TestWebhookEvent_describesParseEvent: the body the API description
// gives (webhookEvent) is what payments.ParseEvent reads: every member it
// documents is read, a required one may not be left out, and a text
// member is refused one character past its maxLength, naming it.
func TestWebhookEvent_describesParseEvent(t *testing.T) {
	t.Parallel()
	response, date, booking := `{"state":"APPROVED"}`, "2026-03-02T10:05:00-05:00", int64(41)
	full := webhookEvent{TransactionID: "TX-1", Amount: wire.Money(decimal.RequireFromString("60000.50")), Status: "completed",
		GatewayResponse: &response, Date: &date, ReservationID: &booking}
	members := func(t *testing.T) map[string]any {
		t.Helper()
		b, err := json.Marshal(full)
		require.NoError(t, err)
		var m map[string]any
		require.NoError(t, json.Unmarshal(b, &m))
		return m
	}
	parse := func(t *testing.T, m map[string]any) (payments.Event, error) {
		t.Helper()
		b, err := json.Marshal(m)
		require.NoError(t, err)
		return payments.ParseEvent(b)
	}

	e, err := parse(t, members(t))
	require.NoError(t, err)
	assert.Equal(t, "TX-1", e.TransactionID)
	assert.Equal(t, "60000.5", e.Amount.String())
	assert.Equal(t, "completed", e.Status)
	assert.Equal(t, &response, e.GatewayResponse)
	require.NotNil(t, e.Date)
	assert.Equal(t, "2026-03-02T15:05:00Z", e.Date.UTC().Format("2006-01-02T15:04:05Z"))
	assert.Equal(t, &booking, e.ReservationID)
	assert.Nil(t, e.EnrollmentID)

	typ := reflect.TypeFor[webhookEvent]()
	for i := range typ.NumField() {
		f := typ.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		t.Run(name, func(t *testing.T) {
			m := members(t)
			delete(m, name)
			_, err := parse(t, m)
			if slices.Contains(strings.Split(f.Tag.Get("validate"), ","), "required") {
				require.ErrorIs(t, err, clubhouse.ErrIncomplete, "without %s", name)
				assert.Contains(t, err.Error(), name)
			} else {
				assert.NoError(t, err, "without %s", name)
			}
			max := f.Tag.Get("maxLength")
			if max == "" {
				return
			}
			n, err := strconv.Atoi(max)
			require.NoError(t, err)
			m[name] = strings.Repeat("é", n) // characters, not bytes
			_, err = parse(t, m)
			assert.False(t, err != nil && strings.Contains(err.Error(), "at most"), "%s of %d characters: %v", name, n, err)
			m[name] = strings.Repeat("é", n+1)
			_, err = parse(t, m)
			var e *clubhouse.Error
			require.True(t, errors.As(err, &e), "%s of %d characters: %v", name, n+1, err)
			assert.Equal(t, clubhouse.Invalid, e.Kind)
			assert.Contains(t, e.Message, name)
		})
	}
}
