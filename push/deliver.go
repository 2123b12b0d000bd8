package push

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	webpush "github.com/SherClockHolmes/webpush-go"
)

// Sending in the background: DeliverDue claims the due deliveries (FOR
// UPDATE SKIP LOCKED, moving their next attempt past the lease), sends
// them, and records each outcome; Run calls it on a ticker and whenever
// Send queued deliveries on this instance.

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
)

// DeliverDue sends every delivery that is due, up to Options.Workers at
// once, and returns how many attempts it made. A delivery the push
// service accepts (2xx) is sent; one whose device it no longer knows
// (404, 410) is gone, and its subscription is removed; one that fails for
// a reason that may pass (a network error, 429, 5xx) is tried again
// later, with a doubling wait, until Options.MaxAttempts; any other
// refusal fails it. Errors: ErrNotConfigured without a VAPID key (nothing
// is claimed), and those of the database.
func (s *Service) DeliverDue(ctx context.Context) (int, error) {
	if s.o.VAPID.Private == nil {
		return 0, ErrNotConfigured
	}
	priv, err := s.o.VAPID.privateKey()
	if err != nil {
		return 0, fmt.Errorf("VAPID key: %w", err)
	}
	opts := &webpush.Options{HTTPClient: s.o.HTTPClient, Subscriber: subscriber(s.o.Subject),
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
		return s.retry(c, nil, 0, "send: "+err.Error())
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 256))
	code := resp.StatusCode
	switch {
	case code >= 200 && code < 300:
		return outcome{status: DeliverySent, httpStatus: &code}
	case code == http.StatusNotFound || code == http.StatusGone:
		return outcome{status: DeliveryGone, httpStatus: &code, err: errorText(code, body)}
	case code == http.StatusTooManyRequests || code >= 500:
		wait, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
		return s.retry(c, &code, time.Duration(wait)*time.Second, *errorText(code, body))
	}
	return outcome{status: DeliveryFailed, httpStatus: &code, err: errorText(code, body)}
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

func errorText(code int, body []byte) *string {
	text := cut("push service answered " + strconv.Itoa(code) + ": " + strings.TrimSpace(strings.ToValidUTF8(string(body), "")))
	return &text
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

// Run delivers the due deliveries every interval, and as soon as Send
// queues some on this service, until ctx ends, reporting each round's
// error to report.
func (s *Service) Run(ctx context.Context, interval time.Duration, report func(error)) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		if _, err := s.DeliverDue(ctx); err != nil && ctx.Err() == nil {
			report(err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-s.wake:
		}
	}
}
