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


def loglik(rows, temp, floor):
    total = 0.0
    for scores, taken in rows:
        best = max(scores.values())
        e = {k: math.exp((v - best) / temp) for k, v in scores.items()}
        z = sum(e.values())
        n = len(scores)
        f = {k: max(n * v / z, floor) for k, v in e.items()}
        total += math.log(f[taken] / sum(f.values()))
    return total / len(rows)


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
                    rows.append((scores, taken))
    finally:
        eng.quit()
    if not rows:
        sys.exit('no moves of %s in the records' % bot)
    uniform = -sum(math.log(len(s)) for s, _ in rows) / len(rows)
    print('%d moves of %s; log-likelihood a move, at random: %.3f' % (len(rows), bot, uniform))
    floors = (0.02, 0.05, 0.1, 0.15, 0.2, 0.3)
    print('T \\ floor ' + ' '.join('%7g' % f for f in floors))
    for temp in (25, 50, 100, 200, 400):
        print('%9d ' % temp + ' '.join('%7.3f' % loglik(rows, temp, f) for f in floors))


if __name__ == '__main__':
    main()
