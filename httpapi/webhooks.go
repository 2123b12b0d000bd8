package httpapi

import (
	"net/http"
	"strconv"
	"time"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/webhooks"
)

// Outgoing webhooks (package webhooks): the endpoints that receive the
// club's events, signed under the Standard Webhooks specification, their
// attempts, and replays. Admins only.

// webhookEndpointDTO is an endpoint, without its secret.
type webhookEndpointDTO struct {
	ID          int64  `json:"id" validate:"required" example:"1"`
	URL         string `json:"url" validate:"required" example:"https://hooks.example.com/clubhouse"`
	Description string `json:"description" validate:"required" example:"Accounting system"`
	// the event types it receives: a type, or all of a resource's (booking.*); empty: every event
	EventTypes []string `json:"event_types" validate:"required" example:"booking.*,payment.completed"`
	Enabled    bool     `json:"enabled" validate:"required"`
	// why the club disabled it: gone (it answered 410) or failing (every attempt failed for five days); null when enabled or disabled by an admin
	DisabledReason *string `json:"disabled_reason" validate:"required" enums:"gone,failing" extensions:"x-nullable"`
	// the first failed attempt since its last success; null while it answers
	FailingSince *time.Time `json:"failing_since" validate:"required" format:"date-time" extensions:"x-nullable"`
	// until when the secret its last rotation replaced still signs beside the new one; null when one secret signs
	PreviousSecretUntil *time.Time `json:"previous_secret_until" validate:"required" format:"date-time" extensions:"x-nullable"`
	CreatedAt           time.Time  `json:"created_at" validate:"required" format:"date-time"`
	UpdatedAt           time.Time  `json:"updated_at" validate:"required" format:"date-time"`
}

func newWebhookEndpointDTO(e webhooks.Endpoint) webhookEndpointDTO {
	d := webhookEndpointDTO{ID: e.ID, URL: e.URL, Description: e.Description, EventTypes: e.EventTypes, Enabled: e.Enabled,
		FailingSince: e.FailingSince, PreviousSecretUntil: e.PreviousSecretUntil, CreatedAt: e.CreatedAt, UpdatedAt: e.UpdatedAt}
	if d.EventTypes == nil {
		d.EventTypes = []string{}
	}
	if e.DisabledReason != "" {
		d.DisabledReason = &e.DisabledReason
	}
	return d
}

// createdWebhookEndpointDTO is an endpoint just created, with its
// secret: the one answer that shows it.
type createdWebhookEndpointDTO struct {
	webhookEndpointDTO
	// the signing secret, whsec_ and the base64 of its key: shown this once
	Secret string `json:"secret" validate:"required" example:"whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"`
}

// webhookEndpointInput is a new endpoint.
type webhookEndpointInput struct {
	// an https URL of a public address (plain http and private addresses only with OUTBOUND_ALLOW_PRIVATE_NETWORKS)
	URL         string `json:"url" validate:"required" example:"https://hooks.example.com/clubhouse" maxLength:"2048" limit:"webhooks.MaxURL"`
	Description string `json:"description" example:"Accounting system" maxLength:"500" limit:"webhooks.MaxDescription"`
	// event types such as booking.created, or all of a resource's such as booking.*; none: every event
	EventTypes []string `json:"event_types" example:"booking.*,payment.completed" maxLength:"64" limit:"webhooks.MaxEventType"`
	Enabled    *bool    `json:"enabled" default:"true"`
}

// webhookEndpointPatch is a change of an endpoint: the fields sent change.
type webhookEndpointPatch struct {
	URL         clubhouse.Optional[string]   `json:"url" swaggertype:"string" example:"https://hooks.example.com/clubhouse" maxLength:"2048" limit:"webhooks.MaxURL"`
	Description clubhouse.Optional[string]   `json:"description" swaggertype:"string" example:"Accounting system" maxLength:"500" limit:"webhooks.MaxDescription"`
	EventTypes  clubhouse.Optional[[]string] `json:"event_types" swaggertype:"array,string" example:"booking.*" maxLength:"64" limit:"webhooks.MaxEventType"`
	Enabled     clubhouse.Optional[bool]     `json:"enabled" swaggertype:"boolean"`
}

// webhookSecretDTO is an endpoint's new secret.
type webhookSecretDTO struct {
	// the new signing secret: shown this once
	Secret string `json:"secret" validate:"required" example:"whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"`
	// until when the secret replaced still signs beside it
	PreviousSecretUntil time.Time `json:"previous_secret_until" validate:"required" format:"date-time"`
}

// webhookAttemptDTO is an attempt to deliver a message.
type webhookAttemptDTO struct {
	ID int64 `json:"id" validate:"required"`
	// the message's event: its id is the delivery's webhook-id
	EventID   string    `json:"event_id" validate:"required" format:"uuid"`
	EventType string    `json:"event_type" validate:"required" example:"booking.created"`
	At        time.Time `json:"attempted_at" validate:"required" format:"date-time"`
	// the endpoint's answer's status; null when none came
	StatusCode *int  `json:"status_code" validate:"required" extensions:"x-nullable" example:"200"`
	DurationMS int64 `json:"duration_ms" validate:"required" example:"84"`
	// the first 1024 bytes of the answer's body, as UTF-8 text
	Response string `json:"response" validate:"required"`
	// why it failed; null when delivered
	Error   *string `json:"error" validate:"required" extensions:"x-nullable"`
	Outcome string  `json:"outcome" validate:"required" enums:"delivered,retry,failed,gone"`
}

func newWebhookAttemptDTO(a webhooks.Attempt) webhookAttemptDTO {
	return webhookAttemptDTO{ID: a.ID, EventID: a.EventID, EventType: a.EventType, At: a.At, StatusCode: a.StatusCode,
		DurationMS: a.DurationMS, Response: a.Response, Error: a.Error, Outcome: a.Outcome}
}

// webhookReplayInput is the time range of a replay.
type webhookReplayInput struct {
	// from this instant (RFC 3339, with its offset), included
	Since string `json:"since" validate:"required" example:"2026-03-01T00:00:00-05:00" maxLength:"255"`
	// to this instant, excluded
	Until string `json:"until" validate:"required" example:"2026-03-02T00:00:00-05:00" maxLength:"255"`
}

// webhookQueuedDTO says how many messages a replay or a resend queued.
type webhookQueuedDTO struct {
	Queued int `json:"queued" validate:"required" example:"12"`
}

// createWebhookEndpoint creates an endpoint.
//
// @Summary Create a webhook endpoint (admin)
// @Description An endpoint receives the club's events as they are recorded in the event log (GET /api/admin/events-log), from its creation on, under the Standard Webhooks specification: a POST of {type, timestamp, data} (data: the resource as the API shows it) with the headers webhook-id (the event's id, the same on every attempt), webhook-timestamp (the attempt's Unix time) and webhook-signature (v1,<base64 of the HMAC-SHA256 of "id.timestamp.body" keyed with the secret's key>; while rotating, two signatures separated by a space). event_types names types (booking.created) or all of a resource's (booking.*); none: every event. The url is https on a public address, checked again after name resolution on every connection (plain http and private addresses only with OUTBOUND_ALLOW_PRIVATE_NETWORKS). A 2xx answer within 15 seconds delivers a message; a redirect is a failure and is not followed; 410 disables the endpoint; 429 and 5xx are tried again no sooner than their Retry-After; every failure is tried again at once, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, 10 h, 10 h, 10 h, 12 h and 12 h later (each wait within 10%, about three days in all); an endpoint whose attempts all fail for five days is disabled and the admins are told by e-mail. The answer is the only one that shows the secret (whsec_ and the base64 of 32 random bytes).
// @Tags webhooks
// @Accept json
// @Produce json
// @Param body body webhookEndpointInput true "The endpoint"
// @Success 201 {object} createdWebhookEndpointDTO
// @Header 201 {string} Cache-Control "no-store"
// @Failure 400,401,403,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/webhooks/endpoints [post]
func (s *Server) createWebhookEndpoint(w http.ResponseWriter, r *http.Request) error {
	var in webhookEndpointInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	created, err := s.club(r).Webhooks.Create(r.Context(), actor(r), webhooks.Input{URL: in.URL, Description: in.Description,
		EventTypes: in.EventTypes, Enabled: in.Enabled})
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	return writeJSON(w, http.StatusCreated, createdWebhookEndpointDTO{webhookEndpointDTO: newWebhookEndpointDTO(created.Endpoint), Secret: created.Secret})
}

// listWebhookEndpoints lists the endpoints.
//
// @Summary List the webhook endpoints (admin)
// @Description Every endpoint, oldest first; secrets are never shown.
// @Tags webhooks
// @Produce json
// @Success 200 {array} webhookEndpointDTO
// @Failure 401,403,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/webhooks/endpoints [get]
func (s *Server) listWebhookEndpoints(w http.ResponseWriter, r *http.Request) error {
	list, err := s.club(r).Webhooks.List(r.Context(), actor(r))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, mapSlice(list, newWebhookEndpointDTO))
}

// getWebhookEndpoint reads an endpoint.
//
// @Summary Read a webhook endpoint (admin)
// @Description The endpoint, without its secret.
// @Tags webhooks
// @Produce json
// @Param id path int true "endpoint id"
// @Success 200 {object} webhookEndpointDTO
// @Failure 400,401,403,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/webhooks/endpoints/{id} [get]
func (s *Server) getWebhookEndpoint(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	e, err := s.club(r).Webhooks.Get(r.Context(), actor(r), id)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newWebhookEndpointDTO(e))
}

// updateWebhookEndpoint changes an endpoint.
//
// @Summary Change a webhook endpoint (admin)
// @Description The fields sent change; none may be null. Enabling an endpoint the club disabled clears disabled_reason and its failures: it receives the events recorded from then on, and its messages still pending go. Events recorded while it was disabled are not sent to it: replay their time range.
// @Tags webhooks
// @Accept json
// @Produce json
// @Param id path int true "endpoint id"
// @Param body body webhookEndpointPatch true "The fields to change"
// @Success 200 {object} webhookEndpointDTO
// @Failure 400,401,403,404,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/webhooks/endpoints/{id} [patch]
func (s *Server) updateWebhookEndpoint(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	var in webhookEndpointPatch
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	e, err := s.club(r).Webhooks.Update(r.Context(), actor(r), id, webhooks.Change{URL: in.URL, Description: in.Description,
		EventTypes: in.EventTypes, Enabled: in.Enabled})
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newWebhookEndpointDTO(e))
}

// deleteWebhookEndpoint deletes an endpoint.
//
// @Summary Delete a webhook endpoint (admin)
// @Description Deletes the endpoint with its messages and their attempts; nothing more is sent to it.
// @Tags webhooks
// @Param id path int true "endpoint id"
// @Success 204
// @Failure 400,401,403,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/webhooks/endpoints/{id} [delete]
func (s *Server) deleteWebhookEndpoint(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	if err := s.club(r).Webhooks.Delete(r.Context(), actor(r), id); err != nil {
		return err
	}
	return noContent(w)
}

// rotateWebhookSecret gives an endpoint a new secret.
//
// @Summary Rotate a webhook endpoint's secret (admin)
// @Description Answers the new secret, shown this once. For 24 hours (until previous_secret_until) the secret replaced still signs beside it: each delivery's webhook-signature then holds two signatures separated by a space, and a receiver that knows either verifies it. A secret replaced before stops signing at once.
// @Tags webhooks
// @Produce json
// @Param id path int true "endpoint id"
// @Success 200 {object} webhookSecretDTO
// @Header 200 {string} Cache-Control "no-store"
// @Failure 400,401,403,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/webhooks/endpoints/{id}/rotate-secret [post]
func (s *Server) rotateWebhookSecret(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	rotated, err := s.club(r).Webhooks.RotateSecret(r.Context(), actor(r), id)
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	return writeJSON(w, http.StatusOK, webhookSecretDTO{Secret: rotated.Secret, PreviousSecretUntil: rotated.PreviousUntil})
}

// listWebhookAttempts lists an endpoint's attempts.
//
// @Summary List a webhook endpoint's attempts (admin)
// @Description Each attempt to deliver a message to the endpoint, the latest first: when, the status answered (null when no answer came: the address refused, a timeout, a connection that failed), how long it took, the answer's first 1024 bytes, why it failed, and what came of it (delivered; retry: tried again later; failed: its attempts used up; gone: 410, the endpoint disabled). Headers: X-Total-Count, X-Limit and X-Offset.
// @Tags webhooks
// @Produce json
// @Param id path int true "endpoint id"
// @Param limit query int false "Page size, 1 to 500; 0 gives the default page, 50" default(50)
// @Param offset query int false "Rows to skip" default(0)
// @Success 200 {array} webhookAttemptDTO
// @Header 200 {integer} X-Total-Count "Attempts of the endpoint, in all pages"
// @Header 200 {integer} X-Limit "Page size"
// @Header 200 {integer} X-Offset "Rows skipped"
// @Failure 400,401,403,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/webhooks/endpoints/{id}/attempts [get]
func (s *Server) listWebhookAttempts(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	limit, offset, err := queryPage(r)
	if err != nil {
		return err
	}
	rows, total, err := s.club(r).Webhooks.Attempts(r.Context(), actor(r), id, limit, offset)
	if err != nil {
		return err
	}
	w.Header().Set("X-Total-Count", strconv.Itoa(total))
	w.Header().Set("X-Limit", strconv.Itoa(webhooks.AttemptsPaging.Size(limit)))
	w.Header().Set("X-Offset", strconv.Itoa(offset))
	return writeJSON(w, http.StatusOK, mapSlice(rows, newWebhookAttemptDTO))
}

// replayWebhookEndpoint queues again a time range's events.
//
// @Summary Replay a time range to a webhook endpoint (admin)
// @Description Queues again, for the endpoint, each event of the types it receives recorded from since (included) to until (excluded), whether it got it before or not (an endpoint created later, or disabled meanwhile, gets them too): one message per event, with the event's own id as webhook-id, so a receiver that dedupes takes each once. An event whose message is still pending is not queued twice. The range covers at most 92 days, within the event log's retention. Answers how many messages were queued; they go at once.
// @Tags webhooks
// @Accept json
// @Produce json
// @Param id path int true "endpoint id"
// @Param body body webhookReplayInput true "The time range"
// @Success 202 {object} webhookQueuedDTO
// @Failure 400,401,403,404,409,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/webhooks/endpoints/{id}/replay [post]
func (s *Server) replayWebhookEndpoint(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	var in webhookReplayInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	since, err := parseInstant("since", in.Since)
	if err != nil {
		return err
	}
	until, err := parseInstant("until", in.Until)
	if err != nil {
		return err
	}
	n, err := s.club(r).Webhooks.Replay(r.Context(), actor(r), id, since, until)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusAccepted, webhookQueuedDTO{Queued: n})
}

// resendWebhookMessage queues again an event's messages.
//
// @Summary Resend an event's webhook messages (admin)
// @Description Queues again every message of the event to an enabled endpoint, with the same body and webhook-id, unless it is still pending. 404 when no message of the event was made (replay a time range instead); 409 when every endpoint that got it is disabled. Answers how many messages were queued; they go at once.
// @Tags webhooks
// @Produce json
// @Param event_id path string true "the event's id (webhook-id)" format(uuid) maxlength(36)
// @Success 202 {object} webhookQueuedDTO
// @Failure 400,401,403,404,409,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/webhooks/messages/{event_id}/resend [post]
func (s *Server) resendWebhookMessage(w http.ResponseWriter, r *http.Request) error {
	n, err := s.club(r).Webhooks.Resend(r.Context(), actor(r), r.PathValue("event_id"))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusAccepted, webhookQueuedDTO{Queued: n})
}

// parseInstant reads field as an RFC 3339 instant. Errors:
// clubhouse.ErrInvalidData naming field.
func parseInstant(field, s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, clubhouse.ErrInvalidData.Withf("%s must be an instant in RFC 3339 form with its offset, such as 2026-03-01T00:00:00-05:00.", field)
	}
	return t, nil
}
