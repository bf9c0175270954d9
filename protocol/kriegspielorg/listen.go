package kriegspielorg

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"slices"
	"time"

	"github.com/blindfish-rbc/blindfish/kriegspiel"
	"github.com/blindfish-rbc/blindfish/protocol/internal/httpapi"
	"github.com/blindfish-rbc/blindfish/protocol/internal/listen"
)

// ListenConfig configures Listen.
type ListenConfig struct {
	Client *Client
	// Username is our bot's name on the site (to tell our lobby games from
	// others').
	Username string
	// NewPlayer builds a fresh player for each game; a player that is an
	// io.Closer is closed after its game.
	NewPlayer func(rules kriegspiel.Ruleset) (kriegspiel.Player, error)
	// Variants are the rulesets we play (default wild16): our lobby games
	// use the first; open games and games we are put in of another ruleset
	// are left alone.
	Variants []string
	// Create keeps one lobby game of ours open for anybody to join.
	Create bool
	// PlayAs is our colour in the games we create: white, black or random.
	PlayAs string
	// JoinOpen joins other players' open lobby games of our variants.
	JoinOpen bool
	// Join holds the codes of games to join once, at the start.
	Join []string
	// MaxGames is how many games we play at once (default 1).
	MaxGames int
	// StopAfter ends Listen once this many games are finished (0: never).
	StopAfter int
	// PollInterval is the pause between polls of our games and the lobby
	// (default 2 s).
	PollInterval time.Duration
	// RefusalWait is how long we leave the lobby alone after the site
	// refuses a create or a join with 409 (a bot's one open game, its one
	// join per minute) and gives no Retry-After (default 60 s, the site's
	// join cooldown), so that a refusal is not asked again every poll.
	RefusalWait time.Duration
	// Play tunes each game (Rules, Self and Opponent are set per game).
	Play PlayOptions
	// GameContext is the context the games run under; nil means one that
	// Listen's context does not cancel, so that running games finish after a
	// shutdown request. Cancel it to abandon them (they are resigned).
	GameContext context.Context
	// OnGame is called (from the game's goroutine) with each game played to
	// its end, or with the error that ended it.
	OnGame func(id string, res *Result, err error)
	// Logger receives the listener's progress; nil discards it.
	Logger *slog.Logger
}

// Listen plays our games on the site until ctx is done (or StopAfter games
// are finished): it polls our active games and plays each in its own
// goroutine, up to MaxGames at once, keeps a lobby game open (Create),
// joins others' (JoinOpen) and the given codes. A game whose player fails
// is resigned. When ctx is done it stops starting games, waits for the
// running ones and returns nil; it returns an error only when it cannot
// start (bad credentials, a server that cannot be reached).
func Listen(ctx context.Context, cfg ListenConfig) error {
	if cfg.Client == nil || cfg.NewPlayer == nil {
		return errors.New("kriegspiel.org: Listen needs a Client and NewPlayer")
	}
	if len(cfg.Variants) == 0 {
		cfg.Variants = []string{"wild16"}
	}
	for _, v := range cfg.Variants {
		if _, err := kriegspiel.ParseRuleset(v); err != nil {
			return fmt.Errorf("kriegspiel.org: %w", err)
		}
	}
	if cfg.MaxGames <= 0 {
		cfg.MaxGames = 1
	}
	if cfg.PollInterval <= 0 {
		cfg.PollInterval = 2 * time.Second
	}
	if cfg.PlayAs == "" {
		cfg.PlayAs = "random"
	}
	if cfg.RefusalWait <= 0 {
		cfg.RefusalWait = time.Minute
	}
	log := listen.Logger(cfg.Logger)
	if cfg.Play.Logger == nil {
		cfg.Play.Logger = log
	}
	gameCtx := listen.GameContext(ctx, cfg.GameContext)
	// The first call checks the token: a refusal stops us at once.
	if _, err := cfg.Client.ActiveGames(ctx); err != nil {
		return err
	}
	log.Info("connected", "server", cfg.Client.Server(), "bot", cfg.Username)
	showProfile(ctx, cfg, log)
	l := &listener{cfg: cfg, log: log, gameCtx: gameCtx, skipped: map[string]bool{}, refused: map[string]bool{}}
	// The site puts us in games we must play, so the loop polls until
	// StopAfter games are finished, not only started.
	l.games = listen.New(listen.Config[string, *Result]{
		MaxGames: cfg.MaxGames, StopAfter: cfg.StopAfter, PollUntilFinished: true, PollInterval: cfg.PollInterval,
		Poll: l.poll, OnGame: cfg.OnGame,
	})
	for _, code := range cfg.Join {
		// A join refused for the cooldown is tried once more after it.
		for try := 0; try < 2; try++ {
			if httpapi.Sleep(ctx, time.Until(l.joinAfter)) != nil {
				break
			}
			j, err := cfg.Client.Join(ctx, code)
			if err == nil {
				log.Info("joined", "code", code, "game", j.GameID, "as", j.PlayAs)
				break
			}
			log.Warn("could not join", "code", code, "err", err)
			if !l.joinRefused(err) {
				break
			}
		}
	}
	l.games.Run(ctx)
	l.resignUnplayed()
	l.games.Wait(log)
	return nil
}

// resignUnplayed resigns the active games the site has us in that the loop
// never started: a join whose game became active after the last poll, or
// one whose answer was lost. Nobody will play them once Listen stops, and
// an opponent who is playing waits for our whole clock (25 minutes on the
// site) before the game ends; resigning ends it at once. A failure is only
// logged: the site's clock still ends the game.
func (l *listener) resignUnplayed() {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(l.gameCtx), 30*time.Second)
	defer cancel()
	games, err := l.cfg.Client.ActiveGames(ctx)
	if err != nil {
		l.log.Warn("could not list our games before stopping", "err", err)
		return
	}
	for _, g := range games {
		if g.State != "active" || l.games.Started(g.GameID) || l.skipped[g.GameID] {
			continue
		}
		l.log.Warn("resigning a game we are in but will not play", "game", g.GameID)
		if err := l.cfg.Client.Resign(ctx, g.GameID); err != nil {
			l.log.Warn("could not resign", "game", g.GameID, "err", err)
		}
	}
}

// listener is the state of one Listen call: the games it plays are the
// shared loop's (protocol/internal/listen), the lobby is its own.
type listener struct {
	cfg     ListenConfig
	log     *slog.Logger
	gameCtx context.Context
	games   *listen.Loop[string, *Result]

	// Owned by the loop's goroutine: the lobby's calls wait until these
	// times after a 409, the codes of games the site refused us (a
	// human's, one taken) are not asked for again while they are listed,
	// and games of a ruleset we do not play are left alone.
	createAfter, joinAfter time.Time
	refused                map[string]bool
	skipped                map[string]bool
}

// showProfile tells the site our rulesets (POST /bots/profile) and logs
// our public profile; a failure of either is only logged.
func showProfile(ctx context.Context, cfg ListenConfig, log *slog.Logger) {
	if taken, err := cfg.Client.SyncProfile(ctx, cfg.Variants); err != nil {
		log.Warn("the site did not take our rulesets", "err", err)
	} else {
		log.Info("the site took our rulesets", "rules", taken)
	}
	p, err := cfg.Client.Profile(ctx, cfg.Username)
	if err != nil {
		log.Warn("could not read our profile", "err", err)
		return
	}
	args := []any{"username", p.Username, "display_name", p.DisplayName, "role", p.Role}
	if p.Stats.Elo != nil {
		args = append(args, "rating", *p.Stats.Elo)
	}
	log.Info("profile", args...)
}

// refusalWait is how long to leave the lobby alone after a 409: the
// answer's Retry-After, else RefusalWait.
func (l *listener) refusalWait(se *StatusError) time.Duration {
	if se.RetryAfter > 0 {
		return se.RetryAfter
	}
	return l.cfg.RefusalWait
}

// joinRefused takes a join's refusal: a 409 for the join cooldown (or one
// we cannot name) holds every join for the wait, and reports true; any
// other refusal (403 for a human's game, a game taken) is a refusal of that
// game alone.
func (l *listener) joinRefused(err error) bool {
	var se *StatusError
	if !errors.As(err, &se) || se.Code != http.StatusConflict {
		return false
	}
	switch se.ErrCode {
	case "GAME_FULL", "GAME_NOT_JOINABLE", "GAME_NOT_WAITING", "CANNOT_JOIN_OWN_GAME", "GAME_RESERVED_FOR_BOT":
		return false
	}
	wait := l.refusalWait(se)
	l.joinAfter = time.Now().Add(wait)
	l.log.Info("the site holds our joins; waiting", "code", se.ErrCode, "wait", wait)
	return true
}

// poll is one round; a failure is logged, and the loop tries again after
// the pause.
func (l *listener) poll(ctx context.Context) {
	if err := l.round(ctx); err != nil && ctx.Err() == nil {
		l.log.Warn("polling the server failed; trying again", "err", err)
	}
}

// round polls our games once, starts the active ones we are not playing,
// and looks after the lobby.
func (l *listener) round(ctx context.Context) error {
	games, err := l.cfg.Client.ActiveGames(ctx)
	if err != nil {
		return err
	}
	waiting := false
	for _, g := range games {
		switch {
		case g.State == "waiting":
			waiting = true
		case g.State == "active" && l.startable(g):
			l.games.Start(g.GameID, func() (*Result, error) { return l.play(g) })
		}
	}
	room := l.games.Room()
	now := time.Now()
	if l.cfg.Create && !waiting && room && !now.Before(l.createAfter) {
		c, err := l.cfg.Client.Create(ctx, CreateRequest{RuleVariant: l.cfg.Variants[0], PlayAs: l.cfg.PlayAs})
		var se *StatusError
		switch {
		case errors.As(err, &se) && se.Code == http.StatusConflict:
			// One open game per bot: ours may be one the list left out.
			wait := l.refusalWait(se)
			l.createAfter = now.Add(wait)
			l.log.Info("the site refused a new lobby game; waiting", "code", se.ErrCode, "wait", wait)
		case err != nil:
			return err
		default:
			l.log.Info("opened a lobby game", "game", c.GameID, "code", c.GameCode, "rules", c.RuleVariant)
		}
	}
	if l.cfg.JoinOpen && room && !now.Before(l.joinAfter) {
		open, err := l.cfg.Client.OpenGames(ctx)
		if err != nil {
			return err
		}
		listed := map[string]bool{}
		for _, o := range open {
			listed[o.GameCode] = true
		}
		maps.DeleteFunc(l.refused, func(code string, _ bool) bool { return !listed[code] })
		for _, o := range open {
			if o.CreatedBy == l.cfg.Username || !slices.Contains(l.cfg.Variants, o.RuleVariant) || l.refused[o.GameCode] {
				continue
			}
			j, err := l.cfg.Client.Join(ctx, o.GameCode)
			if err != nil {
				l.log.Info("could not join an open game", "code", o.GameCode, "err", err)
				if l.joinRefused(err) {
					break
				}
				var se *StatusError
				if errors.As(err, &se) && se.Code >= 400 && se.Code < 500 {
					l.refused[o.GameCode] = true
				}
				continue
			}
			l.log.Info("joined an open game", "game", j.GameID, "code", o.GameCode, "opponent", o.CreatedBy, "as", j.PlayAs)
			break // started in the next round, once it is active
		}
	}
	return nil
}

// startable reports whether an active game is one to start: not one we
// play or played, and of a ruleset we play (a game of another is left
// alone, said once).
func (l *listener) startable(g GameInfo) bool {
	if l.skipped[g.GameID] || l.games.Started(g.GameID) {
		return false
	}
	if !slices.Contains(l.cfg.Variants, g.RuleVariant) {
		l.skipped[g.GameID] = true
		l.log.Warn("a game of a ruleset we do not play; left alone", "game", g.GameID, "rules", g.RuleVariant)
		return false
	}
	return true
}

// play plays one game; a game that fails is resigned.
func (l *listener) play(g GameInfo) (*Result, error) {
	log := l.log.With("game", g.GameID)
	rules, err := kriegspiel.ParseRuleset(g.RuleVariant)
	if err != nil {
		return nil, err
	}
	opponent := l.opponent(g.GameID)
	player, err := l.cfg.NewPlayer(rules)
	if err != nil {
		return nil, fmt.Errorf("kriegspiel.org: a player for game %s: %w", g.GameID, err)
	}
	if cl, ok := player.(io.Closer); ok {
		defer cl.Close()
	}
	o := l.cfg.Play
	o.Rules, o.Self, o.Opponent = rules, l.cfg.Username, opponent
	res, err := PlayGame(l.gameCtx, l.cfg.Client, g.GameID, player, o)
	if err != nil {
		log.Warn("the game failed; resigning it", "err", err)
		rctx, cancel := context.WithTimeout(context.WithoutCancel(l.gameCtx), 30*time.Second)
		if rerr := l.cfg.Client.Resign(rctx, g.GameID); rerr != nil {
			log.Warn("could not resign", "err", rerr)
		}
		cancel()
	}
	return res, err
}

// opponent is the name of our opponent in a game ("" if unknown).
func (l *listener) opponent(id string) string {
	ctx, cancel := context.WithTimeout(l.gameCtx, 30*time.Second)
	defer cancel()
	m, err := l.cfg.Client.Game(ctx, id)
	if err != nil {
		return ""
	}
	if m.White.Username == l.cfg.Username {
		return m.Black.Username
	}
	return m.White.Username
}
