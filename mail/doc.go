// Package mail owns the e-mail the club sends: an outbox of messages
// written in the transaction of the change that causes them, and a
// sender that delivers them over SMTP (github.com/wneessen/go-mail).
//
// A change queues a Notice (notice.go: what it tells, Kind, and to whom, a
// user or a client) with Outbox.Queue in its own transaction: a change
// that rolls back sends nothing, one that commits loses no message. The
// domains take the outbox in their Options (booking, classes, tickets;
// the sign-in's links in internal/identity/auth); a nil *Outbox queues
// nothing.
//
// The Sender makes each queued notice into its Letter when it sends it,
// through a Composer (clubd's is internal/frontdoor/letters: the words of
// each kind in the recipient's language, with the club's name, a
// plain-text and an HTML body), and hands it to a Transport: SMTP (from
// SMTP_URL and MAIL_FROM), or Log, which writes it to the log, for a
// server without a mail server. Its job, Sender.Job, claims the due
// messages with FOR UPDATE SKIP LOCKED and a lease, so two servers never
// send one message, and records each outcome: sent; dropped when there is
// nothing to send (ErrNoLetter: a recipient without an address); failed
// at once when the server refuses the recipient for good (ErrRefused);
// tried again with a doubling wait after any other failure, up to
// SenderOptions.MaxAttempts, then failed with the server's last answer,
// which staff read in Outbox.List. A link (set-password, verification)
// stays in the row only until its message is sent or given up.
//
// On a database migrated with migrations.Main():
//
//	outbox := mail.NewOutbox(db, nil)
//	from, err := mail.ParseFrom("Club Los Andes <reservas@losandes.example>")
//	smtp, err := mail.NewSMTP("smtp://user:secret@mail.example:587", from)
//	sender := mail.NewSender(db, mail.SenderOptions{Composer: letters, Transport: smtp, Domain: from.Domain()})
//	go func() { log.Print(sender.Job(time.Minute).Run(ctx)) }()
//	tx, err := db.BeginTxx(ctx, nil)
//	// ... the change, then:
//	err = outbox.Queue(ctx, tx, mail.Notice{Kind: mail.KindBookingConfirmed, ClientID: 7, Ref: 42})
//	err = tx.Commit()
package mail
