package reminders

import (
	"context"
	"strconv"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/mail"
	"github.com/clubhouse-go/clubhouse/push"
)

// sendBatch is the most reminders one transaction of the sender claims.
const sendBatch = 50

// SendDue sends the reminders due (see the package's doc) and returns how
// many it sent. A reminder whose booking moved since it was planned is
// left for the planner to move; one whose booking is no longer one to
// remind of, or has started, is dropped. Errors: the database's, and those
// of queuing an e-mail or a notification, which roll the batch back for
// the next round.
func (s *Service) SendDue(ctx context.Context) (int, error) {
	total := 0
	for ctx.Err() == nil {
		n, more, err := s.sendBatch(ctx)
		total += n
		if err != nil || !more {
			return total, err
		}
	}
	return total, nil
}

// sendBatch claims a batch of due reminders and sends or drops them in
// one transaction, and says whether the batch was full.
func (s *Service) sendBatch(ctx context.Context) (sent int, more bool, err error) {
	err = sqldb.Transact(ctx, s.db, func(tx *sqlx.Tx) error {
		sent, more = 0, false
		now := s.o.Now()
		due, err := store{}.claim(ctx, tx, now, sendBatch)
		if err != nil {
			return err
		}
		handled := 0
		for _, c := range due {
			done, ok, err := s.send(ctx, tx, c, now)
			if err != nil {
				return err
			}
			if done {
				handled++
			}
			if ok {
				sent++
			}
		}
		// A batch holding a reminder left for the planner ends the
		// round: the next claims it again.
		more = len(due) == sendBatch && handled == len(due)
		return nil
	})
	return sent, more, err
}

// send sends the claimed reminder c, or drops it, in tx, and says whether
// it did either (done) and whether it sent it (ok).
func (s *Service) send(ctx context.Context, tx *sqlx.Tx, c claimed, now time.Time) (done, ok bool, err error) {
	b, found, err := store{}.booking(ctx, tx, c.BookingID, true)
	if err != nil || !found {
		return false, false, err
	}
	if !b.Checking.Equal(c.StartsAt) {
		return false, false, nil // moved: the planner moves it, or drops it
	}
	if b.Off != "" || !dueAt(b.Checking, s.o.Zone, 0).After(now) {
		return true, false, store{}.mark(ctx, tx, c, now, true, false, false)
	}
	email := s.o.Mail != nil && (!b.Email.Valid || b.Email.Bool)
	toPush := s.o.Push != nil && (!b.Push.Valid || b.Push.Bool)
	if email {
		if err := s.o.Mail.Queue(ctx, tx, mail.Notice{Kind: mail.KindBookingReminder, ClientID: b.ClientID.Int64, Ref: c.BookingID}); err != nil {
			return false, false, err
		}
	}
	if toPush {
		d := Due{BookingID: c.BookingID, Court: b.Court, Start: b.Checking, Offset: time.Duration(c.Offset) * time.Minute, Language: "es"}
		if b.Language.String == "en" {
			d.Language = "en"
		}
		title, body := s.o.PushText(d)
		in := push.NotificationInput{ClientID: b.ClientID.Int64, Title: title, Body: body}
		if s.o.App != "" {
			in.URL = s.o.App + "bookings/" + strconv.FormatInt(c.BookingID, 10)
		}
		if _, err := s.o.Push.Queue(ctx, tx, asClub.Label(), in); err != nil {
			return false, false, err
		}
	}
	return true, true, store{}.mark(ctx, tx, c, now, false, email, toPush)
}

// SenderJob is the job "reminder_sender": every interval it sends the
// reminders due (SendDue).
func (s *Service) SenderJob(interval time.Duration) clubhouse.Job {
	return clubhouse.Every("reminder_sender", interval, func(ctx context.Context) error {
		_, err := s.SendDue(ctx)
		return err
	})
}
