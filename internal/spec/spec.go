// Package spec is the grammar of a bot spec, "name" or
// "name:key=value,key=value", shared by the RBC bots (engine) and the
// Kriegspiel bots (kriegspiel/bots): each game keeps only its table of
// names and settings, so that the two never drift apart on what a spec
// looks like or on how a bad one is refused.
//
// It imports nothing of the module, so that every package that names bots
// can use it without an upward dependency.
package spec

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Params are a spec's settings: "blindfish:k=v,x=y" gives {k: v, x: y}.
type Params map[string]string

// ErrBadSpec is wrapped by every error of Parse: the spec does not follow
// the grammar, whatever its bot.
var ErrBadSpec = errors.New("bad bot spec")

// Parse splits a spec into its name (everything before the first ':', not
// empty) and its settings (after it, comma-separated key=value pairs: a key
// is not empty and is given once; a value may be empty and may hold '=' and
// ':', never ','). A ':' with nothing after it is refused, as a setting
// that is not key=value.
func Parse(spec string) (name string, params Params, err error) {
	name, rest, hasParams := strings.Cut(spec, ":")
	if name == "" {
		return "", nil, fmt.Errorf("%w %q: no bot name", ErrBadSpec, spec)
	}
	params = Params{}
	if !hasParams {
		return name, params, nil
	}
	for kv := range strings.SplitSeq(rest, ",") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return "", nil, fmt.Errorf("%w %q: setting %q is not key=value", ErrBadSpec, spec, kv)
		}
		if _, dup := params[k]; dup {
			return "", nil, fmt.Errorf("%w %q: setting %q given twice", ErrBadSpec, spec, k)
		}
		params[k] = v
	}
	return name, params, nil
}

// Format writes a spec back from its parts: "name" or "name:k=v,..." with
// the settings sorted, so that equal specs are equal strings and Parse
// gives the parts back.
func Format(name string, params Params) string {
	if len(params) == 0 {
		return name
	}
	var b strings.Builder
	b.WriteString(name)
	for i, k := range params.Keys() {
		if i == 0 {
			b.WriteByte(':')
		} else {
			b.WriteByte(',')
		}
		b.WriteString(k + "=" + params[k])
	}
	return b.String()
}

// Keys returns the settings' keys, sorted: the order in which a bot applies
// them, so that the first bad one is the same on every run.
func (p Params) Keys() []string {
	keys := make([]string, 0, len(p))
	for k := range p {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// Check returns an error naming any setting not in allowed, so that a typo
// in a spec fails loudly instead of being ignored.
func (p Params) Check(bot string, allowed ...string) error {
	var bad []string
	for _, k := range p.Keys() {
		if !slices.Contains(allowed, k) {
			bad = append(bad, k)
		}
	}
	if len(bad) == 0 {
		return nil
	}
	if len(allowed) == 0 {
		return fmt.Errorf("bot %q takes no settings, got %s", bot, strings.Join(bad, ", "))
	}
	return fmt.Errorf("bot %q has no setting %s (it has %s)", bot, strings.Join(bad, ", "), strings.Join(allowed, ", "))
}
