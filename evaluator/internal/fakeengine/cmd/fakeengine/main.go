// Command fakeengine runs the scriptable fake UCI engine of package
// fakeengine as a stand-alone program, for tests whose own binary is too
// slow to start to re-execute as an engine. The mode comes from
// BLINDFISH_FAKE_ENGINE (default "normal").
package main

import (
	"os"
	"time"

	"github.com/blindfish-rbc/blindfish/evaluator/internal/fakeengine"
)

func main() {
	fakeengine.Main() // exits when BLINDFISH_FAKE_ENGINE is set
	os.Exit(fakeengine.Run(fakeengine.ModeNormal, 300*time.Millisecond, os.Stdin, os.Stdout))
}
