// Package texttable prints tables of text in aligned columns: the tables
// the command line shows (match results, benchmarks, calibrations), built
// as data by the packages that own them so that another program may render
// them otherwise.
package texttable

import (
	"io"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Table is a table as data. Numeric lists the columns that hold numbers
// (printed right-aligned).
type Table struct {
	Header  []string
	Numeric []int
	Rows    [][]string
}

// New returns an empty table with the given header and right-aligned
// (numeric) columns, to be filled row by row with Add.
func New(header []string, numeric ...int) *Table {
	return &Table{Header: header, Numeric: numeric}
}

// Add appends a row.
func (t *Table) Add(row ...string) { t.Rows = append(t.Rows, row) }

// Write prints the table in aligned columns, two spaces apart: text
// left-aligned, the Numeric columns right-aligned, no trailing blanks.
// text/tabwriter aligns every column the same way, hence this.
func (t Table) Write(w io.Writer) error {
	right := map[int]bool{}
	for _, c := range t.Numeric {
		right[c] = true
	}
	widths := make([]int, len(t.Header))
	all := append([][]string{t.Header}, t.Rows...)
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
			if right[i] {
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

// PerTurn shows the mean time per turn, d over turns, with about three
// significant digits in the unit that fits ("12.3ms", "-" for no turns):
// the time columns of the match table and of the benchmarks.
func PerTurn(d time.Duration, turns int) string {
	if turns == 0 {
		return "-"
	}
	m := d / time.Duration(turns)
	switch {
	case m < time.Microsecond:
		return strconv.FormatInt(int64(m), 10) + "ns"
	case m < time.Millisecond:
		return strconv.FormatFloat(float64(m)/1e3, 'f', 1, 64) + "µs"
	case m < time.Second:
		return strconv.FormatFloat(float64(m)/1e6, 'f', 1, 64) + "ms"
	}
	return strconv.FormatFloat(m.Seconds(), 'f', 2, 64) + "s"
}
