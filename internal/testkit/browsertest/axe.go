package browsertest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// Violation is a rule of axe-core that the page breaks.
type Violation struct {
	ID      string // the rule, such as "image-alt"
	Impact  string // "minor", "moderate", "serious" or "critical"
	Help    string // what the rule asks, in a sentence
	HelpURL string // the rule's page at Deque University
	Nodes   []Node // the elements that break it
}

// Node is an element of the page that breaks a rule.
type Node struct {
	// Target is the element's CSS selector; the selectors of an element
	// in a frame or a shadow root are joined with " >>> ".
	Target string
	HTML   string // the element's opening tag, cut by axe-core
}

// WCAG are the axe-core tags of the rules Axe runs: the success criteria
// of WCAG 2.0, 2.1 and 2.2 at levels A and AA.
var WCAG = []string{"wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"}

// axeRun runs axe-core over the document with the WCAG rules and keeps
// of its result what Violation holds.
const axeRun = `axe.run(document, {runOnly: {type: "tag", values: %s}, resultTypes: ["violations"]}).then(r =>
	r.violations.map(v => ({
		ID: v.id, Impact: v.impact || "", Help: v.help, HelpURL: v.helpUrl,
		Nodes: v.nodes.map(n => ({
			Target: n.target.map(t => Array.isArray(t) ? t.join(" >>> ") : t).join(" >>> "),
			HTML: n.html,
		})),
	})))`

// Axe checks the page now open in the tab of ctx with axe-core against
// the WCAG rules and returns the rules it breaks (none: an empty slice).
// axe-core is injected with the DevTools protocol (Runtime.evaluate),
// which the page's Content-Security-Policy does not govern, so a page
// with a strict policy is checked as it is served. It fails the test when
// axe-core is not installed (run make services-test) or cannot run.
func Axe(tb testing.TB, ctx context.Context) []Violation {
	tb.Helper()
	dir := axeDir()
	src, err := os.ReadFile(filepath.Join(dir, "node_modules", "axe-core", "axe.min.js"))
	if err != nil {
		tb.Fatalf("browsertest: axe-core is not installed: run make services-test (npm ci in %s): %v", dir, err)
	}
	tags, err := json.Marshal(WCAG)
	if err != nil {
		tb.Fatalf("browsertest: %v", err)
	}
	loaded, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`typeof window.axe === "object"`))
	if err == nil && !loaded {
		_, err = chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](string(src)))
	}
	var vs []Violation
	if err == nil {
		vs, err = withScripts(ctx, chromedp.Evaluate[[]Violation](fmt.Sprintf(axeRun, tags), chromedp.EvalAwaitPromise))
	}
	if err != nil {
		tb.Fatalf("browsertest: run axe-core: %v", err)
	}
	return vs
}

// RequireAccessible runs Axe on the page now open in the tab of ctx and
// fails the test when the page breaks a rule of serious or critical
// impact, listing each such rule with its elements. It returns the
// violations of lesser impact, which a test may log or check.
func RequireAccessible(tb testing.TB, ctx context.Context) []Violation {
	tb.Helper()
	var severe, minor []Violation
	for _, v := range Axe(tb, ctx) {
		if v.Impact == "serious" || v.Impact == "critical" {
			severe = append(severe, v)
		} else {
			minor = append(minor, v)
		}
	}
	if len(severe) > 0 {
		var b strings.Builder
		for _, v := range severe {
			fmt.Fprintf(&b, "\n%s (%s): %s\n  %s", v.ID, v.Impact, v.Help, v.HelpURL)
			for _, n := range v.Nodes {
				fmt.Fprintf(&b, "\n  - %s: %s", n.Target, n.HTML)
			}
		}
		tb.Fatalf("browsertest: the page breaks %d serious or critical accessibility rules:%s", len(severe), b.String())
	}
	return minor
}

// axeDir is the npm project of axe-core, testdata/axe beside this source
// file, whichever package's test runs.
func axeDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "testdata", "axe")
}
