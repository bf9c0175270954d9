package match

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"

	"github.com/blindfish-rbc/blindfish/chess"
)

// Harness series folders.
//
// scripts/harness/series.sh plays Blindfish against a Python bot under the
// reference harness and writes OUT/summary.txt (a line per game: "g07
// bf=black B(reply=50)  ...") and OUT/gNN/, each with the game's history.
// A folder read as a match folder takes those histories too (they are in
// subfolders, which a match folder's records never are), and in an A/B
// series, where BLINDFISH_OPTIONS and BLINDFISH_OPTIONS_B alternate, names
// Blindfish's side by the spec it played ("blindfish", "blindfish:reply=50"),
// as a match names a bot: the history itself calls both sides of the
// comparison "Blindfish".

// SeriesSummary is the summary file of a harness series.
const SeriesSummary = "summary.txt"

// seriesLine matches a game's line of a summary: its number, Blindfish's
// colour and, in an A/B series, the side and its options.
var seriesLine = regexp.MustCompile(`^g(\d+) bf=(white|black)(?: [AB]\(([^)]*)\))?`)

// seriesGameDir matches a game's folder in a record's name: "OUT/g07/x.json"
// or "OUT/games.tar.gz:./g07/x.json".
var seriesGameDir = regexp.MustCompile(`(?:^|[/:])g(\d+)/[^/]*$`)

// seriesGameName matches the name of a game's folder.
var seriesGameName = regexp.MustCompile(`^g\d+$`)

// seriesGame is what a summary says about one game.
type seriesGame struct {
	color   chess.Color
	options string // "" outside an A/B series
}

// readSeriesSummary reads dir's summary.txt: nil without one.
func readSeriesSummary(dir string) (map[int]seriesGame, error) {
	f, err := os.Open(filepath.Join(dir, SeriesSummary))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("series summary: %w", err)
	}
	defer f.Close()
	games := map[int]seriesGame{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		m := seriesLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		n, err := strconv.Atoi(m[1])
		if err != nil {
			continue
		}
		c := chess.White
		if m[2] == "black" {
			c = chess.Black
		}
		games[n] = seriesGame{color: c, options: m[3]}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("series summary %s: %w", f.Name(), err)
	}
	return games, nil
}

// seriesGameDirs returns the game folders (gNN) of a series folder, by name.
func seriesGameDirs(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("series folder: %w", err)
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() && seriesGameName.MatchString(e.Name()) {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	sort.Strings(out)
	return out, nil
}

// nameSeriesSide names Blindfish's side of a record read from a series
// folder by the spec it played, as a match names it: "blindfish", or in an
// A/B series "blindfish:OPTIONS" for a side with options. The harness calls
// the bridge "Blindfish" whatever it plays; naming it by its spec pools its
// games with match games of the same player, which links the harness's
// opponents to the rating list's scale (anchored at random).
func nameSeriesSide(r *Result, games map[int]seriesGame) {
	m := seriesGameDir.FindStringSubmatch(filepath.ToSlash(r.Record))
	if m == nil {
		return
	}
	n, err := strconv.Atoi(m[1])
	if err != nil {
		return
	}
	g, ok := games[n]
	if !ok {
		return
	}
	name := &r.White
	if g.color == chess.Black {
		name = &r.Black
	}
	*name = "blindfish"
	if g.options != "" && g.options != "default" {
		*name += ":" + g.options
	}
}
