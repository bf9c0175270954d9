package web

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"

	"github.com/blindfish-rbc/blindfish/internal/httpserve"
)

// Host serves the game at d on addr, which must be a loopback address (the
// page is the person's alone), until ctx ends; it prints the page's address
// on stdout and, with open, opens it in the default browser. served gets
// the server's end.
func Host(ctx context.Context, addr string, d *Desk, open bool, stdout, stderr io.Writer, log *slog.Logger) (*Server, <-chan error, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, nil, fmt.Errorf("--listen %q: %w", addr, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, nil, fmt.Errorf("--listen %q: the page serves only this machine's loopback (127.0.0.1)", addr)
	}
	srv, err := NewServer(d, log)
	if err != nil {
		return nil, nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, nil, fmt.Errorf("web: %w", err)
	}
	served := make(chan error, 1)
	go func() { served <- httpserve.Serve(ctx, ln, srv.Handler(), httpserve.Limits{}, srv.log) }()
	url := srv.URL(ln.Addr())
	fmt.Fprintf(stdout, "Play at %s\n", url)
	if open {
		openBrowser(url, stderr)
	}
	return srv, served, nil
}

// openBrowser opens url with $BROWSER, or xdg-open where a display is; it
// says so when there is neither.
func openBrowser(url string, stderr io.Writer) {
	name := os.Getenv("BROWSER")
	if name == "" && (os.Getenv("DISPLAY") != "" || os.Getenv("WAYLAND_DISPLAY") != "") {
		name = "xdg-open"
	}
	if name == "" {
		fmt.Fprintln(stderr, "blindfish play: no browser to open (set $BROWSER); open the address above")
		return
	}
	if err := exec.Command(name, url).Start(); err != nil {
		fmt.Fprintf(stderr, "blindfish play: opening the browser: %v; open the address above\n", err)
	}
}
