package browsertest_test

import (
	"bytes"
	"fmt"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/testkit/browsertest"
)

// csp is the policy of every page of the site: no script runs without the
// nonce, and nothing else loads, not even the site's image.
const csp = "default-src 'none'; script-src 'nonce-abc'"

// pages are the test site's pages by path.
var pages = map[string]string{
	// Breaks two critical rules: an image without alt and a button
	// without a name.
	"/broken": `<h1>Courts</h1><img src="/court.svg" id="court"><button id="book"></button>`,
	"/clean":  `<h1>Courts</h1><img src="/court.svg" alt="Court 1 from above"><button>Book</button>`,
	// A script without the nonce is blocked by the CSP; the one with it runs.
	"/script": `<h1>Script</h1><p id="nonced">as served</p><p id="plain">as served</p>
		<script nonce="abc">document.getElementById("nonced").textContent = "changed by a script"</script>
		<script>document.getElementById("plain").textContent = "changed by a script"</script>`,
	"/long":   "<h1>A long page</h1>" + strings.Repeat("<p>A line of the page.</p>", 100),
	"/cookie": `<h1>Cookie</h1><p id="cookie">{{cookie}}</p>`,
}

// site serves pages under a strict CSP; /cookie shows the desk cookie and
// sets it from ?set=.
func site(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		if set := r.URL.Query().Get("set"); set != "" {
			http.SetCookie(w, &http.Cookie{Name: "desk", Value: set, Path: "/"})
		}
		shown := "no cookie"
		if c, err := r.Cookie("desk"); err == nil {
			shown = c.Value
		}
		w.Header().Set("Content-Security-Policy", csp)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Test page</title></head>
<body><main>%s</main></body></html>`, strings.ReplaceAll(body, "{{cookie}}", shown))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// byID returns the violations by rule.
func byID(vs []browsertest.Violation) map[string]browsertest.Violation {
	m := map[string]browsertest.Violation{}
	for _, v := range vs {
		m[v.ID] = v
	}
	return m
}

// TestAxe: axe-core runs on pages under a strict CSP with a nonce, reports
// the image without alt and the nameless button as critical with their
// elements, and finds nothing on a clean page.
func TestAxe(t *testing.T) {
	t.Parallel()
	srv := site(t)
	ctx := browsertest.New(t)

	browsertest.Open(t, ctx, srv.URL+"/script")
	assert.Equal(t, "as served", browsertest.Text(t, ctx, "#plain"), "the page's CSP blocks a script without the nonce")
	assert.Equal(t, "changed by a script", browsertest.Text(t, ctx, "#nonced"))

	browsertest.Open(t, ctx, srv.URL+"/broken")
	found := byID(browsertest.Axe(t, ctx))
	require.Contains(t, found, "image-alt")
	require.Contains(t, found, "button-name")
	assert.Equal(t, "critical", found["image-alt"].Impact)
	assert.Equal(t, "critical", found["button-name"].Impact)
	assert.Equal(t, []browsertest.Node{{Target: "#court", HTML: `<img src="/court.svg" id="court">`}}, found["image-alt"].Nodes)
	assert.Equal(t, "#book", found["button-name"].Nodes[0].Target)
	assert.NotEmpty(t, found["image-alt"].Help)
	assert.Contains(t, found["image-alt"].HelpURL, "image-alt")

	// Again on the same page, where axe-core is already loaded: the same answer.
	assert.Len(t, browsertest.Axe(t, ctx), len(found))

	browsertest.Open(t, ctx, srv.URL+"/clean")
	assert.Empty(t, browsertest.Axe(t, ctx))
	assert.Empty(t, browsertest.RequireAccessible(t, ctx))
}

// fatal is a testing.TB that records the message of its Fatalf and ends
// its goroutine, as a failing test's would.
type fatal struct {
	testing.TB
	msg string
}

func (f *fatal) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// failure runs fn with a fatal in a goroutine of its own and returns the
// message it failed with ("" when it did not fail).
func failure(t *testing.T, fn func(tb testing.TB)) string {
	f := &fatal{TB: t}
	var wg sync.WaitGroup
	wg.Go(func() { fn(f) })
	wg.Wait()
	return f.msg
}

// TestRequireAccessible: a page that breaks critical rules fails the test
// with each rule and its elements named.
func TestRequireAccessible(t *testing.T) {
	t.Parallel()
	srv := site(t)
	ctx := browsertest.New(t)
	browsertest.Open(t, ctx, srv.URL+"/broken")
	msg := failure(t, func(tb testing.TB) { browsertest.RequireAccessible(tb, ctx) })
	assert.Contains(t, msg, "breaks 2 serious or critical accessibility rules")
	assert.Contains(t, msg, "image-alt (critical)")
	assert.Contains(t, msg, `- #court: <img src="/court.svg" id="court">`)
	assert.Contains(t, msg, "button-name (critical)")
	assert.Contains(t, msg, "- #book: ")
}

// TestNew_withoutJavaScript: the page's own scripts do not run, even the
// one its CSP allows, from the first navigation on; the kit's reading,
// axe-core and LCP still work, and run none of the page's scripts.
func TestNew_withoutJavaScript(t *testing.T) {
	t.Parallel()
	srv := site(t)
	ctx := browsertest.New(t, browsertest.WithoutJavaScript())
	asServed := func() {
		t.Helper()
		assert.Equal(t, "as served", browsertest.Text(t, ctx, "#nonced"))
		assert.Equal(t, "as served", browsertest.Text(t, ctx, "#plain"))
	}
	browsertest.Open(t, ctx, srv.URL+"/script")
	asServed()
	browsertest.RequireAccessible(t, ctx)
	asServed()
	browsertest.Open(t, ctx, srv.URL+"/broken")
	assert.Contains(t, byID(browsertest.Axe(t, ctx)), "image-alt")
	assert.Positive(t, browsertest.LCP(t, ctx, srv.URL+"/clean"))
	browsertest.Open(t, ctx, srv.URL+"/script")
	asServed()
}

// TestNew_viewports: a desktop window by default, a phone with WithPhone.
func TestNew_viewports(t *testing.T) {
	t.Parallel()
	srv := site(t)
	for _, tc := range []struct {
		name          string
		opts          []browsertest.Option
		width, height int
		mobile        bool
	}{
		{"desktop", nil, browsertest.DesktopWidth, browsertest.DesktopHeight, false},
		{"phone", []browsertest.Option{browsertest.WithPhone()}, browsertest.PhoneWidth, browsertest.PhoneHeight, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx := browsertest.New(t, tc.opts...)
			browsertest.Open(t, ctx, srv.URL+"/clean")
			size, err := chromedp.Run(ctx, chromedp.Evaluate[[]int](`[innerWidth, innerHeight]`))
			require.NoError(t, err)
			assert.Equal(t, []int{tc.width, tc.height}, size)
			touch, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`matchMedia("(pointer: coarse)").matches`))
			require.NoError(t, err)
			assert.Equal(t, tc.mobile, touch)
		})
	}
}

// TestNew_twoDesks: two browsers at once share no cookie.
func TestNew_twoDesks(t *testing.T) {
	t.Parallel()
	srv := site(t)
	a, b := browsertest.New(t), browsertest.New(t)
	browsertest.Open(t, a, srv.URL+"/cookie?set=desk-a")
	browsertest.Open(t, a, srv.URL+"/cookie")
	assert.Equal(t, "desk-a", browsertest.Text(t, a, "#cookie"))
	browsertest.Open(t, b, srv.URL+"/cookie")
	assert.Equal(t, "no cookie", browsertest.Text(t, b, "#cookie"))
	browsertest.Open(t, b, srv.URL+"/cookie?set=desk-b")
	browsertest.Open(t, a, srv.URL+"/cookie")
	assert.Equal(t, "desk-a", browsertest.Text(t, a, "#cookie"))
}

// TestScreenshot: the whole page, beyond the viewport, as a PNG in
// $SCREENSHOTS_DIR, at the phone's device scale with WithPhone.
func TestScreenshot(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "shots")
	t.Setenv("SCREENSHOTS_DIR", dir)
	srv := site(t)
	for _, tc := range []struct {
		name         string
		opts         []browsertest.Option
		width, scale int
	}{
		{"desktop", nil, browsertest.DesktopWidth, 1},
		{"phone", []browsertest.Option{browsertest.WithPhone()}, browsertest.PhoneWidth, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := browsertest.New(t, tc.opts...)
			browsertest.Open(t, ctx, srv.URL+"/long")
			path := browsertest.Screenshot(t, ctx, "long page")
			assert.Equal(t, filepath.Join(dir, "TestScreenshot_"+tc.name+"-long_page.png"), path)
			data, err := os.ReadFile(path)
			require.NoError(t, err)
			img, err := png.Decode(bytes.NewReader(data))
			require.NoError(t, err, "a PNG")
			assert.Equal(t, tc.width*tc.scale, img.Bounds().Dx())
			assert.Greater(t, img.Bounds().Dy(), 2000*tc.scale, "the whole page, beyond the viewport")
		})
	}
}

// TestLCP: a page's largest contentful paint is measured.
func TestLCP(t *testing.T) {
	t.Parallel()
	srv := site(t)
	ctx := browsertest.New(t)
	lcp := browsertest.LCP(t, ctx, srv.URL+"/clean")
	t.Logf("largest contentful paint: %s", lcp)
	assert.Positive(t, lcp)
	assert.Less(t, lcp, browsertest.Timeout)
}

// TestNew_noChromium: without Chromium the test fails saying how to
// install it.
func TestNew_noChromium(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	msg := failure(t, func(tb testing.TB) { browsertest.New(tb) })
	assert.Contains(t, msg, "run make services-test")
}
