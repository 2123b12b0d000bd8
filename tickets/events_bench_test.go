package tickets_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/testkit/benchtest"
	"github.com/clubhouse-go/clubhouse/tickets"
)

// The participant benchmark seats tickets in events from benchWorkers
// goroutines, through Events.AddParticipant (arm A, the service, with an
// event log) and by the bare INSERT of the same rows (arm B, the floor:
// one statement on the pgx pool that writes the participant row, the
// trigger using the ticket as for the service, the slot given, and the
// ticket.used event with a payload the service wrote). Each round gives each arm benchEvents fresh
// events of benchSeats places and as many fresh tickets; seating i goes
// to event i mod benchEvents, so the workers mostly seat in different
// events. After a round of each arm that warms the connections, the
// rounds alternate the arms A B, B A, so that a drift of the machine
// weighs on both. Run it with
//
//	go test ./tickets/ -run '^$' -bench Participant -benchtime 1x
const (
	benchWorkers = 16
	benchEvents  = 16
	benchSeats   = 20
	benchRounds  = 6
)

// rawSeatSQL is the floor: the participant row of a ticket, in its slot,
// and the event of the ticket's use, with the payload $6.
const rawSeatSQL = `WITH p AS (INSERT INTO event_participants (event_id, capacity, ticket_id, strip_id, slot) VALUES ($1, $2, $3, $4, $5)
	RETURNING id)
	INSERT INTO event_log (type, at, actor, payload) SELECT 'ticket.used', now(), 'bench', $6::json FROM p`

func BenchmarkParticipantAssign(b *testing.B) {
	c := newEventClub(b)
	ctx := b.Context()
	var ctype int64
	c.get(b, &ctype, `SELECT court_type_id FROM courts WHERE id = $1`, c.court)
	courts := make([]int64, benchEvents)
	for i := range courts {
		courts[i] = c.fix.Court(ctype, fmt.Sprint("Bench ", i)).ID
	}
	day := time.Date(2026, 3, 3, 18, 0, 0, 0, time.UTC)
	// fresh returns benchEvents new events, on a day of their own, and
	// tickets for every place.
	fresh := func() ([]tickets.Event, []tickets.Ticket) {
		events := make([]tickets.Event, benchEvents)
		for i, court := range courts {
			var err error
			events[i], err = c.svc.Create(ctx, c.staff, tickets.EventInput{CourtID: clubhouse.Some(court),
				EventTypeID: clubhouse.Some(c.eventType), Checking: clubhouse.Some(day), Checkout: clubhouse.Some(day.Add(2 * time.Hour)),
				Title: clubhouse.Some("Bench"), Capacity: clubhouse.Some(benchSeats)})
			if err != nil {
				b.Fatal(err)
			}
		}
		day = day.AddDate(0, 0, 1)
		return events, c.fix.SoldTickets(benchEvents*benchSeats, "10000")
	}
	// payload is the payload of a ticket.used event the service wrote, for
	// the raw arm's events.
	var payload string
	// arm seats every ticket of a fresh round, through the service or raw,
	// and returns the seatings per second.
	arm := func(service bool) float64 {
		events, tk := fresh()
		rate := benchtest.Rate(b, benchWorkers, len(tk), func(i int) error {
			e := events[i%benchEvents]
			if service {
				_, err := c.svc.AddParticipant(ctx, c.staff, e.ID, tickets.ParticipantInput{TicketID: clubhouse.Some(tk[i].ID)})
				return err
			}
			_, err := c.db.Pool.Exec(ctx, rawSeatSQL, e.ID, e.Capacity, tk[i].ID, tk[i].StripID, i/benchEvents+1, payload)
			return err
		})
		var used int
		c.get(b, &used, `SELECT count(*) FROM tickets WHERE status = 'used' AND id = ANY($1)`, ids(tk))
		if used != len(tk) {
			b.Fatalf("%d of %d tickets used", used, len(tk))
		}
		return rate
	}
	// A round of each arm warms the connections and their statement
	// caches first; it is not counted.
	arm(true)
	c.get(b, &payload, `SELECT payload::text FROM event_log WHERE type = 'ticket.used' LIMIT 1`)
	arm(false)
	var sumA, sumB float64
	for range b.N {
		sumA, sumB = 0, 0
		for r := range benchRounds {
			var a, raw float64
			if r%2 == 0 {
				a, raw = arm(true), arm(false)
			} else {
				raw, a = arm(false), arm(true)
			}
			sumA, sumB = sumA+a, sumB+raw
			b.Logf("round %d: service %.0f seatings/s, raw %.0f seatings/s, ratio %.2f", r, a, raw, a/raw)
		}
	}
	b.ReportMetric(sumA/benchRounds, "service-seatings/s")
	b.ReportMetric(sumB/benchRounds, "raw-seatings/s")
	b.ReportMetric(sumA/sumB, "ratio")
	b.Logf("overall: ratio %.2f (the mean service rate over the mean raw rate)", sumA/sumB)
}

// ids returns the ids of tk.
func ids(tk []tickets.Ticket) []int64 {
	out := make([]int64, len(tk))
	for i, t := range tk {
		out[i] = t.ID
	}
	return out
}
