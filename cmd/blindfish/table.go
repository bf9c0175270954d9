package main

import (
	"io"
	"time"

	"github.com/blindfish-rbc/blindfish/match"
)

// table is a match.Table built row by row, as the benchmark commands print
// theirs.
type table struct{ match.Table }

func newTable(header []string, rightAligned ...int) *table {
	return &table{match.Table{Header: header, Numeric: rightAligned}}
}

func (t *table) add(row ...string) { t.Rows = append(t.Rows, row) }

func (t *table) write(w io.Writer) error { return t.Write(w) }

// perTurn shows the mean time per turn as the match table does.
func perTurn(d time.Duration, turns int) string { return match.FormatPerTurn(d, turns) }
