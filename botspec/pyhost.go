package botspec

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/blindfish-rbc/blindfish/internal/atomicfile"
	"github.com/blindfish-rbc/blindfish/protocol/reconchess"
)

// Python bots.
//
// "py:BOT" plays a reconchess bot: BOT is a bot file (my_bot.py) or a module
// (reconchess.bots.trout_bot), loaded as the reference harness loads bots.
// The spec runs `$PYTHON rbcp_host.py BOT` as an rbcp engine (PYTHON
// defaults to python3): the host, protocol/reconchess/rbcp_host.py, is built
// into the binary and written once into the build cache, named by its
// content, so that a binary copied anywhere plays Python bots and two
// binaries of different hosts never share one file. A game is one host
// process, so a bot's module state never carries over to the next game.

// PyPrefix marks a Python bot spec: "py:BOT.py" or "py:module.name".
const PyPrefix = "py:"

// PythonEnv names the variable that picks the interpreter of py: bots.
const PythonEnv = "PYTHON"

// pyStartTimeout bounds a Python bot's start: the interpreter, the bot's
// imports (a neural network library can take seconds) and the handshake.
// The start is not charged to the bot's clock.
const pyStartTimeout = time.Minute

// hostFile is where a resolver wrote the host, once.
type hostFile struct {
	mu   sync.Mutex
	path string
}

// pyCommand returns the command line that plays a py: spec.
func (r *Resolver) pyCommand(spec string) ([]string, error) {
	bot := strings.TrimSpace(strings.TrimPrefix(spec, PyPrefix))
	if bot == "" {
		return nil, fmt.Errorf("bot %q: want py:BOT.py or py:module.name, a reconchess bot", spec)
	}
	python := os.Getenv(PythonEnv)
	if python == "" {
		python = "python3"
	}
	host, err := r.hostPath()
	if err != nil {
		return nil, fmt.Errorf("bot %q: %w", spec, err)
	}
	return []string{python, host, bot}, nil
}

// hostPath returns the path of the host script, writing it if the cache
// lacks it. The file is written beside its final name and renamed, so a
// reader never sees half of it.
func (r *Resolver) hostPath() (string, error) {
	r.host.mu.Lock()
	defer r.host.mu.Unlock()
	if r.host.path != "" {
		return r.host.path, nil
	}
	src := []byte(reconchess.HostScript())
	sum := sha256.Sum256(src)
	root, err := r.buildCacheDir()
	if err != nil {
		return "", err
	}
	path := filepath.Join(root, "rbcp_host-"+hex.EncodeToString(sum[:6])+".py")
	if have, err := os.ReadFile(path); err != nil || !bytes.Equal(have, src) {
		if err := writeFileAtomic(path, src); err != nil {
			return "", fmt.Errorf("writing the Python bot host: %w", err)
		}
	}
	r.host.path = path
	return path, nil
}

// writeFileAtomic writes data to path through a temporary file in its
// folder, which it makes first.
func writeFileAtomic(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return atomicfile.WriteFile(path, data, 0o600)
}
