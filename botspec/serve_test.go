package botspec

import "testing"

// The engine serves built-in bots with valid settings only, announces the
// spec's settings as the options' defaults, and refuses a bad value when it
// is set.
func TestEngine(t *testing.T) {
	for _, spec := range []string{"cmd:x", "build:HEAD", "blindfish:depth=99", "nosuchbot"} {
		if _, err := Engine(spec, 0, nil); err == nil {
			t.Errorf("Engine(%q) accepted", spec)
		}
	}
	if _, err := Engine("random", -1, nil); err == nil {
		t.Error("a negative seed was accepted")
	}
	eng, err := Engine("blindfish:depth=5", 7, nil)
	if err != nil {
		t.Fatal(err)
	}
	opts := map[string]string{}
	for _, o := range eng.Options {
		opts[o.Name] = o.Default
	}
	if opts["bot"] != "blindfish:depth=5" || opts["seed"] != "7" || opts["depth"] != "5" || opts["info"] != "debug" {
		t.Fatalf("announced defaults %v", opts)
	}
	opts["depth"] = "99"
	if err := eng.Check(opts); err == nil {
		t.Error("setoption depth 99 was accepted")
	}
	opts["depth"], opts["bot"] = "5", "random:depth=3"
	if err := eng.Check(opts); err == nil {
		t.Error("a setting the random bot does not take was accepted")
	}
}
