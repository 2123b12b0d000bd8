package httpapi

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/clubhouse-go/clubhouse/eventlog"
)

// The event log (package eventlog): every change of the club's records, in
// order, for the staff and, of payments and periods, the accountants.

// logEventDTO is an event of the log.
type logEventDTO struct {
	// the event's stable id, the same wherever it is delivered
	ID string `json:"id" validate:"required" format:"uuid" example:"5f0c6c1e-8d1b-4a59-9d0e-2f1e4b7c9a10"`
	// the resource, a dot, what happened
	Type      string    `json:"type" validate:"required" example:"booking.created"`
	Timestamp time.Time `json:"timestamp" validate:"required" format:"date-time"`
	// who acted: an e-mail, a bot's name, or system
	Actor string `json:"actor" validate:"required" example:"desk@demo.club"`
	// the resource as the API shows it; the schema event.<type> of this description gives each type's
	Data json.RawMessage `json:"data" validate:"required" swaggertype:"object"`
	// the cursor just after this event
	Cursor string `json:"cursor" validate:"required" example:"42"`
}

func newLogEventDTO(e eventlog.Event) logEventDTO {
	return logEventDTO{ID: e.ID, Type: e.Type, Timestamp: e.At, Actor: e.Actor, Data: e.Payload, Cursor: e.Cursor.String()}
}

// logEventsPageDTO is a page of the event log.
type logEventsPageDTO struct {
	Data []logEventDTO `json:"data" validate:"required"`
	// where the next page starts: send it as after; the same cursor as sent when the page is empty
	NextCursor string `json:"next_cursor" validate:"required" example:"42"`
}

// listEventsLog reads a page of the event log.
//
// @Summary The event log
// @Description Every change of the club's records, in the order the log holds them: each event with its stable id, type, time, actor and data (the resource as the API shows it). Page with after: send the next_cursor of the last page to read what follows; a cursor never skips nor repeats an event, even while changes commit out of order (an event gets its place in the log once committed; a page holds only placed events, so read again for what is new). A page not full moves the cursor past every event read by then, also those of other types than asked. Events are kept EVENT_LOG_RETENTION_DAYS (90 unless set), then deleted, the oldest part of the log at a time: a cursor into the part deleted is 409 cursor expired (read again from the start), a cursor the log never gave is 400. Staff read every event; an accountant (without the staff's roles) reads only the events of payments and periods (types payment.* and period.*); anyone else is 403.
// @Tags events
// @Produce json
// @Param after query string false "The cursor to read after (next_cursor of the last page); none: from the oldest event kept" maxlength(20)
// @Param type query string false "Only the events whose type starts with this, such as booking. or payment.completed" maxlength(64)
// @Param limit query int false "Page size, 1 to 1000; 0 gives the default page, 100" default(100)
// @Success 200 {object} logEventsPageDTO
// @Failure 400,401,403,409,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/events-log [get]
func (s *Server) listEventsLog(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	after, err := eventlog.ParseCursor(q.Get("after"))
	if err != nil {
		return err
	}
	limit, err := queryInt64(r, "limit")
	if err != nil {
		return err
	}
	page, err := s.club(r).EventLog.List(r.Context(), actor(r), eventlog.Query{After: after, Type: q.Get("type"), Limit: int(limit.Or(0))})
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, logEventsPageDTO{Data: mapSlice(page.Events, newLogEventDTO), NextCursor: page.Next.String()})
}
