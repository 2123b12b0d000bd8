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
package tickets
