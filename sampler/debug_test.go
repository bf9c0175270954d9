package sampler

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/rbc"
)

func TestDebugGame(t *testing.T) {
	f := os.Getenv("DEBUG_GAME")
	if f == "" {
		t.Skip()
	}
	c := rbc.White
	if os.Getenv("DEBUG_COLOR") == "black" {
		c = rbc.Black
	}
	budget, _ := strconv.ParseInt(os.Getenv("DEBUG_BUDGET"), 10, 64)
	start, turns := loadTurns(t, f, c)
	s := mustNew(t, "exact", Options{MemoryBudget: budget, MaxReplay: 1 << 40}).(*exact)
	ctx := context.Background()
	s.HandleGameStart(ctx, c, start)
	var ms runtime.MemStats
	for i := range turns {
		tr := &turns[i]
		t0 := time.Now()
		tr.Notice(ctx, s)
		t1 := time.Now()
		a := s.Size()
		tr.SenseWith(ctx, s, tr.Sense)
		t2 := time.Now()
		b := s.Size()
		tr.Move(ctx, s)
		t3 := time.Now()
		cs := s.Size()
		runtime.ReadMemStats(&ms)
		fmt.Printf("turn %2d notice %8.1fms %9d (def %9d) | sense %6.1fms %9d | move %6.1fms %9d def %9d | usage %dMB heap %dMB sys %dMB segs %d\n", i,
			msf(t1.Sub(t0)), a.Boards, a.Deferred, msf(t2.Sub(t1)), b.Boards, msf(t3.Sub(t2)), cs.Boards, cs.Deferred, s.usage()>>20, ms.HeapAlloc>>20, ms.Sys>>20, len(s.backlog))
		if ms.HeapAlloc > 6<<30 {
			t.Fatal("too much memory")
		}
	}
}

func msf(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
