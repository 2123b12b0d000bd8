package classes

import (
	"context"
	"fmt"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
)

// A trainer's students are the clients with an active enrollment (pending,
// accepted or waitlisted) in one of their classes; a trainer's clients are
// their students and the clients they created. Staff see the students of
// every class.

// ErrStudentNotFound is returned for a client who is not one of the
// trainer's students (or clients).
var ErrStudentNotFound = clubhouse.Errorf(clubhouse.NotFound, "not found", "The client is not one of your students or clients.")

const studentSelect = `SELECT cl.id, cl.user_id, cl.email, cl.display_name, cl.first_name, cl.last_name, cl.phone,
	coalesce(u.email_verified, false) AS email_verified, cl.created_at
	FROM clients cl LEFT JOIN users u ON u.id = cl.user_id
	WHERE cl.id IN (SELECT e.client_id FROM enrollments e JOIN training_classes c ON c.id = e.class_id
		WHERE e.status IN ('pending', 'accepted', 'waitlisted') AND ($1 = 0 OR c.user_id = $1))`

// students returns the students of trainer (0: of every class), by name.
func (enrollmentStore) students(ctx context.Context, q sqldb.Queryer, trainer int64) ([]Student, error) {
	rows := []Student{}
	if err := q.SelectContext(ctx, &rows, studentSelect+` ORDER BY cl.last_name, cl.first_name, cl.id`, trainer); err != nil {
		return nil, fmt.Errorf("list students: %w", err)
	}
	return rows, nil
}

// visible reports whether trainer may see the client with id: a student
// of theirs, or a client they created.
func (enrollmentStore) visible(ctx context.Context, q sqldb.Queryer, trainer, id int64) (bool, error) {
	var ok bool
	err := q.GetContext(ctx, &ok, `SELECT EXISTS (SELECT 1 FROM clients cl WHERE cl.id = $2 AND (cl.created_by = $1
		OR EXISTS (SELECT 1 FROM enrollments e JOIN training_classes c ON c.id = e.class_id
			WHERE e.client_id = cl.id AND c.user_id = $1 AND e.status IN ('pending', 'accepted', 'waitlisted'))))`, trainer, id)
	return ok, err
}

// Students returns the students of by's classes, by name (staff: of every
// class). Errors: clubhouse.ErrForbidden.
func (s *Enrollments) Students(ctx context.Context, by clubhouse.Actor) ([]Student, error) {
	trainer, err := scope(by)
	if err != nil {
		return nil, err
	}
	return s.store.students(ctx, s.db, trainer)
}

// Student returns the student with client id. Errors:
// clubhouse.ErrForbidden, ErrStudentNotFound.
func (s *Enrollments) Student(ctx context.Context, by clubhouse.Actor, id int64) (Student, error) {
	rows, err := s.Students(ctx, by)
	if err != nil {
		return Student{}, err
	}
	for _, st := range rows {
		if st.ClientID == id {
			return st, nil
		}
	}
	return Student{}, ErrStudentNotFound
}

// Clients returns the clients by sees in the trainer area: their students
// and the clients they created, in id order (staff: the students of every
// class and the clients they created). Errors: clubhouse.ErrForbidden.
func (s *Enrollments) Clients(ctx context.Context, by clubhouse.Actor) ([]booking.Client, error) {
	students, err := s.Students(ctx, by)
	if err != nil {
		return nil, err
	}
	ids := make([]int64, len(students))
	for i, st := range students {
		ids[i] = st.ClientID
	}
	return s.clients.CreatedBy(ctx, by, by.UserID, ids)
}

// Client returns one of the clients by sees in the trainer area. Errors:
// clubhouse.ErrForbidden, ErrStudentNotFound.
func (s *Enrollments) Client(ctx context.Context, by clubhouse.Actor, id int64) (booking.Client, error) {
	rows, err := s.Clients(ctx, by)
	if err != nil {
		return booking.Client{}, err
	}
	for _, c := range rows {
		if c.ID == id {
			return c, nil
		}
	}
	return booking.Client{}, ErrStudentNotFound
}
