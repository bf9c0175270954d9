package match

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// Count says how many games the match played, with what the reader must
// know about the count: the SPRT stopped it, games are void or missing, it
// is one shard, games were resumed from the folder.
func (r *Report) Count(cfg *Config) string {
	finished, void := r.Finished(), len(r.Void)
	var notes []string
	count := fmt.Sprintf("%d games", finished)
	switch {
	case r.Stopped:
		notes = append(notes, fmt.Sprintf("of at most %d: stopped by the SPRT", r.Scheduled))
	case finished+void < r.Scheduled:
		count = fmt.Sprintf("%d of %d games finished", finished, r.Scheduled)
	}
	if void > 0 {
		notes = append(notes, fmt.Sprintf("and %d void: a bot failed, see errors", void))
	}
	if !cfg.Shard.Whole() {
		notes = append(notes, fmt.Sprintf("shard %s of %d games", cfg.Shard, cfg.Games))
	}
	if r.Resumed > 0 {
		notes = append(notes, fmt.Sprintf("%d already in %s", r.Resumed, cfg.Out))
	}
	if len(notes) > 0 {
		count += " (" + strings.Join(notes, "; ") + ")"
	}
	return count
}

// Setting says the match's clock, seed and records folder, after its Count.
func (c *Config) Setting() string {
	s := fmt.Sprintf("clock %s s, seed %d", c.Clock(), c.Seed)
	if c.Out != "" {
		s += ", records in " + c.Out
	}
	return s
}

// Interrupted reports whether games of the schedule were neither played
// nor skipped by the SPRT's verdict (ctx ended the match).
func (r *Report) Interrupted() bool {
	return r.Finished()+len(r.Void) < r.Scheduled && !r.Stopped
}

// Write prints what a match played: a line of its bots, Count and Setting,
// its table and, with an SPRT, the verdict (on a shard, how to get it:
// merging the shards with --merge --sprt sprtArg).
func (r *Report) Write(w io.Writer, cfg *Config, sprtArg string) error {
	variant := ""
	if cfg.Referee != nil {
		variant = cfg.Referee.Variant() + ", "
	}
	if _, err := fmt.Fprintf(w, "%s vs %s: %s, %s%s\n", cfg.Bot, cfg.Opponent, r.Count(cfg), variant, cfg.Setting()); err != nil {
		return err
	}
	if err := MatchTable(cfg.Bot, cfg.Opponent, append(slices.Clone(r.Results), r.Void...)).Write(w); err != nil {
		return err
	}
	if cfg.SPRT == nil {
		return nil
	}
	line := SPRTLine(*cfg.SPRT, r.Results, false)
	if !cfg.Shard.Whole() {
		line = fmt.Sprintf("SPRT %s: not tested on one shard (its games do not form pairs); merge the shards' folders with --merge --sprt %s", cfg.SPRT, sprtArg)
	}
	_, err := fmt.Fprintln(w, line)
	return err
}

// Archive packs the records of the games the match saved (resumed ones too,
// if still loose) into a new archive in cfg.Out (see Archive and
// ArchiveName), and returns its path and how many records it holds.
func (r *Report) Archive(cfg *Config) (string, int, error) {
	var names []string
	for i, g := range r.Results {
		if g != nil {
			names = append(names, cfg.Game(i).Record)
		}
	}
	return Archive(cfg.Out, ArchiveName(cfg.Shard), names, cfg.records())
}

// Merged is match folders read as one (ReadMatchFolders), with their
// pairings and, once fitted (Ratings), their rating list.
type Merged struct {
	*Folders
	Dirs     []string
	Pairings []*Pairing // of the games that count and the void ones
	Ratings  *RatingList
}

// Merge reads the match folders dirs as one. Folders without a game are an
// error, returned with what was read (its Skipped lines).
func Merge(dirs []string, read RecordReader) (*Merged, error) {
	folders, err := ReadMatchFolders(dirs, read)
	if err != nil {
		return nil, err
	}
	m := &Merged{Folders: folders, Dirs: dirs, Pairings: GroupPairings(append(slices.Clone(folders.Results), folders.Void...))}
	if len(folders.Results) == 0 && len(folders.Void) == 0 {
		return m, fmt.Errorf("no games in %s (no %s, no *.json histories, no *.tar.gz archives of them)", strings.Join(dirs, ", "), LogName)
	}
	return m, nil
}

// Rate fits the rating list of the merged games (Ratings) into m.Ratings.
func (m *Merged) Rate(opts RatingOptions) error {
	l, err := Ratings(m.Results, opts)
	m.Ratings = l
	return err
}

// Head is the first line of a merge: how many games from how many folders,
// and of them how many bare and void.
func (m *Merged) Head() string {
	note := ""
	if m.Bare > 0 {
		note = fmt.Sprintf(" (%d from records without a results log: no times, clock ?)", m.Bare)
	}
	noun := "folders"
	if len(m.Dirs) == 1 {
		noun = "folder"
	}
	if n := len(m.Void); n > 0 {
		note += fmt.Sprintf(" (and %d void: a bot failed, see errors)", n)
	}
	return fmt.Sprintf("merged %d games from %d %s%s", len(m.Results), len(m.Dirs), noun, note)
}

// Write prints the merge after its Head: the rating list when fitted, or
// else the table of pairings, then with an SPRT its line for each pairing
// of two different bots.
func (m *Merged) Write(w io.Writer, sprt *SPRT) error {
	if m.Ratings != nil {
		if err := m.Ratings.Write(w); err != nil {
			return err
		}
	} else if err := ResultsTable(m.Pairings, true).Write(w); err != nil {
		return err
	}
	if sprt == nil {
		return nil
	}
	for _, line := range MergedSPRTLines(*sprt, m.Pairings) {
		if _, err := fmt.Fprintln(w, line); err != nil {
			return err
		}
	}
	return nil
}

// Write prints the rating list: its main group, then the groups apart,
// each under its heading, and what was left out.
func (l *RatingList) Write(w io.Writer) error {
	groups := []*RatingGroup{&l.Main}
	for i := range l.Apart {
		groups = append(groups, &l.Apart[i])
	}
	for i, g := range groups {
		sep := ""
		if i > 0 {
			sep = "\n"
		}
		if _, err := fmt.Fprintf(w, "%s%s\n", sep, l.Heading(g)); err != nil {
			return err
		}
		if err := RatingTable(*g).Write(w); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintln(w, l.Notes())
	return err
}
