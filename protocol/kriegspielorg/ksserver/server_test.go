package ksserver

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/kriegspiel"
	"github.com/blindfish-rbc/blindfish/protocol/internal/gameserver/gameservertest"
)

const testKey = "registration-key-for-tests"

// call is gameservertest.Do for the test's goroutine: an error fails the test.
func call(t *testing.T, base, method, path string, header map[string]string, body string) (int, []byte) {
	t.Helper()
	code, data, err := gameservertest.Do(base, method, path, header, body)
	if err != nil {
		t.Fatal(err)
	}
	return code, data
}

func bearer(tok string) map[string]string { return map[string]string{"Authorization": "Bearer " + tok} }

// startGame has white create a wild16 game and black join it; it returns
// the game's id.
func startGame(t *testing.T, base, white, black string) string {
	t.Helper()
	code, data := call(t, base, http.MethodPost, "/game/create", bearer(white), `{"rule_variant": "wild16", "play_as": "white"}`)
	if code != http.StatusCreated {
		t.Fatalf("create: %d %s", code, data)
	}
	var c struct {
		GameID   string `json:"game_id"`
		GameCode string `json:"game_code"`
	}
	if err := json.Unmarshal(data, &c); err != nil {
		t.Fatal(err)
	}
	if code, data := call(t, base, http.MethodPost, "/game/join/"+c.GameCode, bearer(black), ""); code != http.StatusOK {
		t.Fatalf("join: %d %s", code, data)
	}
	return c.GameID
}

// A bot that sends its move's body slowly holds up only itself: every
// other call (another bot's, an unauthenticated one) is answered while
// that body is still being sent.
func TestSlowBodyDelaysNoOtherCall(t *testing.T) {
	srv := New(Config{RegistrationKey: testKey})
	ts := httptest.NewServer(srv)
	defer ts.Close()
	alpha, beta := srv.AddBot("alpha"), srv.AddBot("beta")
	id := startGame(t, ts.URL, alpha, beta)

	// The JSON value is whole only at the last byte, so that a server
	// decoding as it reads waits for all of it.
	body := `{"uci"` + strings.Repeat(" ", 20) + `: "e2e4"}`
	head := fmt.Sprintf("POST /game/%s/move HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\n"+
		"Content-Type: application/json\r\n", id, alpha)
	resp := gameservertest.SlowBody(t, ts.Listener.Addr().String(), head, body, func() {
		if code, data := call(t, ts.URL, http.MethodGet, "/game/"+id+"/state", bearer(beta), ""); code != http.StatusOK {
			t.Errorf("the other bot's state: %d %s", code, data)
		}
		if code, _ := call(t, ts.URL, http.MethodGet, "/game/mine/active", nil, ""); code != http.StatusUnauthorized {
			t.Errorf("an unauthenticated call: %d, want 401", code)
		}
		if code, _ := call(t, ts.URL, http.MethodGet, "/game/mine/active", bearer(alpha), ""); code != http.StatusOK {
			t.Errorf("the slow bot's own other call: %d", code)
		}
	})
	defer resp.Body.Close()
	var mr struct {
		MoveDone bool `json:"move_done"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&mr); err != nil || resp.StatusCode != http.StatusOK || !mr.MoveDone {
		t.Fatalf("the slow move: %d, %+v, %v", resp.StatusCode, mr, err)
	}
}

// A 50 MB body gets 413 before it is read whole, whether its length is
// announced or it is sent in chunks, on an authenticated call and on a
// registration.
func TestHugeBodyGets413(t *testing.T) {
	srv := New(Config{RegistrationKey: testKey})
	ts := httptest.NewServer(srv)
	defer ts.Close()
	alpha := srv.AddBot("alpha")
	for _, tc := range []struct {
		name, path, header string
		chunked            bool
	}{
		{"profile", "/bots/alpha", "Authorization: Bearer " + alpha, false},
		{"profile chunked", "/bots/alpha", "Authorization: Bearer " + alpha, true},
		{"registration", "/auth/bots/register", "X-Bot-Registration-Key: " + testKey, false},
		{"registration chunked", "/auth/bots/register", "X-Bot-Registration-Key: " + testKey, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			head := fmt.Sprintf("POST %s HTTP/1.1\r\nHost: x\r\n%s\r\nContent-Type: application/json\r\n", tc.path, tc.header)
			// One JSON string that never ends, however far it is read.
			gameservertest.HugeBody(t, ts.Listener.Addr().String(), head, 50<<20, tc.chunked, `{"username": "`, 'a')
		})
	}
}

func TestRegistrationChecksTheUsername(t *testing.T) {
	srv := New(Config{RegistrationKey: testKey})
	ts := httptest.NewServer(srv)
	defer ts.Close()
	hdr := map[string]string{"X-Bot-Registration-Key": testKey}
	for _, tc := range []struct {
		name string
		want int
	}{
		{strings.Repeat("a", 300), http.StatusBadRequest},
		{strings.Repeat("a", MaxUsernameLen+1), http.StatusBadRequest},
		{"evil\x1b[2J\rbot", http.StatusBadRequest},
		{"new\nline", http.StatusBadRequest},
		{"sp ace", http.StatusBadRequest},
		{"../up", http.StatusBadRequest},
		{"ünï", http.StatusBadRequest},
		{strings.Repeat("a", MaxUsernameLen), http.StatusCreated},
		{"Good_bot-2", http.StatusCreated},
	} {
		body, _ := json.Marshal(map[string]string{"username": tc.name, "display_name": "D", "owner_email": "a@b.c"})
		code, data := call(t, ts.URL, http.MethodPost, "/auth/bots/register", hdr, string(body))
		if code != tc.want {
			t.Errorf("username %q: %d %s, want %d", tc.name, code, data, tc.want)
		}
		if code == http.StatusBadRequest && !strings.Contains(string(data), "INVALID_USERNAME") {
			t.Errorf("username %q: the refusal does not say why: %s", tc.name, data)
		}
	}
}

// A game's end is reported outside the server's lock: a slow OnGameEnd
// (a slow disk) holds up no other call, and the answer to the call that
// ended the game comes after it.
func TestOnGameEndRunsOutsideTheLock(t *testing.T) {
	entered, release := make(chan string, 1), make(chan struct{})
	srv := New(Config{RegistrationKey: testKey, OnGameEnd: func(id string, rec *kriegspiel.Record) {
		entered <- id
		<-release
	}})
	ts := httptest.NewServer(srv)
	defer ts.Close()
	alpha, beta := srv.AddBot("alpha"), srv.AddBot("beta")
	id := startGame(t, ts.URL, alpha, beta)
	resigned := make(chan int, 1)
	go func() {
		code, _, _ := gameservertest.Do(ts.URL, http.MethodPost, "/game/"+id+"/resign", bearer(alpha), "")
		resigned <- code
	}()
	if got := <-entered; got != id {
		t.Fatalf("OnGameEnd for %q, want %q", got, id)
	}
	other := make(chan int, 1)
	go func() {
		code, _, _ := gameservertest.Do(ts.URL, http.MethodGet, "/game/mine/active", bearer(beta), "")
		other <- code
	}()
	select {
	case code := <-other:
		if code != http.StatusOK {
			t.Errorf("the other call: %d", code)
		}
	case <-time.After(time.Minute):
		close(release)
		t.Fatal("a call waited for OnGameEnd")
	}
	select {
	case <-resigned:
		t.Fatal("the resignation was answered before OnGameEnd returned")
	default:
	}
	close(release)
	if code := <-resigned; code != http.StatusOK {
		t.Fatalf("resign: %d", code)
	}
}

func TestGameIDsContinueAfterLastID(t *testing.T) {
	srv := New(Config{RegistrationKey: testKey, LastID: 41})
	ts := httptest.NewServer(srv)
	defer ts.Close()
	if id := startGame(t, ts.URL, srv.AddBot("alpha"), srv.AddBot("beta")); id != "g0042" {
		t.Fatalf("the first game is %q, want g0042", id)
	}
}

// refusal reads the site's error shape, {"error": {"code": ...}}.
func refusal(t *testing.T, data []byte) string {
	t.Helper()
	var e struct {
		Error struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(data, &e); err != nil || e.Error.Code == "" || e.Error.Message == "" {
		t.Fatalf("not the site's error shape: %s", data)
	}
	return e.Error.Code
}

// createGame has user open a wild16 lobby game and returns the answer's
// status and the game's code.
func createGame(t *testing.T, base, tok string) (int, string) {
	t.Helper()
	code, data := call(t, base, http.MethodPost, "/game/create", bearer(tok), `{"rule_variant": "wild16", "play_as": "white"}`)
	var c struct {
		GameCode string `json:"game_code"`
	}
	json.Unmarshal(data, &c)
	return code, c.GameCode
}

// Configured as the site is, the server registers bots without a key and
// ignores a wrong one; by default a registration without the key is
// refused.
func TestOpenRegistrationNeedsNoKey(t *testing.T) {
	reg := func(base, name string, hdr map[string]string) int {
		code, _ := call(t, base, http.MethodPost, "/auth/bots/register", hdr,
			fmt.Sprintf(`{"username": %q, "display_name": "D", "owner_email": "a@b.c"}`, name))
		return code
	}
	open := httptest.NewServer(New(Config{OpenRegistration: true}))
	defer open.Close()
	if code := reg(open.URL, "nokey", nil); code != http.StatusCreated {
		t.Errorf("open registration without a key: %d, want 201", code)
	}
	if code := reg(open.URL, "wrongkey", map[string]string{"X-Bot-Registration-Key": "wrong"}); code != http.StatusCreated {
		t.Errorf("open registration with a wrong key: %d, want 201", code)
	}
	closed := httptest.NewServer(New(Config{RegistrationKey: testKey}))
	defer closed.Close()
	if code := reg(closed.URL, "nokey", nil); code != http.StatusUnauthorized {
		t.Errorf("keyed registration without a key: %d, want 401", code)
	}
	if code := reg(closed.URL, "withkey", map[string]string{"X-Bot-Registration-Key": testKey}); code != http.StatusCreated {
		t.Errorf("keyed registration with the key: %d, want 201", code)
	}
}

// A bot may not join a human's lobby game (403); a human may join a bot's.
func TestBotCannotJoinAHumansGame(t *testing.T) {
	srv := New(Config{RegistrationKey: testKey})
	ts := httptest.NewServer(srv)
	defer ts.Close()
	human, bot, other := srv.AddHuman("hannah"), srv.AddBot("alpha"), srv.AddHuman("otto")
	_, hcode := createGame(t, ts.URL, human)
	code, data := call(t, ts.URL, http.MethodPost, "/game/join/"+hcode, bearer(bot), "")
	if code != http.StatusForbidden || refusal(t, data) != "FORBIDDEN" {
		t.Fatalf("a bot joining a human's game: %d %s, want 403 FORBIDDEN", code, data)
	}
	if code, data := call(t, ts.URL, http.MethodPost, "/game/join/"+hcode, bearer(other), ""); code != http.StatusOK {
		t.Errorf("a human joining a human's game: %d %s", code, data)
	}
	_, bcode := createGame(t, ts.URL, bot)
	if code, data := call(t, ts.URL, http.MethodPost, "/game/join/"+bcode, bearer(human), ""); code != http.StatusOK {
		t.Errorf("a human joining a bot's game: %d %s", code, data)
	}
}

// A bot joins one lobby game per cooldown: a second join sooner gets 409
// BOT_JOIN_COOLDOWN, one after it is taken.
func TestBotJoinCooldown(t *testing.T) {
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	srv := New(Config{RegistrationKey: testKey, Now: func() time.Time { return now }})
	ts := httptest.NewServer(srv)
	defer ts.Close()
	joiner := srv.AddBot("joiner")
	startGame(t, ts.URL, srv.AddBot("alpha"), joiner)
	_, c := createGame(t, ts.URL, srv.AddBot("beta"))
	now = now.Add(DefaultJoinCooldown - time.Second)
	code, data := call(t, ts.URL, http.MethodPost, "/game/join/"+c, bearer(joiner), "")
	if code != http.StatusConflict || refusal(t, data) != "BOT_JOIN_COOLDOWN" {
		t.Fatalf("a second join within %s: %d %s, want 409 BOT_JOIN_COOLDOWN", DefaultJoinCooldown, code, data)
	}
	now = now.Add(time.Second)
	if code, data := call(t, ts.URL, http.MethodPost, "/game/join/"+c, bearer(joiner), ""); code != http.StatusOK {
		t.Fatalf("a join after the cooldown: %d %s", code, data)
	}
}

// A bot has one open lobby game at a time (409 BOT_ALREADY_HAS_OPEN_GAME);
// once it is joined, the bot may open another. Humans are not limited.
func TestBotHasOneOpenGame(t *testing.T) {
	srv := New(Config{RegistrationKey: testKey})
	ts := httptest.NewServer(srv)
	defer ts.Close()
	bot, human := srv.AddBot("alpha"), srv.AddHuman("hannah")
	code, first := createGame(t, ts.URL, bot)
	if code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	code, data := call(t, ts.URL, http.MethodPost, "/game/create", bearer(bot), `{"rule_variant": "wild16"}`)
	if code != http.StatusConflict || refusal(t, data) != "BOT_ALREADY_HAS_OPEN_GAME" {
		t.Fatalf("a second open game: %d %s, want 409 BOT_ALREADY_HAS_OPEN_GAME", code, data)
	}
	if code, data := call(t, ts.URL, http.MethodPost, "/game/join/"+first, bearer(srv.AddBot("beta")), ""); code != http.StatusOK {
		t.Fatalf("join: %d %s", code, data)
	}
	if code, _ := createGame(t, ts.URL, bot); code != http.StatusCreated {
		t.Errorf("a new open game once the first is joined: %d", code)
	}
	for range 2 {
		if code, _ := createGame(t, ts.URL, human); code != http.StatusCreated {
			t.Errorf("a human's open game: %d", code)
		}
	}
}

// POST /bots/profile takes a bot's rulesets, and its public profile shows
// its name and rating; a human may not call the first.
func TestBotProfile(t *testing.T) {
	srv := New(Config{RegistrationKey: testKey})
	ts := httptest.NewServer(srv)
	defer ts.Close()
	bot := srv.AddBot("alpha")
	code, data := call(t, ts.URL, http.MethodPost, "/bots/profile", bearer(bot), `{"supported_rule_variants": ["wild16", "berkeley"]}`)
	if code != http.StatusOK || !strings.Contains(string(data), `"supported_rule_variants":["wild16","berkeley"]`) {
		t.Fatalf("sync: %d %s", code, data)
	}
	code, data = call(t, ts.URL, http.MethodGet, "/user/alpha", bearer(bot), "")
	var p struct {
		Username string `json:"username"`
		IsBot    bool   `json:"is_bot"`
		Stats    struct {
			Elo int `json:"elo"`
		} `json:"stats"`
	}
	if err := json.Unmarshal(data, &p); code != http.StatusOK || err != nil || p.Username != "alpha" || !p.IsBot || p.Stats.Elo == 0 {
		t.Fatalf("profile: %d %s", code, data)
	}
	if code, data := call(t, ts.URL, http.MethodPost, "/bots/profile", bearer(bot), `{}`); code != http.StatusUnprocessableEntity {
		t.Errorf("a sync without its list: %d %s, want 422", code, data)
	}
	human := srv.AddHuman("hannah")
	if code, data := call(t, ts.URL, http.MethodPost, "/bots/profile", bearer(human), `{"supported_rule_variants": []}`); code != http.StatusForbidden {
		t.Errorf("a human's sync: %d %s, want 403", code, data)
	}
}
