package raced

import "testing"

// TestWithRace passes only when the package is tested with the race
// detector.
func TestWithRace(t *testing.T) {
	if !race {
		t.Fatal("tested without -race")
	}
}
