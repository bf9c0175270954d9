#!/usr/bin/env python3
"""How often Blindfish's voi sense was carried by its danger bonus, in won and lost games.

    scripts/records/senses.py [--all] SERIES_DIR...

A SERIES_DIR is a folder of results/ made by scripts/harness/series.sh and
pack.sh: summary.txt (a line per game: "gNN bf=COLOUR [A(..)|B(..)] VERDICT")
and the archives it names (games.tar.gz, and games-2.tar.gz after a line
"# Series b (games-2.tar.gz)"), whose gNN/ folders hold the harness's record
and Blindfish's engine log (engine.log.gz). Only decided games count, and
only side A of an A/B series (the default player) unless --all is given.

A sense is "carried by the danger bonus" when the bonus (the voi's value of
settling whether our king is in danger, logged as "danger bonus", or 7,000
times "danger info" in older logs) is larger than the rest of the window's
gain over not sensing. Each sense is binned by the true position before it,
scored from our side by `blindfish analyze --swings --depth 10` (BLINDFISH:
the binary, default "blindfish" on PATH): behind (< -300 cp), level, ahead
(> +300 cp). Being behind brings danger-carried senses with it (our king is
attacked), so the bins say whether the bonus goes with positions that were
still level or won. Standard library only.
"""
import gzip
import os
import re
import subprocess
import sys
import tarfile
import tempfile

LINE = re.compile(r"(g\d+) bf=(\w+)\s*(\S*)\s+(Blindfish won|opponent won|draw|ERROR)")
PAIR = re.compile(r'(\w+|"[^"]+")=("[^"]*"|\S+)')


def games(series):
    """(archive, game, colour, side, verdict) for each game of a series folder."""
    archive = "games.tar.gz"
    with open(os.path.join(series, "summary.txt")) as f:
        for line in f:
            m = re.match(r"# Series \w+ \((games[^)]*\.tar\.gz)\)", line)
            if m:
                archive = m.group(1)
            m = LINE.match(line)
            if m:
                yield os.path.join(series, archive), m.group(1), m.group(2), m.group(3), m.group(4)


def find(tmp, archive, game):
    """The folder of game, extracted into tmp from archive or, when it is not
    there (a series resumed in a later session, packed into games-2.tar.gz
    without a "# Series" line), from the series' other archives."""
    series = os.path.dirname(archive)
    others = sorted(n for n in os.listdir(series) if n.startswith("games") and n.endswith(".tar.gz"))
    for path in [archive] + [os.path.join(series, n) for n in others]:
        if not os.path.exists(path):
            continue
        dest = os.path.join(tmp, path.replace(os.sep, "_"))
        if not os.path.isdir(dest):
            os.makedirs(dest)
            with tarfile.open(path) as t:
                t.extractall(dest, filter="data")
        folder = os.path.join(dest, game)
        if os.path.isdir(folder) and os.path.exists(os.path.join(folder, "engine.log.gz")) and \
                any(n.endswith(".json") for n in os.listdir(folder)):
            return folder
    return None


def senses(log):
    """(turn, danger-carried) for each voi sense of an engine log."""
    out = []
    with gzip.open(log, "rt", errors="replace") as f:
        for line in f:
            if "msg=sense " not in line or "strategy=voi" not in line:
                continue
            kv = dict(PAIR.findall(line))
            try:
                gain = float(kv["value"]) - float(kv['"no-sense value"'])
                bonus = float(kv.get('"danger bonus"', float(kv.get('"danger info"', 0)) * 7000))
            except (KeyError, ValueError):
                continue
            out.append((int(kv["turn"]), bonus > 0 and bonus > max(gain - bonus, 0)))
    return out


def scores(binary, record):
    """The true board's score after each move, White's side, by (turn, side)."""
    text = subprocess.run([binary, "analyze", "--swings", "--depth", "10", record],
                          capture_output=True, text=True, check=True).stdout
    out = {}
    for line in text.splitlines():
        p = line.split()
        if len(p) >= 8 and p[0].isdigit() and p[1] in ("white", "black"):
            out[(int(p[0]), p[1])] = int(p[-3] if p[-1] == "*" else p[-2])
    return out


def main(argv):
    every = "--all" in argv
    dirs = [a for a in argv if a != "--all"]
    if not dirs:
        sys.exit(__doc__)
    binary = os.environ.get("BLINDFISH", "blindfish")
    table = {}
    with tempfile.TemporaryDirectory() as tmp:
        for series in dirs:
            for archive, game, colour, side, verdict in games(series):
                if verdict not in ("Blindfish won", "opponent won") or (side.startswith("B(") and not every):
                    continue
                folder = find(tmp, archive, game)
                if folder is None:
                    print(f"{series}: no {game}/ with a record and an engine log", file=sys.stderr)
                    continue
                records = [n for n in os.listdir(folder) if n.endswith(".json")]
                score = scores(binary, os.path.join(folder, records[0]))
                sign = 1 if colour == "white" else -1
                for turn, carried in senses(os.path.join(folder, "engine.log.gz")):
                    # The position we sensed in: after the opponent's last move.
                    before = score.get((turn - 1, "black") if colour == "white" else (turn, "white"))
                    if before is None:
                        continue
                    s = sign * before
                    where = "behind" if s < -300 else "ahead" if s > 300 else "level"
                    n = table.setdefault((verdict, where), [0, 0])
                    n[0] += 1
                    n[1] += carried
    print("games       position  senses  carried by the danger bonus")
    for verdict in ("Blindfish won", "opponent won"):
        for where in ("behind", "level", "ahead"):
            n, c = table.get((verdict, where), [0, 0])
            share = f"{100 * c / n:.1f} %" if n else "-"
            print(f"{'won' if verdict == 'Blindfish won' else 'lost':<11} {where:<9} {n:>6}  {c:>4} ({share})")


if __name__ == "__main__":
    main(sys.argv[1:])
