package classes

import (
	"time"

	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
)

// The statuses of an enrollment. Enrolling gives pending, or waitlisted
// when the class is full; staff or the class's trainer accept a pending
// enrollment, and reject or remove (cancel) any active one. A place freed
// by a reject or a removal goes at once to the first on the waitlist,
// which becomes pending, as do the places a class gains when a change of
// its court or type raises its capacity (Classes.Update).
const (
	EnrollmentPending    = "pending"
	EnrollmentAccepted   = "accepted"
	EnrollmentWaitlisted = "waitlisted"
	EnrollmentRejected   = "rejected"
	EnrollmentCancelled  = "cancelled"
)

// Enrollment is a client's place (or place on the waitlist) in a class.
type Enrollment struct {
	ID                 int64           `db:"id"`
	ClassID            int64           `db:"class_id"`
	ClientID           int64           `db:"client_id"`
	UserID             *int64          `db:"user_id"` // the client's login, when it has one
	Status             string          `db:"status"`
	EnrolledAt         time.Time       `db:"enrolled_at"`
	AcceptedAt         *time.Time      `db:"accepted_at"`
	RejectedAt         *time.Time      `db:"rejected_at"`
	CancelledAt        *time.Time      `db:"cancelled_at"`
	WaitlistPosition   *int            `db:"waitlist_position"` // 1 for the next in line; nil unless waitlisted
	AttendanceStatus   *string         `db:"attendance_status"`
	AttendanceMarkedAt *time.Time      `db:"attendance_marked_at"`
	CreatedAt          time.Time       `db:"created_at"`
	UpdatedAt          time.Time       `db:"updated_at"`
	ClassTitle         string          `db:"class_title"`
	TrainerID          int64           `db:"trainer_id"`
	Price              decimal.Decimal `db:"price"` // the class's price per person
	Student            Student         `db:"student"`
	// The latest payment claimed or made for the enrollment, if any.
	PaymentTypeID    *int64              `db:"payment_type_id"`
	PaymentAmount    decimal.NullDecimal `db:"payment_amount"`
	PaymentReference *string             `db:"payment_reference"`
	Paid             decimal.Decimal     `db:"-"` // the sum of the completed payments
}

// Student is the client of an enrollment as a trainer sees them.
type Student struct {
	ClientID      int64     `db:"id"`
	UserID        *int64    `db:"user_id"`
	Email         *string   `db:"email"`
	DisplayName   *string   `db:"display_name"`
	FirstName     string    `db:"first_name"`
	LastName      string    `db:"last_name"`
	Phone         *string   `db:"phone"`
	EmailVerified bool      `db:"email_verified"`
	CreatedAt     time.Time `db:"created_at"`
}

// Amount is the enrollment's balance by the rule of bookings: the class's
// price per person against the completed payments.
func (e Enrollment) Amount() booking.Amount {
	return booking.Amount{Subtotal: e.Price, FinalPrice: e.Price, Discount: decimal.Zero, Paid: e.Paid}
}

// HoldsPlace reports whether the enrollment holds a place in its class.
func (e Enrollment) HoldsPlace() bool {
	return e.Status == EnrollmentPending || e.Status == EnrollmentAccepted
}

// active reports whether the enrollment is pending, accepted or waitlisted.
func (e Enrollment) active() bool { return e.HoldsPlace() || e.Status == EnrollmentWaitlisted }

// Errors of enrollments.
var (
	ErrEnrollmentNotFound = clubhouse.Errorf(clubhouse.NotFound, "not found", "The enrollment does not exist.")
	ErrClassNotOpen       = clubhouse.Errorf(clubhouse.NotFound, "not found",
		"The class does not exist or takes no enrollments: it is not scheduled or all its sessions have started.")
	ErrAlreadyEnrolled = clubhouse.Errorf(clubhouse.Conflict, "already enrolled",
		"The client is already enrolled in this class (or on its waitlist).")
	ErrEnrollmentMove = clubhouse.Errorf(clubhouse.Conflict, "conflict", "The enrollment cannot make that move.")
	ErrClassFull      = clubhouse.Errorf(clubhouse.Conflict, "class full", "The class has no place left.")
)

// The marks of attendance of a session.
const (
	AttendancePresent = "present"
	AttendanceAbsent  = "absent"
	AttendanceLate    = "late"
	AttendanceExcused = "excused"
)

// Attendance are the marks of one session of a class, by status.
type Attendance struct {
	Date    time.Time
	Present int
	Absent  int
	Late    int
	Excused int
}

// checkMark refuses a mark of attendance other than the four statuses.
func checkMark(status string) error {
	switch status {
	case AttendancePresent, AttendanceAbsent, AttendanceLate, AttendanceExcused:
		return nil
	}
	return clubhouse.ErrInvalidData.Withf("attendance_status must be present, absent, late or excused, not %q.", status)
}
