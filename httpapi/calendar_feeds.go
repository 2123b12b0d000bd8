package httpapi

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/clubhouse-go/clubhouse/calendar"
)

// Calendar feeds (RFC 5545): the public feed at /calendar/{feed}, and the
// routes that show, renew and revoke the member's own feed and, for the
// staff, a court's and a trainer's.

// calendarFeedPrefix is where the feeds are served: the URL of a feed is
// PUBLIC_BASE_URL + calendarFeedPrefix + token + ".ics".
const calendarFeedPrefix = "/calendar/"

// calendarFeedMaxAge is how long a calendar or a cache may keep a feed
// without asking again.
const calendarFeedMaxAge = 5 * time.Minute

// calendarFeedDTO is a calendar feed: the URL a calendar subscribes to.
type calendarFeedDTO struct {
	URL       string    `json:"url" validate:"required" example:"https://club.example.com/calendar/3q2-7wEAAACzm5vz2m1V1HcO3kDN8bqWQk2C1nGr3XA.ics"`
	Kind      string    `json:"kind" validate:"required" enums:"member,court,trainer"`
	CreatedBy string    `json:"created_by" validate:"required" example:"ana@example.com"`
	CreatedAt time.Time `json:"created_at" validate:"required" format:"date-time"`
}

func (s *Server) newCalendarFeedDTO(f calendar.Feed) calendarFeedDTO {
	return calendarFeedDTO{URL: strings.TrimRight(s.o.PublicBaseURL, "/") + calendarFeedPrefix + f.Token + ".ics",
		Kind: string(f.Kind), CreatedBy: f.CreatedBy, CreatedAt: f.CreatedAt}
}

// writeFeed writes a feed's answer, whose URL is the credential that
// reads it: no cache keeps it.
func writeFeed(w http.ResponseWriter, status int, f calendarFeedDTO) error {
	w.Header().Set("Cache-Control", "no-store")
	return writeJSON(w, status, f)
}

// serveCalendarFeed serves a calendar feed by its token.
//
// @Summary Read a calendar feed
// @Description An iCalendar document (RFC 5545) for a calendar application to subscribe to: a member's bookings, class sessions and events, a court's bookings or a trainer's class sessions, from 90 days ago on, cancelled ones as STATUS:CANCELLED; times in the club's zone (TZID and its VTIMEZONE). The address is the credential: whoever has it reads the feed, until it is renewed or revoked (then 404). 400 for a path that no token could be (a NUL character, over 255 characters). A strong ETag comes with each answer, and a request whose If-None-Match names it answers 304 without a body. Each feed may be read 20 times at once and once every 15 seconds after; beyond that 429 with Retry-After.
// @Tags calendar
// @Produce text/calendar
// @Produce json
// @Param feed path string true "the feed's token followed by .ics" maxlength(255)
// @Param If-None-Match header string false "an ETag of an earlier answer" maxlength(255)
// @Success 200 {string} string "text/calendar; charset=utf-8"
// @Success 304 "not modified since the ETag named"
// @Header 200,304 {string} ETag "the document's strong entity tag"
// @Header 200,304 {string} Cache-Control "max-age=300"
// @Header 429 {string} Retry-After "seconds to wait"
// @Failure 400,404,429,503 {object} errorBody
// @Router /calendar/{feed} [get]
func (s *Server) serveCalendarFeed(w http.ResponseWriter, r *http.Request) error {
	token, ok := strings.CutSuffix(r.PathValue("feed"), ".ics")
	if !ok {
		return calendar.ErrFeedNotFound
	}
	doc, err := s.club(r).Calendar.Serve(r.Context(), token)
	if err != nil {
		return err
	}
	h := w.Header()
	h.Set("ETag", doc.ETag)
	h.Set("Cache-Control", "max-age="+strconv.Itoa(int(calendarFeedMaxAge.Seconds())))
	if etagMatches(r.Header.Get("If-None-Match"), doc.ETag) {
		w.WriteHeader(http.StatusNotModified)
		return nil
	}
	h.Set("Content-Type", "text/calendar; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(doc.Body)))
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(doc.Body)
	}
	return nil
}

// etagMatches reports whether the If-None-Match header value list names
// etag (or is "*"), by the weak comparison RFC 9110 (13.1.2) asks of it.
func etagMatches(list, etag string) bool {
	want := strings.TrimPrefix(etag, "W/")
	for _, t := range strings.Split(list, ",") {
		t = strings.TrimSpace(t)
		if t == "*" || (t != "" && strings.TrimPrefix(t, "W/") == want) {
			return true
		}
	}
	return false
}

// getAccountCalendarFeed shows the caller's calendar feed.
//
// @Summary Show my calendar feed
// @Description The address of the caller's calendar feed (their bookings, class sessions and events), the same until it is renewed or revoked. 404 calendar feed not found when they have none (POST makes one), 404 client not found without a client record, 409 calendar feed key changed when the server's key changed since it was made (its address still works; POST makes a new one that can be shown).
// @Tags account
// @Produce json
// @Success 200 {object} calendarFeedDTO
// @Header 200 {string} Cache-Control "no-store"
// @Failure 401,403,404,409,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/account/calendar-feed [get]
func (s *Server) getAccountCalendarFeed(w http.ResponseWriter, r *http.Request) error {
	f, err := s.club(r).Calendar.Own(r.Context(), actor(r))
	if err != nil {
		return err
	}
	return writeFeed(w, http.StatusOK, s.newCalendarFeedDTO(f))
}

// renewAccountCalendarFeed makes the caller's calendar feed, or gives it
// a new address.
//
// @Summary Make or renew my calendar feed
// @Description Makes the caller's calendar feed, or gives it a new address: the old one answers 404 from now on. 404 client not found without a client record.
// @Tags account
// @Produce json
// @Success 201 {object} calendarFeedDTO
// @Header 201 {string} Cache-Control "no-store"
// @Failure 401,403,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/account/calendar-feed [post]
func (s *Server) renewAccountCalendarFeed(w http.ResponseWriter, r *http.Request) error {
	f, err := s.club(r).Calendar.RenewOwn(r.Context(), actor(r))
	if err != nil {
		return err
	}
	return writeFeed(w, http.StatusCreated, s.newCalendarFeedDTO(f))
}

// revokeAccountCalendarFeed revokes the caller's calendar feed.
//
// @Summary Revoke my calendar feed
// @Description Its address answers 404 from now on. 404 calendar feed not found when there is none.
// @Tags account
// @Success 204
// @Failure 401,403,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/account/calendar-feed [delete]
func (s *Server) revokeAccountCalendarFeed(w http.ResponseWriter, r *http.Request) error {
	if err := s.club(r).Calendar.RevokeOwn(r.Context(), actor(r)); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// getOwnTrainerCalendarFeed shows the calling trainer's calendar feed.
//
// @Summary Show my classes' calendar feed
// @Description The address of the calling trainer's calendar feed (the sessions of the classes they give), the same the staff see for them until it is renewed or revoked. 404 calendar feed not found when there is none (POST makes one), 409 calendar feed key changed when the server's key changed since it was made.
// @Tags calendar
// @Produce json
// @Success 200 {object} calendarFeedDTO
// @Header 200 {string} Cache-Control "no-store"
// @Failure 401,403,404,409,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/trainer/calendar-feed [get]
func (s *Server) getOwnTrainerCalendarFeed(w http.ResponseWriter, r *http.Request) error {
	f, err := s.club(r).Calendar.OwnTrainer(r.Context(), actor(r))
	if err != nil {
		return err
	}
	return writeFeed(w, http.StatusOK, s.newCalendarFeedDTO(f))
}

// renewOwnTrainerCalendarFeed makes the calling trainer's calendar feed,
// or gives it a new address.
//
// @Summary Make or renew my classes' calendar feed
// @Description Makes the calling trainer's calendar feed, or gives it a new address: the old one answers 404 from now on.
// @Tags calendar
// @Produce json
// @Success 201 {object} calendarFeedDTO
// @Header 201 {string} Cache-Control "no-store"
// @Failure 401,403,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/trainer/calendar-feed [post]
func (s *Server) renewOwnTrainerCalendarFeed(w http.ResponseWriter, r *http.Request) error {
	f, err := s.club(r).Calendar.RenewOwnTrainer(r.Context(), actor(r))
	if err != nil {
		return err
	}
	return writeFeed(w, http.StatusCreated, s.newCalendarFeedDTO(f))
}

// revokeOwnTrainerCalendarFeed revokes the calling trainer's calendar
// feed.
//
// @Summary Revoke my classes' calendar feed
// @Description Its address answers 404 from now on. 404 calendar feed not found when there is none.
// @Tags calendar
// @Success 204
// @Failure 401,403,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/trainer/calendar-feed [delete]
func (s *Server) revokeOwnTrainerCalendarFeed(w http.ResponseWriter, r *http.Request) error {
	if err := s.club(r).Calendar.RevokeOwnTrainer(r.Context(), actor(r)); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// staffCalendarFeed runs do on the feed of kind whose subject is the
// path's id.
func (s *Server) staffCalendarFeed(w http.ResponseWriter, r *http.Request, kind calendar.Kind, do func(w http.ResponseWriter, r *http.Request, kind calendar.Kind, id int64) error) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	return do(w, r, kind, id)
}

func (s *Server) getCalendarFeed(w http.ResponseWriter, r *http.Request, kind calendar.Kind, id int64) error {
	f, err := s.club(r).Calendar.Get(r.Context(), actor(r), kind, id)
	if err != nil {
		return err
	}
	return writeFeed(w, http.StatusOK, s.newCalendarFeedDTO(f))
}

func (s *Server) renewCalendarFeed(w http.ResponseWriter, r *http.Request, kind calendar.Kind, id int64) error {
	f, err := s.club(r).Calendar.Renew(r.Context(), actor(r), kind, id)
	if err != nil {
		return err
	}
	return writeFeed(w, http.StatusCreated, s.newCalendarFeedDTO(f))
}

func (s *Server) revokeCalendarFeed(w http.ResponseWriter, r *http.Request, kind calendar.Kind, id int64) error {
	if err := s.club(r).Calendar.Revoke(r.Context(), actor(r), kind, id); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// getCourtCalendarFeed shows a court's calendar feed.
//
// @Summary Show a court's calendar feed
// @Description The address of the court's calendar feed: every booking of the court, named by its class, event or type (never its client). 404 calendar feed not found when it has none.
// @Tags calendar
// @Produce json
// @Param id path int true "court id"
// @Success 200 {object} calendarFeedDTO
// @Header 200 {string} Cache-Control "no-store"
// @Failure 400,401,403,404,409,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/courts/{id}/calendar-feed [get]
func (s *Server) getCourtCalendarFeed(w http.ResponseWriter, r *http.Request) error {
	return s.staffCalendarFeed(w, r, calendar.KindCourt, s.getCalendarFeed)
}

// renewCourtCalendarFeed makes a court's calendar feed, or gives it a new address.
//
// @Summary Make or renew a court's calendar feed
// @Description Makes the court's calendar feed, or gives it a new address: the old one answers 404 from now on. 404 calendar subject not found for a court that does not exist.
// @Tags calendar
// @Produce json
// @Param id path int true "court id"
// @Success 201 {object} calendarFeedDTO
// @Header 201 {string} Cache-Control "no-store"
// @Failure 400,401,403,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/courts/{id}/calendar-feed [post]
func (s *Server) renewCourtCalendarFeed(w http.ResponseWriter, r *http.Request) error {
	return s.staffCalendarFeed(w, r, calendar.KindCourt, s.renewCalendarFeed)
}

// revokeCourtCalendarFeed revokes a court's calendar feed.
//
// @Summary Revoke a court's calendar feed
// @Description Its address answers 404 from now on. 404 calendar feed not found when there is none.
// @Tags calendar
// @Param id path int true "court id"
// @Success 204
// @Failure 400,401,403,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/courts/{id}/calendar-feed [delete]
func (s *Server) revokeCourtCalendarFeed(w http.ResponseWriter, r *http.Request) error {
	return s.staffCalendarFeed(w, r, calendar.KindCourt, s.revokeCalendarFeed)
}

// getTrainerCalendarFeed shows a trainer's calendar feed.
//
// @Summary Show a trainer's calendar feed
// @Description The address of the trainer's calendar feed: the sessions of the classes they give. id is the trainer's user id. 404 calendar feed not found when they have none.
// @Tags calendar
// @Produce json
// @Param id path int true "the trainer's user id"
// @Success 200 {object} calendarFeedDTO
// @Header 200 {string} Cache-Control "no-store"
// @Failure 400,401,403,404,409,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/trainers/{id}/calendar-feed [get]
func (s *Server) getTrainerCalendarFeed(w http.ResponseWriter, r *http.Request) error {
	return s.staffCalendarFeed(w, r, calendar.KindTrainer, s.getCalendarFeed)
}

// renewTrainerCalendarFeed makes a trainer's calendar feed, or gives it a new address.
//
// @Summary Make or renew a trainer's calendar feed
// @Description Makes the trainer's calendar feed, or gives it a new address: the old one answers 404 from now on. 404 calendar subject not found for a user that does not exist.
// @Tags calendar
// @Produce json
// @Param id path int true "the trainer's user id"
// @Success 201 {object} calendarFeedDTO
// @Header 201 {string} Cache-Control "no-store"
// @Failure 400,401,403,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/trainers/{id}/calendar-feed [post]
func (s *Server) renewTrainerCalendarFeed(w http.ResponseWriter, r *http.Request) error {
	return s.staffCalendarFeed(w, r, calendar.KindTrainer, s.renewCalendarFeed)
}

// revokeTrainerCalendarFeed revokes a trainer's calendar feed.
//
// @Summary Revoke a trainer's calendar feed
// @Description Its address answers 404 from now on. 404 calendar feed not found when there is none.
// @Tags calendar
// @Param id path int true "the trainer's user id"
// @Success 204
// @Failure 400,401,403,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/trainers/{id}/calendar-feed [delete]
func (s *Server) revokeTrainerCalendarFeed(w http.ResponseWriter, r *http.Request) error {
	return s.staffCalendarFeed(w, r, calendar.KindTrainer, s.revokeCalendarFeed)
}
