// Package reminders owns the reminders of bookings: the club's reminder
// times (Settings: how many minutes before a booking's start, such as 24 h
// and 2 h), each member's choice per channel (Preferences: e-mail, push),
// and the two jobs that plan and send them, computed from the club's event
// log (package eventlog).
//
// The planner (PlannerJob, "reminder_planner"; Plan once) follows the log
// from a cursor of its own, whose row the one instance that plans locks
// (as the outgoing webhooks' deliverer does). For each booking event
// (booking.created, updated, checked_in, no_show, cancelled, deleted) it
// reads the booking as it now is and plans one reminder per offset of the
// club, due at the booking's start in the club's zone less the offset,
// when the booking is one to remind of: not cancelled, marked a no-show or
// checked in, not held by a class or an event, of a client with a login. A
// moved booking's reminders not sent yet move to the new time; a booking
// no longer to remind of loses them; a due time already past when planned
// is not planned (no late reminders). A booking has at most one reminder
// per offset, ever (the table's key): a reminder sent or dropped is never
// planned again.
//
// The sender (SenderJob, "reminder_sender"; SendDue once) claims the due
// reminders with FOR UPDATE SKIP LOCKED and, in the transaction that marks
// each sent, checks the booking again (still one to remind of, starting
// when planned, not started yet), queues its e-mail (mail.KindBookingReminder,
// when the member wants e-mail) and its push notification (push.Service.Queue,
// when they want push; it reaches the devices they registered). Each
// reminder is sent once whatever the instances and restarts: the mark and
// what it queues commit together, and a claimed row is skipped by others.
//
// On a database migrated with migrations.Main():
//
//	events := eventlog.New(db, eventlog.Options{})
//	rem := reminders.New(db, reminders.Options{Zone: bogota, Log: events, Mail: outbox, Push: pushes})
//	_, err := rem.SetSettings(ctx, clubhouse.Staff("setup"), reminders.Settings{Offsets: []int{1440, 120}})
//	go func() { log.Print(rem.PlannerJob(time.Second).Run(ctx)) }()
//	go func() { log.Print(rem.SenderJob(time.Minute).Run(ctx)) }()
package reminders
