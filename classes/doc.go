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
// After each commit, Options.Events receives the messages of classes
// (messages.go): enrollment:changed and enrollment:promoted
// (EnrollmentChanged) for the staff room, the class's trainer room
// (clubhouse.TrainerRoom) and the enrolled client; class:cancelled
// (ClassCancelled), one copy naming every student for the staff and the
// trainer and one per student naming only them. The sessions' bookings are
// announced as any booking (booking:changed for the staff,
// availability:updated per court and date), and an enrollment's claims as
// payments (payment:updated).
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
