package browsertest

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// lcpRead waits two frames, so that what the load event left to paint is
// painted, then reads the buffered largest-contentful-paint entries and
// answers the start time of the last, in milliseconds.
const lcpRead = `new Promise((resolve, reject) => {
	const none = setTimeout(() => reject(new Error("the page recorded no largest-contentful-paint entry")), 5000);
	requestAnimationFrame(() => requestAnimationFrame(() => {
		new PerformanceObserver((list, observer) => {
			const entries = list.getEntries();
			observer.disconnect();
			clearTimeout(none);
			resolve(entries[entries.length - 1].startTime);
		}).observe({type: "largest-contentful-paint", buffered: true});
	}));
})`

// LCP opens url in the tab of ctx and returns the page's Largest
// Contentful Paint: the time from the start of the navigation to the
// render of the largest text block or image in the viewport, as the
// browser reports it in its largest-contentful-paint entries. It waits for
// the load event and two animation frames after it, then reads the
// entries recorded so far with a PerformanceObserver (buffered: true)
// through the DevTools protocol, so the page's own scripts and CSP play no
// part, and returns the last one's start time. Served from loopback, it
// measures what the page costs to fetch and render, not a network. It
// fails the test when the page does not load or records no entry within 5
// seconds (a page with no text or image).
func LCP(tb testing.TB, ctx context.Context, url string) time.Duration {
	tb.Helper()
	Open(tb, ctx, url)
	ms, err := withScripts(ctx, chromedp.Evaluate[float64](lcpRead, chromedp.EvalAwaitPromise))
	if err != nil {
		tb.Fatalf("browsertest: largest contentful paint of %s: %v", url, err)
	}
	return time.Duration(ms * float64(time.Millisecond))
}
