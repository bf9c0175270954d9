package botspec

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"
)

// Pinned builds.
//
// "build:REV[:BOTSPEC]" is a bot spec for Blindfish as it was at a commit of
// the repository in the current directory: the way to measure a change
// against the build before it (`--black build:HEAD~1`) without keeping old
// binaries around by hand. REV is anything `git rev-parse` reads as a commit
// (a hash, tag, branch, HEAD~1; not containing ':'), BOTSPEC the bot that
// build serves (default blindfish, settings allowed: blindfish:samples=300).
//
// The commit is exported with `git archive` (the committed tree: uncommitted
// edits never leak into the pinned side), built with `go build`, and the
// binary kept in <user cache>/blindfish/builds/<commit>/blindfish
// ($BLINDFISH_BUILD_CACHE replaces <user cache>/blindfish/builds), so each
// commit is built once per machine. The spec then plays as
// "cmd:<binary> engine --bot BOTSPEC" would: the old build's own rules for
// its bot specs apply.

// BuildCacheEnv names the variable that moves the build cache (tests, or a
// shared folder of builds).
const BuildCacheEnv = "BLINDFISH_BUILD_CACHE"

// pinnedBuild is a built commit.
type pinnedBuild struct {
	commit string // the full hash
	binary string
}

// buildCache memoizes resolved revisions (the text given and the short hash
// of canonical specs both map to the build), so that a match resolves and
// builds once and its games only look the binary up. mu is held across a
// build: two games never build one commit twice.
type buildCache struct {
	mu    sync.Mutex
	byRev map[string]pinnedBuild
}

// splitBuildSpec splits "build:REV[:BOTSPEC]"; ok is false for other specs.
func splitBuildSpec(spec string) (rev, bot string, ok bool, err error) {
	rest, ok := strings.CutPrefix(spec, BuildPrefix)
	if !ok {
		return "", "", false, nil
	}
	rev, bot, hasBot := strings.Cut(rest, ":")
	if rev == "" {
		return "", "", true, fmt.Errorf("bot %q: want build:REV[:BOTSPEC] with REV a git commit, tag or branch", spec)
	}
	if !hasBot {
		bot = DefaultBot
	}
	if bot == "" || IsExternal(bot) {
		return "", "", true, fmt.Errorf("bot %q: BOTSPEC must be a bot of that build, like blindfish:samples=300", spec)
	}
	return rev, bot, true, nil
}

// buildCommand returns the command line that plays a pinned-build spec.
func (r *Resolver) buildCommand(ctx context.Context, spec string) ([]string, error) {
	rev, bot, _, err := splitBuildSpec(spec)
	if err != nil {
		return nil, err
	}
	b, err := r.resolveBuild(ctx, rev, nil)
	if err != nil {
		return nil, fmt.Errorf("bot %q: %w", spec, err)
	}
	return []string{b.binary, "engine", "--bot", bot}, nil
}

// resolveBuild returns the build of a revision, building it if the cache
// lacks it. log (nil: none) hears what is resolved and built.
func (r *Resolver) resolveBuild(ctx context.Context, rev string, log *slog.Logger) (pinnedBuild, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	r.builds.mu.Lock()
	defer r.builds.mu.Unlock()
	if b, ok := r.builds.byRev[rev]; ok {
		return b, nil
	}
	commit, err := gitOutput(ctx, "rev-parse", "--verify", "--end-of-options", rev+"^{commit}")
	if err != nil {
		return pinnedBuild{}, fmt.Errorf("unknown revision %q: %w", rev, err)
	}
	root, err := r.buildCacheDir()
	if err != nil {
		return pinnedBuild{}, err
	}
	name := "blindfish"
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	b := pinnedBuild{commit: commit, binary: filepath.Join(root, commit, name)}
	if fi, err := os.Stat(b.binary); err == nil && fi.Mode().IsRegular() {
		log.Info("pinned build", "rev", rev, "commit", commit[:12], "binary", b.binary)
	} else {
		start := time.Now()
		log.Info("building", "rev", rev, "commit", commit[:12])
		if err := buildCommit(ctx, commit, b.binary); err != nil {
			return pinnedBuild{}, fmt.Errorf("build of %s (%s): %w", rev, commit[:12], err)
		}
		log.Info("built", "rev", rev, "commit", commit[:12], "binary", b.binary, "took", time.Since(start).Round(time.Second))
	}
	if r.builds.byRev == nil {
		r.builds.byRev = map[string]pinnedBuild{}
	}
	r.builds.byRev[rev] = b
	r.builds.byRev[commit[:12]] = b
	return b, nil
}

// buildCacheDir is where builds are kept: the resolver's folder if it was
// given one, else $BLINDFISH_BUILD_CACHE, else blindfish/builds in the
// user's cache folder.
func (r *Resolver) buildCacheDir() (string, error) {
	if r.cacheDir != "" {
		return r.cacheDir, nil
	}
	if d := os.Getenv(BuildCacheEnv); d != "" {
		return d, nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no folder for pinned builds (set %s): %w", BuildCacheEnv, err)
	}
	return filepath.Join(d, "blindfish", "builds"), nil
}

// buildCommit exports commit into a temporary folder and builds
// ./cmd/blindfish there into binary. The binary is written next to its final
// name and renamed, so that a build cut short never leaves a binary that
// looks complete.
func buildCommit(ctx context.Context, commit, binary string) error {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		return fmt.Errorf("the go command is needed to build it: %w", err)
	}
	src, err := os.MkdirTemp("", "blindfish-build-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(src)
	if err := exportCommit(ctx, commit, src); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(binary), 0o755); err != nil {
		return err
	}
	tmp := fmt.Sprintf("%s.tmp%d", binary, os.Getpid())
	defer os.Remove(tmp)
	cmd := exec.CommandContext(ctx, goCmd, "build", "-buildvcs=false", "-o", tmp, "./cmd/blindfish")
	cmd.Dir = src
	// The export has no go.work; one in a parent of the temporary folder
	// must not change what is built.
	cmd.Env = append(os.Environ(), "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build: %w\n%s", err, strings.TrimSpace(string(out)))
	}
	return os.Rename(tmp, binary)
}

// exportCommit writes the tree of commit into dir from `git archive`, run at
// the top of the repository (in a subfolder it would export only that).
func exportCommit(ctx context.Context, commit, dir string) error {
	top, err := gitOutput(ctx, "rev-parse", "--show-toplevel")
	if err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, "git", "archive", "--format=tar", commit)
	cmd.Dir = top
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("git archive: %w", err)
	}
	xerr := untar(out, dir)
	if xerr != nil {
		io.Copy(io.Discard, out)
	}
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("git archive: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	if xerr != nil {
		return fmt.Errorf("git archive: %w", xerr)
	}
	return nil
}

// untar extracts the directories, files and symbolic links of a tar stream
// into dir, refusing names that leave it.
func untar(r io.Reader, dir string) error {
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if h.Typeflag == tar.TypeXGlobalHeader { // git archive's commit id
			continue
		}
		if !filepath.IsLocal(filepath.FromSlash(h.Name)) {
			return fmt.Errorf("archive entry %q leaves the folder", h.Name)
		}
		path := filepath.Join(dir, filepath.FromSlash(h.Name))
		switch h.Typeflag {
		case tar.TypeDir:
			err = os.MkdirAll(path, 0o755)
		case tar.TypeReg:
			err = writeFile(path, tr, h.FileInfo().Mode().Perm())
		case tar.TypeSymlink:
			if err = os.MkdirAll(filepath.Dir(path), 0o755); err == nil {
				err = os.Symlink(h.Linkname, path)
			}
		}
		if err != nil {
			return err
		}
	}
}

func writeFile(path string, r io.Reader, perm os.FileMode) (err error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm|0o200)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}()
	_, err = io.Copy(f, r)
	return err
}

// gitOutput runs git in the current directory and returns its trimmed
// output, or an error carrying what git said.
func gitOutput(ctx context.Context, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			return "", fmt.Errorf("git %s: %w", args[0], err)
		}
		return "", fmt.Errorf("git %s: %s: %w", args[0], msg, err)
	}
	return strings.TrimSpace(stdout.String()), nil
}
