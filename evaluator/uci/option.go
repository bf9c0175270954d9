package uci

import (
	"fmt"
	"strings"
)

// Option is an option setting sent with "setoption name Name value Value".
// An empty Value sends "setoption name Name" (for button options).
type Option struct {
	// Name is the option's name as the engine declared it (matched
	// case-insensitively).
	Name string
	// Value is the value to set, in the engine's textual form.
	Value string
}

// OptionSpec is an option an engine declared during the "uci" handshake
// ("option name Hash type spin default 16 min 1 max 33554432").
type OptionSpec struct {
	// Name is the option's name, possibly containing spaces.
	Name string
	// Type is one of check, spin, combo, button or string.
	Type string
	// Default is the declared default value ("" if none).
	Default string
	// Min and Max are the bounds of a spin option ("" if none).
	Min, Max string
	// Vars are the choices of a combo option.
	Vars []string
}

// parseOptionSpec parses an "option name ... type ..." line. Values may
// contain spaces (names, string defaults, combo choices).
func parseOptionSpec(line string) (OptionSpec, error) {
	tok := strings.Fields(line)
	if len(tok) < 2 || tok[0] != "option" || tok[1] != "name" {
		return OptionSpec{}, fmt.Errorf("%w: bad option line: %q", ErrProtocol, clip(line))
	}
	var (
		spec  OptionSpec
		field *string
		parts = map[*string][]string{}
	)
	flush := func() {
		if field != nil {
			*field = strings.Join(parts[field], " ")
		}
	}
	for _, t := range tok[1:] {
		var next *string
		switch t {
		case "name":
			next = &spec.Name
		case "type":
			next = &spec.Type
		case "default":
			next = &spec.Default
		case "min":
			next = &spec.Min
		case "max":
			next = &spec.Max
		case "var":
			flush()
			spec.Vars = append(spec.Vars, "")
			field = nil
			continue
		}
		if next != nil {
			flush()
			field = next
			continue
		}
		if field == nil {
			// A word of the current combo choice.
			n := len(spec.Vars) - 1
			if spec.Vars[n] != "" {
				spec.Vars[n] += " "
			}
			spec.Vars[n] += t
			continue
		}
		parts[field] = append(parts[field], t)
	}
	flush()
	if spec.Default == "<empty>" {
		spec.Default = ""
	}
	if spec.Name == "" || spec.Type == "" {
		return OptionSpec{}, fmt.Errorf("%w: option without name or type: %q", ErrProtocol, clip(line))
	}
	return spec, nil
}
