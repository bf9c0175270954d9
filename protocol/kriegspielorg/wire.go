package kriegspielorg

import (
	"fmt"
	"strings"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/kriegspiel"
)

// The server's JSON, as far as a bot reads it. Field names are the API's.

// GameInfo is one game in the lists of the server (ours, active).
type GameInfo struct {
	GameID      string `json:"game_id"`
	GameCode    string `json:"game_code"`
	RuleVariant string `json:"rule_variant"`
	State       string `json:"state"` // "waiting", "active", "completed"
	Turn        string `json:"turn"`
}

// OpenGame is a game in the lobby waiting for an opponent.
type OpenGame struct {
	GameCode       string `json:"game_code"`
	RuleVariant    string `json:"rule_variant"`
	CreatedBy      string `json:"created_by"`
	AvailableColor string `json:"available_color"`
}

// CreateRequest asks for a lobby game.
type CreateRequest struct {
	RuleVariant  string `json:"rule_variant"`
	PlayAs       string `json:"play_as"`      // "white", "black" or "random"
	TimeControl  string `json:"time_control"` // the server knows only "rapid"
	OpponentType string `json:"opponent_type"`
	BotID        string `json:"bot_id,omitempty"`
}

// Created is the server's answer to a CreateRequest.
type Created struct {
	GameID      string `json:"game_id"`
	GameCode    string `json:"game_code"`
	PlayAs      string `json:"play_as"`
	RuleVariant string `json:"rule_variant"`
	State       string `json:"state"`
}

// Joined is the server's answer to a join by code.
type Joined struct {
	GameID      string `json:"game_id"`
	GameCode    string `json:"game_code"`
	PlayAs      string `json:"play_as"`
	RuleVariant string `json:"rule_variant"`
}

// BotProfile registers a bot account.
type BotProfile struct {
	Username    string   `json:"username"`
	DisplayName string   `json:"display_name"`
	OwnerEmail  string   `json:"owner_email"`
	Description string   `json:"description,omitempty"`
	Listed      *bool    `json:"listed,omitempty"`
	Variants    []string `json:"supported_rule_variants,omitempty"`
}

// Registration is the server's answer to a bot registration: the bearer
// token the bot plays with.
type Registration struct {
	BotID    string `json:"bot_id"`
	Username string `json:"username"`
	APIToken string `json:"api_token"`
}

// Profile is a user's public profile, as far as a bot shows it.
type Profile struct {
	Username    string `json:"username"`
	DisplayName string `json:"display_name"`
	Role        string `json:"role"` // "bot" or "user"
	IsBot       bool   `json:"is_bot"`
	Stats       struct {
		Elo *int `json:"elo"` // the overall rating, when the site gives one
	} `json:"stats"`
}

// Clock is the server's chess clock, in seconds.
type Clock struct {
	WhiteRemaining float64 `json:"white_remaining"`
	BlackRemaining float64 `json:"black_remaining"`
	ActiveColor    string  `json:"active_color"`
}

// Entry is one line of a player's scoresheet as the server shows it: a
// question of either player with its answer in words, or a status line (the
// pawn tries announced at the start of a turn).
type Entry struct {
	Kind       string   `json:"kind"`  // "move", "ask_any", "illegal_move", "capture", "status"
	Actor      string   `json:"actor"` // "self" or "opponent"
	Message    string   `json:"message"`
	Messages   []string `json:"messages"`
	MoveUCI    string   `json:"move_uci"`
	Question   string   `json:"question_type"`
	ActorColor string   `json:"-"` // filled in from the turn's column
}

// ScoresheetTurn is one full move of the scoresheet: each colour's lines.
type ScoresheetTurn struct {
	Turn  int     `json:"turn"`
	White []Entry `json:"white"`
	Black []Entry `json:"black"`
}

// Scoresheet is what the viewer heard, turn by turn.
type Scoresheet struct {
	ViewerColor string           `json:"viewer_color"`
	Turns       []ScoresheetTurn `json:"turns"`
}

// State is a game as one player sees it.
type State struct {
	GameID          string         `json:"game_id"`
	State           string         `json:"state"`
	Turn            string         `json:"turn"`
	MoveNumber      int            `json:"move_number"`
	YourColor       string         `json:"your_color"`
	YourFEN         string         `json:"your_fen"`
	AllowedMoves    []string       `json:"allowed_moves"`
	PossibleActions []string       `json:"possible_actions"`
	Scoresheet      Scoresheet     `json:"scoresheet"`
	Result          *ResultPayload `json:"result"`
	Clock           Clock          `json:"clock"`
	// RefereeLog is the same words as the scoresheet, line by line (the
	// client reads the scoresheet).
	RefereeLog []map[string]any `json:"referee_log"`
	// MaterialSummary is the public count of each side's men (not read).
	MaterialSummary map[string]any `json:"material_summary,omitempty"`
}

// ResultPayload is how the server reports a finished game.
type ResultPayload struct {
	Winner *string `json:"winner"`
	Reason string  `json:"reason"`
}

// MoveResult is the server's answer to a move try or to "any?".
type MoveResult struct {
	MoveDone      bool     `json:"move_done"`
	Announcement  string   `json:"announcement"`
	Special       *string  `json:"special_announcement"`
	Checks        []string `json:"checks"`
	CaptureSquare *string  `json:"capture_square"`
	CapturedPiece *string  `json:"captured_piece_announcement"`
	NextTurnTries *int     `json:"next_turn_pawn_tries"`
	Turn          string   `json:"turn"`
	GameOver      bool     `json:"game_over"`
	Clock         Clock    `json:"clock"`
}

// color reads "white" or "black".
func color(s string) (chess.Color, error) {
	switch s {
	case "white":
		return chess.White, nil
	case "black":
		return chess.Black, nil
	}
	return chess.White, fmt.Errorf("kriegspiel.org: %q is not a colour", s)
}

// Answer converts the server's answer to one of our own questions into the
// referee's Answer.
func (m *MoveResult) Answer() (kriegspiel.Answer, error) {
	a := kriegspiel.Answer{Capture: chess.NoSquare, PawnTries: -1}
	v, err := kriegspiel.ParseVerdict(m.Announcement)
	if err != nil {
		return a, fmt.Errorf("kriegspiel.org: the answer's announcement: %w", err)
	}
	a.Verdict = v
	if v.Done() != m.MoveDone {
		return a, fmt.Errorf("kriegspiel.org: announcement %s with move_done=%v", m.Announcement, m.MoveDone)
	}
	if m.CaptureSquare != nil {
		sq, err := chess.ParseSquare(strings.ToLower(*m.CaptureSquare))
		if err != nil {
			return a, fmt.Errorf("kriegspiel.org: the capture square: %w", err)
		}
		a.Capture = sq
	}
	if m.CapturedPiece != nil {
		k, err := kriegspiel.ParseCaptureKind(*m.CapturedPiece)
		if err != nil {
			return a, fmt.Errorf("kriegspiel.org: %w", err)
		}
		a.Captured = k
	}
	special := "NONE"
	if m.Special != nil {
		special = *m.Special
	}
	if err := readSpecial(&a, special, m.Checks); err != nil {
		return a, err
	}
	if m.NextTurnTries != nil && a.End == kriegspiel.NotOver {
		if *m.NextTurnTries < 0 {
			// -1 is the referee's "not announced": a count the site sent
			// must not read as that.
			return a, fmt.Errorf("kriegspiel.org: next_turn_pawn_tries %d is negative", *m.NextTurnTries)
		}
		a.PawnTries = *m.NextTurnTries
	}
	return a, nil
}

// readSpecial sets the checks or the ending of a from the answer's special
// announcement: a check's direction, CHECK_DOUBLE with the two directions in
// checks (in the referee's order), an ending, or NONE.
func readSpecial(a *kriegspiel.Answer, special string, checks []string) error {
	switch {
	case special == "CHECK_DOUBLE":
		if len(checks) != 2 {
			return fmt.Errorf("kriegspiel.org: a double check with %d directions", len(checks))
		}
		for i, name := range checks {
			c, err := kriegspiel.ParseCheck(name)
			if err != nil || c == kriegspiel.NoCheck {
				return fmt.Errorf("kriegspiel.org: a double check's direction %q", name)
			}
			a.Checks[i] = c
		}
	case strings.HasPrefix(special, "CHECK_"):
		c, err := kriegspiel.ParseCheck(special)
		if err != nil {
			return fmt.Errorf("kriegspiel.org: %w", err)
		}
		a.Checks[0] = c
	default:
		e, err := kriegspiel.ParseEnding(special)
		if err != nil {
			return fmt.Errorf("kriegspiel.org: the special announcement: %w", err)
		}
		a.End = e
	}
	return nil
}

// TranscriptMove is one question of a finished game's transcript (both
// players', with the moves).
type TranscriptMove struct {
	Ply      int              `json:"ply"`
	Color    string           `json:"color"`
	Question string           `json:"question_type"` // "COMMON" or "ASK_ANY"
	UCI      *string          `json:"uci"`
	Answer   TranscriptAnswer `json:"answer"`
	MoveDone bool             `json:"move_done"`
}

// TranscriptAnswer is a transcript question's answer.
type TranscriptAnswer struct {
	Main          string   `json:"main"`
	CaptureSquare *string  `json:"capture_square"`
	CapturedPiece *string  `json:"captured_piece_announcement"`
	Special       *string  `json:"special"`
	Checks        []string `json:"checks"`
	NextTurnTries *int     `json:"next_turn_pawn_tries"`
}

// Answer converts a transcript answer into the referee's Answer.
func (t TranscriptMove) answer() (kriegspiel.Answer, error) {
	m := MoveResult{MoveDone: t.MoveDone, Announcement: t.Answer.Main, Special: t.Answer.Special, Checks: t.Answer.Checks,
		CaptureSquare: t.Answer.CaptureSquare, CapturedPiece: t.Answer.CapturedPiece, NextTurnTries: t.Answer.NextTurnTries}
	return m.Answer()
}

// Player is a player of a game as the site shows it.
type Player struct {
	Username string `json:"username"`
}

// GameMeta is a game's public facts.
type GameMeta struct {
	GameID string `json:"game_id"`
	State  string `json:"state"`
	White  Player `json:"white"`
	Black  Player `json:"black"`
}
