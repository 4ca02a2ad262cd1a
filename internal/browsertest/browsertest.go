// Package browsertest opens a headless Chromium for the tests of the
// packages that write HTML pages, so that a page is tried where it will
// be used: in a browser, from a file:// URL. A test skips cleanly where no
// Chromium or Chrome is installed, as on a user's machine without one.
package browsertest

import (
	"context"
	"os/exec"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Executables are the names a Chromium or Chrome is looked for under, in
// order.
var Executables = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}

// Timeout bounds a test's whole session with the browser.
const Timeout = 60 * time.Second

// Open starts a headless browser with a window of the given size and
// returns a context to drive it with chromedp; the browser is closed when
// the test ends. Without a browser the test is skipped.
func Open(t *testing.T, width, height int) context.Context {
	t.Helper()
	exe := ""
	for _, name := range Executables {
		if p, err := exec.LookPath(name); err == nil {
			exe = p
			break
		}
	}
	if exe == "" {
		t.Skip("no Chromium or Chrome installed: the page is not tried in a browser")
	}
	opts := append(slices.Clone(chromedp.DefaultExecAllocatorOptions[:]), chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.WindowSize(width, height))
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(alloc)
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	t.Cleanup(func() {
		cancel()
		cancelCtx()
		cancelAlloc()
	})
	return ctx
}
