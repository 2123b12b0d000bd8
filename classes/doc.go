// Package classes owns the club's training classes: the class tariffs that
// price them per kind of court and class reservation type (gestion 2),
// with the price per person, the price of the whole class and the most
// students a class takes.
//
// Pure rules (the validation of a tariff) live in files without database
// imports (tariff.go); the SQL in tariff_store.go; the use cases in
// tariffs.go. Writes take the acting clubhouse.Actor and refuse one without
// the panel permission (clubhouse.ErrForbidden); trainers and staff read.
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
