package view

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/template"

	"github.com/blindfish-rbc/blindfish/internal/atomicfile"
	"github.com/blindfish-rbc/blindfish/record"
)

// pages holds the templates of the pages: common.html, what both games'
// pages share (the board, the navigation, the legend, the script's
// helpers), with page.html (RBC) and kriegspiel.html, each game's own.
//
//go:embed common.html page.html kriegspiel.html
var pages embed.FS

// dataMarker is where the page's data goes, inside a script element of type
// application/json (read by the page's script, never run).
const dataMarker = "/*BLINDFISH-DATA*/"

// Write writes the page for p to w.
//
// The data goes in as JSON rather than through a template: json.Marshal
// escapes <, > and & in strings, so no player name or detail taken from the
// record can close the script element, and the page's script sets every
// text through textContent.
func Write(w io.Writer, p *Page) error { return writePage(w, "page.html", p) }

// WriteKriegspiel writes the page of a Kriegspiel game to w, as Write does.
func WriteKriegspiel(w io.Writer, p *KriegspielPage) error {
	return writePage(w, "kriegspiel.html", p)
}

// pageHTML is the page that the template file page (page.html or
// kriegspiel.html) makes with common.html, its data marker still in it.
//
// The templates are text/template's: they put together fixed text and
// take nothing from a record (the data goes in at the marker, as JSON),
// and html/template would strip the script's comments, the marker's
// among them. They are parsed per page, as report parses its own: a page
// is written once per game and parsing takes well under a millisecond.
func pageHTML(page string) (string, error) {
	t, err := template.New(page).Funcs(template.FuncMap{
		// ends names the two ends of the legend's bar.
		"ends": func(from, to string) [2]string { return [2]string{from, to} },
	}).ParseFS(pages, "common.html", page)
	if err != nil {
		return "", fmt.Errorf("view: the page template: %w", err)
	}
	var b strings.Builder
	if err := t.ExecuteTemplate(&b, "viewer", nil); err != nil {
		return "", fmt.Errorf("view: the page template: %w", err)
	}
	return b.String(), nil
}

// writePage writes the page that the template file page makes, with data
// in place of its dataMarker.
func writePage(w io.Writer, page string, data any) error {
	html, err := pageHTML(page)
	if err != nil {
		return err
	}
	js, err := json.Marshal(data)
	if err != nil {
		return fmt.Errorf("view: encode the page data: %w", err)
	}
	before, after, ok := strings.Cut(html, dataMarker)
	if !ok {
		return fmt.Errorf("view: the page template lacks its data marker")
	}
	for _, part := range [][]byte{[]byte(before), js, []byte(after)} {
		if _, err := w.Write(part); err != nil {
			return fmt.Errorf("view: write the page: %w", err)
		}
	}
	return nil
}

// WriteFile writes the page for p to path, atomically (internal/atomicfile),
// so that a failure never leaves a partial page where a good one is
// expected.
func WriteFile(path string, p *Page) error {
	return writeFile(path, func(w io.Writer) error { return Write(w, p) })
}

// WriteKriegspielFile writes the page of a Kriegspiel game to path, as
// WriteFile does.
func WriteKriegspielFile(path string, p *KriegspielPage) error {
	return writeFile(path, func(w io.Writer) error { return WriteKriegspiel(w, p) })
}

func writeFile(path string, write func(io.Writer) error) error {
	var buf bytes.Buffer
	if err := write(&buf); err != nil {
		return err
	}
	if err := atomicfile.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("view: %w", err)
	}
	return nil
}

// PagePath is where the page of a record goes: out when set, else beside
// the record (or its archive), named after it with .html.
func PagePath(rec *record.Record, out string) string {
	if out != "" {
		return out
	}
	return filepath.Join(filepath.Dir(rec.Path), strings.TrimSuffix(rec.Base(), ".json")+".html")
}

// RecordLink is how the page at page links to the file record that holds
// its record (Options.Source): relative to the page's folder, so that the
// pair can be moved together; the bare path when there is no relative way.
func RecordLink(page, record string) string {
	pageAbs, err1 := filepath.Abs(filepath.Dir(page))
	recAbs, err2 := filepath.Abs(record)
	if err1 != nil || err2 != nil {
		return filepath.ToSlash(record)
	}
	rel, err := filepath.Rel(pageAbs, recAbs)
	if err != nil {
		return filepath.ToSlash(record)
	}
	return filepath.ToSlash(rel)
}
