// Package browsertest drives a real headless Chromium for the tests of the
// web pages: it starts the browser (New), checks a page's accessibility
// with axe-core (Axe, RequireAccessible), measures its Largest Contentful
// Paint (LCP), saves screenshots for a person to look at (Screenshot), and
// reads the page (Open, Text).
//
// Chromium is Debian's chromium and axe-core comes from the npm lockfile in
// testdata/axe; `.ci/services test` (make services-test) installs both.
//
//	ctx := browsertest.New(t, browsertest.WithoutJavaScript())
//	browsertest.Open(t, ctx, app.URL+"/panel/")
//	assert.Equal(t, "Reservas", browsertest.Text(t, ctx, "h1"))
//	browsertest.RequireAccessible(t, ctx)
//	browsertest.Screenshot(t, ctx, "day-no-js")
package browsertest

import (
	"context"
	"os/exec"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// Timeout bounds the life of the context New returns, so that a page that
// never answers fails its test instead of hanging the run.
const Timeout = 90 * time.Second

// The desktop window of a browser and the phone viewport of WithPhone, in
// CSS pixels.
const (
	DesktopWidth, DesktopHeight = 1280, 900
	PhoneWidth, PhoneHeight     = 390, 844
)

// config is what the options of New set.
type config struct {
	noScript bool
	phone    bool
	lang     string
}

// Option changes the browser New starts.
type Option func(*config)

// WithoutJavaScript disables scripts in the browser's tab before its first
// navigation (CDP Emulation.setScriptExecutionDisabled), as for a person
// who turned JavaScript off: pages run no script of their own, and their
// plain forms must still work. The kit's own reading of the page (Axe,
// LCP, Text) still works, through the DevTools protocol.
func WithoutJavaScript() Option { return func(c *config) { c.noScript = true } }

// WithPhone emulates a phone: a viewport of PhoneWidth x PhoneHeight CSS
// pixels at device scale 3 (an iPhone 12 to 14), portrait, with mobile
// emulation (the page's meta viewport applies) and touch events.
func WithPhone() Option { return func(c *config) { c.phone = true } }

// WithLanguage makes the browser ask for the languages of accept, an
// Accept-Language list such as "en" or "es-CO,es" (the browser's own,
// en-US, otherwise), as a person's browser set to them would.
func WithLanguage(accept string) Option { return func(c *config) { c.lang = accept } }

// New starts a headless Chromium of its own for the test and returns the
// context that drives its one tab, with chromedp's actions. The window is
// DesktopWidth x DesktopHeight unless WithPhone says otherwise. Each call
// starts a separate browser (its own process and a fresh profile in
// tb.TempDir()), so a test that needs two people at once, two desks, calls
// New twice and gets two browsers that share no cookie or storage.
//
// New fails the test when Chromium is missing (run make services-test) or
// does not start. The browser stops when the test ends; the context ends
// after Timeout.
func New(tb testing.TB, opts ...Option) context.Context {
	tb.Helper()
	var c config
	for _, o := range opts {
		o(&c)
	}
	path, err := exec.LookPath("chromium")
	if err != nil {
		tb.Fatalf("browsertest: Chromium is needed: run make services-test (it installs Debian's chromium): %v", err)
	}
	// The flags that work on a closed network: no sandbox (tests may run
	// as root), no GPU, and nothing that calls out (QUIC, component
	// updates, sync, background networking).
	flags := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(tb.TempDir()),
		chromedp.WindowSize(DesktopWidth, DesktopHeight),
	)
	if c.lang != "" {
		flags = append(flags, chromedp.Flag("accept-lang", c.lang))
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), flags...)
	tb.Cleanup(cancelAlloc)
	bctx, cancelBrowser := chromedp.NewContext(actx)
	tb.Cleanup(cancelBrowser)

	// The first Run starts the browser and opens its tab: it runs on the
	// browser's own context, since a deadline on it would end the browser.
	// The tab's settings are made here, before any navigation.
	var setup []chromedp.Action[chromedp.Void]
	if c.noScript {
		setup = append(setup, scriptsDisabled(true))
	}
	// The viewport is emulated on the desktop too: a headless window of
	// DesktopHeight leaves less than that to the page.
	if c.phone {
		setup = append(setup, chromedp.EmulateViewport(PhoneWidth, PhoneHeight,
			chromedp.EmulateScale(3), chromedp.EmulatePortrait, chromedp.EmulateMobile, chromedp.EmulateTouch))
	} else {
		setup = append(setup, chromedp.EmulateViewport(DesktopWidth, DesktopHeight))
	}
	if err := chromedp.Do(bctx, setup...); err != nil {
		tb.Fatalf("browsertest: start Chromium (%s): %v", path, err)
	}
	ctx, cancel := context.WithTimeout(context.WithValue(bctx, noScriptKey{}, c.noScript), Timeout)
	tb.Cleanup(cancel)
	return ctx
}

// noScriptKey marks in the context of New whether its tab runs no script.
type noScriptKey struct{}

// scriptsDisabled sets whether the tab runs scripts.
func scriptsDisabled(disabled bool) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: disabled})
		return err
	})
}

// withScripts runs a in the tab of ctx with scripts enabled, and disables
// them again after it when New disabled them. axe-core and the reading of
// LCP wait on promises and callbacks, which a tab without scripts never
// runs. The page's own scripts were skipped when it loaded, so none of
// them runs meanwhile.
func withScripts[T any](ctx context.Context, a chromedp.Action[T]) (T, error) {
	if off, _ := ctx.Value(noScriptKey{}).(bool); !off {
		return chromedp.Run(ctx, a)
	}
	if err := chromedp.Do(ctx, scriptsDisabled(false)); err != nil {
		var zero T
		return zero, err
	}
	v, err := chromedp.Run(ctx, a)
	if err := chromedp.Do(ctx, scriptsDisabled(true)); err != nil {
		var zero T
		return zero, err
	}
	return v, err
}

// Open navigates the tab of ctx to url and waits for the page's load
// event; it fails the test when the navigation fails.
func Open(tb testing.TB, ctx context.Context, url string) {
	tb.Helper()
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		tb.Fatalf("browsertest: open %s: %v", url, err)
	}
}

// Text waits until the page of ctx has an element that matches the CSS
// selector sel and is visible, and returns the visible text of the first
// one. It fails the test when none appears before ctx ends.
func Text(tb testing.TB, ctx context.Context, sel string) string {
	tb.Helper()
	s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel), chromedp.NodeVisible))
	if err != nil {
		tb.Fatalf("browsertest: text of %q: %v", sel, err)
	}
	return s
}
