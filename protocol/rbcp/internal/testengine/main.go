// Command testengine is the engine the protocol tests run as a subprocess: a
// random player behind rbcp.Serve that can be told to misbehave (hang, die,
// send garbage) so that the client's defences can be tested against a real
// process. It is built once per test run, without the race detector, so that
// it starts fast even when the tests run under it.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"time"

	"github.com/blindfish-rbc/blindfish/protocol/internal/randbot"
	"github.com/blindfish-rbc/blindfish/protocol/rbcp"
	"github.com/blindfish-rbc/blindfish/rbc"
)

func main() {
	mode := flag.String("mode", "random", "random, stuck-move, die-move, garbage-move, flood-move, family-stuck, sleep or mute")
	flag.Parse()
	os.Exit(run(*mode))
}

func run(mode string) int {
	var hook func(p *randbot.Player)
	switch mode {
	case "random":
	case "stuck-move": // ignores its context and never answers choosemove
		hook = func(p *randbot.Player) {
			p.OnChooseMove = func(context.Context) error { select {} }
		}
	case "die-move":
		hook = func(p *randbot.Player) {
			p.OnChooseMove = func(context.Context) error { os.Exit(3); return nil }
		}
	case "garbage-move":
		hook = func(p *randbot.Player) {
			p.OnChooseMove = func(context.Context) error {
				fmt.Println("bestmove e2e4")
				return nil
			}
		}
	case "flood-move": // answers choosemove with a flood of stray replies, then hangs
		hook = func(p *randbot.Player) {
			p.OnChooseMove = func(context.Context) error {
				for range 10000 {
					fmt.Println("ok")
				}
				select {}
			}
		}
	case "family-stuck": // starts a child that shares stdout, then hangs
		exe, err := os.Executable()
		if err != nil {
			return 1
		}
		child := exec.Command(exe, "-mode", "sleep")
		child.Stdout = os.Stdout
		if err := child.Start(); err != nil {
			return 1
		}
		hook = func(p *randbot.Player) {
			p.OnChooseMove = func(context.Context) error { select {} }
		}
	case "sleep", "mute": // never says anything
		time.Sleep(time.Hour)
		return 0
	default:
		fmt.Fprintln(os.Stderr, "unknown mode", mode)
		return 2
	}
	eng := rbcp.Engine{
		Name:   "Test Engine 1.0",
		Author: "Blindfish tests",
		Options: []rbcp.Option{
			{Name: "seed", Type: "spin", Default: "1", HasDefault: true, Min: 0, Max: 1 << 30},
			{Name: "style", Type: "combo", Default: "calm", HasDefault: true, Vars: []string{"calm", "wild"}},
		},
		NewPlayer: func(ctx context.Context, opts map[string]string, info func(string)) (rbc.Player, error) {
			seed, err := strconv.ParseUint(opts["seed"], 10, 64)
			if err != nil {
				return nil, err
			}
			p := randbot.New(seed)
			p.SetInfo(info)
			if hook != nil {
				hook(p)
			}
			return p, nil
		},
	}
	if err := rbcp.Serve(context.Background(), os.Stdin, os.Stdout, eng); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}
