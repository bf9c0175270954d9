#!/usr/bin/env python3
"""Fit the reply model's temperature and floor (player/replies.go) to a bot's
moves in reference-harness game records.

    PYTHONPATH=/path/to/python-chess scripts/calibrate/replies.py BOT DEPTH RECORD.json...

For every move of BOT, every option on the true board before it (each
pseudo-legal move and the pass) is scored by Stockfish at DEPTH from BOT's
side, and the model's likelihood of the moves BOT took is printed for a grid
of temperatures and floors, next to a choice at random. The model: option m
gets max(n·softmax_T(m), floor) over n options, normalised. A move that
leaves the mover's king capturable scores -10000, a king capture +10000.
Last, at the player's setting (T = 50, floor 0.15), the moves are split
into king attacks (after the move the mover could take the other king) and
the rest: a king attack the model floors is one the player weighs least,
and missing one loses the game.

python-chess is run beside the project (see docs/protocol.md), not part of
it; STOCKFISH_EXECUTABLE names the engine (default /usr/games/stockfish).
"""
import json
import math
import os
import sys

import chess
import chess.engine


def option_scores(eng, fen, depth):
    board = chess.Board(fen)
    scores = {}
    for m in list(board.pseudo_legal_moves) + [None]:
        after = board.copy(stack=False)
        key = m.uci() if m else None
        if m is not None and after.piece_type_at(m.to_square) == chess.KING:
            scores[key] = 10000
            continue
        after.push(m if m is not None else chess.Move.null())
        mover_king = after.king(not after.turn)
        if mover_king is None or after.king(after.turn) is None:
            continue
        if after.is_attacked_by(after.turn, mover_king):
            scores[key] = -10000
            continue
        after.clear_stack()
        info = eng.analyse(after, chess.engine.Limit(depth=depth))
        scores[key] = -info['score'].pov(after.turn).score(mate_score=10000)
    return scores


def factors(scores, temp, floor):
    """The model's factor of each option: max(n·softmax_T, floor)."""
    best = max(scores.values())
    e = {k: math.exp((v - best) / temp) for k, v in scores.items()}
    z = sum(e.values())
    n = len(scores)
    return {k: max(n * v / z, floor) for k, v in e.items()}


def loglik(rows, temp, floor):
    total = 0.0
    for scores, taken, _ in rows:
        f = factors(scores, temp, floor)
        total += math.log(f[taken] / sum(f.values()))
    return total / len(rows)


def attacks_king(fen, move):
    """Whether the mover could take the other king after move (None: the pass)."""
    board = chess.Board(fen)
    board.push(chess.Move.from_uci(move) if move else chess.Move.null())
    king = board.king(board.turn)
    return king is not None and board.is_attacked_by(not board.turn, king)


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    bot, depth, files = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    eng = chess.engine.SimpleEngine.popen_uci(os.environ.get('STOCKFISH_EXECUTABLE', '/usr/games/stockfish'))
    eng.configure({'Threads': 1, 'Hash': 16})
    rows = []
    try:
        for path in files:
            with open(path) as f:
                h = json.load(f)
            side = {h['white_name']: 'true', h['black_name']: 'false'}.get(bot)
            if side is None:
                continue
            for i, fen in enumerate(h['fens_before_move'][side]):
                moves = h['taken_moves'][side]
                taken = moves[i]['value'] if i < len(moves) and moves[i] else None
                scores = option_scores(eng, fen, depth)
                if taken in scores:
                    rows.append((scores, taken, attacks_king(fen, taken)))
    finally:
        eng.quit()
    if not rows:
        sys.exit('no moves of %s in the records' % bot)
    uniform = -sum(math.log(len(s)) for s, _, _ in rows) / len(rows)
    print('%d moves of %s; log-likelihood a move, at random: %.3f' % (len(rows), bot, uniform))
    floors = (0.02, 0.05, 0.1, 0.15, 0.2, 0.3)
    print('T \\ floor ' + ' '.join('%7g' % f for f in floors))
    for temp in (25, 50, 100, 200, 400):
        print('%9d ' % temp + ' '.join('%7.3f' % loglik(rows, temp, f) for f in floors))
    print('at T = 50, floor 0.15:')
    for label, king in (('king attacks', True), ('other moves', False)):
        rs = [r for r in rows if r[2] == king]
        if not rs:
            continue
        random = -sum(math.log(len(s)) for s, _, _ in rs) / len(rs)
        floored = sum(1 for s, t, _ in rs if factors(s, 50, 0.15)[t] <= 0.15) / len(rs)
        print('  %-12s %4d moves, log-likelihood %.3f (at random %.3f), %.0f%% at the floor'
              % (label, len(rs), loglik(rs, 50, 0.15), random, 100 * floored))


if __name__ == '__main__':
    main()
