package browsertest

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/chromedp/chromedp"
)

// unsafeName matches what a file name should not hold.
var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// Screenshot saves a PNG of the whole page now open in the tab of ctx,
// beyond the viewport, for a person to look at, and returns its path. The
// file is named after the test and name (TestPanel_day-phone.png for name
// "phone" in test TestPanel/day) and goes to the directory
// $SCREENSHOTS_DIR when it is set, which it makes if needed, or else to
// the test's temporary directory. It logs the path, and fails the test
// when it cannot take or write the picture.
func Screenshot(tb testing.TB, ctx context.Context, name string) string {
	tb.Helper()
	dir := os.Getenv("SCREENSHOTS_DIR")
	if dir == "" {
		dir = tb.TempDir()
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		tb.Fatalf("browsertest: screenshot %s: %v", name, err)
	}
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		tb.Fatalf("browsertest: screenshot %s: %v", name, err)
	}
	path := filepath.Join(dir, unsafeName.ReplaceAllString(tb.Name()+"-"+name, "_")+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		tb.Fatalf("browsertest: screenshot %s: %v", name, err)
	}
	tb.Logf("screenshot %s: %s", name, path)
	return path
}
