// Package calendar owns the club's calendar feeds (RFC 5545): a member's
// feed of their bookings, class sessions and events, a court's feed of its
// bookings, and a trainer's feed of their classes' sessions, each served
// as an iCalendar document at a URL that carries a secret token.
//
//	pool, _ := pgxpool.New(ctx, os.Getenv("DATABASE_URL"))
//	db := sqlx.NewDb(stdlib.OpenDBFromPool(pool), "pgx")
//	feeds := calendar.New(db, calendar.Options{Zone: bogota, Key: secret, Host: "club.example.com"})
//	f, err := feeds.RenewOwn(ctx, member) // the member's feed, with a new token
//	doc, err := feeds.Serve(ctx, f.Token) // what a calendar reads at the URL
//
// A token is 256 bits, URL-safe, derived from the server's Key and a random
// nonce of the feed (HMAC-SHA256), and the database keeps only its SHA-256
// and the nonce: a copy of the database alone neither reads a feed nor
// rebuilds a URL, while the server shows the member the same URL again
// (Own) until they make a new one (RenewOwn) or revoke it (RevokeOwn). The
// staff do the same for a court's and a trainer's feed (Get, Renew,
// Revoke). Serve needs no actor: the token is the credential; it refuses
// an unknown or revoked token with ErrFeedNotFound, and a token read more
// often than Options.Rate allows with a *TooManyRequests.
//
// The pure parts write the document (ics.go, with github.com/arran4/golang-ical:
// CRLF line ends, lines folded at 75 octets, the zone's VTIMEZONE built from
// Go's zone database in zone.go), derive tokens (token.go) and limit their
// reads (limit.go); the SQL is in store.go and reads the rows of booking,
// classes and tickets without changing them. Each entry has a stable UID
// (booking-<id>@host, class-<id>-<date>@host, event-<id>@host) and a
// SEQUENCE the database counts (migration 00049's triggers raise it on
// every change of what a feed shows, whichever service makes it);
// cancelled entries stay, STATUS:CANCELLED, for as long as the feed shows
// their date (Options.Past).
package calendar
