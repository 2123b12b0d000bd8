package benchtest_test

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/clubhouse-go/clubhouse/internal/testkit/benchtest"
)

// TestRate: every job runs once, on the workers at once, and the rate is
// that of the jobs done.
func TestRate(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	ran := map[int]int{}
	r := benchtest.Rate(t, 4, 100, func(i int) error {
		mu.Lock()
		defer mu.Unlock()
		ran[i]++
		return nil
	})
	assert.Len(t, ran, 100)
	for i := range 100 {
		assert.Equal(t, 1, ran[i], "job %d", i)
	}
	assert.Positive(t, r)
}

// TestAlternate: a round of each arm first, then base, other, other, base
// for each iteration; the ratio reported is other's rate over base's.
func TestAlternate(t *testing.T) {
	t.Parallel()
	var order []string
	res := testing.Benchmark(func(b *testing.B) {
		order = nil
		benchtest.Alternate(b,
			benchtest.Arm{Name: "a/s", Round: func() float64 { order = append(order, "a"); return 200 }},
			benchtest.Arm{Name: "b/s", Round: func() float64 { order = append(order, "b"); return 150 }})
	})
	want := []string{"a", "b"}
	for range res.N {
		want = append(want, "a", "b", "b", "a")
	}
	assert.Equal(t, want, order)
	assert.InDelta(t, 200, res.Extra["a/s"], 1e-9)
	assert.InDelta(t, 150, res.Extra["b/s"], 1e-9)
	assert.InDelta(t, 0.75, res.Extra["ratio"], 1e-9)
}
