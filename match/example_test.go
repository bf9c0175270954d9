package match_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/blindfish-rbc/blindfish/engine"
	"github.com/blindfish-rbc/blindfish/match"
)

// A Go program runs a match as `blindfish match` does, here as two shards
// played into one folder (on a cluster, two machines) and merged: the games
// of one run of the same schedule.
func Example() {
	dir, err := os.MkdirTemp("", "match-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	for k := range 2 {
		cfg := match.Config{
			Bot: "random", Opponent: "attacker", Games: 8, Seed: 7,
			Initial: time.Minute, Increment: time.Second, MoveLimit: 100,
			Out: dir, Concurrency: 1, Alternate: true, Resume: true,
			Shard:  match.Shard{K: k, N: 2},
			NewBot: engine.NewPlayer, // the built-in bots' specs
		}
		rep, err := match.Play(context.Background(), cfg)
		if err != nil {
			panic(err)
		}
		fmt.Printf("shard %s: %d games\n", cfg.Shard, rep.Finished())
	}
	results, _, err := match.ReadFolders([]string{dir}, match.ReadRBCRecord)
	if err != nil {
		panic(err)
	}
	t := match.ResultsTable(match.GroupPairings(results), false)
	for _, row := range append([][]string{t.Header}, t.Rows...) {
		fmt.Println(strings.Join(row[:8], " ")) // bot ... score: the columns that do not depend on the machine
	}
	// Output:
	// shard 0/2: 4 games
	// shard 1/2: 4 games
	// bot opponent as games wins draws losses score
	// random attacker white 4 1 0 3 25.0%
	// random attacker black 4 2 0 2 50.0%
	// random attacker both 8 3 0 5 37.5%
}
