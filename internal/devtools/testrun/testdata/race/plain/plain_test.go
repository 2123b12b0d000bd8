package plain

import "testing"

// TestWithoutRace passes only when the package is tested without the race
// detector.
func TestWithoutRace(t *testing.T) {
	if race {
		t.Fatal("tested with -race")
	}
}
