package classes

import (
	"context"
	"fmt"

	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse"
)

// Dashboard are a trainer's figures: their classes by status, their
// students, the enrollments waiting for a decision or a place, how often
// students attend, and what each class has earned.
type Dashboard struct {
	Scheduled, Completed, Cancelled int
	Students                        int
	Pending, Waitlisted             int
	// AttendanceRate is the share of the marks that are present or late,
	// from 0 to 1 with four decimals; nil before any mark.
	AttendanceRate *decimal.Decimal
	Income         []ClassIncome // by class, in class order
}

// ClassIncome is what a class's enrollments paid (completed payments) and
// what they reported and is not validated yet (pending ones).
type ClassIncome struct {
	ClassID int64           `db:"class_id"`
	Title   string          `db:"title"`
	Paid    decimal.Decimal `db:"paid"`
	Pending decimal.Decimal `db:"pending"`
}

// Dashboard returns by's figures (staff: of every class). Errors:
// clubhouse.ErrForbidden.
func (s *Enrollments) Dashboard(ctx context.Context, by clubhouse.Actor) (Dashboard, error) {
	trainer, err := scope(by)
	if err != nil {
		return Dashboard{}, err
	}
	var row struct {
		Scheduled  int `db:"scheduled"`
		Completed  int `db:"completed"`
		Cancelled  int `db:"cancelled"`
		Students   int `db:"students"`
		Pending    int `db:"pending"`
		Waitlisted int `db:"waitlisted"`
		Attended   int `db:"attended"`
		Marks      int `db:"marks"`
	}
	err = s.db.GetContext(ctx, &row, `WITH c AS (SELECT * FROM training_classes WHERE $1 = 0 OR user_id = $1),
		e AS (SELECT e.* FROM enrollments e JOIN c ON c.id = e.class_id)
		SELECT (SELECT count(*) FROM c WHERE status = 'scheduled') AS scheduled,
			(SELECT count(*) FROM c WHERE status = 'completed') AS completed,
			(SELECT count(*) FROM c WHERE status = 'cancelled') AS cancelled,
			(SELECT count(DISTINCT client_id) FROM e WHERE status IN ('pending', 'accepted', 'waitlisted')) AS students,
			(SELECT count(*) FROM e WHERE status = 'pending') AS pending,
			(SELECT count(*) FROM e WHERE status = 'waitlisted') AS waitlisted,
			(SELECT count(*) FROM enrollment_attendance a JOIN e ON e.id = a.enrollment_id WHERE a.status IN ('present', 'late')) AS attended,
			(SELECT count(*) FROM enrollment_attendance a JOIN e ON e.id = a.enrollment_id) AS marks`, trainer)
	if err != nil {
		return Dashboard{}, fmt.Errorf("trainer dashboard: %w", err)
	}
	d := Dashboard{Scheduled: row.Scheduled, Completed: row.Completed, Cancelled: row.Cancelled, Students: row.Students,
		Pending: row.Pending, Waitlisted: row.Waitlisted, Income: []ClassIncome{}}
	if row.Marks > 0 {
		rate := decimal.NewFromInt(int64(row.Attended)).DivRound(decimal.NewFromInt(int64(row.Marks)), 4)
		d.AttendanceRate = &rate
	}
	err = s.db.SelectContext(ctx, &d.Income, `SELECT c.id AS class_id, c.title,
			coalesce(sum(p.amount - p.refunded_amount) FILTER (WHERE p.status), 0) AS paid,
			coalesce(sum(p.amount) FILTER (WHERE NOT p.status AND p.status_detail = 'pending'), 0) AS pending
		FROM training_classes c LEFT JOIN enrollments e ON e.class_id = c.id LEFT JOIN payments p ON p.enrollment_id = e.id
		WHERE $1 = 0 OR c.user_id = $1 GROUP BY c.id ORDER BY c.id`, trainer)
	if err != nil {
		return Dashboard{}, fmt.Errorf("trainer income: %w", err)
	}
	return d, nil
}
