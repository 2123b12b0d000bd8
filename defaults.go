package clubhouse

import "time"

// SetDefaults gives what the services of a club share the value a program
// that leaves it out gets: *zone UTC and *now time.Now, each only when it
// is nil. A nil pointer is skipped, for a service that has no use for it.
// Each domain's New calls it, so that a domain used alone works; the
// club's composition calls it once for all its domains.
func SetDefaults(zone **time.Location, now *func() time.Time) {
	if zone != nil && *zone == nil {
		*zone = time.UTC
	}
	if now != nil && *now == nil {
		*now = time.Now
	}
}
