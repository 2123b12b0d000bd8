package classes

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/pricing"
)

// Errors of classes.
var (
	ErrClassNotFound = clubhouse.Errorf(clubhouse.NotFound, "not found", "The class does not exist.")
	ErrNotTrainer    = clubhouse.ErrInvalidReference.Sub("invalid reference", "user_id must name a user with the trainer role.")
	ErrNoTariff      = clubhouse.ErrInvalidReference.Sub("invalid reference",
		"No class tariff prices this court's type and reservation type; create one at /api/admin/tariff-classes first.")
	ErrClassEnded = clubhouse.Errorf(clubhouse.Conflict, "conflict", "Only a scheduled class changes; this one has ended.")
	// ErrClassNotStarted is returned when a class is completed before its
	// first session has started, as tickets.ErrEventNotStarted is for an
	// event: its students would be told nothing.
	ErrClassNotStarted = clubhouse.Errorf(clubhouse.Conflict, "class not started",
		"A class is completed once its first session has started; cancel it instead.")
)

// errNoCourt is the refusal of a court_id that names no court.
var errNoCourt = clubhouse.ErrInvalidReference.Withf("court_id does not name an existing court.")

var classErrors = sqldb.Mapping{
	"training_classes_user_id_fkey":    ErrNotTrainer,
	"training_classes_court_id_fkey":   errNoCourt,
	"training_classes_class_type_fkey": ErrNotClassType,
	"training_classes_capacity_check": ErrClassFull.Withf(
		"The class's enrollments hold more places than the class tariff of its new court type and reservation type offers; remove some first."),
}

// classSelect reads classes with their names and the places taken.
const classSelect = `SELECT c.id, c.user_id, c.court_id, c.reservation_type_id, c.title, c.description, c.start_date, c.end_date,
	to_json(c.recurrence_days) AS days, to_char(c.start_time, 'HH24:MI') AS start_clock, to_char(c.end_time, 'HH24:MI') AS end_clock,
	c.single_price, c.total_price, c.max_capacity, c.status, c.completed_at, c.cancelled_at, c.created_by, c.created_at, c.updated_at,
	coalesce(nullif(btrim(u.display_name), ''), u.email, u.local_id) AS trainer_name, co.name AS court_name, co.court_type_id,
	rt.name AS reservation_type_name, c.places_taken AS enrolled_count
	FROM training_classes c JOIN users u ON u.id = c.user_id JOIN courts co ON co.id = c.court_id
	JOIN reservation_types rt ON rt.id = c.reservation_type_id`

// classRow is a class as classSelect reads it.
type classRow struct {
	Class
	DaysJSON   []byte `db:"days"`
	StartClock string `db:"start_clock"`
	EndClock   string `db:"end_clock"`
}

func (r classRow) class() (Class, error) {
	c := r.Class
	if err := json.Unmarshal(r.DaysJSON, &c.Days); err != nil {
		return Class{}, fmt.Errorf("read recurrence_days: %w", err)
	}
	var err error
	if c.StartTime, err = pricing.ParseTimeOfDay("start_time", r.StartClock); err != nil {
		return Class{}, err
	}
	if c.EndTime, err = pricing.ParseTimeOfDay("end_time", r.EndClock); err != nil {
		return Class{}, err
	}
	return c, nil
}

// ClassFilter selects classes: a trainer, a status, the classes running
// on some date from From to To (zero: open), and a reservation type
// (0 and "": any).
type ClassFilter struct {
	TrainerID         int64
	Status            string
	From, To          time.Time
	ReservationTypeID int64
}

type classStore struct{}

func (s classStore) list(ctx context.Context, q sqldb.Queryer, f ClassFilter) ([]Class, error) {
	var conds []string
	var args []any
	add := func(cond string, v any) {
		args = append(args, v)
		conds = append(conds, fmt.Sprintf(cond, len(args)))
	}
	if f.TrainerID != 0 {
		add("c.user_id = $%d", f.TrainerID)
	}
	if f.Status != "" {
		add("c.status = $%d", f.Status)
	}
	if !f.From.IsZero() {
		add("c.end_date >= $%d", f.From)
	}
	if !f.To.IsZero() {
		add("c.start_date <= $%d", f.To)
	}
	if f.ReservationTypeID != 0 {
		add("c.reservation_type_id = $%d", f.ReservationTypeID)
	}
	query := classSelect
	if len(conds) > 0 {
		query += " WHERE " + strings.Join(conds, " AND ")
	}
	var rows []classRow
	if err := q.SelectContext(ctx, &rows, query+" ORDER BY c.start_date, c.start_time, c.id", args...); err != nil {
		return nil, fmt.Errorf("list classes: %w", err)
	}
	out := make([]Class, 0, len(rows))
	for _, r := range rows {
		c, err := r.class()
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, s.sessions(ctx, q, out)
}

func (s classStore) get(ctx context.Context, q sqldb.Queryer, id int64, lock bool) (Class, error) {
	var r classRow
	query := classSelect + " WHERE c.id = $1"
	if lock {
		query += " FOR UPDATE OF c"
	}
	if err := q.GetContext(ctx, &r, query, id); err != nil {
		return Class{}, sqldb.Map(err, ErrClassNotFound, nil)
	}
	c, err := r.class()
	if err != nil {
		return Class{}, err
	}
	out := []Class{c}
	if err := s.sessions(ctx, q, out); err != nil {
		return Class{}, err
	}
	return out[0], nil
}

// sessions reads the sessions of classes, in one query.
func (classStore) sessions(ctx context.Context, q sqldb.Queryer, classes []Class) error {
	if len(classes) == 0 {
		return nil
	}
	ids := make([]int64, len(classes))
	at := make(map[int64]int, len(classes))
	for i, c := range classes {
		ids[i], at[c.ID] = c.ID, i
		classes[i].Sessions = []Session{}
	}
	var rows []struct {
		ClassID int64 `db:"class_id"`
		Session
	}
	if err := q.SelectContext(ctx, &rows, `SELECT class_id, date, reservation_id FROM class_sessions
		WHERE class_id = ANY($1) ORDER BY class_id, date`, ids); err != nil {
		return fmt.Errorf("read class sessions: %w", err)
	}
	for _, r := range rows {
		i := at[r.ClassID]
		classes[i].Sessions = append(classes[i].Sessions, r.Session)
	}
	var marks []struct {
		ClassID int64     `db:"class_id"`
		Date    time.Time `db:"date"`
		Status  string    `db:"status"`
		N       int       `db:"n"`
	}
	if err := q.SelectContext(ctx, &marks, `SELECT e.class_id, a.date, a.status, count(*) AS n
		FROM enrollment_attendance a JOIN enrollments e ON e.id = a.enrollment_id
		WHERE e.class_id = ANY($1) GROUP BY 1, 2, 3`, ids); err != nil {
		return fmt.Errorf("read attendance: %w", err)
	}
	counts := map[int64]map[time.Time]*Attendance{}
	for i, c := range classes {
		counts[c.ID] = map[time.Time]*Attendance{}
		classes[i].Attendance = make([]Attendance, len(c.Sessions))
		for j, s := range classes[i].Sessions {
			classes[i].Attendance[j].Date = s.Date
			counts[c.ID][s.Date] = &classes[i].Attendance[j]
		}
	}
	for _, m := range marks {
		a := counts[m.ClassID][m.Date]
		if a == nil {
			continue
		}
		switch m.Status {
		case AttendancePresent:
			a.Present = m.N
		case AttendanceAbsent:
			a.Absent = m.N
		case AttendanceLate:
			a.Late = m.N
		case AttendanceExcused:
			a.Excused = m.N
		}
	}
	return nil
}

// isTrainer reports whether the user with id exists and has the trainer
// role.
func (classStore) isTrainer(ctx context.Context, q sqldb.Queryer, id int64) (bool, error) {
	var ok bool
	err := q.GetContext(ctx, &ok, `SELECT EXISTS (SELECT 1 FROM users WHERE id = $1 AND trainer)`, id)
	return ok, err
}

// tariff returns the class tariff of the court's type and the reservation
// type. Errors: errNoCourt for an unknown court, ErrNoTariff.
func (classStore) tariff(ctx context.Context, q sqldb.Queryer, courtID, typeID int64) (Tariff, error) {
	var rows []Tariff
	err := q.SelectContext(ctx, &rows, tariffSelect+` JOIN courts co ON co.court_type_id = t.court_type_id
		WHERE co.id = $1 AND t.reservation_type_id = $2`, courtID, typeID)
	if err != nil {
		return Tariff{}, fmt.Errorf("find class tariff: %w", err)
	}
	if len(rows) > 0 {
		return rows[0], nil
	}
	var court bool
	if err := q.GetContext(ctx, &court, `SELECT EXISTS (SELECT 1 FROM courts WHERE id = $1)`, courtID); err != nil {
		return Tariff{}, fmt.Errorf("find court: %w", err)
	}
	if !court {
		return Tariff{}, errNoCourt
	}
	return Tariff{}, ErrNoTariff
}

func (s classStore) save(ctx context.Context, q sqldb.Queryer, c Class) (int64, error) {
	days, err := json.Marshal(c.Days)
	if err != nil {
		return 0, err
	}
	args := []any{c.UserID, c.CourtID, c.ReservationTypeID, c.Title, c.Description, c.StartDate, c.EndDate, string(days),
		c.StartTime.String(), c.EndTime.String(), c.SinglePrice, c.TotalPrice, c.MaxCapacity}
	var id int64
	if c.ID == 0 {
		err = q.GetContext(ctx, &id, `INSERT INTO training_classes (user_id, court_id, reservation_type_id, title, description,
			start_date, end_date, recurrence_days, start_time, end_time, single_price, total_price, max_capacity, created_by)
			SELECT $1, $2, $3, $4, $5, $6, $7, ARRAY(SELECT jsonb_array_elements_text($8::jsonb)::smallint), $9, $10, $11, $12, $13, $14
			RETURNING id`, append(args, c.CreatedBy)...)
	} else {
		err = q.GetContext(ctx, &id, `UPDATE training_classes SET user_id = $1, court_id = $2, reservation_type_id = $3, title = $4,
			description = $5, start_date = $6, end_date = $7, recurrence_days = ARRAY(SELECT jsonb_array_elements_text($8::jsonb)::smallint),
			start_time = $9, end_time = $10, single_price = $11, total_price = $12, max_capacity = $13, updated_at = now()
			WHERE id = $14 RETURNING id`, append(args, c.ID)...)
	}
	return id, sqldb.Map(err, ErrClassNotFound, classErrors)
}

// setStatus moves the class with id to status, stamping its time.
func (classStore) setStatus(ctx context.Context, q sqldb.Queryer, id int64, status string) error {
	_, err := q.ExecContext(ctx, `UPDATE training_classes SET status = $2, updated_at = now(),
		completed_at = CASE WHEN $2 = 'completed' THEN now() END,
		cancelled_at = CASE WHEN $2 = 'cancelled' THEN now() END WHERE id = $1`, id, status)
	return err
}

func (classStore) delete(ctx context.Context, q sqldb.Queryer, id int64) error {
	_, err := q.ExecContext(ctx, `DELETE FROM training_classes WHERE id = $1`, id)
	return err
}

// addSessions stores sessions of the class with id.
func (classStore) addSessions(ctx context.Context, q sqldb.Queryer, id int64, sessions []Session) error {
	if len(sessions) == 0 {
		return nil
	}
	dates := make([]time.Time, len(sessions))
	res := make([]*int64, len(sessions))
	for i, s := range sessions {
		dates[i], res[i] = s.Date, s.ReservationID
	}
	_, err := q.ExecContext(ctx, `INSERT INTO class_sessions (class_id, date, reservation_id)
		SELECT $1, d, r FROM unnest($2::date[], $3::bigint[]) AS s (d, r)`, id, dates, res)
	return err
}

// freeSessions sets the booking of the sessions of the class with id on
// dates to null, and returns the bookings they held.
func (classStore) freeSessions(ctx context.Context, q sqldb.Queryer, id int64, dates []time.Time) ([]int64, error) {
	ids := []int64{}
	if len(dates) == 0 {
		return ids, nil
	}
	err := q.SelectContext(ctx, &ids, `UPDATE class_sessions s SET reservation_id = NULL
		FROM class_sessions old WHERE old.class_id = s.class_id AND old.date = s.date
		AND s.class_id = $1 AND s.date = ANY($2) AND old.reservation_id IS NOT NULL
		RETURNING old.reservation_id`, id, dates)
	return ids, err
}

// dropSessions deletes the sessions of the class with id on dates.
func (classStore) dropSessions(ctx context.Context, q sqldb.Queryer, id int64, dates []time.Time) error {
	if len(dates) == 0 {
		return nil
	}
	_, err := q.ExecContext(ctx, `DELETE FROM class_sessions WHERE class_id = $1 AND date = ANY($2)`, id, dates)
	return err
}
