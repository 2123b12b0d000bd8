// Package tickets owns the operator's ticketed activities: ticket programs
// (such as "Open play") with their catalog of packages, each a number of
// tickets at a unit price, and the events (a court booked for a title and a
// number of places) whose participants are clients or holders of tickets.
//
// Events live here, beside the tickets, because a participant uses a
// ticket: seating one and using the ticket are one transaction of this
// package, and an event books its court through booking.Bookings.Reserve,
// as a class's sessions do. The package imports booking; booking never
// imports it.
//
// Programs (programs.go; pure rules in program.go, SQL in
// program_store.go) keeps the catalog: programs and packages are created,
// changed and deactivated, never deleted, since a package quoted or sold
// must keep existing; SetPrices changes many prices in one transaction, all
// or none; Quote prices tickets of an active package of an active program
// and stores the quote, a promise held for QuoteValidity (15 minutes) under
// a random UUID, so that a sale naming it gets its figures and no client
// can make one up. Every method takes the acting clubhouse.Actor and
// refuses one without the panel permission; on a database migrated with
// migrations.Main():
//
//	catalog := tickets.New(db, tickets.Options{Zone: bogota}).Programs
//	q, err := catalog.Quote(ctx, clubhouse.Staff("front-desk"), tickets.QuoteInput{PackageID: ten.ID})
package tickets
