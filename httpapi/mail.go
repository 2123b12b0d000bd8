package httpapi

import (
	"net/http"
	"strconv"
	"time"

	"github.com/clubhouse-go/clubhouse/mail"
)

// mailMessageDTO is a message of the club's outbox as staff see it: to
// whom, what, and what became of it; never the link it carries.
type mailMessageDTO struct {
	ID            int64      `json:"id" validate:"required"`
	Kind          string     `json:"kind" validate:"required" enums:"set_password,verify_signup,reset_password,booking_confirmed,booking_cancelled,enrollment_accepted,waitlist_promoted,class_cancelled,ticket_receipt,webhook_disabled,booking_reminder"`
	UserID        *int64     `json:"user_id" validate:"required" extensions:"x-nullable"`   // the recipient, when a user
	ClientID      *int64     `json:"client_id" validate:"required" extensions:"x-nullable"` // the recipient, when a client
	RefID         *int64     `json:"ref_id" validate:"required" extensions:"x-nullable"`    // the record the message tells of: a booking, an enrollment, a ticket sale
	Status        string     `json:"status" validate:"required" enums:"pending,sent,failed,dropped"`
	Attempts      int        `json:"attempts" validate:"required"`
	NextAttemptAt *time.Time `json:"next_attempt_at" validate:"required" extensions:"x-nullable"` // while pending
	LastAttemptAt *time.Time `json:"last_attempt_at" validate:"required" extensions:"x-nullable"`
	LastError     *string    `json:"last_error" validate:"required" extensions:"x-nullable"` // the mail server's answer, or why nothing was sent
	To            *string    `json:"to" validate:"required" extensions:"x-nullable"`         // the address used, once the message was made
	Subject       *string    `json:"subject" validate:"required" extensions:"x-nullable"`    // once the message was made
	Via           *string    `json:"via" validate:"required" enums:"smtp,log" extensions:"x-nullable"`
	CreatedAt     time.Time  `json:"created_at" validate:"required"`
	SentAt        *time.Time `json:"sent_at" validate:"required" extensions:"x-nullable"`
}

func newMailMessageDTO(m mail.Message) mailMessageDTO {
	return mailMessageDTO{ID: m.ID, Kind: string(m.Kind), UserID: m.UserID, ClientID: m.ClientID, RefID: m.Ref, Status: m.Status,
		Attempts: m.Attempts, NextAttemptAt: m.NextAttemptAt, LastAttemptAt: m.LastAttemptAt, LastError: m.LastError, To: m.To,
		Subject: m.Subject, Via: m.Via, CreatedAt: m.CreatedAt, SentAt: m.SentAt}
}

// listMail lists the club's outgoing messages.
//
// @Summary List the club's outgoing e-mail
// @Description The messages the club sent or will send, newest first: to whom, what, and what became of each. pending waits for its next attempt (a mail server that failed is tried again with a doubling wait); sent was taken by the mail server (via smtp) or, on a server without SMTP_URL, written to the log (via log); failed was refused for good or kept failing, last_error holding the mail server's answer; dropped had nothing to send (a recipient without an address). A message's link (set-password, verification) is never shown. Headers: X-Total-Count (every message that matches), X-Limit and X-Offset (the page answered).
// @Tags mail
// @Produce json
// @Param status query string false "Only messages with this status" Enums(pending,sent,failed,dropped) maxlength(255)
// @Param limit query int false "Page size, 1 to 200; 0 gives the default page, 50" default(50)
// @Param offset query int false "Rows to skip" default(0)
// @Success 200 {array} mailMessageDTO
// @Header 200 {integer} X-Total-Count "Messages that match, in all pages"
// @Header 200 {integer} X-Limit "Page size"
// @Header 200 {integer} X-Offset "Rows skipped"
// @Failure 400,401,403,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/mail [get]
func (s *Server) listMail(w http.ResponseWriter, r *http.Request) error {
	f := mail.Filter{Status: r.URL.Query().Get("status")}
	var err error
	if f.Limit, f.Offset, err = queryPage(r); err != nil {
		return err
	}
	rows, total, err := s.club(r).Mail.List(r.Context(), actor(r), f)
	if err != nil {
		return err
	}
	w.Header().Set("X-Total-Count", strconv.Itoa(total))
	w.Header().Set("X-Limit", strconv.Itoa(mail.Paging.Size(f.Limit)))
	w.Header().Set("X-Offset", strconv.Itoa(f.Offset))
	return writeJSON(w, http.StatusOK, mapSlice(rows, newMailMessageDTO))
}
