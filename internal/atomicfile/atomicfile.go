// Package atomicfile writes a file whole or not at all: into a temporary
// file of the same folder, renamed over the path once complete. A failure
// never leaves a partial file where a good one is expected, nor a temporary
// file beside it, and a reader (a browser reloading a page that a match's
// shard rewrites) sees the old content or the new, never half of it.
package atomicfile

import (
	"os"
	"path/filepath"
)

// WriteFile writes data to path atomically with permissions perm, as
// os.WriteFile would write it in one go. Its errors are the file system's
// (*fs.PathError and *os.LinkError name the file), for the caller to wrap.
func WriteFile(path string, data []byte, perm os.FileMode) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if _, err := f.Write(data); err != nil {
		return err
	}
	// CreateTemp makes the file 0600; a page or a record is to be read by
	// others as a file os.WriteFile wrote would be.
	if err := f.Chmod(perm); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
