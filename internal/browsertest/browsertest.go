// Package browsertest opens the pages Blindfish writes (the game viewer,
// the reports) in headless Chromium for tests, as a person would open them,
// and collects what the page's console says.
//
// A browser test runs when BLINDFISH_BROWSER_TESTS=1 or CI=true: starting
// Chromium costs seconds, so a plain `go test` leaves it out. Asked to run,
// it fails under CI=true when no Chromium is installed (CI installs Debian's
// chromium package; a missing browser must not pass as a skipped test) and
// skips otherwise.
package browsertest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// Chromium returns the path of a Chromium to drive, or skips (or fails, see
// the package doc) the test.
func Chromium(t testing.TB) string {
	t.Helper()
	ci := os.Getenv("CI") == "true"
	if os.Getenv("BLINDFISH_BROWSER_TESTS") != "1" && !ci {
		t.Skip("set BLINDFISH_BROWSER_TESTS=1 to open the page in headless Chromium")
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if ci {
		t.Fatal("no Chromium found (apt-get install -y chromium)")
	}
	t.Skip("no Chromium found (apt-get install -y chromium)")
	return ""
}

// hangGuard is the most a tab lives (see Open).
const hangGuard = 10 * time.Minute

// Browser is one headless Chromium tab with the problems its pages reported.
type Browser struct {
	// Ctx runs chromedp actions in the tab.
	Ctx context.Context

	mu       sync.Mutex
	problems []string
}

// Open starts Chromium exe headless with a tab of the given size; the
// test's cleanup closes it. The tab lives at most hangGuard: a bound that
// catches a page that never answers, not one on speed, since a starved
// machine takes minutes over what a quiet one does in seconds (a game
// played through the page outlived a one-minute tab under load).
func Open(t testing.TB, exe string, width, height int) *Browser {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe),
		chromedp.NoSandbox, chromedp.DisableGPU, chromedp.WindowSize(width, height))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	b := &Browser{}
	ctx, cancel := chromedp.NewContext(actx, chromedp.WithListener(b.listen))
	ctx, cancelTimeout := context.WithTimeout(ctx, hangGuard)
	b.Ctx = ctx
	t.Cleanup(func() {
		cancelTimeout()
		cancel()
		cancelAlloc()
	})
	return b
}

// listen keeps the console's errors and warnings and uncaught exceptions.
func (b *Browser) listen(ev any) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch ev := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeWarning {
			var args []string
			for _, a := range ev.Args {
				args = append(args, string(a.Value))
			}
			b.problems = append(b.problems, "console "+string(ev.Type)+": "+strings.Join(args, " "))
		}
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		msg := d.Text
		if d.Exception != nil {
			msg += " " + d.Exception.Description
		}
		b.problems = append(b.problems, fmt.Sprintf("exception at %d:%d: %s", d.LineNumber+1, d.ColumnNumber+1, msg))
	}
}

// Problems returns what the pages reported so far: console errors and
// warnings, and exceptions.
func (b *Browser) Problems() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.problems...)
}

// URL is the file URL of a page on disk.
func URL(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	return "file://" + filepath.ToSlash(abs)
}

// Eval evaluates a JavaScript expression that yields a string, failing the
// test on an error.
func (b *Browser) Eval(t testing.TB, js string) string {
	t.Helper()
	v, err := chromedp.Run(b.Ctx, chromedp.Evaluate[string](js))
	if err != nil {
		t.Fatalf("browser: %s: %v", js, err)
	}
	return v
}

// Screenshot saves the tab as a PNG under dir and returns its path.
func (b *Browser) Screenshot(t testing.TB, dir, name string) string {
	t.Helper()
	shot, err := chromedp.Run(b.Ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("browser: screenshot: %v", err)
	}
	if len(shot) < 8 || string(shot[1:4]) != "PNG" {
		t.Errorf("screenshot is not a PNG (%d bytes)", len(shot))
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s (%d bytes)", path, len(shot))
	return path
}
