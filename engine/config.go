package engine

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/blindfish-rbc/blindfish/evaluator"
	"github.com/blindfish-rbc/blindfish/oppmodel"
	"github.com/blindfish-rbc/blindfish/sampler"
)

// Config is the composition and tuning of a Blindfish player, as a spec
// string sets it ("blindfish:sampler=exact,sense=voi,depth=8"). Every field
// has a spec key (see ConfigKeys); researchers pit variants against each
// other by changing keys, never code.
type Config struct {
	// Sampler names the belief (sampler.Names).
	Sampler string
	// Sense and Move name the strategies (SenseNames, MoveNames).
	Sense, Move string
	// Eval chooses the evaluator: auto (Stockfish if found), stockfish, embedded.
	Eval evaluator.Kind
	// Engines is the number of Stockfish processes (0: one per core).
	Engines int
	// Depth is the Stockfish search depth per evaluation; EmbeddedDepth the
	// embedded search's (whose plies cost far more).
	Depth, EmbeddedDepth int
	// Samples bounds the boards a move decision scores; SenseSamples the
	// boards a partition-based sense statistic counts; VOISamples the boards
	// the value-of-information sense scores moves on.
	Samples, SenseSamples, VOISamples int
	// Mean is the weight of the weighted mean in a move's aggregate score;
	// the minimum over boards gets 1 − Mean.
	Mean float64
	// Plaus is the temperature (centipawns) of the plausibility weighting of
	// boards by our best score on them (0: boards keep the belief's weights).
	Plaus float64
	// Threat is the strength of the threat prior: a board's weight is
	// multiplied by exp(Threat · (the opponent's pieces bearing on our king's
	// zone, + Check when the king is attacked)) (0: off). Check is how many
	// zone attackers an attack on the king itself counts as: engines and
	// scripted rushes give the checks they can, far more often than the
	// uniform belief supposes.
	Threat, Check float64
	// Hang is the temperature (centipawns) of the prior against boards on
	// which the opponent left material en prise: such a board's weight is
	// multiplied by exp(−(the most we could win at once, at most 600)/Hang)
	// (0: off). Competent opponents defend their pieces; the uniform belief
	// has them leave pieces hanging as often as not.
	Hang float64
	// Reply is the temperature (centipawns) of the engine-scored model of
	// the opponent's last move (0: off): when at most 16 boards preceded
	// that move, every option on each is scored from the opponent's side,
	// and the board an option leads to is weighted by its softmax share
	// over a share at random (replies.go). The static hang prior guesses
	// the same from a few attack look-ups; an engine also sees quiet
	// moves, such as a rook lift that attacks our queen.
	Reply float64
	// Seek is the value (centipawns) of a move whose result would split our
	// belief completely; Hide the cost of announcing a capture with a piece
	// of middling exposure.
	Seek, Hide float64
	// Shelter is the cost (centipawns) of each line-of-attack square a move
	// opens to our own king (see shelterCost).
	Shelter float64
	// Press is the value (centipawns) of a move that resets the half-move
	// clock (a pawn move or a capture) when we are ahead and the clock nears
	// the draw at 100 half-moves; it grows from nothing at 20 half-moves to
	// its full value at 80. The engine sees every position with a fresh
	// clock, so without it a won game can be shuffled into a draw.
	Press float64
	// Worst is the weight of the worst outcome in the voi sense score;
	// Reduce the value (centipawns) of a window that splits the belief fully;
	// Danger the value of a window that settles whether our king is in danger
	// (attacked now, or mated next move if we passed)
	// (times the drop in that event's variance, at most 1/4).
	Worst, Reduce, Danger float64
	// Track is the value (centipawns) of a window that settles where the
	// opponent's attackers near our king stand (times the drop in their
	// placement's Gini impurity).
	Track float64
	// Split is the share of a turn's time given to sensing.
	Split float64
	// Turns is the expected number of our turns in a game (time planning).
	Turns int
	// Reserve is the clock time never planned for (0: 5% of the initial
	// clock, between 1 s and 10 s).
	Reserve time.Duration
	// Inc is the increment assumed before one is observed (0: guessed from
	// the initial clock; observed increments replace it).
	Inc time.Duration
	// MemoryMB bounds the exact belief's boards (0: from the clock, 1.5 MB
	// per second of the initial clock, 64–768 MB).
	MemoryMB int
	// Pool is the pool size of sampling beliefs (0: the sampler's default).
	Pool int
}

// DefaultConfig returns the composition and weights Blindfish plays with
// unless a spec says otherwise. Where the strongest RBC bots measured a
// weight (mean/min 0.7/0.3, depth 8, voi worst 0.2) it is theirs; elsewhere
// (seek, hide, the plausibility temperature) it is our own guess.
func DefaultConfig() Config {
	return Config{
		Sampler:       "exact",
		Sense:         "voi",
		Move:          "meanmin",
		Eval:          evaluator.KindAuto,
		Engines:       0,
		Depth:         8,
		EmbeddedDepth: 2,
		Samples:       200,
		SenseSamples:  2500,
		VOISamples:    120,
		Mean:          0.7,
		Plaus:         400,
		Threat:        oppmodel.DefaultThreat,
		Check:         oppmodel.DefaultCheck,
		Hang:          oppmodel.DefaultHang,
		Seek:          40,
		Hide:          30,
		Shelter:       6,
		Press:         300,
		Reply:         50,
		Worst:         0.2,
		Reduce:        150,
		Danger:        7000,
		Track:         300,
		Split:         0.6,
		Turns:         40,
	}
}

// configKey is one spec key: its name, what it sets, and how it reads and
// shows its value.
type configKey struct {
	name string
	help string
	// values describes the accepted values in error messages.
	values string
	set    func(c *Config, v string) error
	get    func(c *Config) string
}

// ConfigKey documents one spec key for help texts.
type ConfigKey struct {
	Name, Help, Values, Default string
}

// ConfigKeys lists the spec keys of the blindfish bot with their defaults.
func ConfigKeys() []ConfigKey {
	d := DefaultConfig()
	var out []ConfigKey
	for _, k := range configKeys() {
		out = append(out, ConfigKey{Name: k.name, Help: k.help, Values: k.values, Default: k.get(&d)})
	}
	return out
}

// configKeys is the table of the spec keys a user has a reason to set: the
// composition (belief, strategies, evaluator), the compute and memory
// budgets, and the clock's margins (docs/player.md, "Settings"). To add one,
// add a Config field and a line here, with its verdict in the docs.
func configKeys() []configKey {
	return []configKey{
		choiceKey("sampler", "the belief", sampler.Names, func(c *Config) *string { return &c.Sampler }),
		choiceKey("sense", "the sense strategy", SenseNames, func(c *Config) *string { return &c.Sense }),
		choiceKey("move", "the move strategy", MoveNames, func(c *Config) *string { return &c.Move }),
		{
			name: "eval", help: "the evaluator", values: "auto, stockfish, embedded",
			set: func(c *Config, v string) error {
				k, err := evaluator.ParseKind(v)
				c.Eval = k
				return err
			},
			get: func(c *Config) string { return string(c.Eval) },
		},
		intKey("engines", "Stockfish processes (0: one per core)", 0, 64, func(c *Config) *int { return &c.Engines }),
		intKey("depth", "Stockfish depth per evaluation", 1, 30, func(c *Config) *int { return &c.Depth }),
		intKey("edepth", "embedded search depth per evaluation", 1, 10, func(c *Config) *int { return &c.EmbeddedDepth }),
		intKey("samples", "most boards a move decision scores", 1, 100000, func(c *Config) *int { return &c.Samples }),
		intKey("sensesamples", "boards a partition sense statistic counts", 1, 1000000, func(c *Config) *int { return &c.SenseSamples }),
		intKey("voisamples", "most boards the voi sense scores moves on", 1, 100000, func(c *Config) *int { return &c.VOISamples }),
		durationKey("reserve", "clock time never planned for (0: auto)", func(c *Config) *time.Duration { return &c.Reserve }),
		durationKey("inc", "increment assumed until one is observed (0: guess)", func(c *Config) *time.Duration { return &c.Inc }),
		intKey("memory", "exact belief memory budget in MB (0: 1.5 MB per second of clock, 64 to 768)", 0, 1<<20, func(c *Config) *int { return &c.MemoryMB }),
		intKey("pool", "pool size of sampling beliefs (0: default)", 0, 10000000, func(c *Config) *int { return &c.Pool }),
	}
}

// tunedKeys are the player's tuned weights, which a spec no longer sets:
// each value was settled by a measurement (docs/player.md, "Tuned
// weights") and is compiled in, as Stockfish compiles in its evaluation's.
// A spec that gives one its compiled-in value (as the specs recorded in
// results/ do) still parses; any other value is refused, since it would name
// a player that no longer exists under that name. Trying another value is
// a change of the source, measured like any other (an SPRT of the build).
func tunedKeys() []configKey {
	return []configKey{
		floatKey("mean", "weight of the mean in a move's score (the minimum gets 1-mean)", 0, 1, func(c *Config) *float64 { return &c.Mean }),
		floatKey("plaus", "plausibility temperature in centipawns (0: off)", 0, 100000, func(c *Config) *float64 { return &c.Plaus }),
		floatKey("threat", "strength of the prior for boards where the opponent bears on our king (0: off)", 0, 10, func(c *Config) *float64 { return &c.Threat }),
		floatKey("check", "zone attackers an attack on our king counts as in the threat prior", 0, 20, func(c *Config) *float64 { return &c.Check }),
		floatKey("hang", "prior against boards where the opponent left material en prise: temperature in centipawns (0: off)", 0, 100000, func(c *Config) *float64 { return &c.Hang }),
		floatKey("reply", "temperature of the engine-scored model of the opponent's last move, used when at most 16 boards preceded it, centipawns (0: off)", 0, 100000, func(c *Config) *float64 { return &c.Reply }),
		floatKey("seek", "value of a move result that splits the belief fully, centipawns", 0, 10000, func(c *Config) *float64 { return &c.Seek }),
		floatKey("hide", "cost of announcing a capture, centipawns", 0, 10000, func(c *Config) *float64 { return &c.Hide }),
		floatKey("shelter", "cost of each square of a line opened to our king, centipawns", 0, 10000, func(c *Config) *float64 { return &c.Shelter }),
		floatKey("press", "value of a pawn move or capture when ahead and the draw clock runs, centipawns", 0, 10000, func(c *Config) *float64 { return &c.Press }),
		floatKey("worst", "voi: weight of the worst sense outcome", 0, 10, func(c *Config) *float64 { return &c.Worst }),
		floatKey("danger", "voi: value of settling whether our king is in danger (attacked or mated next move), centipawns", 0, 100000, func(c *Config) *float64 { return &c.Danger }),
		floatKey("track", "voi: value of settling where attackers near our king stand, centipawns", 0, 100000, func(c *Config) *float64 { return &c.Track }),
		floatKey("reduce", "voi: value of a window that splits the belief fully, centipawns", 0, 100000, func(c *Config) *float64 { return &c.Reduce }),
		floatKey("split", "share of a turn's time for sensing", 0.05, 0.95, func(c *Config) *float64 { return &c.Split }),
		intKey("turns", "expected number of our turns in a game", 5, 500, func(c *Config) *int { return &c.Turns }),
	}
}

// ErrTunedWeight is the error (wrapped) of a spec that sets a tuned weight
// to a value other than the compiled-in one.
var ErrTunedWeight = errors.New(`a tuned weight, compiled in (docs/player.md, "Tuned weights"): change it in the source and measure the build`)

// ErrRemovedSetting is the error (wrapped) of a spec that names a setting
// which was taken out of the player.
var ErrRemovedSetting = errors.New(`removed (no measured gain; see docs/player.md, "Removed options")`)

// removedSetting is the spec key of an option that was taken out because no
// measurement ever showed it to gain. A spec that names it fails with
// ErrRemovedSetting rather than as a typo, so that an old script stops
// loudly instead of running the default player under another name. inert,
// when set, is the one value that asked for what the player now always
// does: a spec giving the key that value (as recorded runs in results/ do)
// still parses, as a no-op, since it names the player that runs.
type removedSetting struct {
	name, inert string
}

// removedSettings lists the removed spec keys (docs/player.md, "Removed
// options").
func removedSettings() []removedSetting {
	return []removedSetting{
		{name: "dangercover"},
		{name: "hangbase"},
		{name: "hunt"},
		{name: "king"},
		// ponder=0 built the reply model at our sense only, which is all
		// the player does now; the reply model's SPRT ran with it.
		{name: "ponder", inert: "0"},
		{name: "repeat"},
		{name: "voishrink"},
	}
}

// checkRemoved reports whether name is a removed key, and if so returns the
// removed error (wrapping ErrRemovedSetting) unless value is its inert value.
func checkRemoved(name, value string) (removed bool, err error) {
	i := slices.IndexFunc(removedSettings(), func(r removedSetting) bool { return r.name == name })
	if i < 0 {
		return false, nil
	}
	r := removedSettings()[i]
	switch {
	case r.inert == "":
		return true, fmt.Errorf("engine: blindfish setting %s: %w", name, ErrRemovedSetting)
	case value != r.inert:
		return true, fmt.Errorf("engine: blindfish setting %s: %w (only %s=%s, what the player now always does, is still accepted)", name, ErrRemovedSetting, name, r.inert)
	}
	return true, nil
}

// ParseConfig applies a spec's settings to the defaults. Errors name the
// bad key and list the valid keys, or the valid values of the key; a removed
// key's error wraps ErrRemovedSetting, and a removed key given its inert
// value is ignored.
func ParseConfig(p Params) (Config, error) {
	c := DefaultConfig()
	keys := configKeys()
	names := make([]string, 0, len(keys))
	for _, k := range keys {
		names = append(names, k.name)
	}
	given := make([]string, 0, len(p))
	for k := range p {
		given = append(given, k)
	}
	slices.Sort(given) // report the first bad key deterministically
	for _, name := range given {
		i := slices.IndexFunc(keys, func(k configKey) bool { return k.name == name })
		if i < 0 {
			if tuned, err := checkTuned(name, p[name]); tuned {
				if err != nil {
					return Config{}, err
				}
				continue
			}
			if removed, err := checkRemoved(name, p[name]); removed {
				if err != nil {
					return Config{}, err
				}
				continue
			}
			return Config{}, fmt.Errorf("engine: blindfish has no setting %q (valid: %s)", name, strings.Join(names, ", "))
		}
		if err := keys[i].set(&c, p[name]); err != nil {
			return Config{}, fmt.Errorf("engine: blindfish setting %s=%q: %w (valid: %s)", name, p[name], err, keys[i].values)
		}
	}
	return c, nil
}

// checkTuned reports whether name is a tuned weight, and if so returns an
// error wrapping ErrTunedWeight unless value is its compiled-in one.
func checkTuned(name, value string) (tuned bool, err error) {
	keys := tunedKeys()
	i := slices.IndexFunc(keys, func(k configKey) bool { return k.name == name })
	if i < 0 {
		return false, nil
	}
	d := DefaultConfig()
	c := d
	if err := keys[i].set(&c, value); err != nil {
		return true, fmt.Errorf("engine: blindfish setting %s=%q: %w (valid: %s)", name, value, err, keys[i].values)
	}
	if want := keys[i].get(&d); keys[i].get(&c) != want {
		return true, fmt.Errorf("engine: blindfish setting %s=%s: %w; it is %s", name, value, ErrTunedWeight, want)
	}
	return true, nil
}

// String renders the settings that differ from the defaults as a spec
// ("blindfish:depth=6,sense=size"), so logs name the exact variant.
func (c Config) String() string {
	d := DefaultConfig()
	var parts []string
	for _, k := range configKeys() {
		if v := k.get(&c); v != k.get(&d) {
			parts = append(parts, k.name+"="+v)
		}
	}
	if len(parts) == 0 {
		return "blindfish"
	}
	return "blindfish:" + strings.Join(parts, ",")
}

func choiceKey(name, help string, choices func() []string, field func(*Config) *string) configKey {
	return configKey{
		name: name, help: help, values: strings.Join(choices(), ", "),
		set: func(c *Config, v string) error {
			if !slices.Contains(choices(), v) {
				return fmt.Errorf("unknown %s", help)
			}
			*field(c) = v
			return nil
		},
		get: func(c *Config) string { return *field(c) },
	}
}

func intKey(name, help string, lo, hi int, field func(*Config) *int) configKey {
	return configKey{
		name: name, help: help, values: fmt.Sprintf("an integer from %d to %d", lo, hi),
		set: func(c *Config, v string) error {
			n, err := strconv.Atoi(v)
			if err != nil {
				return fmt.Errorf("not an integer: %w", err)
			}
			if n < lo || n > hi {
				return fmt.Errorf("%d is out of range", n)
			}
			*field(c) = n
			return nil
		},
		get: func(c *Config) string { return strconv.Itoa(*field(c)) },
	}
}

func floatKey(name, help string, lo, hi float64, field func(*Config) *float64) configKey {
	return configKey{
		name: name, help: help, values: fmt.Sprintf("a number from %g to %g", lo, hi),
		set: func(c *Config, v string) error {
			x, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return fmt.Errorf("not a number: %w", err)
			}
			if !(x >= lo && x <= hi) { // also rejects NaN
				return fmt.Errorf("%g is out of range", x)
			}
			*field(c) = x
			return nil
		},
		get: func(c *Config) string { return strconv.FormatFloat(*field(c), 'g', -1, 64) },
	}
}

func durationKey(name, help string, field func(*Config) *time.Duration) configKey {
	return configKey{
		name: name, help: help, values: `a duration such as "2s" or "500ms", from 0 to 1h`,
		set: func(c *Config, v string) error {
			d, err := time.ParseDuration(v)
			if err != nil {
				return fmt.Errorf("not a duration: %w", err)
			}
			if d < 0 || d > time.Hour {
				return fmt.Errorf("%v is out of range", d)
			}
			*field(c) = d
			return nil
		},
		get: func(c *Config) string { return field(c).String() },
	}
}
