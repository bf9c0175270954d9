package spec

import (
	"errors"
	"maps"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		spec   string
		name   string
		params Params
		err    string // "" when the spec parses
	}{
		{spec: "random", name: "random", params: Params{}},
		{spec: "blindfish:hang=250,samples=300", name: "blindfish", params: Params{"hang": "250", "samples": "300"}},
		{spec: "sampling:eval=embedded,depth=1,samples=8", name: "sampling", params: Params{"eval": "embedded", "depth": "1", "samples": "8"}},
		{spec: "blindfish:k=8,empty=", name: "blindfish", params: Params{"k": "8", "empty": ""}},
		{spec: "x:k=a=b:c", name: "x", params: Params{"k": "a=b:c"}},
		{spec: "", err: `bad bot spec "": no bot name`},
		{spec: ":k=v", err: `bad bot spec ":k=v": no bot name`},
		{spec: "random:", err: `bad bot spec "random:": setting "" is not key=value`},
		{spec: "attacker:x", err: `bad bot spec "attacker:x": setting "x" is not key=value`},
		{spec: "attacker:=1", err: `bad bot spec "attacker:=1": setting "=1" is not key=value`},
		{spec: "attacker:x=1,", err: `bad bot spec "attacker:x=1,": setting "" is not key=value`},
		{spec: "attacker:x=1,x=", err: `bad bot spec "attacker:x=1,x=": setting "x" given twice`},
	} {
		name, params, err := Parse(tc.spec)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err || !errors.Is(err, ErrBadSpec) {
				t.Errorf("Parse(%q) = %v, want error %q wrapping ErrBadSpec", tc.spec, err, tc.err)
			}
			continue
		}
		if err != nil || name != tc.name || !maps.Equal(params, tc.params) {
			t.Errorf("Parse(%q) = %q, %v, %v; want %q, %v", tc.spec, name, params, err, tc.name, tc.params)
		}
	}
}

func TestFormat(t *testing.T) {
	for _, tc := range []struct {
		name   string
		params Params
		want   string
	}{
		{"random", nil, "random"},
		{"random", Params{}, "random"},
		{"blindfish", Params{"samples": "300", "hang": "250"}, "blindfish:hang=250,samples=300"},
		{"b", Params{"e": ""}, "b:e="},
	} {
		if got := Format(tc.name, tc.params); got != tc.want {
			t.Errorf("Format(%q, %v) = %q, want %q", tc.name, tc.params, got, tc.want)
		}
	}
}

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		params  Params
		allowed []string
		err     string
	}{
		{Params{}, nil, ""},
		{Params{"k": "1"}, []string{"k", "m"}, ""},
		{Params{"depth": "3"}, nil, `bot "b" takes no settings, got depth`},
		{Params{"z": "", "a": "", "k": ""}, []string{"k"}, `bot "b" has no setting a, z (it has k)`},
	} {
		err := tc.params.Check("b", tc.allowed...)
		if got := errString(err); got != tc.err {
			t.Errorf("%v.Check(%v) = %q, want %q", tc.params, tc.allowed, got, tc.err)
		}
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// FuzzParse: Parse never panics; what it accepts has a name without ':',
// keys without ',' or '=' and values without ','; Format writes it back as
// a spec that Parse reads as the same parts, and that Format writes again
// unchanged.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"random", "blindfish:hang=250,samples=300", "sampling:eval=embedded,depth=2,samples=16,limit=5000,size=100,recover=none",
		"mcts:boards=256,c=0.25,depth=4,iterations=200000", "trout:robust=true,movetime=500ms", "blindfish:k=8,empty=",
		"", ":", "random:", "a:x", "a:x=1,x=2", "a:=", "a:k=v=w:z", "a:,", "build:HEAD~1:blindfish:depth=6",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		name, params, err := Parse(s)
		if err != nil {
			if !errors.Is(err, ErrBadSpec) {
				t.Fatalf("Parse(%q) error %v does not wrap ErrBadSpec", s, err)
			}
			return
		}
		if name == "" || strings.Contains(name, ":") {
			t.Fatalf("Parse(%q) name %q", s, name)
		}
		for k, v := range params {
			if k == "" || strings.ContainsAny(k, ",=") || strings.Contains(v, ",") {
				t.Fatalf("Parse(%q) setting %q=%q", s, k, v)
			}
		}
		out := Format(name, params)
		name2, params2, err := Parse(out)
		if err != nil || name2 != name || !maps.Equal(params, params2) {
			t.Fatalf("Parse(Format(Parse(%q))) = %q, %v, %v; want %q, %v", s, name2, params2, err, name, params)
		}
		if again := Format(name2, params2); again != out {
			t.Fatalf("Format is not stable: %q then %q", out, again)
		}
	})
}
