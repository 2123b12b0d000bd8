package push_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/eventlog"
	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/fixture"
	"github.com/clubhouse-go/clubhouse/internal/testkit/pushtest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/relaytest"
	"github.com/clubhouse-go/clubhouse/push"
)

const subject = "mailto:desk@club.example"

var desk = clubhouse.Staff("front-desk")

// pushClub is a database with two clients, each with a login, a push
// service on loopback, the push service of the club and the event log it
// records its messages in, which relay reads.
type pushClub struct {
	db       *sqlx.DB
	svc      *push.Service
	key      push.VAPIDKey
	clock    *fixture.Clock
	log      *eventlog.Log
	relay    *relaytest.Recorder
	receiver *pushtest.Receiver
	ana, eva int64           // client ids
	anaUser  clubhouse.Actor // Ana's login, as a client
	evaUser  clubhouse.Actor
}

func newFixture(t *testing.T) *pushClub {
	t.Helper()
	db := dbtest.New(t).DB
	key, err := push.GenerateVAPIDKey()
	require.NoError(t, err)
	club := fixture.New(t, db, fixture.Options{})
	f := &pushClub{db: db, key: key, clock: club.Clock, log: eventlog.New(db, eventlog.Options{})}
	f.relay = relaytest.New(t, f.log)
	f.svc = f.service()
	f.receiver = pushtest.New(t, key.PublicKey(), subject)
	ana, eva := club.Member("Ana", "Ruiz"), club.Member("Eva", "Ruiz")
	f.ana, f.eva = ana.Client.ID, eva.Client.ID
	f.anaUser, f.evaUser = ana.Actor, eva.Actor
	return f
}

// service returns another push service on the same database: another
// instance of clubd. Private networks are open to it: the push service of
// the tests is on loopback.
func (f *pushClub) service() *push.Service {
	return push.New(f.db, push.Options{Now: f.clock.Now, Log: f.log, VAPID: f.key, Subject: subject, Retry: time.Minute,
		AllowPrivateNetworks: true})
}

func (f *pushClub) register(t *testing.T, client int64, d *pushtest.Device) push.Subscription {
	t.Helper()
	s, err := f.svc.Register(t.Context(), desk, input(client, d))
	require.NoError(t, err)
	return s
}

func input(client int64, d *pushtest.Device) push.SubscriptionInput {
	return push.SubscriptionInput{ClientID: client, Platform: push.PlatformWebPush, Endpoint: d.Endpoint,
		Keys: push.Keys{P256dh: d.P256dh, Auth: d.Auth}, UserAgent: "Firefox"}
}

func (f *pushClub) deliver(t *testing.T) int {
	t.Helper()
	n, err := f.svc.DeliverDue(t.Context())
	require.NoError(t, err)
	return n
}

func (f *pushClub) deliveries(t *testing.T, id int64) []push.Delivery {
	t.Helper()
	ds, err := f.svc.Deliveries(t.Context(), desk, id)
	require.NoError(t, err)
	return ds
}

func TestRegister(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	phone, laptop := f.receiver.Device(), f.receiver.Device()

	s := f.register(t, f.ana, phone)
	assert.True(t, s.Created)
	assert.Equal(t, f.ana, s.ClientID)
	assert.Equal(t, "Firefox", *s.UserAgent)
	again := f.register(t, f.ana, phone)
	assert.False(t, again.Created, "the same endpoint again updates its row")
	assert.Equal(t, s.ID, again.ID)

	for _, tc := range []struct {
		name string
		call func() error
		want error
	}{
		{"staff for an unknown client", func() error {
			_, err := f.svc.Register(ctx, desk, input(999999, laptop))
			return err
		}, push.ErrClientNotFound},
		{"staff without a client", func() error {
			_, err := f.svc.Register(ctx, desk, input(0, laptop))
			return err
		}, clubhouse.ErrIncomplete},
		{"a client at the staff's door", func() error {
			_, err := f.svc.Register(ctx, f.anaUser, input(f.ana, laptop))
			return err
		}, clubhouse.ErrForbidden},
		{"a client for another client", func() error {
			_, err := f.svc.ClientRegister(ctx, f.anaUser, input(f.eva, laptop))
			return err
		}, push.ErrOtherClient},
		{"a user without a client record", func() error {
			_, err := f.svc.ClientRegister(ctx, clubhouse.Actor{UserID: 999999, UID: "x"}, input(0, laptop))
			return err
		}, push.ErrNoClient},
		{"a bot at the client's door", func() error {
			_, err := f.svc.ClientRegister(ctx, desk, input(0, laptop))
			return err
		}, push.ErrNoClient},
		{"a client for itself", func() error {
			_, err := f.svc.ClientRegister(ctx, f.anaUser, input(0, laptop))
			return err
		}, nil},
		{"a client naming itself", func() error {
			_, err := f.svc.ClientRegister(ctx, f.anaUser, input(f.ana, laptop))
			return err
		}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.ErrorIs(t, tc.call(), tc.want)
		})
	}
	subs, err := f.svc.Subscriptions(ctx, desk, f.ana)
	require.NoError(t, err)
	require.Len(t, subs, 2)

	// Eva signs in on Ana's laptop: the device moves to Eva.
	moved, err := f.svc.ClientRegister(ctx, f.evaUser, input(0, laptop))
	require.NoError(t, err)
	assert.False(t, moved.Created)
	assert.Equal(t, f.eva, moved.ClientID)
	subs, err = f.svc.Subscriptions(ctx, desk, f.ana)
	require.NoError(t, err)
	require.Len(t, subs, 1)

	require.ErrorIs(t, f.svc.ClientUnregister(ctx, f.anaUser, laptop.Endpoint), push.ErrSubscriptionNotFound, "Eva's device now")
	require.NoError(t, f.svc.ClientUnregister(ctx, f.evaUser, laptop.Endpoint))
	require.ErrorIs(t, f.svc.Unregister(ctx, f.anaUser, phone.Endpoint), clubhouse.ErrForbidden)
	require.NoError(t, f.svc.Unregister(ctx, desk, phone.Endpoint))
	require.ErrorIs(t, f.svc.Unregister(ctx, desk, phone.Endpoint), push.ErrSubscriptionNotFound)
	require.ErrorIs(t, f.svc.Unregister(ctx, desk, ""), clubhouse.ErrIncomplete)
}

func TestSend_delivers(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	phone, laptop := f.receiver.Device(), f.receiver.Device()
	f.register(t, f.ana, phone)
	f.register(t, f.ana, laptop)
	f.register(t, f.eva, f.receiver.Device())

	sent, err := f.svc.Send(t.Context(), desk, push.NotificationInput{ClientID: f.ana, Title: "Court 3 is free", Body: "Book it <now>",
		URL: "https://club.example/book?court=3&day=1"})
	require.NoError(t, err)
	assert.Equal(t, 2, sent.Devices)
	assert.Equal(t, "front-desk", sent.CreatedBy)
	assert.Equal(t, 2, f.deliver(t))
	for _, d := range []*pushtest.Device{phone, laptop} {
		got, requests := f.receiver.Received(d)
		require.Len(t, got, 1)
		assert.Equal(t, 1, requests)
		assert.JSONEq(t, `{"notification_id":`+itoa(sent.ID)+`,"title":"Court 3 is free","body":"Book it <now>",
			"url":"https://club.example/book?court=3&day=1"}`, string(got[0]))
	}
	for _, d := range f.deliveries(t, sent.ID) {
		assert.Equal(t, push.DeliverySent, d.Status)
		assert.Equal(t, 1, d.Attempts)
		assert.Equal(t, http.StatusCreated, *d.LastStatus)
	}
	assert.Zero(t, f.deliver(t), "nothing is sent twice")

	msgs := f.relay.Payloads(push.TopicNotification)
	require.Len(t, msgs, 1)
	assert.Equal(t, clubhouse.Audience{Users: []int64{f.anaUser.UserID}}, msgs[0].Audience())
	assert.JSONEq(t, `{"notification_id":`+itoa(sent.ID)+`,"title":"Court 3 is free","body":"Book it <now>",
		"url":"https://club.example/book?court=3&day=1"}`, msgs[0].Data)
}

func TestSend_refused(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	for _, tc := range []struct {
		name string
		by   clubhouse.Actor
		in   push.NotificationInput
		want error
	}{
		{"a client", f.anaUser, push.NotificationInput{ClientID: f.ana, Title: "Hi"}, clubhouse.ErrForbidden},
		{"unknown client", desk, push.NotificationInput{ClientID: 999999, Title: "Hi"}, push.ErrClientNotFound},
		{"no title", desk, push.NotificationInput{ClientID: f.ana, Body: "Hi"}, clubhouse.ErrIncomplete},
		{"ftp url", desk, push.NotificationInput{ClientID: f.ana, Title: "Hi", URL: "ftp://club.example"}, push.ErrInvalidURL},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := f.svc.Send(ctx, tc.by, tc.in)
			require.ErrorIs(t, err, tc.want)
		})
	}
	assert.Empty(t, f.relay.Take(), "a refused notification records no message")
	sent, err := f.svc.Send(ctx, desk, push.NotificationInput{ClientID: f.eva, Title: "No devices"})
	require.NoError(t, err)
	assert.Zero(t, sent.Devices, "a client without devices is told on the relay only")
	assert.Equal(t, []relaytest.Message{relaytest.Of(push.TopicNotification, push.Message{NotificationID: sent.ID, Title: "No devices",
		UserID: f.evaUser.UserID})}, f.relay.Take())
}

func TestSend_retries(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	flaky := f.receiver.Device(http.StatusInternalServerError, http.StatusServiceUnavailable)
	f.register(t, f.ana, flaky)
	sent, err := f.svc.Send(t.Context(), desk, push.NotificationInput{ClientID: f.ana, Title: "Hi"})
	require.NoError(t, err)

	f.deliver(t)
	d := f.deliveries(t, sent.ID)[0]
	assert.Equal(t, push.DeliveryPending, d.Status)
	assert.Equal(t, 1, d.Attempts)
	assert.Equal(t, http.StatusInternalServerError, *d.LastStatus)
	assert.Equal(t, f.clock.Now().Add(time.Minute), *d.NextAttemptAt, "the first retry waits Options.Retry")
	assert.Zero(t, f.deliver(t), "not due yet")

	f.clock.Advance(time.Minute)
	f.deliver(t)
	d = f.deliveries(t, sent.ID)[0]
	assert.Equal(t, push.DeliveryPending, d.Status)
	assert.Equal(t, f.clock.Now().Add(2*time.Minute), *d.NextAttemptAt, "the wait doubles")

	f.clock.Advance(2 * time.Minute)
	f.deliver(t)
	d = f.deliveries(t, sent.ID)[0]
	assert.Equal(t, push.DeliverySent, d.Status)
	assert.Equal(t, 3, d.Attempts)
	got, requests := f.receiver.Received(flaky)
	assert.Len(t, got, 1)
	assert.Equal(t, 3, requests)
	subs, err := f.svc.Subscriptions(t.Context(), desk, f.ana)
	require.NoError(t, err)
	assert.NotNil(t, subs[0].LastSuccessAt)
	assert.NotNil(t, subs[0].LastFailureAt)
}

func TestSend_givesUp(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.svc = push.New(f.db, push.Options{Now: f.clock.Now, VAPID: f.key, Subject: subject, MaxAttempts: 2, Retry: time.Second,
		AllowPrivateNetworks: true})
	down := f.receiver.Device(500, 500, 500)
	refused := f.receiver.Device(http.StatusBadRequest)
	f.register(t, f.ana, down)
	f.register(t, f.ana, refused)
	sent, err := f.svc.Send(t.Context(), desk, push.NotificationInput{ClientID: f.ana, Title: "Hi"})
	require.NoError(t, err)
	f.deliver(t)
	f.clock.Advance(time.Second)
	f.deliver(t)
	for _, d := range f.deliveries(t, sent.ID) {
		assert.Equal(t, push.DeliveryFailed, d.Status)
		assert.Nil(t, d.NextAttemptAt)
	}
	_, requests := f.receiver.Received(down)
	assert.Equal(t, 2, requests, "MaxAttempts")
	_, requests = f.receiver.Received(refused)
	assert.Equal(t, 1, requests, "a 400 is not retried")
}

func TestSend_gone(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	gone, kept := f.receiver.Device(http.StatusGone), f.receiver.Device()
	f.register(t, f.ana, gone)
	f.register(t, f.ana, kept)
	sent, err := f.svc.Send(t.Context(), desk, push.NotificationInput{ClientID: f.ana, Title: "Hi"})
	require.NoError(t, err)
	f.deliver(t)
	statuses := map[string]int{}
	for _, d := range f.deliveries(t, sent.ID) {
		statuses[d.Status]++
	}
	assert.Equal(t, map[string]int{push.DeliveryGone: 1, push.DeliverySent: 1}, statuses)
	subs, err := f.svc.Subscriptions(t.Context(), desk, f.ana)
	require.NoError(t, err)
	require.Len(t, subs, 1, "the gone device's subscription is removed")
	assert.Equal(t, kept.Endpoint, subs[0].Endpoint)

	again, err := f.svc.Send(t.Context(), desk, push.NotificationInput{ClientID: f.ana, Title: "Again"})
	require.NoError(t, err)
	assert.Equal(t, 1, again.Devices)
}

func TestSend_removedBeforeDelivery(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	laptop, phone := f.receiver.Device(), f.receiver.Device()
	f.register(t, f.ana, laptop)
	f.register(t, f.ana, phone)
	sent, err := f.svc.Send(t.Context(), desk, push.NotificationInput{ClientID: f.ana, Title: "For Ana"})
	require.NoError(t, err)
	require.NoError(t, f.svc.Unregister(t.Context(), desk, phone.Endpoint))
	_, err = f.svc.ClientRegister(t.Context(), f.evaUser, input(0, laptop)) // Eva takes the laptop
	require.NoError(t, err)
	assert.Zero(t, f.deliver(t))
	for _, d := range f.deliveries(t, sent.ID) {
		assert.Equal(t, push.DeliveryGone, d.Status)
	}
	for _, d := range []*pushtest.Device{laptop, phone} {
		_, requests := f.receiver.Received(d)
		assert.Zero(t, requests, "Ana's notification never reaches a device she no longer has")
	}
}

// TestDeliverDue_instancesRace: senders of two instances, several rounds
// each, share the due deliveries; each goes once.
func TestDeliverDue_instancesRace(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	devices := make([]*pushtest.Device, 2*push.MaxDevicesPerClient)
	for i := range devices {
		devices[i] = f.receiver.Device()
		f.register(t, []int64{f.ana, f.eva}[i%2], devices[i])
	}
	const notifications = 5
	for range notifications {
		for _, c := range []int64{f.ana, f.eva} {
			_, err := f.svc.Send(t.Context(), desk, push.NotificationInput{ClientID: c, Title: "Hi"})
			require.NoError(t, err)
		}
	}
	instances := []*push.Service{f.svc, f.service(), f.service(), f.service()}
	var wg sync.WaitGroup
	total := make([]int, len(instances))
	for i, svc := range instances {
		wg.Go(func() {
			for range 3 {
				n, err := svc.DeliverDue(context.Background())
				assert.NoError(t, err)
				total[i] += n
			}
		})
	}
	wg.Wait()
	sum := 0
	for _, n := range total {
		sum += n
	}
	assert.Equal(t, len(devices)*notifications, sum)
	for _, d := range devices {
		got, requests := f.receiver.Received(d)
		assert.Len(t, got, notifications)
		assert.Equal(t, notifications, requests)
	}
}

func TestDeliveryJob_deliversAtOnce(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	d := f.receiver.Device()
	f.register(t, f.ana, d)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		assert.NoError(t, f.svc.DeliveryJob(time.Hour).Run(ctx), "push")
	}()
	t.Cleanup(func() { cancel(); <-done })
	_, err := f.svc.Send(t.Context(), desk, push.NotificationInput{ClientID: f.ana, Title: "Now"})
	require.NoError(t, err)
	got, _ := f.receiver.Wait(d, 1, 10*time.Second)
	require.Len(t, got, 1, "Send wakes the sender; the hourly tick is not waited for")
}

func itoa(n int64) string { b, _ := json.Marshal(n); return string(b) }

// TestRegister_race: registrations of one endpoint racing, by staff for
// both clients and by each client, leave one subscription and no error.
func TestRegister_race(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	d := f.receiver.Device()
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			var err error
			switch i % 4 {
			case 0:
				_, err = f.svc.Register(context.Background(), desk, input(f.ana, d))
			case 1:
				_, err = f.svc.Register(context.Background(), desk, input(f.eva, d))
			case 2:
				_, err = f.svc.ClientRegister(context.Background(), f.anaUser, input(0, d))
			case 3:
				_, err = f.svc.ClientRegister(context.Background(), f.evaUser, input(0, d))
			}
			assert.NoError(t, err)
		})
	}
	wg.Wait()
	var n int
	require.NoError(t, f.db.GetContext(t.Context(), &n, `SELECT count(*) FROM push_subscriptions WHERE endpoint = $1`, d.Endpoint))
	assert.Equal(t, 1, n)
}

// TestSend_noRedirects: a push service that redirects (here, to an
// address the device's endpoint would not be allowed to name) gets the
// POST once; clubd does not follow it, and the delivery fails.
func TestSend_noRedirects(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	target := f.receiver.Device()
	redirector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target.Endpoint, http.StatusTemporaryRedirect)
	}))
	t.Cleanup(redirector.Close)
	d := *target
	d.Endpoint = redirector.URL + "/push/elsewhere"
	f.register(t, f.ana, &d)
	sent, err := f.svc.Send(t.Context(), desk, push.NotificationInput{ClientID: f.ana, Title: "Hi"})
	require.NoError(t, err)
	f.deliver(t)
	ds := f.deliveries(t, sent.ID)
	require.Len(t, ds, 1)
	assert.Equal(t, push.DeliveryFailed, ds[0].Status)
	got, _ := f.receiver.Received(target)
	assert.Empty(t, got, "the redirect was not followed")
}

// TestClientRegister_takeover: a client does not take another client's
// device by its endpoint alone; the same browser (its keys) moves over.
func TestClientRegister_takeover(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	anas := f.receiver.Device()
	_, err := f.svc.ClientRegister(ctx, f.anaUser, input(0, anas))
	require.NoError(t, err)

	stranger := *f.receiver.Device()
	stranger.Endpoint = anas.Endpoint
	_, err = f.svc.ClientRegister(ctx, f.evaUser, input(0, &stranger))
	require.ErrorIs(t, err, push.ErrDeviceTaken)
	subs, err := f.svc.Subscriptions(ctx, desk, f.ana)
	require.NoError(t, err)
	require.Len(t, subs, 1, "Ana keeps her device")

	moved, err := f.svc.ClientRegister(ctx, f.evaUser, input(0, anas))
	require.NoError(t, err, "the same browser, its user changed")
	assert.Equal(t, f.eva, moved.ClientID)
}

// TestRegister_publicOnly: without private networks, an endpoint on a
// loopback or private address, or plain http, is refused at registration.
func TestRegister_publicOnly(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	closed := push.New(f.db, push.Options{Now: f.clock.Now, VAPID: f.key, Subject: subject})
	d := f.receiver.Device() // http://127.0.0.1:port/...
	for _, endpoint := range []string{d.Endpoint, "https://127.0.0.1/x", "https://10.0.0.1/x", "https://localhost/x",
		"https://169.254.169.254/latest", "http://push.example.com/x"} {
		in := input(f.ana, d)
		in.Endpoint = endpoint
		_, err := closed.Register(t.Context(), desk, in)
		require.ErrorIs(t, err, push.ErrInvalidEndpoint, endpoint)
		_, err = closed.ClientRegister(t.Context(), f.anaUser, in)
		require.ErrorIs(t, err, push.ErrInvalidEndpoint, endpoint)
	}
	in := input(f.ana, d)
	in.Endpoint = "https://push.example.com/x"
	_, err := closed.Register(t.Context(), desk, in)
	require.NoError(t, err, "a name is checked when a delivery connects")
}

// TestDeliverDue_refusedAtConnect: without private networks, a delivery
// whose endpoint resolves to a loopback address (localhost, a name
// resolved only when the connection is made; registered by an instance
// that allowed it) is refused at connect: nothing is sent, and it fails
// at once, its record saying only that the address is not public.
func TestDeliverDue_refusedAtConnect(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	d := *f.receiver.Device()
	d.Endpoint = strings.Replace(d.Endpoint, "127.0.0.1", "localhost", 1)
	f.register(t, f.ana, &d)
	closed := push.New(f.db, push.Options{Now: f.clock.Now, VAPID: f.key, Subject: subject})
	sent, err := closed.Send(t.Context(), desk, push.NotificationInput{ClientID: f.ana, Title: "Hi"})
	require.NoError(t, err)
	n, err := closed.DeliverDue(t.Context())
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	ds := f.deliveries(t, sent.ID)
	require.Len(t, ds, 1)
	assert.Equal(t, push.DeliveryFailed, ds[0].Status, "no retry: the address would be refused again")
	assert.Nil(t, ds[0].LastStatus)
	require.NotNil(t, ds[0].LastError)
	assert.Equal(t, "the push service's address is not a public one", *ds[0].LastError)
	_, requests := f.receiver.Received(&d)
	assert.Zero(t, requests, "nothing reached the push service")
	subs, err := f.svc.Subscriptions(t.Context(), desk, f.ana)
	require.NoError(t, err)
	require.Len(t, subs, 1)
	assert.Equal(t, "the push service's address is not a public one", *subs[0].LastError)
}

// TestDeliverDue_answerNotKept: what a push service answers, beyond its
// status, is never recorded; nor is what a failed connection met.
func TestDeliverDue_answerNotKept(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	talker := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte("<html><title>Router admin</title>firmware 1.2.3</html>"))
	}))
	t.Cleanup(talker.Close)
	gone := httptest.NewServer(http.NotFoundHandler())
	gone.Close() // its port now refuses connections
	chatty, closedPort := *f.receiver.Device(), *f.receiver.Device()
	chatty.Endpoint = talker.URL + "/push/1"
	closedPort.Endpoint = gone.URL + "/push/2"
	f.register(t, f.ana, &chatty)
	f.register(t, f.ana, &closedPort)
	sent, err := f.svc.Send(t.Context(), desk, push.NotificationInput{ClientID: f.ana, Title: "Hi"})
	require.NoError(t, err)
	f.deliver(t)
	ds := f.deliveries(t, sent.ID)
	require.Len(t, ds, 2)
	assert.Equal(t, push.DeliveryFailed, ds[0].Status)
	assert.Equal(t, http.StatusBadRequest, *ds[0].LastStatus)
	assert.Equal(t, "the push service answered 400", *ds[0].LastError)
	assert.Equal(t, push.DeliveryPending, ds[1].Status, "a connection that failed is tried again")
	assert.Equal(t, "the push service could not be reached", *ds[1].LastError)
	subs, err := f.svc.Subscriptions(t.Context(), desk, f.ana)
	require.NoError(t, err)
	for _, s := range subs {
		require.NotNil(t, s.LastError)
		assert.NotContains(t, *s.LastError, "Router")
		assert.NotContains(t, *s.LastError, "refused")
	}
}

// TestRegister_deviceCap: a client has at most MaxDevicesPerClient
// devices, whoever registers them; registering one of them again is no
// new device, and a device moving to a client at the cap is refused.
func TestRegister_deviceCap(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	devices := make([]*pushtest.Device, push.MaxDevicesPerClient)
	for i := range devices {
		devices[i] = f.receiver.Device()
		_, err := f.svc.ClientRegister(ctx, f.anaUser, input(0, devices[i]))
		require.NoError(t, err)
	}
	eleventh := f.receiver.Device()
	_, err := f.svc.ClientRegister(ctx, f.anaUser, input(0, eleventh))
	require.ErrorIs(t, err, push.ErrTooManyDevices)
	_, err = f.svc.Register(ctx, desk, input(f.ana, eleventh))
	require.ErrorIs(t, err, push.ErrTooManyDevices, "staff too")

	again, err := f.svc.ClientRegister(ctx, f.anaUser, input(0, devices[3]))
	require.NoError(t, err, "an endpoint registered again is no new device")
	assert.False(t, again.Created)
	rekeyed := *f.receiver.Device()
	rekeyed.Endpoint = devices[4].Endpoint
	_, err = f.svc.Register(ctx, desk, input(f.ana, &rekeyed))
	require.NoError(t, err, "nor with new keys")

	evas := f.receiver.Device()
	_, err = f.svc.ClientRegister(ctx, f.evaUser, input(0, evas))
	require.NoError(t, err)
	_, err = f.svc.Register(ctx, desk, input(f.ana, evas))
	require.ErrorIs(t, err, push.ErrTooManyDevices, "a device moving to a client at the cap")
	_, err = f.svc.ClientRegister(ctx, f.anaUser, input(0, evas))
	require.ErrorIs(t, err, push.ErrTooManyDevices, "the same browser, its user changed")

	require.NoError(t, f.svc.ClientUnregister(ctx, f.anaUser, devices[0].Endpoint))
	_, err = f.svc.ClientRegister(ctx, f.anaUser, input(0, eleventh))
	require.NoError(t, err, "a device removed makes room")
	subs, err := f.svc.Subscriptions(ctx, desk, f.ana)
	require.NoError(t, err)
	assert.Len(t, subs, push.MaxDevicesPerClient)
}

// TestRegister_deviceCapRace: registrations of new devices racing, by the
// client and by staff, for two clients at once, leave each client with
// MaxDevicesPerClient devices; the others are ErrTooManyDevices.
func TestRegister_deviceCapRace(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	const tries = 3 * push.MaxDevicesPerClient
	type result struct {
		client int64
		err    error
	}
	results := make(chan result, 2*tries)
	var wg sync.WaitGroup
	for i := range 2 * tries {
		d := f.receiver.Device()
		wg.Go(func() {
			client, user := f.ana, f.anaUser
			if i%2 == 1 {
				client, user = f.eva, f.evaUser
			}
			var err error
			if i%4 < 2 {
				_, err = f.svc.ClientRegister(context.Background(), user, input(0, d))
			} else {
				_, err = f.svc.Register(context.Background(), desk, input(client, d))
			}
			results <- result{client, err}
		})
	}
	wg.Wait()
	close(results)
	ok := map[int64]int{}
	for r := range results {
		if r.err == nil {
			ok[r.client]++
		} else {
			require.ErrorIs(t, r.err, push.ErrTooManyDevices)
		}
	}
	assert.Equal(t, map[int64]int{f.ana: push.MaxDevicesPerClient, f.eva: push.MaxDevicesPerClient}, ok)
	for _, c := range []int64{f.ana, f.eva} {
		var n int
		require.NoError(t, f.db.GetContext(t.Context(), &n, `SELECT count(*) FROM push_subscriptions WHERE client_id = $1`, c))
		assert.Equal(t, push.MaxDevicesPerClient, n)
	}
}

// TestRegister_overCapFromBefore: a client with more devices than
// MaxDevicesPerClient from before the cap keeps registering them again
// (a browser refreshing its keys), but adds none.
func TestRegister_overCapFromBefore(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	_, err := f.db.ExecContext(ctx, `ALTER TABLE push_subscriptions DISABLE TRIGGER push_subscriptions_cap_insert`)
	require.NoError(t, err)
	devices := make([]*pushtest.Device, push.MaxDevicesPerClient+2)
	for i := range devices {
		devices[i] = f.receiver.Device()
		f.register(t, f.ana, devices[i])
	}
	_, err = f.db.ExecContext(ctx, `ALTER TABLE push_subscriptions ENABLE TRIGGER push_subscriptions_cap_insert`)
	require.NoError(t, err)

	rekeyed := *f.receiver.Device()
	rekeyed.Endpoint = devices[0].Endpoint
	_, err = f.svc.ClientRegister(ctx, f.anaUser, input(0, &rekeyed))
	require.NoError(t, err)
	_, err = f.svc.Register(ctx, desk, input(f.ana, devices[1]))
	require.NoError(t, err)
	_, err = f.svc.ClientRegister(ctx, f.anaUser, input(0, f.receiver.Device()))
	require.ErrorIs(t, err, push.ErrTooManyDevices)
	subs, err := f.svc.Subscriptions(ctx, desk, f.ana)
	require.NoError(t, err)
	assert.Len(t, subs, push.MaxDevicesPerClient+2)
}
