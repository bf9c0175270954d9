// Command pagetime measures how long pages take to open in headless
// Chromium: for each page, its size and, over several loads in a fresh tab,
// the time from the start of navigation to the end of the load event (the
// HTML parsed, the page's script run and the board or plots laid out), as
// the page itself reports it (Navigation Timing). It is how the numbers in
// docs/viewer.md were measured:
//
//	go run ./scripts/pagetime [-n 5] PAGE.html...
//
// Chromium's own start-up is not counted: a person opening a page has a
// browser running already.
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

func main() {
	n := flag.Int("n", 5, "loads of each page")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "Usage: go run ./scripts/pagetime [-n 5] PAGE.html...")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 || *n < 1 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(context.Background(), flag.Args(), *n); err != nil {
		slog.Error("pagetime", "err", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, pages []string, n int) error {
	exe := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			exe = p
			break
		}
	}
	if exe == "" {
		return fmt.Errorf("no Chromium found (apt-get install -y chromium)")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe),
		chromedp.NoSandbox, chromedp.DisableGPU, chromedp.WindowSize(1200, 900))
	actx, cancel := chromedp.NewExecAllocator(ctx, opts...)
	defer cancel()
	browser, cancelBrowser := chromedp.NewContext(actx)
	defer cancelBrowser()
	if err := chromedp.Do(browser); err != nil { // start the browser, uncounted
		return fmt.Errorf("start Chromium: %w", err)
	}
	for _, page := range pages {
		abs, err := filepath.Abs(page)
		if err != nil {
			return err
		}
		st, err := os.Stat(abs)
		if err != nil {
			return err
		}
		var loads []time.Duration
		for range n {
			d, err := load(browser, "file://"+filepath.ToSlash(abs))
			if err != nil {
				return fmt.Errorf("%s: %w", page, err)
			}
			loads = append(loads, d)
		}
		slices.Sort(loads)
		fmt.Printf("%s: %d bytes (%.2f MB), opened in %v median, %v slowest of %d loads\n", page, st.Size(),
			float64(st.Size())/1e6, loads[len(loads)/2].Round(time.Millisecond), loads[len(loads)-1].Round(time.Millisecond), n)
	}
	return nil
}

// load opens url in a new tab of browser and returns the time from the
// start of navigation to the end of the load event.
func load(browser context.Context, url string) (time.Duration, error) {
	tab, cancel := chromedp.NewContext(browser)
	defer cancel()
	tab, cancelTimeout := context.WithTimeout(tab, time.Minute)
	defer cancelTimeout()
	if err := chromedp.Do(tab, chromedp.Navigate(url)); err != nil {
		return 0, err
	}
	ms, err := chromedp.Run(tab, chromedp.Evaluate[float64](`new Promise(done => {
		const check = () => {
			const nav = performance.getEntriesByType("navigation")[0];
			if (nav && nav.loadEventEnd > 0) done(nav.loadEventEnd); else setTimeout(check, 10);
		};
		check();
	})`, func(p *runtime.EvaluateParams) { await := true; p.AwaitPromise = &await }))
	if err != nil {
		return 0, err
	}
	return time.Duration(ms * float64(time.Millisecond)), nil
}
