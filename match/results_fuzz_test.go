package match

import (
	"encoding/json"
	"testing"
)

// FuzzParseLine: a results log is read back on resume, merge and tables,
// and may have been cut short or edited by hand. Any line is read or
// refused without a panic; a line read has times that are times (not
// negative), and its fields written back make a line that reads too.
func FuzzParseLine(f *testing.F) {
	for _, s := range []string{
		`{"record":"blindfish-random-3101-000.json","bot":"blindfish","bot_color":"white","opponent":"random","white":"blindfish","black":"random","winner":"white","reason":"KING_CAPTURE","turns":[8,7],"used_s":[17.5,0.0025],"turn_s":[[2.23,1.74],[0.000029]],"degraded":[{},null],"clock":"60+1","seed":3101,"game":0,"finished":"2026-11-27T11:42:58Z"}`,
		`{"bot":"a","white":"a","black":"b","reason":"ERROR","failed":"black","used_s":[1e300,-3]}`,
		`{"bot":"a","white":"b","black":"a","winner":"black","reason":"TIMEOUT","used_s":[0,0],"turn_s":[[],[-1]]}`,
		`{"bot":"x","white":"a","black":"b"}`, `{}`, `null`, `{"record":`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		r, err := parseLine(text)
		if err != nil {
			return
		}
		for c := range r.Used {
			if r.Used[c] < 0 {
				t.Errorf("parseLine(%q): used %v", text, r.Used[c])
			}
			for _, d := range r.TurnTimes[c] {
				if d < 0 {
					t.Errorf("parseLine(%q): a turn of %v", text, d)
				}
			}
		}
		var l LogLine
		if err := json.Unmarshal(text, &l); err != nil {
			t.Fatalf("parseLine read %q, which does not decode: %v", text, err)
		}
		again, err := json.Marshal(l)
		if err != nil {
			t.Fatalf("cannot write back %q: %v", text, err)
		}
		if _, err := parseLine(again); err != nil {
			t.Errorf("parseLine read %q but not its own rewrite %s: %v", text, again, err)
		}
	})
}
