package classes

import (
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse/booking"
)

// Options are what New needs besides the database.
type Options struct {
	Zone     *time.Location    // the club's time zone; nil: UTC
	Now      func() time.Time  // nil: time.Now
	Bookings *booking.Bookings // books the courts of the sessions; required for Classes
}

// Services are the services of training classes.
type Services struct {
	Tariffs *Tariffs
	Classes *Classes
}

// New returns the class services over db.
func New(db *sqlx.DB, o Options) *Services {
	if o.Zone == nil {
		o.Zone = time.UTC
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return &Services{
		Tariffs: &Tariffs{db: db},
		Classes: &Classes{db: db, zone: o.Zone, now: o.Now, bookings: o.Bookings},
	}
}
