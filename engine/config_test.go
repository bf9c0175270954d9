package engine

import (
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestParseConfigDefaults: no settings give the defaults, and the defaults
// print as the bare bot name.
func TestParseConfigDefaults(t *testing.T) {
	c, err := ParseConfig(Params{})
	if err != nil || c != DefaultConfig() {
		t.Fatalf("got %+v, %v", c, err)
	}
	if c.String() != "blindfish" {
		t.Errorf("String() = %q", c.String())
	}
}

// TestParseConfigSettings: settings land in their fields and print back as
// a spec that parses to the same config.
func TestParseConfigSettings(t *testing.T) {
	p := Params{"sampler": "hybrid", "sense": "entropy", "depth": "6", "voisamples": "80", "reserve": "3s", "inc": "2s"}
	c, err := ParseConfig(p)
	if err != nil {
		t.Fatal(err)
	}
	if c.Sampler != "hybrid" || c.Sense != "entropy" || c.Depth != 6 || c.VOISamples != 80 || c.Reserve != 3*time.Second || c.Inc != 2*time.Second {
		t.Errorf("got %+v", c)
	}
	_, back, err := ParseSpec(c.String())
	if err != nil {
		t.Fatal(err)
	}
	if c2, err := ParseConfig(back); err != nil || c2 != c {
		t.Errorf("round trip of %q: %+v, %v", c.String(), c2, err)
	}
}

// TestParseConfigErrors: every error names the setting and lists what is
// valid.
func TestParseConfigErrors(t *testing.T) {
	for _, c := range []struct {
		p    Params
		want []string
	}{
		{Params{"detph": "8"}, []string{`no setting "detph"`, "valid: sampler, sense, move, eval", "depth"}},
		{Params{"sense": "psychic"}, []string{`sense="psychic"`, "unknown the sense strategy", "random, size, entropy, hsuc, voi"}},
		{Params{"move": "x"}, []string{`move="x"`, "meanmin, static"}},
		{Params{"sampler": "x"}, []string{`sampler="x"`, "exact, aosp"}},
		{Params{"eval": "gpu"}, []string{`eval="gpu"`, "auto, stockfish, embedded"}},
		{Params{"depth": "deep"}, []string{`depth="deep"`, "not an integer", "from 1 to 30"}},
		{Params{"depth": "0"}, []string{"0 is out of range", "from 1 to 30"}},
		{Params{"mean": "1.5"}, []string{"1.5 is out of range", "from 0 to 1"}},
		{Params{"mean": "NaN"}, []string{"out of range"}},
		{Params{"mean": "0.8"}, []string{"mean=0.8", "a tuned weight", "it is 0.7"}},
		{Params{"reserve": "-1s"}, []string{"out of range"}},
		{Params{"inc": "5"}, []string{"not a duration", `"2s"`}},
	} {
		_, err := ParseConfig(c.p)
		if err == nil {
			t.Errorf("%v: no error", c.p)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%v: error %q lacks %q", c.p, err, w)
			}
		}
	}
}

// TestParseConfigRemovedSettings: a spec naming a setting that was taken
// out fails, through the registry too, with an error that says it was
// removed and where to read why (ErrRemovedSetting), not as an unknown key;
// no removed key is still a setting.
func TestParseConfigRemovedSettings(t *testing.T) {
	for _, key := range []string{"hunt", "king", "hangbase", "dangercover", "voishrink", "repeat", "ponder"} {
		_, err := ParseConfig(Params{key: "1", "depth": "6"})
		if !errors.Is(err, ErrRemovedSetting) {
			t.Errorf("%s: error %v, want ErrRemovedSetting", key, err)
			continue
		}
		if want := key + ": removed (no measured gain; see docs/player.md"; !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %q lacks %q", key, err, want)
		}
		if _, err := NewPlayer("blindfish:"+key+"=1", 7); !errors.Is(err, ErrRemovedSetting) {
			t.Errorf("blindfish:%s=1: error %v, want ErrRemovedSetting", key, err)
		}
	}
	for _, k := range ConfigKeys() {
		if slices.ContainsFunc(removedSettings(), func(r removedSetting) bool { return r.name == k.Name }) {
			t.Errorf("removed key %s is still a setting", k.Name)
		}
	}
}

// TestParseConfigPonderZero: ponder=0, the value the reply model's SPRT
// recorded (results/sprt-reply-20), names what the player now always does
// and still parses, as a no-op; any other value of the removed key fails.
func TestParseConfigPonderZero(t *testing.T) {
	c, err := ParseConfig(Params{"reply": "50", "ponder": "0"})
	if err != nil {
		t.Fatal(err)
	}
	want := DefaultConfig() // reply=50 is the default
	if c != want {
		t.Errorf("reply=50,ponder=0 parsed to %+v, want %+v", c, want)
	}
	if got := c.String(); got != "blindfish" {
		t.Errorf("reply=50,ponder=0 renders as %q", got)
	}
	p, err := NewPlayer("blindfish:reply=50,ponder=0", 7)
	if err != nil {
		t.Fatal(err)
	}
	if bf, ok := p.(*Player); !ok {
		t.Errorf("blindfish:reply=50,ponder=0 built a %T", p)
	} else if bf.Config() != want {
		t.Errorf("blindfish:reply=50,ponder=0 built %v, want %v", bf.Config(), want)
	}
	for _, v := range []string{"1", "2", "", "off", "00"} {
		_, err := ParseConfig(Params{"ponder": v})
		if !errors.Is(err, ErrRemovedSetting) || !strings.Contains(err.Error(), "only ponder=0") {
			t.Errorf("ponder=%q: error %v, want ErrRemovedSetting naming ponder=0", v, err)
		}
	}
}

// TestTunedWeights: a spec may give a tuned weight its compiled-in value
// (the specs recorded in results/ do), as a no-op; another value is
// refused with ErrTunedWeight; a tuned weight is not a user's setting; at
// most 15 settings remain (docs/player.md lists each with its verdict).
func TestTunedWeights(t *testing.T) {
	d := DefaultConfig()
	for _, k := range tunedKeys() {
		c, err := ParseConfig(Params{k.name: k.get(&d)})
		if err != nil || c != d {
			t.Errorf("%s=%s (compiled in): %v", k.name, k.get(&d), err)
		}
		refused := 0
		for _, other := range []string{"0", "1", "0.5", "41"} {
			c := d
			if other == k.get(&d) || k.set(&c, other) != nil {
				continue // the default, or out of the key's range
			}
			if _, err := ParseConfig(Params{k.name: other}); !errors.Is(err, ErrTunedWeight) {
				t.Errorf("%s=%s: error %v, want ErrTunedWeight", k.name, other, err)
			}
			refused++
		}
		if refused == 0 {
			t.Errorf("%s: no other value tried", k.name)
		}
		if slices.ContainsFunc(ConfigKeys(), func(u ConfigKey) bool { return u.Name == k.name }) {
			t.Errorf("tuned weight %s is also a setting", k.name)
		}
	}
	if n := len(ConfigKeys()); n > 15 {
		t.Errorf("%d settings, want at most 15", n)
	}
	doc := readDoc(t, "../docs/player.md")
	for _, k := range append(ConfigKeys(), tunedKeyDocs()...) {
		if !strings.Contains(doc, "| `"+k.Name+"` |") {
			t.Errorf("docs/player.md has no row for %s", k.Name)
		}
	}
}

// tunedKeyDocs lists the tuned weights as ConfigKeys.
func tunedKeyDocs() []ConfigKey {
	var out []ConfigKey
	for _, k := range tunedKeys() {
		out = append(out, ConfigKey{Name: k.name})
	}
	return out
}

// readDoc returns a file's text.
func readDoc(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestRegistryBuildsBlindfish: the registry's spec reaches the player.
func TestRegistryBuildsBlindfish(t *testing.T) {
	p, err := NewPlayer("blindfish:sense=size,depth=6", 7)
	if err != nil {
		t.Fatal(err)
	}
	bf, ok := p.(*Player)
	if !ok || bf.Config().Sense != "size" || bf.Config().Depth != 6 {
		t.Errorf("got %T %+v", p, bf)
	}
	if _, err := NewPlayer("blindfish:sense=nope", 7); err == nil || !strings.Contains(err.Error(), "voi") {
		t.Errorf("bad spec: %v", err)
	}
}

// TestConfigKeysDocumented: every key has help, values and a default.
func TestConfigKeysDocumented(t *testing.T) {
	for _, k := range ConfigKeys() {
		if k.Help == "" || k.Values == "" || k.Default == "" {
			t.Errorf("key %+v is not documented", k)
		}
	}
}
