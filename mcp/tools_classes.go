package mcp

import (
	"context"
	"encoding/json"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/classes"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/wire"
)

// The tools of training classes: class_list, class_read and class_enroll,
// on the service methods of the staff routes /api/admin/classes and
// /api/trainer/events.

type classListArgs struct {
	Status    clubhouse.Optional[string] `json:"status,omitzero" jsonschema:"Only classes with this status: scheduled, cancelled or completed."`
	From      clubhouse.Optional[string] `json:"from,omitzero" jsonschema:"Only classes that end on or after this date, YYYY-MM-DD."`
	To        clubhouse.Optional[string] `json:"to,omitzero" jsonschema:"Only classes that start on or before this date, YYYY-MM-DD."`
	TrainerID clubhouse.Optional[int64]  `json:"trainer_id,omitzero" jsonschema:"Only the classes of this trainer (their user id, the user_id of a class)."`
}

type classArgs struct {
	ClassID clubhouse.Optional[int64] `json:"class_id" jsonschema:"Id of the class (from class_list)."`
}

type classEnrollArgs struct {
	ClassID        clubhouse.Optional[int64]  `json:"class_id" jsonschema:"Id of the class (from class_list); it must be scheduled with a session that has not started."`
	ClientID       clubhouse.Optional[int64]  `json:"client_id" jsonschema:"Id of the client to enroll (from client_search or client_create)."`
	IdempotencyKey clubhouse.Optional[string] `json:"idempotency_key,omitzero" maxLength:"255" jsonschema:"Optional key of this request, 1 to 255 printable ASCII characters without spaces, such as a UUID. A retry with the same key and arguments returns the first result and writes nothing again; the same key with other arguments is refused (conflict). Keys are kept 24 hours."`
}

// classView is a class of class_list: its schedule, price and places.
type classView struct {
	ID                  int64       `json:"id"`
	Title               string      `json:"title"`
	Description         *string     `json:"description"`
	Status              string      `json:"status"`  // scheduled, cancelled or completed
	UserID              int64       `json:"user_id"` // the trainer
	TrainerName         string      `json:"trainer_name"`
	CourtID             int64       `json:"court_id"`
	CourtName           string      `json:"court_name"`
	ReservationTypeID   int64       `json:"reservation_type_id"`
	ReservationTypeName string      `json:"reservation_type_name"`
	StartDate           string      `json:"start_date"`
	EndDate             string      `json:"end_date"`
	RecurrenceDays      []int       `json:"recurrence_days"` // ISO weekdays, 1 = Monday
	StartTime           string      `json:"start_time"`
	EndTime             string      `json:"end_time"`
	SinglePrice         json.Number `json:"single_price"`
	TotalPrice          json.Number `json:"total_price"`
	MaxCapacity         int         `json:"max_capacity"`
	EnrolledCount       int         `json:"enrolled_count"`
	PlacesLeft          int         `json:"places_left"` // 0: an enrollment joins the waitlist
}

func newClassView(c classes.Class) classView {
	return classView{ID: c.ID, Title: c.Title, Description: c.Description, Status: c.Status, UserID: c.UserID, TrainerName: c.TrainerName,
		CourtID: c.CourtID, CourtName: c.CourtName, ReservationTypeID: c.ReservationTypeID, ReservationTypeName: c.ReservationTypeName,
		StartDate: c.StartDate.Format(time.DateOnly), EndDate: c.EndDate.Format(time.DateOnly), RecurrenceDays: c.Days,
		StartTime: wire.FormatClock(c.StartTime), EndTime: wire.FormatClock(c.EndTime),
		SinglePrice: wire.FormatAmount(c.SinglePrice), TotalPrice: wire.FormatAmount(c.TotalPrice),
		MaxCapacity: c.MaxCapacity, EnrolledCount: c.EnrolledCount, PlacesLeft: c.PlacesLeft()}
}

// classesView answers class_list.
type classesView struct {
	Classes []classView `json:"classes"`
}

// classDetailView is the class of class_read, with its sessions.
type classDetailView struct {
	classView
	Sessions []sessionView `json:"sessions"`
}

// sessionView is a date of a class and the booking that holds its court
// (null once freed).
type sessionView struct {
	Date          string `json:"date"`
	ReservationID *int64 `json:"reservation_id"`
}

func newClassDetailView(c classes.Class) classDetailView {
	return classDetailView{classView: newClassView(c), Sessions: mapSlice(c.Sessions, func(s classes.Session) sessionView {
		return sessionView{Date: s.Date.Format(time.DateOnly), ReservationID: s.ReservationID}
	})}
}

// enrollmentView is an enrollment of class_enroll.
type enrollmentView struct {
	ID               int64       `json:"id"`
	ClassID          int64       `json:"class_id"`
	ClassTitle       string      `json:"class_title"`
	ClientID         int64       `json:"client_id"`
	FirstName        string      `json:"first_name"`
	LastName         string      `json:"last_name"`
	Status           string      `json:"status"`            // pending, accepted, waitlisted, rejected or cancelled
	WaitlistPosition *int        `json:"waitlist_position"` // 1 for the next in line; null unless waitlisted
	EnrolledAt       time.Time   `json:"enrolled_at"`
	Price            json.Number `json:"price"`
	TotalPaid        json.Number `json:"total_paid"`
}

func newEnrollmentView(e classes.Enrollment) enrollmentView {
	a := e.Amount()
	return enrollmentView{ID: e.ID, ClassID: e.ClassID, ClassTitle: e.ClassTitle, ClientID: e.ClientID, FirstName: e.Student.FirstName,
		LastName: e.Student.LastName, Status: e.Status, WaitlistPosition: e.WaitlistPosition, EnrolledAt: e.EnrolledAt,
		Price: wire.FormatAmount(a.FinalPrice), TotalPaid: wire.FormatAmount(a.Paid)}
}

// registerClasses adds the tools of training classes to s.
func (h *Handler) registerClasses(s *sdk.Server) {
	addTool(s, h, &sdk.Tool{Name: "class_list", Title: "List training classes", Annotations: readOnly,
		Description: "Lists the club's training classes by start, with their schedule, trainer, court, price and places_left (0: an enrollment joins the waitlist). Filter by status, dates and trainer. Then class_read for a class's sessions, class_enroll to enroll a client."},
		func(ctx context.Context, c call[classListArgs]) (classesView, error) {
			in := c.in
			from, err := wire.Date("from", in.From)
			if err != nil {
				return classesView{}, err
			}
			to, err := wire.Date("to", in.To)
			if err != nil {
				return classesView{}, err
			}
			rows, err := c.club.Classes.Classes.List(ctx, c.by, classes.ClassFilter{TrainerID: in.TrainerID.Or(0), Status: in.Status.Or(""),
				From: from.Or(time.Time{}), To: to.Or(time.Time{})})
			return classesView{Classes: mapSlice(rows, newClassView)}, err
		})
	addTool(s, h, &sdk.Tool{Name: "class_read", Title: "Read a training class", Annotations: readOnly,
		Description: "Reads one training class by class_id: its schedule, price, places_left and its sessions (each date with the booking that holds the court)."},
		func(ctx context.Context, c call[classArgs]) (classDetailView, error) {
			cl, err := c.club.Classes.Classes.Get(ctx, c.by, *c.in.ClassID.Value)
			return newClassDetailView(cl), err
		})
	addTool(s, h, &sdk.Tool{Name: "class_enroll", Title: "Enroll a client in a class", Annotations: additive,
		Description: "Enrolls a client (client_id, from client_search) in a training class (class_id, from class_list): status pending while the class has places_left, waitlisted with a waitlist_position when it is full. not_found when the class is not open (cancelled, completed or all sessions started); conflict when the client is already enrolled."},
		func(ctx context.Context, c call[classEnrollArgs]) (enrollmentView, error) {
			e, err := c.club.Classes.Enrollments.Add(ctx, c.by, *c.in.ClassID.Value, *c.in.ClientID.Value)
			return newEnrollmentView(e), err
		})
}
