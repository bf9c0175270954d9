#!/usr/bin/env python3
"""What became of each player's move requests in reference-harness game records.

    scripts/records/requests.py RECORD.json|ARCHIVE.tar.gz...

Per player name (players whose names contain "lindfish" are counted as
Blindfish): turns, requests taken as asked, passes asked for, requests the
hidden board turned into a pass, and requests it cut short (a sliding piece
stopped by a capture on its way; the captured value, kings apart). A pawn's
diagonal request is a probe: it captures if a piece stands there and passes
otherwise; "moved on" counts the missed probes whose square held a piece
after the player's previous move (the piece left before the capture came).

Last, per player and opponent, the requests onto the square on which the
other king stood after the player's previous move: a try to take the king
where it was last known (most often after a check). Did it take the king,
was it cut short on the way (by a man that blocked the line), or was the
king gone?

Standard library only; the records are the harness's GameHistory JSON.
"""
import collections
import json
import sys
import tarfile

VALUE = {"p": 1, "n": 3, "b": 3, "r": 5, "q": 9}


def squares(fen):
    """The pieces of a FEN's board by (rank, file)."""
    out = {}
    for r, row in enumerate(fen.split()[0].split("/")):
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                out[(7 - r, f)] = ch
                f += 1
    return out


def square(uci):
    return (int(uci[1]) - 1, ord(uci[0]) - ord("a"))


def move(m):
    if m is None:
        return None
    return m["value"] if isinstance(m, dict) else m


def records(paths):
    for p in paths:
        if p.endswith(".tar.gz") or p.endswith(".tgz"):
            with tarfile.open(p) as t:
                for member in t:
                    if member.isfile() and member.name.endswith(".json"):
                        yield member.name, json.load(t.extractfile(member))
        else:
            with open(p) as f:
                yield p, json.load(f)


def short(name):
    return "Blindfish" if "lindfish" in name else name


def count(history, stats, kings):
    for color, key in (("true", "white_name"), ("false", "black_name")):
        name = history[key]
        c = stats[short(name)]
        other = history["black_name" if color == "true" else "white_name"]
        k = kings[(short(name), short(other))]
        req = history["requested_moves"].get(color, [])
        taken = history["taken_moves"].get(color, [])
        before = history["fens_before_move"].get(color, [])
        after = history["fens_after_move"].get(color, [])
        for i, (r, t) in enumerate(zip(req, taken)):
            r, t = move(r), move(t)
            c["turns"] += 1
            if r is None:
                c["passes asked"] += 1
                continue
            board = squares(before[i])
            king = "k" if color == "true" else "K"
            if i > 0 and squares(after[i - 1]).get(square(r[2:4])) == king:
                k["tries"] += 1
                if t == r and board.get(square(r[2:4])) == king:
                    k["took the king"] += 1
                elif t is None:
                    k["turned into a pass"] += 1
                elif t != r:
                    k["cut short"] += 1
                else:
                    k["king gone"] += 1
            piece = board.get(square(r[:2]), "?").lower()
            probe = piece == "p" and r[0] != r[2]
            if probe:
                c["pawn probes"] += 1
            if t == r:
                c["as asked"] += 1
                if probe:
                    c["probes hit"] += 1
            elif t is None:
                c["turned into a pass"] += 1
                if probe and i > 0 and square(r[2:4]) in squares(after[i - 1]):
                    c["probes at a piece that moved on"] += 1
            else:
                c["cut short"] += 1
                victim = board.get(square(t[2:4]))
                if victim and victim.lower() == "k":
                    c["cut short onto the king"] += 1
                elif victim:
                    c["cut short: value captured"] += VALUE[victim.lower()]


def main(paths):
    if not paths:
        sys.exit(__doc__)
    stats = collections.defaultdict(collections.Counter)
    kings = collections.defaultdict(collections.Counter)
    games = 0
    for _, h in records(paths):
        count(h, stats, kings)
        games += 1
    print(f"{games} games")
    for name, c in sorted(stats.items()):
        turns = max(c["turns"], 1)
        probes = max(c["pawn probes"], 1)
        print(f"{name}: {c['turns']} turns, as asked {100 * c['as asked'] / turns:.1f} %, "
              f"turned into a pass {100 * c['turned into a pass'] / turns:.1f} %, "
              f"cut short {100 * c['cut short'] / turns:.1f} %, "
              f"pawn probes {c['pawn probes']} (hit {100 * c['probes hit'] / probes:.0f} %, "
              f"at a piece that moved on {c['probes at a piece that moved on']})")
        print("   ", dict(sorted(c.items())))
    print("requests onto the square the other king stood on after the player's previous move:")
    for (name, other), k in sorted(kings.items()):
        if k["tries"]:
            print(f"  {name} against {other}: {k['tries']}, took the king {k['took the king']}, "
                  f"cut short {k['cut short']}, king gone {k['king gone']}, "
                  f"turned into a pass {k['turned into a pass']}")


if __name__ == "__main__":
    main(sys.argv[1:])
