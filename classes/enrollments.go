package classes

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/eventlog"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/mail"
	"github.com/clubhouse-go/clubhouse/payments"
)

// Enrollments manages clients' places in classes, their waitlists and the
// payment claims made when enrolling.
//
// Whose enrollment it is, is decided here: staff see and change all; a
// trainer those of their own classes (others are ErrEnrollmentNotFound);
// a client sees their own (Mine) and enrolls themselves (Enroll).
type Enrollments struct {
	db       *sqlx.DB
	direct   *sqldb.DB // db, with the pgx pool it runs on for the client's enrollment
	zone     *time.Location
	now      func() time.Time
	clients  *booking.Clients
	payments *payments.Service
	mail     *mail.Outbox
	log      *eventlog.Log
	store    enrollmentStore
}

func (s *Enrollments) wallNow() time.Time { return booking.Wall(s.now().In(s.zone)) }

// Enroll enrolls by's own client in the class with id, with its claims of
// payment (each pending until staff validate it or the gateway confirms
// it), in one transaction. The enrollment is pending while the class has
// a place and waitlisted when it is full.
//
// Errors: booking.ErrNoClient for an actor without a client record;
// ErrClassNotOpen for an unknown class, one not scheduled or one whose
// sessions have all started; ErrAlreadyEnrolled; the claims' errors (see
// payments.Service.ClaimEnrollment).
func (s *Enrollments) Enroll(ctx context.Context, by clubhouse.Actor, classID int64, claims []payments.Input) (Enrollment, error) {
	if by.UserID == 0 {
		return Enrollment{}, booking.ErrNoClient
	}
	if len(claims) == 0 {
		return s.enrollNow(ctx, by, classID)
	}
	client, err := s.clients.Own(ctx, by)
	if errors.Is(err, booking.ErrClientNotFound) {
		return Enrollment{}, booking.ErrNoClient
	}
	if err != nil {
		return Enrollment{}, err
	}
	return s.enroll(ctx, by, 0, classID, client.ID, claims)
}

// Add enrolls the client with clientID in the class with classID for
// staff or the class's trainer, as Enroll does without claims; a trainer
// enrolls only the clients they see (their students and the clients they
// created). Errors: clubhouse.ErrForbidden; ErrClassNotOpen as for Enroll,
// and for another trainer's class; ErrAlreadyEnrolled; ErrStudentNotFound
// for a client the trainer does not see (an unknown one among them); for
// staff, an Invalid error for an unknown client.
func (s *Enrollments) Add(ctx context.Context, by clubhouse.Actor, classID, clientID int64) (Enrollment, error) {
	trainer, err := scope(by)
	if err != nil {
		return Enrollment{}, err
	}
	if clientID < 1 {
		return Enrollment{}, clubhouse.ErrInvalidReference.Withf("client_id must name a client.")
	}
	return s.enroll(ctx, by, trainer, classID, clientID, nil)
}

func (s *Enrollments) enroll(ctx context.Context, by clubhouse.Actor, trainer, classID, clientID int64, claims []payments.Input) (Enrollment, error) {
	var out Enrollment
	var creator *int64
	if by.UserID != 0 {
		creator = &by.UserID
	}
	err := sqldb.Transact(ctx, s.db, func(tx *sqlx.Tx) error {
		c, err := s.store.class(ctx, tx, classID, s.wallNow())
		if err != nil {
			return err
		}
		if c.Status != StatusScheduled || !c.Upcoming || trainer != 0 && c.Trainer != trainer {
			return ErrClassNotOpen
		}
		if trainer != 0 {
			ok, err := s.store.visible(ctx, tx, trainer, clientID)
			if err != nil {
				return err
			}
			if !ok {
				return ErrStudentNotFound
			}
		}
		status := EnrollmentPending
		if c.Taken >= c.Capacity {
			status = EnrollmentWaitlisted
		}
		id, user, err := s.store.insert(ctx, tx, classID, clientID, status, creator)
		if err != nil {
			return err
		}
		msg := EnrollmentChanged{ID: id, ClassID: classID, Status: status, UserID: user, TrainerID: c.Trainer}
		var paid []payments.Payment
		if len(claims) > 0 {
			e, err := s.store.get(ctx, tx, id)
			if err != nil {
				return err
			}
			if paid, err = s.payments.ClaimEnrollment(ctx, tx, id, e.Amount().Debt(), claims); err != nil {
				return err
			}
		}
		// Read under the class's lock, its waitlist position is final. Its
		// claims are pending, so Paid stays zero without asking. Its event
		// comes before its claims', which name it.
		if out, err = s.store.get(ctx, tx, id); err != nil {
			return err
		}
		if err := s.log.Record(ctx, tx, eventlog.Entries(EventEnrollmentCreated, by.Name(), out)...); err != nil {
			return err
		}
		if err := s.payments.RecordClaims(ctx, tx, paid...); err != nil {
			return err
		}
		return s.log.Announce(ctx, tx, eventlog.Message{Topic: TopicEnrollment, Payload: msg})
	})
	if err != nil {
		return Enrollment{}, fmt.Errorf("enroll: %w", err)
	}
	return out, nil
}

// enrollNow enrolls by's client without claims: the common case, one
// statement that holds the class's row only while it runs. With a log,
// the statement writes the enrollment's event and its message too
// (enrollLogged), unless ctx carries commit hooks, which run in a
// transaction of database/sql's that records both.
func (s *Enrollments) enrollNow(ctx context.Context, by clubhouse.Actor, classID int64) (Enrollment, error) {
	var e Enrollment
	enroll := func(q sqldb.Queryer) error {
		var client, open bool
		var err error
		e, client, open, err = s.store.enrollNow(ctx, q, classID, by.UserID, s.wallNow())
		return enrolledErr(client, open, err)
	}
	var err error
	switch {
	case s.log == nil:
		err = s.direct.Atomic(ctx, enroll)
	case sqldb.HasHooks(ctx, s.db):
		err = sqldb.Transact(ctx, s.db, func(tx *sqlx.Tx) error {
			if err := enroll(tx); err != nil {
				return err
			}
			if err := s.log.Record(ctx, tx, eventlog.Entries(EventEnrollmentCreated, by.Name(), e)...); err != nil {
				return err
			}
			return s.log.Announce(ctx, tx, relay(TopicEnrollment, e))
		})
	default:
		e, err = s.enrollLogged(ctx, by, classID)
	}
	if err != nil {
		return Enrollment{}, fmt.Errorf("enroll: %w", err)
	}
	return e, nil
}

// enrollLogged is enrollNow with a log: the event's payload and the
// message's are rendered from what is known before (the class, the client's
// login), the statement that enrolls fills in the rest (enrollmentDecided,
// enrollmentRelayed) and writes them, holding the class's lock only while
// it runs.
func (s *Enrollments) enrollLogged(ctx context.Context, by clubhouse.Actor, classID int64) (Enrollment, error) {
	ev, err := s.log.Encode(eventlog.Entry{Type: EventEnrollmentCreated, Actor: by.Name(), Payload: Enrollment{ClassID: classID}},
		enrollmentDecided...)
	if err != nil {
		return Enrollment{}, err
	}
	// The client is the one whose login by is (enrollNowQuery), whom the
	// message is for.
	m := eventlog.Message{Topic: TopicEnrollment, Payload: EnrollmentChanged{ClassID: classID, UserID: &by.UserID}}
	if err := ev.Relay(m, enrollmentRelayed...); err != nil {
		return Enrollment{}, err
	}
	e, client, open, err := s.store.enrollNowLogged(ctx, s.direct, classID, by.UserID, s.wallNow(), ev)
	return e, enrolledErr(client, open, err)
}

// enrolledErr is the error of enrollNow's answer: err, or the refusal
// that client and open tell of.
func enrolledErr(client, open bool, err error) error {
	switch {
	case err != nil:
		return err
	case !client:
		return booking.ErrNoClient
	case !open:
		return ErrClassNotOpen
	}
	return nil
}

// List returns the enrollments that match f and that by may see, in the
// order they were made. Errors: clubhouse.ErrForbidden, ErrInvalidQuery for
// an unknown status.
func (s *Enrollments) List(ctx context.Context, by clubhouse.Actor, f EnrollmentFilter) ([]Enrollment, error) {
	trainer, err := scope(by)
	if err != nil {
		return nil, err
	}
	switch f.Status {
	case "", EnrollmentPending, EnrollmentAccepted, EnrollmentWaitlisted, EnrollmentRejected, EnrollmentCancelled:
	default:
		return nil, clubhouse.ErrInvalidQuery.Withf("status must be pending, accepted, waitlisted, rejected or cancelled, not %q.", f.Status)
	}
	if trainer != 0 {
		f.TrainerID = trainer
	}
	rows, err := s.store.list(ctx, s.db, f)
	return s.withPaid(ctx, rows, err)
}

// Mine returns the enrollments of by's own client; none without one.
func (s *Enrollments) Mine(ctx context.Context, by clubhouse.Actor) ([]Enrollment, error) {
	if by.UserID == 0 {
		return []Enrollment{}, nil
	}
	client, err := s.clients.Own(ctx, by)
	if errors.Is(err, booking.ErrClientNotFound) {
		return []Enrollment{}, nil
	}
	if err != nil {
		return nil, err
	}
	rows, err := s.store.list(ctx, s.db, EnrollmentFilter{ClientID: client.ID})
	return s.withPaid(ctx, rows, err)
}

// Get returns the enrollment with id. Errors: clubhouse.ErrForbidden,
// ErrEnrollmentNotFound (also for one of another trainer's class).
func (s *Enrollments) Get(ctx context.Context, by clubhouse.Actor, id int64) (Enrollment, error) {
	trainer, err := scope(by)
	if err != nil {
		return Enrollment{}, err
	}
	e, err := s.get(ctx, id)
	if err != nil {
		return Enrollment{}, err
	}
	if trainer != 0 && e.TrainerID != trainer {
		return Enrollment{}, ErrEnrollmentNotFound
	}
	return e, nil
}

func (s *Enrollments) get(ctx context.Context, id int64) (Enrollment, error) {
	e, err := s.store.get(ctx, s.db, id)
	if err != nil {
		return Enrollment{}, err
	}
	rows, err := s.withPaid(ctx, []Enrollment{e}, nil)
	if err != nil {
		return Enrollment{}, err
	}
	return rows[0], nil
}

// withPaid fills Paid of rows.
func (s *Enrollments) withPaid(ctx context.Context, rows []Enrollment, err error) ([]Enrollment, error) {
	if err != nil || len(rows) == 0 {
		return rows, err
	}
	ids := make([]int64, len(rows))
	for i, e := range rows {
		ids[i] = e.ID
	}
	paid, err := s.payments.EnrollmentsPaid(ctx, ids)
	if err != nil {
		return nil, err
	}
	for i := range rows {
		rows[i].Paid = paid[rows[i].ID]
	}
	return rows, nil
}

// Accept accepts a pending enrollment. Errors: clubhouse.ErrForbidden,
// ErrEnrollmentNotFound, ErrEnrollmentMove for one that is not pending.
func (s *Enrollments) Accept(ctx context.Context, by clubhouse.Actor, id int64) (Enrollment, error) {
	return s.move(ctx, by, id, EnrollmentAccepted)
}

// Reject rejects an active enrollment; a place it held goes to the first
// on the waitlist. Errors: as Accept, ErrEnrollmentMove for one that is
// rejected or cancelled already.
func (s *Enrollments) Reject(ctx context.Context, by clubhouse.Actor, id int64) (Enrollment, error) {
	return s.move(ctx, by, id, EnrollmentRejected)
}

// Remove cancels an active enrollment; a place it held goes to the first
// on the waitlist. The row stays, with its payments. Errors: as Reject.
func (s *Enrollments) Remove(ctx context.Context, by clubhouse.Actor, id int64) (Enrollment, error) {
	return s.move(ctx, by, id, EnrollmentCancelled)
}

func (s *Enrollments) move(ctx context.Context, by clubhouse.Actor, id int64, to string) (Enrollment, error) {
	trainer, err := scope(by)
	if err != nil {
		return Enrollment{}, err
	}
	return s.moveAs(ctx, by, trainer, 0, id, to)
}

// Withdraw cancels by's own active enrollment in the class with classID;
// the place it held goes to the first on the waitlist. Errors:
// booking.ErrNoClient for an actor without a client record,
// ErrEnrollmentNotFound when the client has no active enrollment there.
func (s *Enrollments) Withdraw(ctx context.Context, by clubhouse.Actor, classID int64) (Enrollment, error) {
	if by.UserID == 0 {
		return Enrollment{}, booking.ErrNoClient
	}
	client, err := s.clients.Own(ctx, by)
	if errors.Is(err, booking.ErrClientNotFound) {
		return Enrollment{}, booking.ErrNoClient
	}
	if err != nil {
		return Enrollment{}, err
	}
	id, err := s.store.active(ctx, s.db, classID, client.ID)
	if err != nil {
		return Enrollment{}, err
	}
	return s.moveAs(ctx, by, 0, client.ID, id, EnrollmentCancelled)
}

// moveAs moves the enrollment with id to status to for by, acting for
// trainer (0: any class) and client (0: any client's). The class's row is
// locked first, as enrolling locks it, so that places change one after
// another; a place freed goes to the first on the waitlist in the same
// transaction.
func (s *Enrollments) moveAs(ctx context.Context, by clubhouse.Actor, trainer, client, id int64, to string) (Enrollment, error) {
	var out, promoted Enrollment
	err := sqldb.Transact(ctx, s.db, func(tx *sqlx.Tx) error {
		classID, err := s.store.classOf(ctx, tx, id)
		if err != nil {
			return err
		}
		c, err := s.store.class(ctx, tx, classID, s.wallNow())
		if err != nil {
			return err
		}
		if trainer != 0 && c.Trainer != trainer {
			return ErrEnrollmentNotFound
		}
		if _, _, err := s.store.lock(ctx, tx, id); err != nil {
			return err
		}
		e, err := s.store.get(ctx, tx, id)
		if err != nil {
			return err
		}
		if client != 0 && e.ClientID != client {
			return ErrEnrollmentNotFound
		}
		if to == EnrollmentAccepted && e.Status != EnrollmentPending || !e.active() {
			return ErrEnrollmentMove.Withf("A %s enrollment cannot become %s.", e.Status, to)
		}
		if err := s.store.setStatus(ctx, tx, id, to); err != nil {
			return err
		}
		if promoted, err = s.promote(ctx, tx, e, to, c); err != nil {
			return err
		}
		if out, err = s.store.current(ctx, tx, id); err != nil {
			return err
		}
		if err := s.log.Record(ctx, tx, eventlog.Entries(movedEvent(to), by.Name(), out)...); err != nil {
			return err
		}
		if to == EnrollmentAccepted {
			if err := tell(ctx, tx, s.mail, mail.KindEnrollmentAccepted, out); err != nil {
				return err
			}
		}
		if promoted.ID == 0 {
			return s.log.Announce(ctx, tx, relay(TopicEnrollment, out))
		}
		if err := s.log.Record(ctx, tx, eventlog.Entries(EventEnrollmentPromoted, by.Name(), promoted)...); err != nil {
			return err
		}
		if err := tell(ctx, tx, s.mail, mail.KindWaitlistPromoted, promoted); err != nil {
			return err
		}
		return s.log.Announce(ctx, tx, relay(TopicEnrollment, out), relay(TopicEnrollment, promoted), relay(TopicPromoted, promoted))
	})
	if err != nil {
		return Enrollment{}, fmt.Errorf("%s enrollment: %w", to, err)
	}
	return out, nil
}

// promote gives the place e held, in class c, to the first on its waitlist
// when e moved to status to frees it, and returns the promoted enrollment
// as it is now (zero when none is).
func (s *Enrollments) promote(ctx context.Context, tx *sqlx.Tx, e Enrollment, to string, c places) (Enrollment, error) {
	if !e.HoldsPlace() || to == EnrollmentAccepted || c.Status != StatusScheduled {
		return Enrollment{}, nil
	}
	id, err := s.store.nextWaiting(ctx, tx, e.ClassID)
	if err != nil || id == 0 {
		return Enrollment{}, err
	}
	if err := s.store.setStatus(ctx, tx, id, EnrollmentPending); err != nil {
		return Enrollment{}, err
	}
	return s.store.current(ctx, tx, id)
}

// tell queues, in tx, the message of kind about each enrollment of es to
// its client (Options.Mail).
func tell(ctx context.Context, tx *sqlx.Tx, outbox *mail.Outbox, kind mail.Kind, es ...Enrollment) error {
	for _, e := range es {
		if err := outbox.Queue(ctx, tx, mail.Notice{Kind: kind, ClientID: e.ClientID, Ref: e.ID}); err != nil {
			return err
		}
	}
	return nil
}

// relay is the message of e on topic, which the transaction that changed
// e records (eventlog.Log.Announce).
func relay(topic string, e Enrollment) eventlog.Message {
	return eventlog.Message{Topic: topic, Payload: message(e)}
}

// MarkAttendance marks the attendance of the enrollment with id at the
// session of its class on date (present, absent, late or excused); marking
// a session again replaces its mark. The enrollment keeps the latest mark
// made (attendance_status, attendance_marked_at). Errors:
// clubhouse.ErrForbidden, ErrEnrollmentNotFound, an Invalid error for
// another status or a date that is not a session of the class,
// ErrEnrollmentMove for an enrollment that holds no place.
func (s *Enrollments) MarkAttendance(ctx context.Context, by clubhouse.Actor, id int64, date time.Time, status string) (Enrollment, error) {
	trainer, err := scope(by)
	if err != nil {
		return Enrollment{}, err
	}
	if err := checkMark(status); err != nil {
		return Enrollment{}, err
	}
	date = dateOf(date)
	var marker *int64
	if by.UserID != 0 {
		marker = &by.UserID
	}
	var out Enrollment
	err = sqldb.Transact(ctx, s.db, func(tx *sqlx.Tx) error {
		classID, st, err := s.store.lock(ctx, tx, id)
		if err != nil {
			return err
		}
		e := Enrollment{Status: st}
		owner, session, err := s.store.session(ctx, tx, classID, date)
		switch {
		case err != nil:
			return err
		case trainer != 0 && owner != trainer:
			return ErrEnrollmentNotFound
		case !session:
			return clubhouse.ErrInvalidDate.Withf("%s is not a session of the class.", date.Format(time.DateOnly))
		case !e.HoldsPlace():
			return ErrEnrollmentMove.Withf("A %s enrollment holds no place; only pending and accepted ones are marked.", st)
		}
		if err := s.store.mark(ctx, tx, id, date, status, marker); err != nil {
			return err
		}
		if out, err = s.store.get(ctx, tx, id); err != nil {
			return err
		}
		return s.log.Announce(ctx, tx, relay(TopicEnrollment, out))
	})
	if err != nil {
		return Enrollment{}, fmt.Errorf("mark attendance: %w", err)
	}
	rows, err := s.withPaid(ctx, []Enrollment{out}, nil)
	if err != nil {
		return Enrollment{}, err
	}
	return rows[0], nil
}
