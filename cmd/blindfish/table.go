package main

import (
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/blindfish-rbc/blindfish/match"
)

// table prints rows under a header in aligned columns: text left-aligned,
// numbers right-aligned (columns listed in right), two spaces apart.
// text/tabwriter aligns every column the same way, hence this.
type table struct {
	header []string
	right  map[int]bool
	rows   [][]string
}

func newTable(header []string, rightAligned ...int) *table {
	t := &table{header: header, right: map[int]bool{}}
	for _, c := range rightAligned {
		t.right[c] = true
	}
	return t
}

func (t *table) add(row ...string) { t.rows = append(t.rows, row) }

// write prints the table, trimming trailing blanks from each line.
func (t *table) write(w io.Writer) error {
	widths := make([]int, len(t.header))
	all := append([][]string{t.header}, t.rows...)
	for _, r := range all {
		for i, cell := range r {
			if i < len(widths) {
				widths[i] = max(widths[i], utf8.RuneCountInString(cell))
			}
		}
	}
	var sb strings.Builder
	for _, r := range all {
		var line strings.Builder
		for i, cell := range r {
			if i >= len(widths) {
				break
			}
			if i > 0 {
				line.WriteString("  ")
			}
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(cell))
			if t.right[i] {
				line.WriteString(pad + cell)
			} else {
				line.WriteString(cell + pad)
			}
		}
		sb.WriteString(strings.TrimRight(line.String(), " "))
		sb.WriteByte('\n')
	}
	_, err := io.WriteString(w, sb.String())
	return err
}

// perTurn shows the mean time per turn as the match table does.
func perTurn(d time.Duration, turns int) string { return match.FormatPerTurn(d, turns) }
