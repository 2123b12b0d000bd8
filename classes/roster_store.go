package classes

import (
	"context"
	"fmt"
	"time"

	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
)

// marks returns the marks of the session of the class with id on date,
// by enrollment id.
func (enrollmentStore) marks(ctx context.Context, q sqldb.Queryer, classID int64, date time.Time) (map[int64]string, error) {
	var rows []struct {
		ID     int64  `db:"enrollment_id"`
		Status string `db:"status"`
	}
	if err := q.SelectContext(ctx, &rows, `SELECT a.enrollment_id, a.status FROM enrollment_attendance a
		JOIN enrollments e ON e.id = a.enrollment_id WHERE e.class_id = $1 AND a.date = $2`, classID, date); err != nil {
		return nil, fmt.Errorf("read the session's attendance: %w", err)
	}
	marks := make(map[int64]string, len(rows))
	for _, r := range rows {
		marks[r.ID] = r.Status
	}
	return marks, nil
}
