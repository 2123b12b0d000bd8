package httpapi

import (
	"net/http"
	"time"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/push"
)

// Push notifications (package push): staff register and remove any
// client's devices and send a client a notification; a client registers
// and removes their own devices; anyone reads the VAPID public key that
// browsers subscribe with.

// pushTokenInput registers a device. platform says what subscription
// holds: for webpush, the browser's PushSubscription (toJSON()); another
// platform, such as a mobile push provider, would add its own fields to
// subscription and leave this shape as it is.
type pushTokenInput struct {
	// The client whose device it is: required from staff; on
	// /api/account/notifications/token none or the caller's own.
	ClientID     clubhouse.Optional[int64] `json:"client_id" swaggertype:"integer" minimum:"1" example:"42"`
	Platform     string                    `json:"platform" validate:"required" enums:"webpush" maxLength:"32" example:"webpush" limit:"push.MaxPlatform"`
	Subscription *pushSubscriptionInput    `json:"subscription" validate:"required"`
}

// pushSubscriptionInput is a Web Push subscription.
type pushSubscriptionInput struct {
	// The push service's URL of the device: https, on a host that is not
	// an address outside the public ranges; printable ASCII.
	Endpoint string         `json:"endpoint" maxLength:"2048" example:"https://updates.push.services.mozilla.com/wpush/v2/gAAAAABm" limit:"push.MaxEndpoint"`
	Keys     *pushKeysInput `json:"keys"`
}

// pushKeysInput are the device's keys, base64url (padding optional).
type pushKeysInput struct {
	// The device's public key: an uncompressed P-256 point, 65 bytes.
	P256dh string `json:"p256dh" maxLength:"88" example:"BKLy5HmB3JrsNXQHl5CNVh3DVVsV-5GgWOCA641bAaOSA6UPlhNV3uuReOgOWu_3goi2VTwh4agIIKbr9WKwDQ0" limit:"push.MaxP256dh"`
	// The device's authentication secret, 16 bytes.
	Auth string `json:"auth" maxLength:"24" example:"h1UDI_Tg81Hz8xorUit5AQ" limit:"push.MaxAuth"`
}

// domain reads in, sent by a device whose user agent is userAgent.
func (in pushTokenInput) domain(userAgent string) push.SubscriptionInput {
	out := push.SubscriptionInput{Platform: in.Platform, UserAgent: userAgent}
	if in.ClientID.Value != nil {
		out.ClientID = *in.ClientID.Value
	}
	if s := in.Subscription; s != nil {
		out.Endpoint = s.Endpoint
		if s.Keys != nil {
			out.Keys = push.Keys{P256dh: s.Keys.P256dh, Auth: s.Keys.Auth}
		}
	}
	return out
}

// pushEndpointInput names the device to remove.
type pushEndpointInput struct {
	Endpoint string `json:"endpoint" validate:"required" maxLength:"2048" example:"https://updates.push.services.mozilla.com/wpush/v2/gAAAAABm" limit:"push.MaxEndpoint"`
}

// pushDeviceDTO is a registered device; its keys are not shown.
type pushDeviceDTO struct {
	ID            int64      `json:"id" validate:"required" example:"7"`
	ClientID      int64      `json:"client_id" validate:"required" example:"42"`
	Platform      string     `json:"platform" validate:"required" enums:"webpush" example:"webpush"`
	Endpoint      string     `json:"endpoint" validate:"required" example:"https://updates.push.services.mozilla.com/wpush/v2/gAAAAABm"`
	UserAgent     *string    `json:"user_agent" validate:"required" extensions:"x-nullable" example:"Mozilla/5.0 (Android 14; Mobile)"`
	CreatedAt     time.Time  `json:"created_at" validate:"required" format:"date-time"`
	UpdatedAt     time.Time  `json:"updated_at" validate:"required" format:"date-time"`
	LastSuccessAt *time.Time `json:"last_success_at" validate:"required" extensions:"x-nullable" format:"date-time"`
	LastFailureAt *time.Time `json:"last_failure_at" validate:"required" extensions:"x-nullable" format:"date-time"`
}

func newPushDeviceDTO(s push.Subscription) pushDeviceDTO {
	return pushDeviceDTO{ID: s.ID, ClientID: s.ClientID, Platform: s.Platform, Endpoint: s.Endpoint, UserAgent: s.UserAgent,
		CreatedAt: s.CreatedAt, UpdatedAt: s.UpdatedAt, LastSuccessAt: s.LastSuccessAt, LastFailureAt: s.LastFailureAt}
}

// writeDevice answers a registered device: 201 when the registration made
// it, 200 when it updated the endpoint's.
func writeDevice(w http.ResponseWriter, s push.Subscription) error {
	status := http.StatusOK
	if s.Created {
		status = http.StatusCreated
	}
	return writeJSON(w, status, newPushDeviceDTO(s))
}

// notificationInput is a notification for every device of a client.
type notificationInput struct {
	ClientID int64  `json:"clientId" validate:"required" minimum:"1" example:"42"`
	Title    string `json:"title" validate:"required" maxLength:"120" example:"Court 3 is free at 18:00" limit:"push.MaxTitle"`
	Body     string `json:"body" maxLength:"1000" example:"Book it before someone else does." limit:"push.MaxBody"`
	URL      string `json:"url" maxLength:"1000" example:"https://club.example/book?court=3" limit:"push.MaxURL"`
}

// sentDTO is a notification queued for delivery.
type sentDTO struct {
	NotificationID int64 `json:"notification_id" validate:"required" example:"118"`
	Devices        int   `json:"devices" validate:"required" example:"2"`
}

// vapidKeyDTO is the application server key of Web Push.
type vapidKeyDTO struct {
	PublicKey string `json:"public_key" validate:"required" example:"BDRHuI96uFE1iZYsq1X5_JPTKSY-Cp8WgtTeMuSdwqW-ypYZoIN_GOsdz5n-NsVqY_BlDmLl1GwP4oYdvvJwBkQ"`
}

// registerDevice registers a client's device.
//
// @Summary Register a client's device for push notifications
// @Description Registers a Web Push subscription (platform webpush, subscription: the browser's PushSubscription with endpoint and keys) as a device of the client client_id, which is required here. The endpoint must be an https URL, printable ASCII of at most 2048 characters, whose host is a name or a public address: an IP address of a loopback, private, link-local or special-purpose range, or localhost, is 400 (a name is resolved when a notification is delivered, and a delivery to an address that is not public fails without a request); keys.p256dh must be base64url of an uncompressed P-256 public key (65 bytes) and keys.auth of 16 bytes (400 otherwise). With OUTBOUND_ALLOW_PRIVATE_NETWORKS=true (tests, private installations), loopback and private addresses are accepted, and plain http on them. A client has at most 10 devices: a new one beyond them, or one moving to a client that has them, is 409 too many devices. Registering an endpoint again updates it (201 when new, 200 when updated; no new device) and moves it to client_id when it was another client's; that client's pending deliveries to it are dropped. An unknown client is 400. The request's User-Agent names the device.
// @Tags notifications
// @Accept json
// @Produce json
// @Param body body pushTokenInput true "The device"
// @Success 200 {object} pushDeviceDTO
// @Success 201 {object} pushDeviceDTO
// @Failure 400,401,403,409,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/notifications/token [post]
func (s *Server) registerDevice(w http.ResponseWriter, r *http.Request) error {
	var in pushTokenInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	sub, err := s.club(r).Push.Register(r.Context(), actor(r), in.domain(r.UserAgent()))
	if err != nil {
		return err
	}
	return writeDevice(w, sub)
}

// unregisterDevice removes a device.
//
// @Summary Remove a device from push notifications
// @Description Removes the device registered with endpoint, whichever client's; its pending deliveries are dropped. An endpoint not registered is 404.
// @Tags notifications
// @Accept json
// @Produce json
// @Param body body pushEndpointInput true "The device's endpoint"
// @Success 204
// @Failure 400,401,403,404,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/notifications/token [delete]
func (s *Server) unregisterDevice(w http.ResponseWriter, r *http.Request) error {
	var in pushEndpointInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	if err := s.club(r).Push.Unregister(r.Context(), actor(r), in.Endpoint); err != nil {
		return err
	}
	return noContent(w)
}

// sendNotification sends a client a push notification.
//
// @Summary Send a push notification to a client's devices
// @Description Records the notification and one delivery per device of the client clientId in one transaction, and answers 202 with its id and the number of devices it targets (0 when the client has none). The devices receive it in the background, as Web Push messages whose JSON is {notification_id, title, body, url}: a push service that fails (network, 429, 5xx) is tried again with a doubling wait, up to 5 attempts; a device its push service no longer knows (404, 410) is removed. The client's user also receives it on the realtime relay, as the event notification with data {notification_id, title, body, url}. title is required (at most 120 characters), body at most 1000, url an absolute http(s) URL of at most 1000; together they must fit one push message (about 3.8 KB of JSON). An unknown client is 400.
// @Tags notifications
// @Accept json
// @Produce json
// @Param body body notificationInput true "The notification"
// @Success 202 {object} sentDTO
// @Failure 400,401,403,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/notifications/send [post]
func (s *Server) sendNotification(w http.ResponseWriter, r *http.Request) error {
	var in notificationInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	sent, err := s.club(r).Push.Send(r.Context(), actor(r), push.NotificationInput{ClientID: in.ClientID, Title: in.Title, Body: in.Body, URL: in.URL})
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusAccepted, sentDTO{NotificationID: sent.ID, Devices: sent.Devices})
}

// registerOwnDevice registers a device of the caller's client record.
//
// @Summary Register my device for push notifications
// @Description As POST /api/admin/notifications/token, for the caller's own client record: client_id may be left out, and naming another client is 403. A caller without a client record gets 404. The endpoint must be https on a name or a public address (400 invalid endpoint otherwise). The caller has at most 10 devices: an 11th is 409 too many devices, until one is removed; registering one of them again is no new device. An endpoint another client registered moves to the caller only with the same keys (the same browser, whose user changed); with other keys it is 409 device registered, so that knowing an endpoint is not enough to take a device.
// @Tags account
// @Accept json
// @Produce json
// @Param body body pushTokenInput true "The device"
// @Success 200 {object} pushDeviceDTO
// @Success 201 {object} pushDeviceDTO
// @Failure 400,401,403,404,409,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/account/notifications/token [post]
func (s *Server) registerOwnDevice(w http.ResponseWriter, r *http.Request) error {
	var in pushTokenInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	sub, err := s.club(r).Push.ClientRegister(r.Context(), actor(r), in.domain(r.UserAgent()))
	if err != nil {
		return err
	}
	return writeDevice(w, sub)
}

// unregisterOwnDevice removes a device of the caller's client record.
//
// @Summary Remove my device from push notifications
// @Description Removes the caller's device registered with endpoint; one not registered, or another client's, is 404, as is a caller without a client record.
// @Tags account
// @Accept json
// @Produce json
// @Param body body pushEndpointInput true "The device's endpoint"
// @Success 204
// @Failure 400,401,404,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/account/notifications/token [delete]
func (s *Server) unregisterOwnDevice(w http.ResponseWriter, r *http.Request) error {
	var in pushEndpointInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	if err := s.club(r).Push.ClientUnregister(r.Context(), actor(r), in.Endpoint); err != nil {
		return err
	}
	return noContent(w)
}

// vapidPublicKey answers the VAPID public key.
//
// @Summary Web Push application server key (public)
// @Description The VAPID public key (RFC 8292) that browsers subscribe with: pass it as applicationServerKey to PushManager.subscribe, then register the subscription at POST /api/account/notifications/token. base64url of an uncompressed P-256 point. It stays the same across restarts (PUSH_VAPID_KEY_FILE); 503 when push is not configured.
// @Tags public
// @Produce json
// @Success 200 {object} vapidKeyDTO
// @Failure 503 {object} errorBody
// @Router /api/public/push/vapid-public-key [get]
func (s *Server) vapidPublicKey(w http.ResponseWriter, r *http.Request) error {
	key, err := s.club(r).Push.PublicKey()
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, vapidKeyDTO{PublicKey: key})
}
