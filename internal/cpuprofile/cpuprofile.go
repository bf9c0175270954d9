// Package cpuprofile writes a CPU profile of a whole program run (go tool
// pprof FILE): how to see where a match's or an engine's time goes.
package cpuprofile

import (
	"os"
	"runtime/pprof"
)

// Start profiles the program into a new file at path until the returned
// function is called, which ends the profile and closes the file.
func Start(path string) (stop func() error, err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() error {
		pprof.StopCPUProfile()
		return f.Close()
	}, nil
}
