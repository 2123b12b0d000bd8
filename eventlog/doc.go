// Package eventlog is the club's event log: one durable record of every
// domain change, in order, which the club's consumers follow: the staff's
// events-log route, the outgoing webhooks, the reminders, and the realtime
// relay.
//
// A change records its events with Log.Record in its own transaction, as
// a change queues its mail: a change that rolls back leaves no event, one
// that commits loses none. Each Event has a stable id (a UUID, the same on
// every delivery), a type ("booking.created": the resource, a dot, what
// happened), the time, who acted (the label its records use), and a
// payload: the domain value the change recorded, rendered by
// Options.Render (clubd's renders the resource as its API shows it). A
// change made in one statement outside a transaction writes its event in
// that statement (Log.Encode, Encoded.Insert), the fields the database
// decides filled by it. Changes committed in another database (the
// ledger's) record in a log of that database, which Log.Forward moves into
// the club's, each event once.
//
// Readers page through the log with a Cursor (List): the events after it,
// in the order the log holds them, and the cursor to read from next.
// Writers commit out of order, so an event gets its place in the log only
// once committed: each reading first numbers the committed events that
// have none, after every place given before (one sequencer at a time, on
// any server, under an advisory lock), and reads by place. An event
// committed late gets a later place, so a cursor never skips nor repeats
// an event, and never sees one of a change rolled back.
//
// A change records the realtime relay's messages (Message: a topic and a
// payload with its audience) in its transaction too, with Announce, or in
// its one statement with Encoded.Relay; the relay of each server follows
// the log (Relays, from End) and sends them in the log's order, so a
// message is sent only for a change that committed. A change with
// messages and no event writes a row that readers of events skip.
//
// Events are kept Options.Retention (90 days unless set), then deleted by
// the job PurgeJob ("event_log_purge"), a prefix of the log at a time; a
// cursor into the part deleted is refused (ErrCursorExpired).
//
// On a database migrated with migrations.Main():
//
//	log := eventlog.New(db, eventlog.Options{})
//	tx, err := db.BeginTxx(ctx, nil)
//	// ... the change, then:
//	err = log.Record(ctx, tx, eventlog.Entry{Type: "booking.created", Actor: "desk@club.example", Payload: booking})
//	err = tx.Commit()
//	page, err := log.List(ctx, clubhouse.Staff("desk"), eventlog.Query{Limit: 100})
//	// page.Events, then List again with After: page.Next
package eventlog
