package booking

import (
	"context"
	"fmt"
	"time"

	"github.com/clubhouse-go/clubhouse"
)

// Dashboard are the club's counts for the admin dashboard.
type Dashboard struct {
	Clients           int `db:"clients"`
	ClientsVerified   int `db:"clients_verified"`
	Courts            int `db:"courts"`
	Reservations      int `db:"reservations"`
	ReservationsToday int `db:"reservations_today"`
	ReservationsWeek  int `db:"reservations_week"`
	ReservationsMonth int `db:"reservations_month"`
	Recent            []Reservation
}

// Dashboard counts clients (verified: their user confirmed the email),
// courts and bookings: all, starting today, this week (from Monday) and
// this month, by the club's wall date, leaving out the cancelled ones; and
// lists the latest bookings made, cancelled ones included.
func (b *Bookings) Dashboard(ctx context.Context, by clubhouse.Actor, recent int) (Dashboard, error) {
	if err := by.RequirePanel(); err != nil {
		return Dashboard{}, err
	}
	today := b.Now().Truncate(24 * time.Hour)
	week := today.AddDate(0, 0, -((int(today.Weekday()) + 6) % 7))
	month := time.Date(today.Year(), today.Month(), 1, 0, 0, 0, 0, time.UTC)
	var d Dashboard
	err := b.db.GetContext(ctx, &d, `SELECT
		(SELECT count(*) FROM clients) AS clients,
		(SELECT count(*) FROM clients c JOIN users u ON u.id = c.user_id WHERE u.email_verified) AS clients_verified,
		(SELECT count(*) FROM courts) AS courts,
		(SELECT count(*) FROM reservations WHERE cancelled_at IS NULL) AS reservations,
		(SELECT count(*) FROM reservations WHERE cancelled_at IS NULL AND checking >= $1 AND checking < $1 + interval '1 day') AS reservations_today,
		(SELECT count(*) FROM reservations WHERE cancelled_at IS NULL AND checking >= $2 AND checking < $2 + interval '7 days') AS reservations_week,
		(SELECT count(*) FROM reservations WHERE cancelled_at IS NULL AND checking >= $3 AND checking < $3 + interval '1 month') AS reservations_month`,
		today, week, month)
	if err != nil {
		return Dashboard{}, fmt.Errorf("dashboard: %w", err)
	}
	d.Recent = []Reservation{}
	err = b.db.SelectContext(ctx, &d.Recent, reservationSelect+` ORDER BY r.created_at DESC, r.id DESC LIMIT $1`, recent)
	if err != nil {
		return Dashboard{}, fmt.Errorf("dashboard: %w", err)
	}
	return d, nil
}
