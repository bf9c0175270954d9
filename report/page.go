// Package report writes self-contained HTML pages of plots and tables about
// matches (score with its interval, score and SPRT over the games played,
// time used per turn, a list of the games with links to their records and
// viewer pages) and about belief samplers (size, entropy, recall and time
// per turn, sampler by sampler).
//
// People would rather look than read when the question is "is it getting
// better, and how sure are we": a table says a bot scores 56 %, a plot shows
// whether the score settled after fifty games or is still drifting. The
// plots are drawn with gonum.org/v1/plot as SVG and put inline into one HTML
// file with its styles, without scripts or anything fetched when the page is
// opened, so that a page can be kept beside the records it describes, mailed
// or attached to an issue.
//
// The package builds pages from data (match.Result, BeliefRun); reading
// folders, replaying games and parsing flags are the command line's.
package report

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"io"

	"github.com/blindfish-rbc/blindfish/internal/atomicfile"
)

// Page is one report page: a title, a few lines saying what it is about,
// and sections of tables and figures.
type Page struct {
	Title string
	// Lines say what the page is about (the match, its clock, the folders).
	Lines    []string
	Sections []Section
}

// Section is a heading with notes, figures and a table under it.
type Section struct {
	Heading string
	// ID is the section's anchor (#ID), "" for none.
	ID      string
	Notes   []string
	Figures []Figure
	Table   *Table
	// Code lines are shown as commands to copy (how to make more pages).
	Code []string
}

// Figure is one plot as inline SVG with a caption.
type Figure struct {
	Caption string
	SVG     template.HTML // from renderSVG: markup gonum wrote, text escaped
}

// Table is a table whose cells may link somewhere.
type Table struct {
	Header []string
	// Numeric lists the columns to align right.
	Numeric []int
	Rows    [][]Cell
}

// Cell is one table cell: text, a link when Href is set, or a command to
// copy when Code is set.
type Cell struct {
	Text string
	Href string
	Code bool
}

// TextTable turns a table of plain text (match.Table's shape) into a Table.
func TextTable(header []string, numeric []int, rows [][]string) *Table {
	t := &Table{Header: header, Numeric: numeric}
	for _, r := range rows {
		cells := make([]Cell, len(r))
		for i, s := range r {
			cells[i] = Cell{Text: s}
		}
		t.Rows = append(t.Rows, cells)
	}
	return t
}

// pageHTML is the page's markup and styles.
//
//go:embed page.html
var pageHTML string

// pageTemplate parses pageHTML. It is parsed per call rather than kept in a
// package variable: a page is written once per command, and parsing takes
// microseconds.
func pageTemplate() (*template.Template, error) {
	return template.New("page").Funcs(template.FuncMap{
		"numeric": func(t *Table, col int) bool {
			for _, c := range t.Numeric {
				if c == col {
					return true
				}
			}
			return false
		},
	}).Parse(pageHTML)
}

// Write writes p as HTML to w. Every text goes through html/template, so no
// bot name or detail from a record can inject markup.
func Write(w io.Writer, p *Page) error {
	t, err := pageTemplate()
	if err != nil {
		return fmt.Errorf("report: the page template: %w", err)
	}
	if err := t.Execute(w, p); err != nil {
		return fmt.Errorf("report: write the page: %w", err)
	}
	return nil
}

// WriteFile writes p to path atomically (internal/atomicfile), so that a
// failure never leaves a partial page, and a reader never sees one being
// written (a shard of a match may rewrite its folder's index while another
// reads it).
func WriteFile(path string, p *Page) error {
	var buf bytes.Buffer
	if err := Write(&buf, p); err != nil {
		return err
	}
	if err := atomicfile.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}
