package wire

import (
	"errors"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/clubhouse-go/clubhouse"
)

// Status is the one HTTP status of each error kind, for every front door
// that answers over HTTP: the JSON API's bodies and the web pages' error
// pages alike.
func Status(k clubhouse.Kind) int {
	if s, ok := statuses[k]; ok {
		return s
	}
	return http.StatusInternalServerError
}

// statuses maps each error kind to its status; a kind missing from it is
// a 500 (TestStatus holds every kind to its row).
var statuses = map[clubhouse.Kind]int{
	clubhouse.Internal:         http.StatusInternalServerError,
	clubhouse.Invalid:          http.StatusBadRequest,
	clubhouse.Unauthenticated:  http.StatusUnauthorized,
	clubhouse.Forbidden:        http.StatusForbidden,
	clubhouse.NotFound:         http.StatusNotFound,
	clubhouse.Conflict:         http.StatusConflict,
	clubhouse.TooLarge:         http.StatusRequestEntityTooLarge,
	clubhouse.UnsupportedMedia: http.StatusUnsupportedMediaType,
	clubhouse.RateLimited:      http.StatusTooManyRequests,
	clubhouse.Unavailable:      http.StatusServiceUnavailable,
	clubhouse.Unprocessable:    http.StatusUnprocessableEntity,
}

// RetryAfter is the Retry-After header of an answer to err: the wait the
// error carries (a RetryAfter method, as auth.TooManyAttempts and the
// realtime relay's refusals by a cap have) in whole seconds rounded up;
// 60 for a RateLimited error that carries none; "" for another error that
// carries none.
func RetryAfter(err error) string {
	var r interface{ RetryAfter() time.Duration }
	switch {
	case errors.As(err, &r) && r.RetryAfter() > 0:
		return strconv.FormatInt(int64(math.Ceil(r.RetryAfter().Seconds())), 10)
	case clubhouse.KindOf(err) == clubhouse.RateLimited:
		return "60"
	}
	return ""
}
