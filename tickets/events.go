package tickets

import (
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
)

// Events are the operator's events and their participants.
type Events struct {
	db       *sqlx.DB
	zone     *time.Location
	now      func() time.Time
	events   clubhouse.Publisher
	bookings *booking.Bookings
}
