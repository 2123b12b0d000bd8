package classes

import "github.com/clubhouse-go/clubhouse"

// The domain messages of classes, recorded in the event log by the
// transaction of the change they tell of, which the realtime relay sends
// once it commits. Each goes to the staff room, to the class's trainer room
// (clubhouse.TrainerRoom) and to the client it concerns. Pure: no database.

// Topics of the domain messages of classes.
const (
	// TopicEnrollment tells that an enrollment changed (EnrollmentChanged):
	// made, accepted, rejected, removed, withdrawn, promoted from the
	// waitlist, or its attendance marked.
	TopicEnrollment = "enrollment:changed"
	// TopicPromoted tells a client that a place freed and their waitlisted
	// enrollment now holds it (EnrollmentChanged).
	TopicPromoted = "enrollment:promoted"
	// TopicClassCancelled tells the enrolled students that a class was
	// cancelled (ClassCancelled).
	TopicClassCancelled = "class:cancelled"
)

// EnrollmentChanged is the payload of TopicEnrollment and TopicPromoted.
type EnrollmentChanged struct {
	ID      int64  `json:"id"`
	ClassID int64  `json:"class_id"`
	Status  string `json:"status"`
	UserID  *int64 `json:"user_id"` // the client's login, who the message is for
	// TrainerID is the class's trainer (users.id), whose room receives the
	// message.
	TrainerID int64 `json:"-"`
}

// message is the payload of the messages about e.
func message(e Enrollment) EnrollmentChanged {
	return EnrollmentChanged{ID: e.ID, ClassID: e.ClassID, Status: e.Status, UserID: e.UserID, TrainerID: e.TrainerID}
}

// Audience is the staff room, the trainer's room and the client.
func (m EnrollmentChanged) Audience() clubhouse.Audience {
	a := clubhouse.Audience{Rooms: []string{clubhouse.RoomPanel}}
	if m.TrainerID != 0 {
		a.Rooms = append(a.Rooms, clubhouse.TrainerRoom(m.TrainerID))
	}
	if m.UserID != nil {
		a.Users = []int64{*m.UserID}
	}
	return a
}

// ClassCancelled is the payload of TopicClassCancelled. The staff and the
// trainer receive one copy naming every student; each student receives a
// copy of their own, naming only them.
type ClassCancelled struct {
	ClassID int64   `json:"class_id"`
	Title   string  `json:"title"`
	UserIDs []int64 `json:"user_ids"` // the logins of the students who were enrolled
	// TrainerID is the class's trainer (users.id), whose room receives the
	// staff's copy.
	TrainerID int64 `json:"-"`
	// Student is the one student (users.id) a student's copy is for; 0 on
	// the staff's copy.
	Student int64 `json:"-"`
}

// Audience is the Student of a student's copy; else the staff room and the
// trainer's room.
func (m ClassCancelled) Audience() clubhouse.Audience {
	if m.Student != 0 {
		return clubhouse.Audience{Users: []int64{m.Student}}
	}
	a := clubhouse.Audience{Rooms: []string{clubhouse.RoomPanel}}
	if m.TrainerID != 0 {
		a.Rooms = append(a.Rooms, clubhouse.TrainerRoom(m.TrainerID))
	}
	return a
}

// cancelled returns the class:cancelled messages of c, whose enrolled
// students were the users students: the staff's copy, then one per student.
func cancelled(c Class, students []int64) []ClassCancelled {
	out := []ClassCancelled{{ClassID: c.ID, Title: c.Title, UserIDs: students, TrainerID: c.UserID}}
	for _, u := range students {
		out = append(out, ClassCancelled{ClassID: c.ID, Title: c.Title, UserIDs: []int64{u}, Student: u})
	}
	return out
}
