package httpapi

import (
	"net/http"
	"time"

	"github.com/clubhouse-go/clubhouse/reminders"
)

// Reminders of bookings: the club's reminder times (admins), and each
// member's choice of the channels reminders reach them by.

// reminderSettingsDTO is the club's reminder times.
type reminderSettingsDTO struct {
	// minutes before a booking's start at which its client is reminded, latest first; empty: no reminders
	OffsetsMinutes []int      `json:"offsets_minutes" validate:"required" example:"1440,120"`
	UpdatedAt      *time.Time `json:"updated_at" validate:"required" extensions:"x-nullable" format:"date-time"`
	UpdatedBy      *string    `json:"updated_by" validate:"required" extensions:"x-nullable" example:"admin@demo.club"`
}

// reminderSettingsInput is the club's new reminder times.
type reminderSettingsInput struct {
	// distinct numbers of minutes before a booking's start, each from 15 to 10080 (a week), at most 4; empty: no reminders
	OffsetsMinutes []int `json:"offsets_minutes" validate:"required" example:"1440,120"`
}

// reminderPreferencesDTO is a member's choice of channels.
type reminderPreferencesDTO struct {
	// reminders by e-mail
	Email *bool `json:"email" validate:"required" example:"true"`
	// reminders as push notifications, on the devices the member registered
	Push *bool `json:"push" validate:"required" example:"true"`
}

func newReminderSettingsDTO(s reminders.Settings) reminderSettingsDTO {
	return reminderSettingsDTO{OffsetsMinutes: s.Offsets, UpdatedAt: s.UpdatedAt, UpdatedBy: s.UpdatedBy}
}

func newReminderPreferencesDTO(p reminders.Preferences) reminderPreferencesDTO {
	return reminderPreferencesDTO{Email: &p.Email, Push: &p.Push}
}

// getReminderSettings shows the club's reminder times.
//
// @Summary Show the club's reminder times (admin)
// @Description The minutes before a booking's start at which its client, when they have a login, is reminded of it by e-mail and push notification (each as they chose), latest first. Default 1440 and 120 (a day and two hours).
// @Tags reminders
// @Produce json
// @Success 200 {object} reminderSettingsDTO
// @Failure 401,403,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/reminders/settings [get]
func (s *Server) getReminderSettings(w http.ResponseWriter, r *http.Request) error {
	got, err := s.club(r).Reminders.Settings(r.Context(), actor(r))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newReminderSettingsDTO(got))
}

// setReminderSettings replaces the club's reminder times.
//
// @Summary Change the club's reminder times (admin)
// @Description Replaces the reminder times: the bookings made or moved from then on are reminded at them; the reminders not sent yet at a time no longer listed are dropped. Each booking is reminded at most once per time, never after its time has passed. 400 invalid reminder times for more than 4, a repeated one, or one outside 15 to 10080 minutes.
// @Tags reminders
// @Accept json
// @Produce json
// @Param body body reminderSettingsInput true "The new reminder times"
// @Success 200 {object} reminderSettingsDTO
// @Failure 400,401,403,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/reminders/settings [put]
func (s *Server) setReminderSettings(w http.ResponseWriter, r *http.Request) error {
	var in reminderSettingsInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	got, err := s.club(r).Reminders.SetSettings(r.Context(), actor(r), reminders.Settings{Offsets: in.OffsetsMinutes})
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newReminderSettingsDTO(got))
}

// getAccountReminders shows the caller's choice of reminder channels.
//
// @Summary Show my reminder channels
// @Description Whether the caller's bookings are reminded to them by e-mail and by push notification (on the devices they registered); both until they choose. 403 no login for a caller who is not a signed-in user.
// @Tags account
// @Produce json
// @Success 200 {object} reminderPreferencesDTO
// @Failure 401,403,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/account/reminders [get]
func (s *Server) getAccountReminders(w http.ResponseWriter, r *http.Request) error {
	got, err := s.club(r).Reminders.Preferences(r.Context(), actor(r))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newReminderPreferencesDTO(got))
}

// setAccountReminders records the caller's choice of reminder channels.
//
// @Summary Choose my reminder channels
// @Description The reminders sent from then on follow it. 403 no login for a caller who is not a signed-in user.
// @Tags account
// @Accept json
// @Produce json
// @Param body body reminderPreferencesDTO true "The channels"
// @Success 200 {object} reminderPreferencesDTO
// @Failure 400,401,403,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/account/reminders [put]
func (s *Server) setAccountReminders(w http.ResponseWriter, r *http.Request) error {
	var in reminderPreferencesDTO
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	got, err := s.club(r).Reminders.SetPreferences(r.Context(), actor(r), reminders.Preferences{Email: *in.Email, Push: *in.Push})
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newReminderPreferencesDTO(got))
}
