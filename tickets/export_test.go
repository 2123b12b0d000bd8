package tickets

// The stores' mappings of constraints to domain errors, for the tests of
// events_test.go that go around the services with raw SQL.
var (
	EventErrors       = eventErrors
	ParticipantErrors = participantErrors
)
