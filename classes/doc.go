// Package classes owns the club's training classes: the class tariffs that
// price them per kind of court and class reservation type (gestion 2),
// with the price per person, the price of the whole class and the most
// students a class takes.
//
// Pure rules (the validation of a tariff) live in files without database
// imports (tariff.go); the SQL in tariff_store.go; the use cases in
// tariffs.go. Every method takes the acting clubhouse.Actor: writes refuse
// one without the panel permission (clubhouse.ErrForbidden); trainers and
// staff read.
//
// # Messages
//
// Each change records its realtime messages (messages.go) in its own
// transaction, in Options.Log, which the realtime relay follows: they are
// sent once the change commits, and never when it rolls back.
// enrollment:changed and enrollment:promoted (EnrollmentChanged) go to the
// staff room, the class's trainer room (clubhouse.TrainerRoom) and the
// enrolled client; class:cancelled (ClassCancelled), one copy naming every
// student to the staff and the trainer and one per student naming only
// them. The sessions' bookings are announced as any booking
// (booking:changed for the staff, availability:updated per court and
// date, booking.Bookings.Announce), and an enrollment's claims as payments
// (payment:updated, payments.Service.Announce), in the same transaction. A
// client's enrollment without claims, made in one statement, writes its
// message with its event in that statement.
//
// # Using it from another program
//
// New takes a *sqlx.DB over pgx on the club's database, migrated with
// migrations.Main() as for package booking:
//
//	db, err := sqlx.Open("pgx", os.Getenv("DATABASE_URL"))
//	_, err = migrations.Up(ctx, db.DB, migrations.Main())
//	academy := classes.New(db, classes.Options{})
//	t, err := academy.Tariffs.Create(ctx, clubhouse.Staff("front-desk"), classes.TariffInput{
//		CourtTypeID: clubhouse.Some(padel.ID), ReservationTypeID: clubhouse.Some(clinic.ID),
//		SinglePrice: clubhouse.Some(decimal.RequireFromString("25000")),
//		TotalPrice:  clubhouse.Some(decimal.RequireFromString("100000")),
//		MaxCapacity: clubhouse.Some(4)})
package classes
