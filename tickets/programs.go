package tickets

import (
	"time"

	"github.com/jmoiron/sqlx"
)

// Programs are the ticket programs and their packages.
type Programs struct {
	db   *sqlx.DB
	zone *time.Location
	now  func() time.Time
}
