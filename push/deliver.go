package push

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	webpush "github.com/SherClockHolmes/webpush-go"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/outbound"
)

// Sending in the background: DeliverDue claims the due deliveries (FOR
// UPDATE SKIP LOCKED, moving their next attempt past the lease), sends
// them, and records each outcome; DeliveryJob calls it on a ticker and
// whenever Send queued deliveries on this instance.

const (
	// lease is how long a claimed delivery stays out of other senders'
	// reach; its send is cut off at sendTimeout, well before. A claim
	// takes as many deliveries as there are workers, so every claimed
	// delivery is sent at once, and a record is fenced by the attempt it
	// claimed: a sender whose lease ran out records nothing.
	lease = 2 * time.Minute
	// sendTimeout bounds one attempt, whatever the HTTP client's timeout.
	sendTimeout = time.Minute
	// maxRetry caps the wait between two attempts.
	maxRetry = time.Hour
	// maxErrorText bounds the failure text recorded.
	maxErrorText = 500
	// maxDrain bounds what is read of an answer's body, which is dropped.
	maxDrain = 4 << 10
)

// DeliverDue sends every delivery that is due, up to Options.Workers at
// once, and returns how many attempts it made. A delivery the push
// service accepts (2xx) is sent; one whose device it no longer knows
// (404, 410) is gone, and its subscription is removed; one that fails for
// a reason that may pass (a network error, 429, 5xx) is tried again
// later, with a doubling wait, until Options.MaxAttempts; one whose
// endpoint resolves to an address that is not public (unless
// Options.AllowPrivateNetworks) fails without a request, as does any
// other refusal. The record keeps the push service's status and a fixed
// text, never the body of its answer, which is whatever answered at an
// address a client chose. Errors: ErrNotConfigured without a VAPID key
// (nothing is claimed), and those of the database.
func (s *Service) DeliverDue(ctx context.Context) (int, error) {
	if s.o.VAPID.Private == nil {
		return 0, ErrNotConfigured
	}
	priv, err := s.o.VAPID.privateKey()
	if err != nil {
		return 0, fmt.Errorf("VAPID key: %w", err)
	}
	opts := &webpush.Options{HTTPClient: s.client, Subscriber: subscriber(s.o.Subject),
		TTL: int(s.o.TTL / time.Second), Urgency: webpush.Urgency(s.o.Urgency),
		VAPIDPublicKey: s.o.VAPID.PublicKey(), VAPIDPrivateKey: priv}
	total := 0
	for {
		batch, err := s.store.claim(ctx, s.db, s.o.Now(), lease, s.o.Workers)
		if err != nil {
			return total, err
		}
		errs := make([]error, len(batch))
		var wg sync.WaitGroup
		for i, c := range batch {
			wg.Add(1)
			go func() {
				defer wg.Done()
				sendCtx, cancel := context.WithTimeout(ctx, sendTimeout)
				defer cancel()
				errs[i] = s.store.record(ctx, s.db, c, s.attempt(sendCtx, c, opts), s.o.Now())
			}()
		}
		wg.Wait()
		total += len(batch)
		for _, err := range errs {
			if err != nil {
				return total, err
			}
		}
		if len(batch) < s.o.Workers {
			return total, nil
		}
	}
}

// attempt sends delivery c once and says what came of it.
func (s *Service) attempt(ctx context.Context, c claimed, opts *webpush.Options) outcome {
	msg := Message{NotificationID: c.NotificationID, Title: c.Title, Body: c.Body, URL: c.URL}
	sub := &webpush.Subscription{Endpoint: c.Endpoint, Keys: webpush.Keys{P256dh: c.P256dh, Auth: c.Auth}}
	resp, err := webpush.SendNotificationWithContext(ctx, msg.payload(), sub, opts)
	if err != nil {
		return s.unsent(c, err)
	}
	defer resp.Body.Close()
	// Read, for the connection's reuse, and dropped.
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxDrain))
	code := resp.StatusCode
	text := answered(code)
	switch {
	case code >= 200 && code < 300:
		return outcome{status: DeliverySent, httpStatus: &code}
	case code == http.StatusNotFound || code == http.StatusGone:
		return outcome{status: DeliveryGone, httpStatus: &code, err: &text}
	case code == http.StatusTooManyRequests || code >= 500:
		wait, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
		return s.retry(c, &code, time.Duration(wait)*time.Second, text)
	}
	return outcome{status: DeliveryFailed, httpStatus: &code, err: &text}
}

// The failures of a delivery that got no answer, as recorded: they say
// what went wrong without what the connection met (a resolver's answer, an
// address, the state of a port).
const (
	errNotPublic   = "the push service's address is not a public one"
	errUnreachable = "the push service could not be reached"
)

// unsent is the outcome of an attempt of c that got no answer (err): a
// failure when the endpoint's address is not allowed (outbound.ErrRefused),
// which trying again would meet again; else one that may pass, tried
// again: the network (a url.Error of the client), or the message not made.
func (s *Service) unsent(c claimed, err error) outcome {
	var urlErr *url.Error
	switch {
	case errors.Is(err, outbound.ErrRefused):
		text := errNotPublic
		return outcome{status: DeliveryFailed, err: &text}
	case errors.As(err, &urlErr):
		return s.retry(c, nil, 0, errUnreachable)
	}
	return s.retry(c, nil, 0, "the push message could not be made: "+err.Error())
}

// retry is the outcome of an attempt of c that may succeed later: pending
// again after a wait that doubles with each attempt (at least asked, as a
// Retry-After), or failed once the attempts are used up.
func (s *Service) retry(c claimed, code *int, asked time.Duration, text string) outcome {
	text = cut(text)
	if c.Attempts >= s.o.MaxAttempts {
		text = cut(fmt.Sprintf("gave up after %d attempts: %s", c.Attempts, text))
		return outcome{status: DeliveryFailed, httpStatus: code, err: &text}
	}
	wait := s.o.Retry
	for i := 1; i < c.Attempts && wait < maxRetry; i++ {
		wait *= 2
	}
	wait = min(max(wait, asked), maxRetry)
	next := s.o.Now().Add(wait)
	return outcome{status: DeliveryPending, httpStatus: code, err: &text, next: &next}
}

// answered is the record of a push service's answer: its status alone.
func answered(code int) string {
	return "the push service answered " + strconv.Itoa(code)
}

// cut bounds a failure text to maxErrorText bytes of valid UTF-8.
func cut(s string) string {
	s = strings.ReplaceAll(s, "\x00", "")
	if len(s) > maxErrorText {
		s = strings.ToValidUTF8(s[:maxErrorText], "")
	}
	return s
}

// subscriber is Subject as webpush-go takes it: it prefixes mailto: to
// anything that is not an https: URL.
func subscriber(subject string) string {
	return strings.TrimPrefix(subject, "mailto:")
}

// DeliveryJob is the job "push_delivery": it delivers the due deliveries
// (DeliverDue) at once, every interval, and as soon as Send queues some on
// this service, and fails with the first error of a round (ErrNotConfigured
// without a VAPID key: the deliveries wait).
func (s *Service) DeliveryJob(interval time.Duration) clubhouse.Job {
	return clubhouse.NewJob("push_delivery", func(ctx context.Context) error {
		return clubhouse.Repeat(ctx, interval, s.wake, func(ctx context.Context) error {
			_, err := s.DeliverDue(ctx)
			return err
		})
	})
}

// Backlog counts the deliveries that wait to be sent (pending, retries
// among them) and those that failed for good, each through its partial
// index (migrations 00026 and 00033), so that it reads those rows alone.
func (s *Service) Backlog(ctx context.Context) (pending, failed int, err error) {
	err = s.db.QueryRowxContext(ctx, `SELECT (SELECT count(*) FROM push_deliveries WHERE status = 'pending'),
		(SELECT count(*) FROM push_deliveries WHERE status = 'failed')`).Scan(&pending, &failed)
	return pending, failed, err
}
