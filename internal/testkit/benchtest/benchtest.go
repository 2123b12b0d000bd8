// Package benchtest runs the benchmarks that compare two ways of doing
// one thing, two arms, on a machine whose speed drifts: Rate measures a
// round of jobs done by concurrent workers, and Alternate runs the two
// arms' rounds in turn, so that a drift weighs on both alike.
//
//	plain := benchtest.Arm{Name: "plain-bookings/s", Round: func() float64 {
//		return benchtest.Rate(b, 32, 1280, func(i int) error { return book(plainService, i) })
//	}}
//	benchtest.Alternate(b, plain, logged) // logs and reports logged's rate over plain's
package benchtest

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Rate runs job(0) to job(n-1) from workers goroutines, each taking the
// next job in turn, and returns the jobs done a second. The first error
// stops the workers and fails tb.
func Rate(tb testing.TB, workers, n int, job func(i int) error) float64 {
	tb.Helper()
	var next atomic.Int64
	var failed atomic.Pointer[error]
	var wg sync.WaitGroup
	start := time.Now()
	for range workers {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < n && failed.Load() == nil; i = int(next.Add(1) - 1) {
				if err := job(i); err != nil {
					failed.CompareAndSwap(nil, &err)
					return
				}
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	if err := failed.Load(); err != nil {
		tb.Fatal(*err)
	}
	return float64(n) / elapsed.Seconds()
}

// Arm is one of the two ways compared: its Name, the unit of its rate in
// the log and the metrics ("plain-bookings/s"), and Round, which runs a
// round of it and returns its rate (Rate).
type Arm struct {
	Name  string
	Round func() float64
}

// Alternate runs a round of each arm to warm both up, uncounted; then, for
// each iteration of b.Loop, rounds of base, other, other and base. It logs
// each iteration's mean rates and their ratio, other's over base's, and
// reports the arms' mean rates, under their names, and the ratio of their
// sums ("ratio").
func Alternate(b *testing.B, base, other Arm) {
	b.Helper()
	base.Round()
	other.Round()
	var baseSum, otherSum float64
	for i := 0; b.Loop(); i++ {
		b0, o0, o1, b1 := base.Round(), other.Round(), other.Round(), base.Round()
		br, or := (b0+b1)/2, (o0+o1)/2
		b.Logf("iteration %d: %s %.0f, %s %.0f, ratio %.3f", i, base.Name, br, other.Name, or, or/br)
		baseSum += br
		otherSum += or
	}
	b.ReportMetric(baseSum/float64(b.N), base.Name)
	b.ReportMetric(otherSum/float64(b.N), other.Name)
	b.ReportMetric(otherSum/baseSum, "ratio")
}
