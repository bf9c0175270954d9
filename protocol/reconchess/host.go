package reconchess

import _ "embed"

// hostScript is rbcp_host.py, built into every binary that plays py: bots,
// so that a binary copied anywhere needs only a Python interpreter.
//
//go:embed rbcp_host.py
var hostScript string

// HostScript returns the source of rbcp_host.py: a Python program that
// serves a reconchess bot (a bot file or module, the script's one argument)
// as an rbcp engine on its standard input and output.
func HostScript() string { return hostScript }
