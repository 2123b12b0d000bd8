package eventlog

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestEventID: an event's id is a UUID of version 8 and RFC 9562's
// variant, one per place in a database's log, and another in another
// database.
func TestEventID(t *testing.T) {
	t.Parallel()
	uuid := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	space, other := []byte{1, 2, 3, 4, 5, 6, 0xf7, 8}, []byte{9, 2, 3, 4, 5, 6, 7, 8}
	seen := map[string]bool{}
	for _, position := range []int64{1, 2, 255, 256, 1 << 40, 1<<62 - 1} {
		for _, s := range [][]byte{space, other} {
			id := eventID(s, position)
			assert.Regexp(t, uuid, id)
			assert.False(t, seen[id], "%s given twice", id)
			seen[id] = true
		}
	}
	assert.Equal(t, "01020304-0506-8708-8000-000000000001", eventID(space, 1))
}
