package members

import (
	"errors"
	"net/http"

	"github.com/clubhouse-go/clubhouse/push"
)

// Notifications: the app's script subscribes the browser with the
// server's VAPID key once the member turns notifications on (the browser
// asks for permission then, never before), and posts the subscription
// here, which registers it through the push service as the member's
// device; turning them off removes it. The forms are the script's: a
// page without JavaScript says that notifications need it.

// The fields of a subscription, as PushSubscription.toJSON gives them.
const (
	fieldEndpoint = "endpoint"
	fieldP256dh   = "p256dh"
	fieldAuth     = "auth"
)

// maxKey bounds a subscription key's text: a P-256 key is 87 characters
// of base64url, a secret 22.
const maxKey = 128

// subscribe registers the browser's push subscription as the member's
// device.
func (a *App) subscribe(w http.ResponseWriter, r *http.Request) error {
	v := visitOf(r)
	f := a.rd.Fields(r)
	in := push.SubscriptionInput{Platform: "webpush", Endpoint: f.Text(fieldEndpoint, true, push.MaxEndpoint),
		Keys: push.Keys{P256dh: f.Text(fieldP256dh, true, maxKey), Auth: f.Text(fieldAuth, true, maxKey)}, UserAgent: r.UserAgent()}
	if !f.OK() {
		return a.refuseOnAccount(w, r, f.Errors(), nil)
	}
	if _, err := v.Club.Push.ClientRegister(r.Context(), v.Actor, in); err != nil {
		return a.refuseOnAccount(w, r, nil, err)
	}
	http.Redirect(w, r, Prefix+"account?done=push_on", http.StatusSeeOther)
	return nil
}

// unsubscribe removes the member's device registered with the endpoint;
// one the server does not hold is gone already.
func (a *App) unsubscribe(w http.ResponseWriter, r *http.Request) error {
	v := visitOf(r)
	f := a.rd.Fields(r)
	endpoint := f.Text(fieldEndpoint, true, push.MaxEndpoint)
	if !f.OK() {
		return a.refuseOnAccount(w, r, f.Errors(), nil)
	}
	err := v.Club.Push.ClientUnregister(r.Context(), v.Actor, endpoint)
	if err != nil && !errors.Is(err, push.ErrSubscriptionNotFound) {
		return a.refuseOnAccount(w, r, nil, err)
	}
	http.Redirect(w, r, Prefix+"account?done=push_off", http.StatusSeeOther)
	return nil
}
