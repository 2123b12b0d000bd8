// Package booking owns the club's bookable world: the catalogs (court types,
// document types, payment types, reservation statuses and types), courts,
// clients, and reservations. Pure rules (validation of catalog records,
// conflict checking) live in files without database or HTTP imports; the
// stores hold the SQL; the services apply the rules with an explicit actor.
package booking
