package classes

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/eventlog"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
)

var enrollmentErrors = sqldb.Mapping{
	"enrollments_active_key":              ErrAlreadyEnrolled,
	"training_classes_capacity_check":     ErrClassFull,
	"enrollments_client_id_fkey":          clubhouse.ErrInvalidReference.Withf("client_id does not name an existing client."),
	"enrollments_class_id_fkey":           ErrClassNotOpen,
	"payments_enrollment_id_fkey":         clubhouse.ErrInUse.Withf("The enrollment has payments."),
	"enrollment_attendance_pkey":          clubhouse.ErrExists.Withf("That session's attendance is already marked."),
	"enrollments_enrollment_id_fkey":      ErrEnrollmentNotFound,
	"enrollments_attendance_status_check": clubhouse.ErrInvalidData.Withf("attendance_status must be present, absent, late or excused."),
}

// enrollmentSelect reads enrollments with their student, class and latest
// payment.
const enrollmentSelect = `SELECT e.id, e.class_id, e.client_id, cl.user_id, e.status, e.enrolled_at, e.accepted_at, e.rejected_at,
	e.cancelled_at, e.attendance_status, e.attendance_marked_at, e.created_at, e.updated_at,
	CASE WHEN e.status = 'waitlisted' THEN (SELECT count(*) FROM enrollments w WHERE w.class_id = e.class_id
		AND w.status = 'waitlisted' AND (w.waitlisted_at, w.id) <= (e.waitlisted_at, e.id)) END AS waitlist_position,
	c.title AS class_title, c.user_id AS trainer_id, c.single_price AS price,
	cl.id AS "student.id", cl.user_id AS "student.user_id", cl.email AS "student.email", cl.display_name AS "student.display_name",
	cl.first_name AS "student.first_name", cl.last_name AS "student.last_name", cl.phone AS "student.phone",
	coalesce(u.email_verified, false) AS "student.email_verified", cl.created_at AS "student.created_at",
	p.payment_type_id, p.amount AS payment_amount, coalesce(p.transaction_id, p.claimed_transaction_id) AS payment_reference
	FROM enrollments e JOIN training_classes c ON c.id = e.class_id JOIN clients cl ON cl.id = e.client_id
	LEFT JOIN users u ON u.id = cl.user_id
	LEFT JOIN LATERAL (SELECT payment_type_id, amount, transaction_id, claimed_transaction_id FROM payments
		WHERE enrollment_id = e.id ORDER BY date DESC, id DESC LIMIT 1) p ON true`

// EnrollmentFilter selects enrollments: of a class, a trainer's classes, a
// client, with a status (0 and "": any).
type EnrollmentFilter struct {
	ClassID   int64
	TrainerID int64
	ClientID  int64
	Status    string
}

type enrollmentStore struct{}

func (enrollmentStore) list(ctx context.Context, q sqldb.Queryer, f EnrollmentFilter) ([]Enrollment, error) {
	var conds []string
	var args []any
	add := func(cond string, v any) {
		args = append(args, v)
		conds = append(conds, fmt.Sprintf(cond, len(args)))
	}
	if f.ClassID != 0 {
		add("e.class_id = $%d", f.ClassID)
	}
	if f.TrainerID != 0 {
		add("c.user_id = $%d", f.TrainerID)
	}
	if f.ClientID != 0 {
		add("e.client_id = $%d", f.ClientID)
	}
	if f.Status != "" {
		add("e.status = $%d", f.Status)
	}
	query := enrollmentSelect
	if len(conds) > 0 {
		query += " WHERE " + strings.Join(conds, " AND ")
	}
	rows := []Enrollment{}
	if err := q.SelectContext(ctx, &rows, query+" ORDER BY e.enrolled_at, e.id", args...); err != nil {
		return nil, fmt.Errorf("list enrollments: %w", err)
	}
	return rows, nil
}

func (enrollmentStore) get(ctx context.Context, q sqldb.Queryer, id int64) (Enrollment, error) {
	var e Enrollment
	err := q.GetContext(ctx, &e, enrollmentSelect+" WHERE e.id = $1", id)
	return e, sqldb.Map(err, ErrEnrollmentNotFound, nil)
}

// current returns the enrollment with id with its Paid (the sum of its
// completed payments, as payments.Service.EnrollmentsPaid sums it), both
// read on q: as a change in q's transaction leaves it.
func (st enrollmentStore) current(ctx context.Context, q sqldb.Queryer, id int64) (Enrollment, error) {
	e, err := st.get(ctx, q, id)
	if err != nil {
		return Enrollment{}, err
	}
	var paid []decimal.Decimal
	if err := q.SelectContext(ctx, &paid, `SELECT sum(amount - refunded_amount) FROM payments
		WHERE enrollment_id = $1 AND status GROUP BY enrollment_id`, id); err != nil {
		return Enrollment{}, fmt.Errorf("sum enrollment payments: %w", err)
	}
	if len(paid) > 0 {
		e.Paid = paid[0]
	}
	return e, nil
}

// lock locks the enrollment with id and returns its class and status.
func (enrollmentStore) lock(ctx context.Context, q sqldb.Queryer, id int64) (classID int64, status string, err error) {
	var row struct {
		ClassID int64  `db:"class_id"`
		Status  string `db:"status"`
	}
	err = q.GetContext(ctx, &row, `SELECT class_id, status FROM enrollments WHERE id = $1 FOR UPDATE`, id)
	return row.ClassID, row.Status, sqldb.Map(err, ErrEnrollmentNotFound, nil)
}

// insert stores an enrollment of client in class with status, and returns
// its id and the client's login (nil without one), whom its messages are
// for.
func (enrollmentStore) insert(ctx context.Context, q sqldb.Queryer, classID, clientID int64, status string, by *int64) (int64, *int64, error) {
	var row struct {
		ID     int64  `db:"id"`
		UserID *int64 `db:"user_id"`
	}
	err := q.GetContext(ctx, &row, `INSERT INTO enrollments (class_id, client_id, status, waitlisted_at, created_by)
		VALUES ($1, $2, $3, CASE WHEN $3 = 'waitlisted' THEN clock_timestamp() END, $4)
		RETURNING id, (SELECT user_id FROM clients WHERE id = client_id) AS user_id`, classID, clientID, status, by)
	return row.ID, row.UserID, sqldb.Map(err, nil, enrollmentErrors)
}

// setStatus moves the enrollment with id to status, stamping its time.
func (enrollmentStore) setStatus(ctx context.Context, q sqldb.Queryer, id int64, status string) error {
	_, err := q.ExecContext(ctx, `UPDATE enrollments SET status = $2, updated_at = now(),
		waitlisted_at = CASE WHEN $2 = 'waitlisted' THEN coalesce(waitlisted_at, clock_timestamp()) END,
		accepted_at = CASE WHEN $2 = 'accepted' THEN now() ELSE accepted_at END,
		rejected_at = CASE WHEN $2 = 'rejected' THEN now() ELSE rejected_at END,
		cancelled_at = CASE WHEN $2 = 'cancelled' THEN now() ELSE cancelled_at END WHERE id = $1`, id, status)
	return sqldb.Map(err, ErrEnrollmentNotFound, enrollmentErrors)
}

// nextWaiting returns the first enrollment on the waitlist of class, or 0.
func (enrollmentStore) nextWaiting(ctx context.Context, q sqldb.Queryer, classID int64) (int64, error) {
	var ids []int64
	err := q.SelectContext(ctx, &ids, `SELECT id FROM enrollments WHERE class_id = $1 AND status = 'waitlisted'
		ORDER BY waitlisted_at, id LIMIT 1 FOR UPDATE`, classID)
	if err != nil || len(ids) == 0 {
		return 0, err
	}
	return ids[0], nil
}

// fill gives the free places of the class with id to the first on its
// waitlist, in line order, and returns the enrollments it promoted, as
// they are now (current). The
// caller holds the class's row locked, as every change of places does.
func (st enrollmentStore) fill(ctx context.Context, q sqldb.Queryer, classID int64) ([]Enrollment, error) {
	ids := []int64{}
	err := q.SelectContext(ctx, &ids, `SELECT id FROM enrollments WHERE class_id = $1 AND status = 'waitlisted'
		ORDER BY waitlisted_at, id
		LIMIT (SELECT greatest(max_capacity - places_taken, 0) FROM training_classes WHERE id = $1) FOR UPDATE`, classID)
	if err != nil {
		return nil, fmt.Errorf("find waitlist: %w", err)
	}
	out := make([]Enrollment, 0, len(ids))
	for _, id := range ids {
		if err := st.setStatus(ctx, q, id, EnrollmentPending); err != nil {
			return nil, err
		}
		e, err := st.current(ctx, q, id)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}

// places is a class as enrolling reads it.
type places struct {
	Trainer  int64  `db:"user_id"`
	Status   string `db:"status"`
	Capacity int    `db:"max_capacity"`
	Taken    int    `db:"places_taken"`
	Upcoming bool   `db:"upcoming"` // a session of it has not started
}

// class locks the class with id, so that enrollments in it take places
// one after another, and returns its places.
func (enrollmentStore) class(ctx context.Context, q sqldb.Queryer, id int64, now time.Time) (places, error) {
	var p places
	err := q.GetContext(ctx, &p, `SELECT user_id, status, max_capacity, places_taken,
		EXISTS (SELECT 1 FROM class_sessions s WHERE s.class_id = c.id AND s.date + c.start_time > $2) AS upcoming
		FROM training_classes c WHERE id = $1 FOR UPDATE`, id, now)
	return p, sqldb.Map(err, ErrClassNotOpen, nil)
}

// enrolledUsers returns the logins of the clients with active enrollments
// in class.
func (enrollmentStore) enrolledUsers(ctx context.Context, q sqldb.Queryer, classID int64) ([]int64, error) {
	ids := []int64{}
	err := q.SelectContext(ctx, &ids, `SELECT DISTINCT cl.user_id FROM enrollments e JOIN clients cl ON cl.id = e.client_id
		WHERE e.class_id = $1 AND e.status IN ('pending', 'accepted', 'waitlisted') AND cl.user_id IS NOT NULL ORDER BY 1`, classID)
	return ids, err
}

// enrolled returns the enrollments of class that are pending, accepted or
// waitlisted, by id, with only their id, class and client.
func (enrollmentStore) enrolled(ctx context.Context, q sqldb.Queryer, classID int64) ([]Enrollment, error) {
	out := []Enrollment{}
	err := q.SelectContext(ctx, &out, `SELECT id, class_id, client_id FROM enrollments
		WHERE class_id = $1 AND status IN ('pending', 'accepted', 'waitlisted') ORDER BY id`, classID)
	return out, err
}

// of returns the ids of up to eleven enrollments of class, whatever their
// status.
func (enrollmentStore) of(ctx context.Context, q sqldb.Queryer, classID int64) ([]int64, error) {
	ids := []int64{}
	err := q.SelectContext(ctx, &ids, `SELECT id FROM enrollments WHERE class_id = $1 ORDER BY id LIMIT 11`, classID)
	return ids, err
}

// session returns the trainer of class and whether it has a session on
// date.
func (enrollmentStore) session(ctx context.Context, q sqldb.Queryer, classID int64, date time.Time) (trainer int64, ok bool, err error) {
	var row struct {
		Trainer int64 `db:"user_id"`
		OK      bool  `db:"ok"`
	}
	err = q.GetContext(ctx, &row, `SELECT c.user_id, EXISTS (SELECT 1 FROM class_sessions s WHERE s.class_id = c.id AND s.date = $2) AS ok
		FROM training_classes c WHERE c.id = $1`, classID, date)
	return row.Trainer, row.OK, sqldb.Map(err, ErrEnrollmentNotFound, nil)
}

// mark stores the attendance of the enrollment with id on date and makes
// it the enrollment's latest mark.
func (enrollmentStore) mark(ctx context.Context, q sqldb.Queryer, id int64, date time.Time, status string, by *int64) error {
	_, err := q.ExecContext(ctx, `WITH m AS (
			INSERT INTO enrollment_attendance (enrollment_id, date, status, marked_by) VALUES ($1, $2, $3, $4)
			ON CONFLICT (enrollment_id, date) DO UPDATE SET status = EXCLUDED.status, marked_at = now(), marked_by = EXCLUDED.marked_by
			RETURNING marked_at)
		UPDATE enrollments SET attendance_status = $3, attendance_marked_at = (SELECT marked_at FROM m), updated_at = now()
		WHERE id = $1`, id, date, status, by)
	return sqldb.Map(err, ErrEnrollmentNotFound, enrollmentErrors)
}

// enrollNowQuery returns the statement that enrolls the client of the
// user $2 in the class $1, when the class takes enrollments at wall time
// $3 (see enrollNow), and answers as enrolledNow reads. record is a WITH
// part the caller adds (the enrollment's event: enrollNowLogged), over
// made, the new enrollment with its waitlist position.
func enrollNowQuery(record string) string {
	return `WITH cl AS (
		SELECT cl.id, cl.user_id, cl.email, cl.display_name, cl.first_name, cl.last_name, cl.phone, cl.created_at,
			coalesce(u.email_verified, false) AS email_verified
		FROM clients cl LEFT JOIN users u ON u.id = cl.user_id
		WHERE cl.user_id = $2),
	c AS (
		SELECT c.id, c.title, c.user_id, c.single_price, c.max_capacity, c.places_taken, c.waitlisted FROM training_classes c
		WHERE c.id = $1 AND c.status = 'scheduled'
			AND EXISTS (SELECT 1 FROM class_sessions s WHERE s.class_id = c.id AND s.date + c.start_time > $3)
		FOR UPDATE),
	ins AS (
		INSERT INTO enrollments (class_id, client_id, status, waitlisted_at, created_by)
		SELECT c.id, cl.id, CASE WHEN c.places_taken < c.max_capacity THEN 'pending' ELSE 'waitlisted' END,
			CASE WHEN c.places_taken < c.max_capacity THEN NULL ELSE clock_timestamp() END, $2 FROM c, cl
		RETURNING id, class_id, client_id, status, enrolled_at, created_at),
	made AS (
		SELECT ins.*, CASE WHEN ins.status = 'waitlisted' THEN c.waitlisted + 1 END AS waitlist_position FROM ins, c)` + record + `
	SELECT EXISTS (SELECT 1 FROM cl), EXISTS (SELECT 1 FROM c),
		made.id, made.class_id, made.client_id, made.status, made.enrolled_at, made.created_at, made.waitlist_position,
		c.title, c.user_id, c.single_price,
		cl.id, cl.user_id, cl.email, cl.display_name, cl.first_name, cl.last_name, cl.phone, cl.email_verified, cl.created_at
	FROM (SELECT 1) one LEFT JOIN made ON true LEFT JOIN c ON true LEFT JOIN cl ON true`
}

// enrollNowSQL is enrollNowQuery's statement without an event.
var enrollNowSQL = enrollNowQuery("")

// enrollNow enrolls the client of the user with userID in class in one
// statement, when the class takes enrollments (scheduled, with a session
// that has not started at wall time now): pending while a place is free,
// else waitlisted, last in line. The class row is locked for the
// statement only, so that enrollments take places one after another; the
// class's row as the lock gives it, the latest, tells a waitlisted
// enrollment's position (its count of the waitlist, kept by a trigger),
// where a count of the enrollments would read the statement's snapshot,
// which may predate those that committed while it waited for the lock.
// It answers the enrollment as enrollmentSelect reads it. client is false
// when the user has no client record, open false when the class takes no
// enrollments; e is then zero. It runs through sqldb.QueryRow, on the pgx
// pool directly when q is one: enrolling is what a full class's clients
// race to do the minute it opens.
func (enrollmentStore) enrollNow(ctx context.Context, q sqldb.Queryer, classID, userID int64, now time.Time) (e Enrollment, client, open bool, err error) {
	return enrolledNow(sqldb.QueryRow(ctx, q, enrollNowSQL, classID, userID, now))
}

// enrollNowLogged is enrollNow with the enrollment's event ev (its
// payload rendered without what the statement decides: enrollmentDecided)
// written by the same statement, so that the two commit together without
// a transaction, which would hold the class's lock across a round trip.
func (enrollmentStore) enrollNowLogged(ctx context.Context, q sqldb.Queryer, classID, userID int64, now time.Time, ev *eventlog.Encoded) (e Enrollment, client, open bool, err error) {
	insert, more := ev.Insert(4, "made, c, cl")
	args := append([]any{classID, userID, now}, more...)
	return enrolledNow(sqldb.QueryRow(ctx, q, enrollNowQuery(`,
	ev AS (`+insert+`)`), args...))
}

// enrollmentDecided is what the statement that enrolls decides or reads,
// written into the payload of the enrollment's event from its rows (made,
// the class c and the client cl), so that nothing need be read before it:
// the fields of the enrollment as the API shows it that the database fills
// (the id, the status, the time, the place in line) or holds (the client,
// the class, its price), by their names there. httpapi's tests hold the
// two to one shape.
var enrollmentDecided = []eventlog.Decided{{Name: "id", SQL: "made.id"}, {Name: "status", SQL: "made.status"},
	{Name: "enrolled_at", SQL: "made.enrolled_at"}, {Name: "waitlist_position", SQL: "made.waitlist_position"},
	{Name: "client_id", SQL: "cl.id"}, {Name: "user_id", SQL: "cl.user_id"},
	{Name: "price", SQL: "trim_scale(c.single_price)"}, {Name: "is_payment_complete", SQL: "c.single_price <= 0"},
	{Name: "training_class", SQL: "json_build_object('id', c.id, 'title', c.title)"},
	{Name: "student", SQL: `json_build_object('id', cl.id, 'user_id', cl.user_id, 'email', cl.email, 'display_name', cl.display_name,
		'first_name', cl.first_name, 'last_name', cl.last_name, 'phone', cl.phone, 'email_verified', cl.email_verified,
		'created_at', cl.created_at)`}}

// enrollmentRelayed is what the statement that enrolls decides of the
// enrollment's message enrollment:changed (EnrollmentChanged), from its
// rows as for enrollmentDecided: the enrollment's id and status, and the
// rooms of its audience, the staff's and the class's trainer's
// (EnrollmentChanged.Audience); the client, whom it is for, is the login
// the statement enrolls. A message's data begins with its decided members,
// in their order, then has the payload's others: the class, between the id
// and the status in the payload's JSON, is decided too, so that the data
// reads as message encodes the enrollment the statement answers.
var enrollmentRelayed = []eventlog.Decided{{Name: "id", SQL: "made.id"}, {Name: "class_id", SQL: "made.class_id"},
	{Name: "status", SQL: "made.status"},
	{Name: "rooms", SQL: "array_remove(ARRAY['" + clubhouse.RoomPanel + "', '" + clubhouse.RoomTrainer + ":' || c.user_id], NULL)"}}

// enrolledNow reads enrollNowQuery's answer from row, as enrollNow returns
// it.
func enrolledNow(row sqldb.Row) (e Enrollment, client, open bool, err error) {
	var (
		id, classRef, clientID, trainer, studentID sql.NullInt64
		status, title, first, last                 sql.NullString
		enrolledAt, createdAt, studentCreatedAt    sql.NullTime
		verified                                   sql.NullBool
		price                                      decimal.NullDecimal
	)
	err = row.Scan(&client, &open,
		&id, &classRef, &clientID, &status, &enrolledAt, &createdAt, &e.WaitlistPosition, &title, &trainer, &price,
		&studentID, &e.Student.UserID, &e.Student.Email, &e.Student.DisplayName, &first, &last, &e.Student.Phone, &verified, &studentCreatedAt)
	if err != nil || !id.Valid {
		return Enrollment{}, client, open, sqldb.Map(err, nil, enrollmentErrors)
	}
	e.ID, e.ClassID, e.ClientID, e.UserID, e.Status = id.Int64, classRef.Int64, clientID.Int64, e.Student.UserID, status.String
	e.EnrolledAt, e.CreatedAt, e.UpdatedAt = enrolledAt.Time, createdAt.Time, createdAt.Time // both default to now()
	e.ClassTitle, e.TrainerID, e.Price = title.String, trainer.Int64, price.Decimal
	e.Student.ClientID, e.Student.FirstName, e.Student.LastName = studentID.Int64, first.String, last.String
	e.Student.EmailVerified, e.Student.CreatedAt = verified.Bool, studentCreatedAt.Time
	return e, client, open, nil
}

// classOf returns the class of the enrollment with id, which never changes.
func (enrollmentStore) classOf(ctx context.Context, q sqldb.Queryer, id int64) (int64, error) {
	var classID int64
	err := q.GetContext(ctx, &classID, `SELECT class_id FROM enrollments WHERE id = $1`, id)
	return classID, sqldb.Map(err, ErrEnrollmentNotFound, nil)
}

// active returns the active enrollment of client in class.
func (enrollmentStore) active(ctx context.Context, q sqldb.Queryer, classID, clientID int64) (int64, error) {
	var id int64
	err := q.GetContext(ctx, &id, `SELECT id FROM enrollments WHERE class_id = $1 AND client_id = $2
		AND status IN ('pending', 'accepted', 'waitlisted')`, classID, clientID)
	return id, sqldb.Map(err, ErrEnrollmentNotFound, nil)
}
