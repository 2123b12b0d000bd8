package httpapi

import (
	"fmt"
	"net/http"
	"time"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/wire"
	"github.com/clubhouse-go/clubhouse/pricing"
)

// The club's booking rules (booking.Rules): staff read and change them,
// and anyone reads them at /api/public/club-rules so that apps can show
// them.

// hoursDTO is an interval of a day's opening hours.
type hoursDTO struct {
	Opens  string `json:"opens" validate:"required" example:"07:00" maxLength:"255"`
	Closes string `json:"closes" validate:"required" example:"22:00" maxLength:"255"`
}

// weekHoursDTO is an interval of a weekday's opening hours.
type weekHoursDTO struct {
	// ISO weekday: 1 = Monday .. 7 = Sunday
	Weekday int    `json:"weekday" validate:"required" minimum:"1" maximum:"7" example:"1" limit:"booking.MaxWeekday"`
	Opens   string `json:"opens" validate:"required" example:"07:00" maxLength:"255"`
	Closes  string `json:"closes" validate:"required" example:"22:00" maxLength:"255"`
}

// dateHoursDTO is a date with hours of its own; no hours: closed all day.
type dateHoursDTO struct {
	Date  string     `json:"date" validate:"required" example:"2026-12-25" maxLength:"255"`
	Hours []hoursDTO `json:"hours" validate:"required"`
	Note  *string    `json:"note" extensions:"x-nullable" example:"Christmas" maxLength:"2000" limit:"booking.MaxRuleNote"`
}

// typeRulesDTO are the rules of one reservation type; a null limit is the
// club's.
type typeRulesDTO struct {
	ReservationTypeID   int64  `json:"reservation_type_id" validate:"required" example:"3"`
	ReservationTypeName string `json:"reservation_type_name,omitempty" example:"Maintenance"`
	StaffOnly           bool   `json:"staff_only" example:"true"`
	AdvanceDays         *int   `json:"advance_days" extensions:"x-nullable" minimum:"0" maximum:"3660" limit:"booking.MaxAdvanceDays"`
	MinNoticeMinutes    *int   `json:"min_notice_minutes" extensions:"x-nullable" minimum:"0" maximum:"527040" limit:"booking.MaxRuleMinutes"`
	MaxDurationMinutes  *int   `json:"max_duration_minutes" extensions:"x-nullable" minimum:"0" maximum:"527040" limit:"booking.MaxRuleMinutes"`
	CancelWindowMinutes *int   `json:"cancel_window_minutes" extensions:"x-nullable" minimum:"0" maximum:"527040" limit:"booking.MaxRuleMinutes"`
}

// clubRulesDTO are the club's booking rules. A limit of 0 is no limit; no
// opening_hours at all is open around the clock, and otherwise a weekday
// without hours is closed.
type clubRulesDTO struct {
	OpeningHours        []weekHoursDTO `json:"opening_hours" validate:"required"`
	Exceptions          []dateHoursDTO `json:"exceptions" validate:"required"`
	AdvanceDays         int            `json:"advance_days" validate:"required" example:"14"`
	MinNoticeMinutes    int            `json:"min_notice_minutes" validate:"required" example:"60"`
	MaxDurationMinutes  int            `json:"max_duration_minutes" validate:"required" example:"180"`
	MaxFutureBookings   int            `json:"max_future_bookings" validate:"required" example:"4"`
	CancelWindowMinutes int            `json:"cancel_window_minutes" validate:"required" example:"720"`
	Types               []typeRulesDTO `json:"types" validate:"required"`
	// a client's booking that has a price awaits its payment, holding its court for payment_hold_minutes (never past its start), and is released when not paid by then
	PaymentRequired bool `json:"payment_required" validate:"required" example:"true"`
	// how long a booking awaits its payment, 1 to 120 (15 unless set)
	PaymentHoldMinutes int        `json:"payment_hold_minutes" validate:"required" minimum:"1" maximum:"120" example:"15" limit:"booking.MaxPaymentHoldMinutes"`
	UpdatedAt          *time.Time `json:"updated_at" validate:"required" extensions:"x-nullable"`
}

// adminClubRulesDTO are the rules with who changed them last.
type adminClubRulesDTO struct {
	clubRulesDTO
	UpdatedBy *string `json:"updated_by" validate:"required" extensions:"x-nullable" example:"admin@demo.club"`
}

func newClubRulesDTO(r booking.Rules) clubRulesDTO {
	hours := func(ivs []booking.Interval) []hoursDTO {
		return mapSlice(ivs, func(iv booking.Interval) hoursDTO {
			return hoursDTO{Opens: wire.FormatClock(iv.Opens), Closes: wire.FormatClock(iv.Closes)}
		})
	}
	return clubRulesDTO{
		OpeningHours: mapSlice(r.Hours, func(h booking.WeekHours) weekHoursDTO {
			return weekHoursDTO{Weekday: h.Weekday, Opens: wire.FormatClock(h.Opens), Closes: wire.FormatClock(h.Closes)}
		}),
		Exceptions: mapSlice(r.Exceptions, func(x booking.DateHours) dateHoursDTO {
			return dateHoursDTO{Date: x.Date.Format(time.DateOnly), Hours: hours(x.Hours), Note: x.Note}
		}),
		AdvanceDays: r.AdvanceDays, MinNoticeMinutes: r.MinNoticeMinutes, MaxDurationMinutes: r.MaxDurationMinutes,
		MaxFutureBookings: r.MaxFutureBookings, CancelWindowMinutes: r.CancelWindowMinutes,
		Types: mapSlice(r.Types, func(t booking.TypeRules) typeRulesDTO {
			return typeRulesDTO{ReservationTypeID: t.ReservationTypeID, ReservationTypeName: t.ReservationTypeName, StaffOnly: t.StaffOnly,
				AdvanceDays: t.AdvanceDays, MinNoticeMinutes: t.MinNoticeMinutes, MaxDurationMinutes: t.MaxDurationMinutes,
				CancelWindowMinutes: t.CancelWindowMinutes}
		}),
		PaymentRequired: r.PaymentRequired, PaymentHoldMinutes: r.PaymentHoldMinutes, UpdatedAt: r.UpdatedAt,
	}
}

// clubRulesInput changes the club's rules: with PATCH the fields sent
// replace the rules' own and the others stay; with PUT the fields not sent
// are reset (no limit, no hours: open around the clock). A null limit is
// 0, no limit.
type clubRulesInput struct {
	OpeningHours        clubhouse.Optional[[]weekHoursDTO] `json:"opening_hours" swaggertype:"array,object"`
	Exceptions          clubhouse.Optional[[]dateHoursDTO] `json:"exceptions" swaggertype:"array,object"`
	AdvanceDays         clubhouse.Optional[int]            `json:"advance_days" swaggertype:"integer" minimum:"0" maximum:"3660" example:"14" limit:"booking.MaxAdvanceDays"`
	MinNoticeMinutes    clubhouse.Optional[int]            `json:"min_notice_minutes" swaggertype:"integer" minimum:"0" maximum:"527040" example:"60" limit:"booking.MaxRuleMinutes"`
	MaxDurationMinutes  clubhouse.Optional[int]            `json:"max_duration_minutes" swaggertype:"integer" minimum:"0" maximum:"527040" example:"180" limit:"booking.MaxRuleMinutes"`
	MaxFutureBookings   clubhouse.Optional[int]            `json:"max_future_bookings" swaggertype:"integer" minimum:"0" maximum:"100000" example:"4" limit:"booking.MaxFutureBookings"`
	CancelWindowMinutes clubhouse.Optional[int]            `json:"cancel_window_minutes" swaggertype:"integer" minimum:"0" maximum:"527040" example:"720" limit:"booking.MaxRuleMinutes"`
	Types               clubhouse.Optional[[]typeRulesDTO] `json:"types" swaggertype:"array,object"`
	PaymentRequired     clubhouse.Optional[bool]           `json:"payment_required" swaggertype:"boolean" example:"true"`
	// null: 15
	PaymentHoldMinutes clubhouse.Optional[int] `json:"payment_hold_minutes" swaggertype:"integer" minimum:"1" maximum:"120" example:"15" limit:"booking.MaxPaymentHoldMinutes"`
}

// domain reads in; every makes the fields not sent part of the change (PUT).
func (in clubRulesInput) domain(every bool) (booking.RulesChange, error) {
	ch := booking.RulesChange{AdvanceDays: in.AdvanceDays, MinNoticeMinutes: in.MinNoticeMinutes,
		MaxDurationMinutes: in.MaxDurationMinutes, MaxFutureBookings: in.MaxFutureBookings, CancelWindowMinutes: in.CancelWindowMinutes,
		PaymentRequired: in.PaymentRequired, PaymentHoldMinutes: in.PaymentHoldMinutes}
	interval := func(field string, h hoursDTO) (booking.Interval, error) {
		opens, err := pricing.ParseTimeOfDay(field+".opens", h.Opens)
		if err != nil {
			return booking.Interval{}, err
		}
		closes, err := pricing.ParseTimeOfDay(field+".closes", h.Closes)
		return booking.Interval{Opens: opens, Closes: closes}, err
	}
	if in.OpeningHours.Set || every {
		hours := []booking.WeekHours{}
		for i, h := range in.OpeningHours.Or(nil) {
			iv, err := interval(fmt.Sprintf("opening_hours[%d]", i), hoursDTO{Opens: h.Opens, Closes: h.Closes})
			if err != nil {
				return ch, err
			}
			hours = append(hours, booking.WeekHours{Weekday: h.Weekday, Interval: iv})
		}
		ch.Hours = clubhouse.Some(hours)
	}
	if in.Exceptions.Set || every {
		dates := []booking.DateHours{}
		for i, x := range in.Exceptions.Or(nil) {
			field := fmt.Sprintf("exceptions[%d]", i)
			d, err := wire.ParseDate(field+".date", x.Date)
			if err != nil {
				return ch, err
			}
			dh := booking.DateHours{Date: d, Note: x.Note, Hours: []booking.Interval{}}
			for j, h := range x.Hours {
				iv, err := interval(fmt.Sprintf("%s.hours[%d]", field, j), h)
				if err != nil {
					return ch, err
				}
				dh.Hours = append(dh.Hours, iv)
			}
			dates = append(dates, dh)
		}
		ch.Exceptions = clubhouse.Some(dates)
	}
	if in.Types.Set || every {
		ch.Types = clubhouse.Some(mapSlice(in.Types.Or(nil), func(t typeRulesDTO) booking.TypeRules {
			return booking.TypeRules{ReservationTypeID: t.ReservationTypeID, StaffOnly: t.StaffOnly, AdvanceDays: t.AdvanceDays,
				MinNoticeMinutes: t.MinNoticeMinutes, MaxDurationMinutes: t.MaxDurationMinutes, CancelWindowMinutes: t.CancelWindowMinutes}
		}))
	}
	if every {
		for _, o := range []*clubhouse.Optional[int]{&ch.AdvanceDays, &ch.MinNoticeMinutes, &ch.MaxDurationMinutes,
			&ch.MaxFutureBookings, &ch.CancelWindowMinutes, &ch.PaymentHoldMinutes} {
			o.Set = true
		}
		ch.PaymentRequired.Set = true
	}
	return ch, nil
}

// getClubRules answers the club's rules.
//
// @Summary Club rules
// @Description The club's booking rules, which every booking and move obeys (account, admin, trainer, /api/reservations, series, class sessions and the MCP tools), and a client's cancellation too (staff deleting a booking are not judged): opening hours per ISO weekday (none at all: open around the clock; otherwise a weekday without hours is closed) with dates that have hours of their own (none: closed all day), how many days ahead a booking may start (advance_days), the least notice before its start (min_notice_minutes), the longest booking (max_duration_minutes), how many bookings that have not started one client may hold (max_future_bookings), and until how long before its start a booking can be cancelled or moved (cancel_window_minutes); 0 is no limit. With payment_required, a booking a client makes that has a price is created awaiting its payment: it holds its court until its hold_expires_at, payment_hold_minutes later (1 to 120, never past its start); a completed payment (online, or taken by staff, of any amount) or a check-in confirms it, and one not paid by then is released two minutes after (cancelled by "system" with the reason "not paid in time"; a gateway approval made before the hold expired still confirms it meanwhile) and its client told. Staff bookings are not held. types change them for one reservation type (null: the club's) and mark the types only staff book (staff_only). Every rule binds staff too, except staff_only; staff may override the rules of one booking with override_rules, which the booking records (rules_overridden_by, rules_overridden_at). Clients never book, move or cancel what has started, whatever the rules. A refusal is 409 whose message starts with "Club rule <name>:", the name being the field of the rule (or past, staff_only, opening_hours).
// @Tags club rules
// @Produce json
// @Success 200 {object} adminClubRulesDTO
// @Failure 401,403,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/club-rules [get]
func (s *Server) getClubRules(w http.ResponseWriter, r *http.Request) error {
	rules, err := s.club(r).Rules.Get(r.Context())
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, adminClubRulesDTO{clubRulesDTO: newClubRulesDTO(rules), UpdatedBy: rules.UpdatedBy})
}

// putClubRules replaces the club's rules.
//
// @Summary Replace the club rules
// @Description Replaces every rule, in one transaction: the fields not sent are reset (limits to 0, no limit; opening_hours, exceptions and types to none; payment_required to false, payment_hold_minutes to 15). Times are HH:MM on the 30-minute grid (closes up to 24:00); the intervals of a day may not overlap; a date appears once; a type once. See GET for what each rule means.
// @Tags club rules
// @Accept json
// @Produce json
// @Param body body clubRulesInput true "The rules"
// @Success 200 {object} adminClubRulesDTO
// @Failure 400,401,403,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/club-rules [put]
func (s *Server) putClubRules(w http.ResponseWriter, r *http.Request) error {
	return s.changeClubRules(w, r, true)
}

// patchClubRules changes some of the club's rules.
//
// @Summary Change the club rules
// @Description Changes the rules sent, in one transaction; the others stay. A list sent (opening_hours, exceptions, types) replaces the whole list. Validated as PUT.
// @Tags club rules
// @Accept json
// @Produce json
// @Param body body clubRulesInput true "The rules to change"
// @Success 200 {object} adminClubRulesDTO
// @Failure 400,401,403,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/club-rules [patch]
func (s *Server) patchClubRules(w http.ResponseWriter, r *http.Request) error {
	return s.changeClubRules(w, r, false)
}

func (s *Server) changeClubRules(w http.ResponseWriter, r *http.Request, every bool) error {
	var in clubRulesInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	ch, err := in.domain(every)
	if err != nil {
		return err
	}
	rules, err := s.club(r).Rules.Change(r.Context(), actor(r), ch)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, adminClubRulesDTO{clubRulesDTO: newClubRulesDTO(rules), UpdatedBy: rules.UpdatedBy})
}

// getPublicClubRules answers the club's rules without authentication.
//
// @Summary Club rules (public)
// @Description The club's booking rules, for an app or a booking page to show: the same as /api/admin/club-rules without who changed them.
// @Tags public
// @Produce json
// @Success 200 {object} clubRulesDTO
// @Failure 503 {object} errorBody
// @Router /api/public/club-rules [get]
func (s *Server) getPublicClubRules(w http.ResponseWriter, r *http.Request) error {
	rules, err := s.club(r).Rules.Get(r.Context())
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newClubRulesDTO(rules))
}
