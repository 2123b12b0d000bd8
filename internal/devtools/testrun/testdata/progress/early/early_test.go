// Package early stands for a slow package early in the list: its test ends
// only once the test of testrun has seen the packages after it end.
package early

import (
	"os"
	"testing"
	"time"
)

func TestWaitsForLater(t *testing.T) {
	marker := os.Getenv("TESTRUN_MARKER")
	deadline := time.Now().Add(time.Minute)
	for {
		if _, err := os.Stat(marker); err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("no marker: the end of package later was not shown while this test ran")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
