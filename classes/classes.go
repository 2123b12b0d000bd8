package classes

import (
	"github.com/jmoiron/sqlx"
)

// Options are what New needs besides the database.
type Options struct{}

// Services are the services of training classes.
type Services struct {
	Tariffs *Tariffs
}

// New returns the class services over db.
func New(db *sqlx.DB, _ Options) *Services {
	return &Services{Tariffs: &Tariffs{db: db}}
}
