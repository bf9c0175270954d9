package view

import (
	"regexp"
	"strings"
	"testing"
)

// TestPageTemplates checks each page as common.html and its own file make
// it: one whole document with one data marker and no template text left,
// every id once, and an element for every id its script looks up, so that
// a part a page forgot to define, or defined twice, shows here rather than
// in a browser.
func TestPageTemplates(t *testing.T) {
	ids := regexp.MustCompile(`\bid="([^"]+)"`)
	lookups := regexp.MustCompile(`\$\("([^"]+)"\)`)
	for _, page := range []string{"page.html", "kriegspiel.html"} {
		html, err := pageHTML(page)
		if err != nil {
			t.Fatalf("%s: %v", page, err)
		}
		if !strings.HasPrefix(html, "<!DOCTYPE html>\n") || !strings.HasSuffix(html, "</html>\n") {
			t.Errorf("%s: not a whole document", page)
		}
		if n := strings.Count(html, dataMarker); n != 1 {
			t.Errorf("%s: %d data markers", page, n)
		}
		if strings.Contains(html, "{{") || strings.Contains(html, "}}") {
			t.Errorf("%s: template text left in the page", page)
		}
		seen := map[string]int{}
		for _, m := range ids.FindAllStringSubmatch(html, -1) {
			seen[m[1]]++
		}
		for id, n := range seen {
			if n > 1 {
				t.Errorf("%s: id %q %d times", page, id, n)
			}
		}
		for _, m := range lookups.FindAllStringSubmatch(html, -1) {
			if seen[m[1]] == 0 {
				t.Errorf("%s: the script looks up #%s, which the page lacks", page, m[1])
			}
		}
	}
}
