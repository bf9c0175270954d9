package rbcclient_test

import (
	"context"
	"encoding/base64"
	"io"
	"log/slog"
	"net/http"
	"testing"

	"github.com/blindfish-rbc/blindfish/protocol/internal/httpapi/redirecttest"
	"github.com/blindfish-rbc/blindfish/protocol/rbcclient"
)

func answerVersion(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = io.WriteString(w, `{"version":"`+rbcclient.HarnessVersion+`"}`)
}

// A call redirected elsewhere sends no password; one redirected on the
// same server keeps it.
func TestRedirects(t *testing.T) {
	basic := base64.StdEncoding.EncodeToString([]byte(user + ":" + password))
	redirecttest.Run(t, redirecttest.Call{
		Path: "/api/version",
		Do: func(ctx context.Context, base string, hc *http.Client, log *slog.Logger) error {
			c, err := rbcclient.NewClient(rbcclient.Config{URL: base, Username: user, Password: password, HTTPClient: hc, Logger: log})
			if err != nil {
				t.Fatal(err)
			}
			v, err := c.Version(ctx)
			if err == nil && v != rbcclient.HarnessVersion {
				t.Errorf("Version() = %q; want %q", v, rbcclient.HarnessVersion)
			}
			return err
		},
		Answer:     answerVersion,
		Authorized: func(r *http.Request) bool { return r.Header.Get("Authorization") == "Basic "+basic },
		Secrets:    []string{password, basic},
	})
}
