package classes

// The types of the classes' events in the club's event log (Options.Log),
// written in the transaction of each change, with the enrollment or the
// class as it is after the change as the payload.
const (
	EventEnrollmentCreated   = "enrollment.created"   // made by its client (Enroll), or by staff or its trainer (Add)
	EventEnrollmentAccepted  = "enrollment.accepted"  // accepted (Accept)
	EventEnrollmentRejected  = "enrollment.rejected"  // rejected (Reject)
	EventEnrollmentPromoted  = "enrollment.promoted"  // taken from the waitlist into a place freed or added to its class
	EventEnrollmentCancelled = "enrollment.cancelled" // removed (Remove) or withdrawn by its client (Withdraw)
	EventClassCancelled      = "class.cancelled"      // cancelled (Classes.Cancel)
	EventClassCompleted      = "class.completed"      // completed (Classes.Complete)
)

// movedEvent is the type of the event of an enrollment moved to status to.
func movedEvent(to string) string {
	switch to {
	case EnrollmentAccepted:
		return EventEnrollmentAccepted
	case EnrollmentRejected:
		return EventEnrollmentRejected
	}
	return EventEnrollmentCancelled
}

// endedEvent is the type of the event of a class ended with status.
func endedEvent(status string) string {
	if status == StatusCompleted {
		return EventClassCompleted
	}
	return EventClassCancelled
}
