package app

import (
	"os"
	"runtime/debug"
)

// ServerGCPercent is the garbage collector's target of clubd when GOGC is
// not set: the heap may grow to five times what is live before a cycle.
// clubd's live heap is small (tens of MiB) while a request allocates much
// and keeps little, the tool endpoint's SDK most of all (it decodes every
// message several times), so at Go's default of 100 collection takes a
// large share of the CPU under load. GOMEMLIMIT still bounds the heap.
const ServerGCPercent = 400

// TuneGC sets the garbage collector's target to ServerGCPercent unless the
// environment sets GOGC. clubd calls it at start; so do the benchmarks
// that measure the server as clubd runs it.
func TuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(ServerGCPercent)
	}
}
