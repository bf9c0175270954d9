#!/usr/bin/env python3
"""How approach C's games against another player went, from the records.

Usage: python3 scripts/kriegspiel/mcts_games.py ARCHIVE.tar.gz|DIR [BOT]

Reads the Kriegspiel records (blindfish-kriegspiel JSON) of a match folder or
of a games archive, takes the side played by BOT (default "mcts") and prints
what docs/kriegspiel.md uses to explain the score: the result, how many games
began with one rook's pawn pushed on each of BOT's first three moves, how its
losses ended (mate, with its king alone or not), how many of them it had led
by a piece's worth, the material each side lost from BOT's best moment to the
end, and the material each side lost over all games (its material at the
start less at the end, a promotion counting as a gain; the board after each
move, from its FEN; pawn 1, knight and bishop 3, rook 5, queen 9).
"""

import json
import os
import sys
import tarfile

VALUES = {"p": 1, "n": 3, "b": 3, "r": 5, "q": 9, "k": 0}


def records(path):
    """Yields the records of an archive or a folder."""
    if os.path.isdir(path):
        for name in sorted(os.listdir(path)):
            if name.endswith(".json"):
                with open(os.path.join(path, name)) as f:
                    yield json.load(f)
        return
    with tarfile.open(path) as tar:
        for member in sorted(tar.getmembers(), key=lambda m: m.name):
            if member.isfile() and member.name.endswith(".json"):
                yield json.load(tar.extractfile(member))


def material(fen, white):
    """Returns the material of one side and its number of men but the king."""
    points = men = 0
    for ch in fen.split()[0]:
        if ch.lower() in VALUES and ch.isupper() == white:
            points += VALUES[ch.lower()]
            men += ch.lower() != "k"
    return points, men


def piece_at(fen, square):
    """Returns the letter of the man on square (like "e2") in fen, or None.

    >>> [piece_at("4k3/8/8/8/8/8/1P6/R3K3 w Q - 0 1", s) for s in ("a1", "b1", "e1", "b2", "e8", "h8")]
    ['R', None, 'K', 'P', 'k', None]
    """
    row = fen.split()[0].split("/")[8 - int(square[1])]
    file = ord(square[0]) - ord("a")
    for ch in row:
        if ch.isdigit():
            file -= int(ch)
        elif file == 0:
            return ch
        else:
            file -= 1
        if file < 0:
            return None
    return None


def rook_pawn_rush(moves):
    """Reports whether the first three moves push one rook's pawn.

    moves are (UCI move, letter of the man that made it) pairs: a rook's
    pawn pushed once and then a rook that lifts along its file is no rush.

    >>> rook_pawn_rush([("a2a3", "P"), ("a3a4", "P"), ("a4a5", "P")])
    True
    >>> rook_pawn_rush([("h7h5", "p"), ("h5h4", "p"), ("h4h3", "p")])
    True
    >>> rook_pawn_rush([("a2a4", "P"), ("a1a3", "R"), ("a3a2", "R")])
    False
    >>> rook_pawn_rush([("a2a4", "P"), ("a4a5", "P")])
    False
    """
    if len(moves) < 3 or not all(m for m, _ in moves[:3]):
        return False
    file = moves[0][0][0]
    return file in "ah" and all(m[0] == file and m[2] == file and man in "Pp" for m, man in moves[:3])


def main(argv):
    if len(argv) not in (2, 3):
        sys.exit(__doc__.strip().splitlines()[2])
    bot = argv[2] if len(argv) == 3 else "mcts"
    games = wins = draws = rushes = 0
    losses, mates, alone, led = 0, 0, 0, 0
    lost_after_best = taken_after_best = 0
    lost = {"bot": 0, "opponent": 0}
    for rec in records(argv[1]):
        if bot not in (rec["white"], rec["black"]):
            continue
        white = rec["white"] == bot
        colour = "white" if white else "black"
        games += 1
        moves, board = [], rec["start_fen"]
        for t in rec["turns"]:
            if t["color"] == colour:
                moves.append((t["move"], t["move"] and piece_at(board, t["move"][:2])))
            board = t["fen_after"]
        rushes += rook_pawn_rush(moves)
        ours = [material(t["fen_after"], white)[0] for t in rec["turns"]]
        theirs = [material(t["fen_after"], not white)[0] for t in rec["turns"]]
        start = material(rec["start_fen"], white)[0], material(rec["start_fen"], not white)[0]
        if ours:
            lost["bot"] += start[0] - ours[-1]
            lost["opponent"] += start[1] - theirs[-1]
        winner = rec["result"].get("winner")
        if winner == colour:
            wins += 1
            continue
        if not winner:
            draws += 1
            continue
        losses += 1
        mates += rec["result"]["reason"].startswith("CHECKMATE")
        alone += material(rec["final_fen"], white)[1] == 0
        if not ours:
            continue
        balance = [a - b for a, b in zip(ours, theirs)]
        best = max(range(len(balance)), key=balance.__getitem__)
        led += balance[best] >= 3
        lost_after_best += ours[best] - ours[-1]
        taken_after_best += theirs[best] - theirs[-1]
    if games == 0:
        sys.exit(f"no game of {bot!r} in {argv[1]}")
    score = (wins + draws / 2) / games
    print(f"{bot}: {games} games, {wins}-{draws}-{losses} (W-D-L), {100 * score:.1f} %")
    print(f"first three moves push one rook's pawn: {rushes} of {games} games")
    print(f"losses: {losses}, by mate {mates}, with the king alone {alone}, after leading by 3 or more {led}")
    if losses:
        print(f"from its best balance to the end of a loss, on average: it lost {lost_after_best / losses:.1f},"
              f" the opponent {taken_after_best / losses:.1f}")
    print(f"material lost over all games: {lost['bot']} by {bot}, {lost['opponent']} by the opponent")


if __name__ == "__main__":
    main(sys.argv)
