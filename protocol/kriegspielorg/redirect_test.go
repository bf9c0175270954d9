package kriegspielorg_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/blindfish-rbc/blindfish/protocol/kriegspielorg"
)

const (
	regKey   = "registration-K3Y"
	botToken = "bot-T0KEN-value"
)

// credLog is a server that keeps the credentials it was sent.
type credLog struct {
	mu    sync.Mutex
	hits  int
	creds []string
}

func (l *credLog) wrap(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		l.mu.Lock()
		l.hits++
		for _, h := range []string{"Authorization", "X-Bot-Registration-Key"} {
			if v := r.Header.Get(h); v != "" {
				l.creds = append(l.creds, h+": "+v)
			}
		}
		l.mu.Unlock()
		next(w, r)
	}
}

func (l *credLog) seen() (int, []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.hits, append([]string(nil), l.creds...)
}

// answerAll is a valid answer to a registration and to ActiveGames.
func answerAll(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = io.WriteString(w, `{"bot_id":"1","username":"bot","api_token":"new-token","games":[]}`)
}

func redirectAll(target string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target+r.URL.Path, http.StatusTemporaryRedirect)
	}
}

// checkNoCredentials asserts that the call failed with a RedirectError
// naming both origins, and that neither the target nor the error got a
// credential.
func checkNoCredentials(t *testing.T, err error, from, to string, target *credLog) {
	t.Helper()
	if hits, creds := target.seen(); hits != 0 {
		t.Errorf("the redirect's target got %d requests, with credentials %q", hits, creds)
	}
	var re *kriegspielorg.RedirectError
	if !errors.As(err, &re) {
		t.Fatalf("err = %v, want a RedirectError", err)
	}
	msg := err.Error()
	if !strings.Contains(msg, from) || !strings.Contains(msg, to) || !strings.Contains(msg, "not sent") {
		t.Errorf("error %q does not name %s and %s or say the credentials were not sent", msg, from, to)
	}
	if strings.Contains(msg, regKey) || strings.Contains(msg, botToken) {
		t.Errorf("error %q quotes a secret", msg)
	}
}

func TestRegisterRedirectToAnotherPortGetsNoKey(t *testing.T) {
	var target credLog
	dst := httptest.NewServer(target.wrap(answerAll))
	defer dst.Close()
	src := httptest.NewServer(redirectAll(dst.URL))
	defer src.Close()

	_, err := kriegspielorg.Register(context.Background(), kriegspielorg.Config{URL: src.URL}, regKey,
		kriegspielorg.BotProfile{Username: "bot", DisplayName: "Bot", OwnerEmail: "a@example.org"})
	checkNoCredentials(t, err, src.URL, dst.URL, &target)
}

func TestRegisterRedirectFromHTTPSToHTTPGetsNoKey(t *testing.T) {
	var target credLog
	dst := httptest.NewServer(target.wrap(answerAll))
	defer dst.Close()
	src := httptest.NewTLSServer(redirectAll(dst.URL))
	defer src.Close()

	_, err := kriegspielorg.Register(context.Background(), kriegspielorg.Config{URL: src.URL, HTTPClient: src.Client()}, regKey,
		kriegspielorg.BotProfile{Username: "bot", DisplayName: "Bot", OwnerEmail: "a@example.org"})
	checkNoCredentials(t, err, src.URL, dst.URL, &target)
}

func TestRedirectToAnotherPortGetsNoToken(t *testing.T) {
	var target credLog
	dst := httptest.NewServer(target.wrap(answerAll))
	defer dst.Close()
	src := httptest.NewServer(redirectAll(dst.URL))
	defer src.Close()

	c, err := kriegspielorg.NewClient(kriegspielorg.Config{URL: src.URL, Token: botToken})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.ActiveGames(context.Background())
	checkNoCredentials(t, err, src.URL, dst.URL, &target)
}

func TestRedirectFromHTTPSToHTTPGetsNoToken(t *testing.T) {
	var target credLog
	dst := httptest.NewServer(target.wrap(answerAll))
	defer dst.Close()
	src := httptest.NewTLSServer(redirectAll(dst.URL))
	defer src.Close()

	c, err := kriegspielorg.NewClient(kriegspielorg.Config{URL: src.URL, Token: botToken, HTTPClient: src.Client()})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.ActiveGames(context.Background())
	checkNoCredentials(t, err, src.URL, dst.URL, &target)
}

func TestRegisterSameOriginRedirectIsFollowed(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/auth/bots/register", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/v2/auth/bots/register", http.StatusTemporaryRedirect)
	})
	mux.HandleFunc("/v2/auth/bots/register", func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Header.Get("X-Bot-Registration-Key") != regKey {
			http.Error(w, "{}", http.StatusUnauthorized)
			return
		}
		answerAll(w, r)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	reg, err := kriegspielorg.Register(context.Background(), kriegspielorg.Config{URL: srv.URL}, regKey,
		kriegspielorg.BotProfile{Username: "bot", DisplayName: "Bot", OwnerEmail: "a@example.org"})
	if err != nil || reg.APIToken != "new-token" {
		t.Fatalf("Register() = %+v, %v; want the token", reg, err)
	}
}
