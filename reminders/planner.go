package reminders

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/eventlog"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
)

// followPage is the most events the planner reads at a time.
const followPage = 500

// planned are the types of the events after which the planner plans a
// booking's reminders again: every change of a booking.
var planned = map[string]bool{"booking.created": true, "booking.updated": true, "booking.checked_in": true,
	"booking.no_show": true, "booking.cancelled": true, "booking.deleted": true}

// Plan plans the reminders of the bookings changed since the last reading
// of the event log (see the package's doc), and returns how many bookings
// it planned; while another instance plans, it does nothing. A cursor into
// the part of the log purged (the planner was stopped longer than the
// log's retention) reads from the oldest event kept. Errors: the
// database's and the event log's.
func (s *Service) Plan(ctx context.Context) (int, error) {
	total := 0
	for {
		n, full, err := s.planPage(ctx)
		total += n
		if err != nil || !full {
			return total, err
		}
	}
}

// planPage plans the bookings of a page of the log, and says whether the
// page was full (more may follow).
func (s *Service) planPage(ctx context.Context) (bookings int, full bool, err error) {
	err = sqldb.Transact(ctx, s.db, func(tx *sqlx.Tx) error {
		bookings, full = 0, false
		var text string
		err := tx.GetContext(ctx, &text, `SELECT cursor FROM reminder_cursor FOR UPDATE SKIP LOCKED`)
		if errors.Is(err, sql.ErrNoRows) {
			return nil // another instance plans
		}
		if err != nil {
			return fmt.Errorf("read the reminders' cursor: %w", err)
		}
		after, err := eventlog.ParseCursor(text)
		if err != nil {
			return fmt.Errorf("the reminders' cursor: %w", err)
		}
		q := eventlog.Query{After: after, Type: "booking.", Limit: followPage}
		page, err := s.o.Log.List(ctx, asClub, q)
		if errors.Is(err, eventlog.ErrCursorExpired) {
			q.After = eventlog.Cursor{}
			page, err = s.o.Log.List(ctx, asClub, q)
		}
		if err != nil {
			return fmt.Errorf("follow the event log: %w", err)
		}
		ids, err := changed(page.Events)
		if err != nil {
			return err
		}
		settings, err := store{}.settings(ctx, tx)
		if err != nil {
			return err
		}
		now := s.o.Now()
		for _, id := range ids {
			if err := s.planBooking(ctx, tx, id, settings.Offsets, now); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, `UPDATE reminder_cursor SET cursor = $1`, page.Next.String()); err != nil {
			return fmt.Errorf("move the reminders' cursor: %w", err)
		}
		bookings, full = len(ids), len(page.Events) == followPage
		return nil
	})
	return bookings, full, err
}

// changed returns the ids of the bookings events tells of, each once, in
// the order of their first event.
func changed(events []eventlog.Event) ([]int64, error) {
	var ids []int64
	seen := map[int64]bool{}
	for _, ev := range events {
		if !planned[ev.Type] {
			continue
		}
		// The payload is the booking as the log's renderer shows it: "id"
		// in clubd's, "ID" without a renderer (beside the "id" its
		// insert decides).
		var id, bare int64
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(ev.Payload, &fields); err != nil {
			return nil, fmt.Errorf("the payload of event %s: %w", ev.ID, err)
		}
		for name, dst := range map[string]*int64{"id": &id, "ID": &bare} {
			if v, ok := fields[name]; ok {
				_ = json.Unmarshal(v, dst)
			}
		}
		if id == 0 {
			id = bare
		}
		if id == 0 {
			return nil, fmt.Errorf("event %s names no booking", ev.ID)
		}
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	return ids, nil
}

// planBooking plans the reminders of the booking with id as it now is: at
// each offset whose due time is still to come for a booking to remind of,
// none otherwise.
func (s *Service) planBooking(ctx context.Context, tx *sqlx.Tx, id int64, offsets []int, now time.Time) error {
	b, found, err := store{}.booking(ctx, tx, id, false)
	if err != nil {
		return err
	}
	if !found {
		return nil // deleted: its reminders went with it
	}
	var keep []int
	var due []time.Time
	if b.Off == "" {
		for _, m := range offsets {
			if at := dueAt(b.Checking, s.o.Zone, m); at.After(now) {
				keep, due = append(keep, m), append(due, at)
			}
		}
	}
	if keep == nil {
		keep = []int{}
	}
	return store{}.plan(ctx, tx, id, keep, due, b.Checking, now)
}

// PlannerJob is the job "reminder_planner": every interval it plans the
// reminders of the bookings changed since (Plan).
func (s *Service) PlannerJob(interval time.Duration) clubhouse.Job {
	return clubhouse.Every("reminder_planner", interval, func(ctx context.Context) error {
		_, err := s.Plan(ctx)
		return err
	})
}
