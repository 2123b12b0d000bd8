// Package booking owns the club's bookable world: the catalogs (court types,
// document types, payment types, reservation statuses and types), courts,
// clients, and reservations. Pure rules (validation of catalog records,
// conflict checking) live in files without database or HTTP imports; the
// stores hold the SQL; the services apply the rules with an explicit actor.
//
// Who may act is the services' decision, whichever front door or program
// calls them: every method that reads or changes club data takes the
// acting clubhouse.Actor. The Client* methods of Bookings and the Own
// methods of Clients serve the actor's own client record (ClientOf is the
// one place it is found, for every domain); the staff operations (every
// change of Bookings, Tariffs, Discounts and the catalogs, and the staff's
// reads: Bookings.Get, List, ListPriced, Desk, History, Validate, Price,
// GetSeries, Dashboard, the tariffs, coupons, contracts and reservation statuses,
// every Clients method that names a client by id or lists them) refuse an
// actor without the panel permission with clubhouse.ErrForbidden
// (clubhouse.Actor.RequirePanel). Trainers quote (Bookings.Quote) and book
// for their students (TrainerCreate); anyone signed in reads the
// availability, the day grid and the reservation, payment and document
// types; anyone at all the courts and court types. An actor acting in an
// area (clubhouse.Actor.In) acts with the roles the area lets count: in
// clubhouse.AreaTrainer a staff member who also trains is a trainer only.
//
// The club's booking rules (Rules: opening hours, how far ahead and at what
// notice, the longest booking, bookings per client, staff-only types, the
// cancellation window) judge every booking, move and client cancellation
// through one check, Rules.Check; ClubRules reads and changes them, and
// its WatchJob keeps them in memory while PostgreSQL announces changes.
//
// Clients cancel (ClientCancel), never delete: a cancelled booking stays,
// with who cancelled it and when and its payments, frees its court and can
// no longer change; staff cancel any booking (Cancel) and mark a started
// one a no-show (MarkNoShow), which the client's Stats count, or check its
// players in when they arrive (CheckIn), which no no-show is.
//
// The front desk reads a date in one call (Desk: the courts, the hours to
// draw and every booking that holds a court that date, with its amount and
// payment state). Every change of a booking through Bookings, and its
// coupon or contract, writes an entry of its history in the change's own
// transaction, with who made it, the court and span before and after, the
// staff's reason (BookingInput.Reason, Cancel's reason) and whether the
// rules were overridden; History reads it.
//
// # Messages
//
// Each transaction that changes bookings records, with a log
// (Options.Log), the realtime relay's messages: booking:changed
// (TopicChanged, a Changed naming the bookings) for the staff room and
// each booking's owner, the login of its client (one message when the
// bookings share their owner; else the staff's naming them all and one
// per owner naming only theirs), and availability:updated
// (TopicAvailability, an AvailabilityChanged) once per court and date
// whose booked time changed (a booking made, moved, cancelled or deleted;
// a move tells of the old and the new court and date), for the staff and
// everyone signed in. The relay sends them once the change commits: a
// write refused or rolled back sends nothing. The services collect the
// changes (Changes) in their transaction and record them before it
// commits; another domain that books in its own (Reserve, Release,
// CancelHeld) records them in it too (Announce). A booking made in one
// statement writes its messages in it, with its event.
//
// # Using it from another program
//
// New takes a *sqlx.DB over pgx (sqlx.Open("pgx", url) with the driver
// github.com/jackc/pgx/v5/stdlib imported, or sqlx.NewDb over
// stdlib.OpenDBFromPool(pool) to share a pgxpool, which Options.Pool then
// names so that creating a booking can skip database/sql) on a database
// migrated with the main set of package migrations, which migrations.Up
// applies (whatever is pending; safe at every start, and under a lock when
// several instances start at once):
//
//	db, err := sqlx.Open("pgx", os.Getenv("DATABASE_URL"))
//	_, err = migrations.Up(ctx, db.DB, migrations.Main())
//	club := booking.New(db, booking.Options{Zone: bogota})
//	b, err := club.Bookings.Create(ctx, clubhouse.Staff("front-desk"), booking.BookingInput{CourtID: clubhouse.Some(court.ID),
//		ReservationTypeID: clubhouse.Some(rental.ID), Checking: clubhouse.Some(at(18, 0)), Checkout: clubhouse.Some(at(19, 30))})
//
// Times are wall times in the club's zone: time.Time values whose clock
// fields are the club's clock (at(18, 0) above stands for one; Wall makes
// one from any instant). The payments of the same database are
// payments.New(db, payments.Options{}).
// examples/booking creates a court, a tariff and a booking this way, and
// pays it.
package booking
