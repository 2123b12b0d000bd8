// Package demo seeds a demo club so that a newcomer can try every route:
// catalogs, courts with prices, statuses with colours, a class tariff, two
// ticket programs with their packages, one user per role whose password is
// printed once, when the user is created, two classes of the demo trainer,
// an event with two participants, and the club's booking rules. Seeding is
// idempotent: running it again adds only what is missing.
package demo

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/classes"
	"github.com/clubhouse-go/clubhouse/internal/compose/app"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/ledger"
	"github.com/clubhouse-go/clubhouse/pricing"
	"github.com/clubhouse-go/clubhouse/tickets"
	"github.com/clubhouse-go/clubhouse/users"
)

// catalogSQL inserts the demo catalogs, skipping rows that exist by name.
const catalogSQL = `
INSERT INTO court_types (name, description) VALUES
	('Tennis', 'Clay tennis court'), ('Padel', 'Glass-walled doubles court'), ('Football 5', 'Five-a-side synthetic pitch')
	ON CONFLICT ((lower(name))) DO NOTHING;
INSERT INTO document_types (name, description) VALUES
	('CC', 'Cédula de ciudadanía'), ('CE', 'Cédula de extranjería'), ('TI', 'Tarjeta de identidad'), ('PP', 'Passport')
	ON CONFLICT ((lower(name))) DO NOTHING;
INSERT INTO payment_types (name, description) VALUES
	('Cash', 'Paid at the front desk'), ('Card', 'Debit or credit card'), ('Transfer', 'Bank transfer with receipt'),
	('Gateway', 'Online payment gateway')
	ON CONFLICT ((lower(name))) DO NOTHING;
UPDATE payment_types SET ledger_account = '1.1.05.01' WHERE lower(name) = 'cash' AND ledger_account IS NULL;
INSERT INTO reservation_statuses (name, color, description) VALUES
	('Pending', '#F9A825', 'Booked, not yet paid'), ('Confirmed', '#2E7D32', 'Paid or approved'),
	('Cancelled', '#C62828', 'Cancelled by the club or the client'), ('Completed', '#1565C0', 'Played')
	ON CONFLICT ((lower(name))) DO NOTHING;
INSERT INTO reservation_types (name, description, gestion) VALUES
	('Rental', 'Court rental', 1), ('Tournament', 'Club tournament', 1), ('Event', 'Operator event', 1),
	('Maintenance', 'Court closed for maintenance', 1), ('Tennis class', 'Training class', 2)
	ON CONFLICT ((lower(name))) DO NOTHING;
UPDATE reservation_types SET is_event = true WHERE lower(name) = 'event' AND NOT is_event;
INSERT INTO courts (court_type_id, name, cost, price)
	SELECT ct.id, v.name, v.cost, v.price
	FROM (VALUES (1, 'Tennis', 'Tennis 1', 15000, 60000), (2, 'Tennis', 'Tennis 2', 15000, 60000),
	             (3, 'Padel', 'Padel 1', 20000, 80000), (4, 'Padel', 'Padel 2', 20000, 80000),
	             (5, 'Football 5', 'Football 5', 40000, 150000)) AS v(ord, type, name, cost, price)
	JOIN court_types ct ON lower(ct.name) = lower(v.type)
	ORDER BY v.ord
	ON CONFLICT ((lower(name))) DO NOTHING;
INSERT INTO tariffs (rrule, start_time, end_time, adjustment, description, is_active)
	SELECT v.rrule, v.start_time::time, v.end_time::time, v.adjustment, v.description, true
	FROM (VALUES ('FREQ=WEEKLY;BYDAY=SA,SU', NULL, NULL, '+20%', 'Weekend surcharge'),
	             (NULL, '18:00', '22:00', '+5000', 'Evening peak'),
	             ('FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR', '06:00', '09:00', '-15%', 'Early bird')) AS v(rrule, start_time, end_time, adjustment, description)
	WHERE NOT EXISTS (SELECT 1 FROM tariffs t WHERE t.description = v.description);
INSERT INTO class_tariffs (court_type_id, reservation_type_id, single_price, total_price, max_capacity)
	SELECT ct.id, rt.id, 30000, 180000, 6 FROM court_types ct, reservation_types rt
	WHERE lower(ct.name) = 'tennis' AND lower(rt.name) = 'tennis class'
	ON CONFLICT (court_type_id, reservation_type_id) DO NOTHING;
INSERT INTO coupons (code, kind, value, description) VALUES ('WELCOME10', 'percent', 10, 'Ten percent off a first booking')
	ON CONFLICT ((lower(code))) DO NOTHING;
INSERT INTO ticket_programs (name, description) VALUES
	('Open play', 'Drop-in games on any free court, one ticket a visit'),
	('Padel clinic', 'Coached padel sessions, one ticket a session')
	ON CONFLICT ((lower(name))) DO NOTHING;
INSERT INTO ticket_packages (program_id, name, ticket_count, unit_price, valid_days)
	SELECT p.id, v.name, v.ticket_count, v.unit_price, v.valid_days
	FROM (VALUES (1, 'Open play', '5 tickets', 5, 20000, 90), (2, 'Open play', '10 tickets', 10, 18000, 180),
	             (3, 'Padel clinic', '4 sessions', 4, 45000, 60), (4, 'Padel clinic', '8 sessions', 8, 40000, 120))
	     AS v(ord, program, name, ticket_count, unit_price, valid_days)
	JOIN ticket_programs p ON lower(p.name) = lower(v.program)
	ORDER BY v.ord
	ON CONFLICT (program_id, (lower(name))) DO NOTHING;
`

// user is a demo user: one per role, and one client.
type user struct {
	email string
	name  string
	roles []clubhouse.Role
}

var demoUsers = []user{
	{"sudo@demo.club", "Demo Sudo", []clubhouse.Role{clubhouse.RoleSudo, clubhouse.RoleAdmin, clubhouse.RoleOperator}},
	{"admin@demo.club", "Demo Admin", []clubhouse.Role{clubhouse.RoleAdmin, clubhouse.RoleOperator}},
	{"operator@demo.club", "Demo Operator", []clubhouse.Role{clubhouse.RoleOperator}},
	{"trainer@demo.club", "Demo Trainer", []clubhouse.Role{clubhouse.RoleTrainer}},
	{"accounting@demo.club", "Demo Accountant", []clubhouse.Role{clubhouse.RoleAccounting}},
	{"client@demo.club", "Demo Client", nil},
}

// Seed adds the demo club to a's database and writes the password of every
// demo user it creates to out.
func Seed(ctx context.Context, a *app.App, out io.Writer) error {
	type created struct{ email, password, roles string }
	var made []created
	err := sqldb.Transact(ctx, a.DB.DB, func(tx *sqlx.Tx) error {
		made = nil
		if _, err := tx.ExecContext(ctx, catalogSQL); err != nil {
			return fmt.Errorf("catalogs: %w", err)
		}
		for _, u := range demoUsers {
			if _, err := a.Auth.UserByEmail(ctx, u.email); err == nil {
				continue
			} else if !errors.Is(err, users.ErrUserNotFound) {
				return err
			}
			pw := password()
			roles := map[clubhouse.Role]bool{}
			names := "client"
			for i, r := range u.roles {
				roles[r] = true
				if i == 0 {
					names = string(r)
				} else {
					names += "," + string(r)
				}
			}
			nu, err := a.Users.Add(ctx, tx, users.Input{Email: u.email, Password: pw, DisplayName: u.name, Roles: roles})
			if err != nil {
				return fmt.Errorf("user %s: %w", u.email, err)
			}
			if len(u.roles) == 0 {
				_, err := tx.ExecContext(ctx, `INSERT INTO clients (user_id, email, display_name, first_name, last_name, phone, document, document_type_id)
					SELECT $1, $2, $3, 'Demo', 'Client', '+573000000001', '1000000001', id FROM document_types WHERE name = 'CC'
					ON CONFLICT DO NOTHING`, nu.ID, u.email, u.name)
				if err != nil {
					return fmt.Errorf("client %s: %w", u.email, err)
				}
			}
			made = append(made, created{u.email, pw, names})
		}
		return nil
	})
	if err != nil {
		return err
	}
	if a.Ledger != nil {
		if err := seedLedger(ctx, a); err != nil {
			return err
		}
	}
	if err := seedClasses(ctx, a, out); err != nil {
		return err
	}
	if err := seedEvent(ctx, a, out); err != nil {
		return err
	}
	if err := seedSale(ctx, a); err != nil {
		return err
	}
	if err := seedRules(ctx, a); err != nil {
		return err
	}
	if len(made) == 0 {
		fmt.Fprintln(out, "Demo club ready; its users already existed (reset a password with: clubctl user password --email E --password P).")
		return nil
	}
	fmt.Fprintln(out, "Demo club seeded. These passwords are shown once:")
	for _, m := range made {
		fmt.Fprintf(out, "  %-22s %-24s %s\n", m.email, m.password, m.roles)
	}
	return nil
}

// demoClasses are the demo trainer's classes, weekly for eight weeks from
// tomorrow, at hours the README's examples leave free.
var demoClasses = []struct {
	title, court string
	days         []int
	from, to     pricing.TimeOfDay
}{
	{"Tennis for beginners", "Tennis 1", []int{1, 3}, 7 * 60, 8 * 60},
	{"Junior tennis", "Tennis 2", []int{2, 4}, 16 * 60, 17 * 60},
}

// seedClasses gives the demo trainer two classes when they have none. A
// class whose court is already taken is left out, with a line on out.
func seedClasses(ctx context.Context, a *app.App, out io.Writer) error {
	trainer, err := a.Auth.UserByEmail(ctx, "trainer@demo.club")
	if err != nil {
		return err
	}
	desk := clubhouse.Staff("demo")
	have, err := a.Classes.Classes.List(ctx, desk, classes.ClassFilter{TrainerID: trainer.ID})
	if err != nil || len(have) > 0 {
		return err
	}
	var typeID int64
	if err := a.DB.GetContext(ctx, &typeID, `SELECT id FROM reservation_types WHERE lower(name) = 'tennis class'`); err != nil {
		return fmt.Errorf("class type: %w", err)
	}
	now := time.Now().In(a.Config.ClubTimezone)
	first := time.Date(now.Year(), now.Month(), now.Day()+1, 0, 0, 0, 0, time.UTC)
	for _, c := range demoClasses {
		var court int64
		if err := a.DB.GetContext(ctx, &court, `SELECT id FROM courts WHERE lower(name) = lower($1)`, c.court); err != nil {
			return fmt.Errorf("court %s: %w", c.court, err)
		}
		_, err := a.Classes.Classes.Create(ctx, desk, classes.ClassInput{Title: clubhouse.Some(c.title),
			UserID: clubhouse.Some(trainer.ID), CourtID: clubhouse.Some(court), ReservationTypeID: clubhouse.Some(typeID),
			StartDate: clubhouse.Some(first), EndDate: clubhouse.Some(first.AddDate(0, 0, 55)), Days: clubhouse.Some(c.days),
			StartTime: clubhouse.Some(c.from), EndTime: clubhouse.Some(c.to)})
		if errors.Is(err, booking.ErrCourtTaken) {
			fmt.Fprintf(out, "Demo class %q left out: %v\n", c.title, err)
			continue
		}
		if err != nil {
			return fmt.Errorf("class %s: %w", c.title, err)
		}
	}
	return nil
}

// seedEvent gives the demo club an event when it has none: a five-a-side
// night on Football 5 three days from now, 18:00 to 20:00 (open hours on
// any day, and free in the README's examples), with two participants, the
// demo client and Carla Ríos, a client the demo creates for it. The club's
// rules judge it as any staff booking; when one refuses it (the date is a
// holiday), or the court is taken, it is left out, with a line on out.
func seedEvent(ctx context.Context, a *app.App, out io.Writer) error {
	desk := clubhouse.Staff("demo")
	have, err := a.Tickets.Events.List(ctx, desk, tickets.EventFilter{})
	if err != nil || len(have) > 0 {
		return err
	}
	var court, typeID int64
	if err := a.DB.GetContext(ctx, &court, `SELECT id FROM courts WHERE lower(name) = 'football 5'`); err != nil {
		return fmt.Errorf("event court: %w", err)
	}
	if err := a.DB.GetContext(ctx, &typeID, `SELECT id FROM reservation_types WHERE lower(name) = 'event'`); err != nil {
		return fmt.Errorf("event type: %w", err)
	}
	var clients []int64
	if err := a.DB.SelectContext(ctx, &clients, `WITH carla AS (
		INSERT INTO clients (email, display_name, first_name, last_name, phone, document, document_type_id)
		SELECT 'carla@demo.club', 'Carla Ríos', 'Carla', 'Ríos', '+573000000002', '1000000002', id FROM document_types WHERE name = 'CC'
		ON CONFLICT DO NOTHING RETURNING id)
		SELECT id FROM clients WHERE lower(email) IN ('client@demo.club', 'carla@demo.club') UNION SELECT id FROM carla ORDER BY id`); err != nil {
		return fmt.Errorf("event clients: %w", err)
	}
	now := time.Now().In(a.Config.ClubTimezone)
	day := time.Date(now.Year(), now.Month(), now.Day()+3, 0, 0, 0, 0, time.UTC)
	e, err := a.Tickets.Events.Create(ctx, desk, tickets.EventInput{CourtID: clubhouse.Some(court), EventTypeID: clubhouse.Some(typeID),
		Checking: clubhouse.Some(day.Add(18 * time.Hour)), Checkout: clubhouse.Some(day.Add(20 * time.Hour)),
		Title: clubhouse.Some("Five-a-side night"), Capacity: clubhouse.Some(10)})
	if clubhouse.KindOf(err) == clubhouse.Conflict {
		fmt.Fprintf(out, "Demo event left out: %v\n", err)
		return nil
	}
	if err != nil {
		return fmt.Errorf("event: %w", err)
	}
	for _, c := range clients {
		if _, err := a.Tickets.Events.AddParticipant(ctx, desk, e.ID, tickets.ParticipantInput{ClientID: clubhouse.Some(c)}); err != nil {
			return fmt.Errorf("event participant %d: %w", c, err)
		}
	}
	return nil
}

// seedSale sells ten Open play tickets to a walk-in buyer at their quote,
// paid in cash, when no sale was ever made.
func seedSale(ctx context.Context, a *app.App) error {
	desk := clubhouse.Staff("demo")
	have, _, err := a.Tickets.Sales.List(ctx, desk, tickets.SaleFilter{Limit: 1})
	if err != nil || len(have) > 0 {
		return err
	}
	var pkg, cash int64
	if err := a.DB.GetContext(ctx, &pkg, `SELECT k.id FROM ticket_packages k JOIN ticket_programs p ON p.id = k.program_id
		WHERE lower(p.name) = 'open play' AND lower(k.name) = '10 tickets'`); err != nil {
		return fmt.Errorf("sale package: %w", err)
	}
	if err := a.DB.GetContext(ctx, &cash, `SELECT id FROM payment_types WHERE lower(name) = 'cash'`); err != nil {
		return fmt.Errorf("sale payment type: %w", err)
	}
	q, err := a.Tickets.Programs.Quote(ctx, desk, tickets.QuoteInput{PackageID: pkg})
	if err != nil {
		return fmt.Errorf("sale quote: %w", err)
	}
	_, err = a.Tickets.Sales.Sell(ctx, desk, tickets.SaleInput{QuoteID: clubhouse.Some(q.ID),
		Buyer:   tickets.BuyerInput{Name: clubhouse.Some("Laura Méndez"), Document: clubhouse.Some("CC 1000000003"), Email: clubhouse.Some("laura@demo.club")},
		Phones:  []string{"+57 300 000 0003"},
		Payment: &tickets.SalePaymentInput{PaymentTypeID: clubhouse.Some(cash), Amount: clubhouse.Some(q.Total)}})
	if err != nil {
		return fmt.Errorf("sale: %w", err)
	}
	return nil
}

// seedRules gives the demo club the rules of a real one, unless its rules
// were ever set: open 06:00-22:00 on weekdays and 07:00-21:00 at weekends,
// closed on the next Christmas Day and New Year's Day; bookings at most 14
// days ahead, at least an hour ahead, at most three hours long, at most four
// held per client, cancelled or moved at least six hours ahead;
// maintenance is for staff only, and tournaments, events and classes are
// planned further ahead (and the first two last longer) than rentals.
// They follow the classes, whose sessions the club scheduled before.
func seedRules(ctx context.Context, a *app.App) error {
	r, err := a.Rules.Get(ctx)
	if err != nil || r.UpdatedAt != nil {
		return err
	}
	hours := []booking.WeekHours{}
	for wd := 1; wd <= 7; wd++ {
		iv := booking.Interval{Opens: 6 * 60, Closes: 22 * 60}
		if wd >= 6 {
			iv = booking.Interval{Opens: 7 * 60, Closes: 21 * 60}
		}
		hours = append(hours, booking.WeekHours{Weekday: wd, Interval: iv})
	}
	now := time.Now().In(a.Config.ClubTimezone)
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	var closed []booking.DateHours
	for _, h := range []struct {
		month time.Month
		day   int
		note  string
	}{{time.December, 25, "Christmas Day"}, {time.January, 1, "New Year's Day"}} {
		d := time.Date(today.Year(), h.month, h.day, 0, 0, 0, 0, time.UTC)
		if d.Before(today) {
			d = d.AddDate(1, 0, 0)
		}
		closed = append(closed, booking.DateHours{Date: d, Note: &h.note})
	}
	types := []booking.TypeRules{}
	for _, t := range []struct {
		name            string
		staffOnly, long bool
	}{{"maintenance", true, false}, {"tournament", false, true}, {"event", false, true}, {"tennis class", false, false}} {
		var id int64
		if err := a.DB.GetContext(ctx, &id, `SELECT id FROM reservation_types WHERE lower(name) = $1`, t.name); err != nil {
			return fmt.Errorf("reservation type %s: %w", t.name, err)
		}
		noLimit := 0
		tr := booking.TypeRules{ReservationTypeID: id, StaffOnly: t.staffOnly}
		if !t.staffOnly {
			tr.AdvanceDays = &noLimit
		}
		if t.long {
			tr.MaxDurationMinutes = &noLimit
		}
		types = append(types, tr)
	}
	_, err = a.Rules.Change(ctx, clubhouse.Staff("demo"), booking.RulesChange{Hours: clubhouse.Some(hours),
		Exceptions: clubhouse.Some(closed), AdvanceDays: clubhouse.Some(14), MinNoticeMinutes: clubhouse.Some(60),
		MaxDurationMinutes: clubhouse.Some(180), MaxFutureBookings: clubhouse.Some(4), CancelWindowMinutes: clubhouse.Some(360),
		Types: clubhouse.Some(types)})
	return err
}

func password() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b) // never fails on supported platforms
	return base64.RawURLEncoding.EncodeToString(b)
}

// seedLedger adds the demo chart of accounts and, when no period covers
// today, an open period for the current year.
func seedLedger(ctx context.Context, a *app.App) error {
	desk := clubhouse.Staff("demo")
	if err := a.Ledger.SeedChart(ctx, desk, ledger.DemoChart); err != nil {
		return err
	}
	now := time.Now().In(a.Config.ClubTimezone)
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	if _, err := a.Ledger.OpenPeriodFor(ctx, desk, today); err == nil {
		return nil
	}
	_, err := a.Ledger.CreatePeriod(ctx, desk, fmt.Sprint(now.Year()), time.Date(now.Year(), 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(now.Year(), 12, 31, 0, 0, 0, 0, time.UTC))
	if clubhouse.KindOf(err) == clubhouse.Conflict {
		return nil // a closed or overlapping period exists: leave the accountant's periods alone
	}
	return err
}
