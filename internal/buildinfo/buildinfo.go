// Package buildinfo describes the build of the running program: its
// version, the VCS revision it was built from and the Go version
// (`blindfish version`).
package buildinfo

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// Text says which build this is: the module version, the VCS
// revision and whether the tree had uncommitted changes (what `go build`
// stamps into the binary), and the Go version and platform. bi may be nil
// (a binary built without module support).
func Text(bi *debug.BuildInfo) string {
	version, goVersion := "unknown", runtime.Version()
	revision, modified := "unknown (not stamped: go run, -buildvcs=false or no .git folder at build time)", ""
	if bi != nil {
		if bi.Main.Version != "" {
			version = bi.Main.Version
		}
		if bi.GoVersion != "" {
			goVersion = bi.GoVersion
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				revision = s.Value
			case "vcs.modified":
				if s.Value == "true" {
					modified = " (modified)"
				}
			}
		}
	}
	return fmt.Sprintf("blindfish %s\nrevision %s%s\n%s %s/%s\n", version, revision, modified, goVersion, runtime.GOOS, runtime.GOARCH)
}
