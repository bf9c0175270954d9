#!/usr/bin/env python3
"""Fit the reply model's temperature and floor (engine/replies.go) to a bot's
moves in reference-harness game records.

    PYTHONPATH=/path/to/python-chess scripts/calibrate/replies.py [--in-check] BOT DEPTH RECORD.json...

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

With --in-check only the moves BOT made with its king capturable (we had
given check on the true board) are scored, and the model is split by what
it does with them: the share of those moves that left the king capturable
(BOT ignored the check, knowingly or not), the chance the model gives that,
and the share of the escapes BOT took that the model floors as low as a
move that hangs the king. Then the log-likelihood for a floor of its own
for the options that leave the king capturable (rows) beside the floor of
the others (columns): a model in which an inferior escape is likelier than
hanging the king.

python-chess is run beside the project (see docs/protocol.md), not part of
it; STOCKFISH_EXECUTABLE names the engine (default /usr/games/stockfish).
"""
import json
import math
import os
import sys

try:
    import chess
    import chess.engine
except ImportError:  # said after the arguments are checked, in main
    chess = None


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


def in_check(fen):
    """Whether the side to move's king is capturable."""
    board = chess.Board(fen)
    king = board.king(board.turn)
    return king is not None and board.is_attacked_by(not board.turn, king)


def split_factors(scores, temp, floor, exposed_floor):
    """factors() with a floor of its own for the options that hang the king."""
    f = factors(scores, temp, 0)
    return {k: max(v, exposed_floor if scores[k] == -10000 else floor) for k, v in f.items()}


def loglik_split(rows, temp, floor, exposed_floor):
    total = 0.0
    for scores, taken, _ in rows:
        f = split_factors(scores, temp, floor, exposed_floor)
        total += math.log(f[taken] / sum(f.values()))
    return total / len(rows)


def report_in_check(rows):
    ignored = sum(1 for s, t, _ in rows if s[t] == -10000)
    p_ignore, floored, escapes = 0.0, 0, 0
    for s, t, _ in rows:
        f = factors(s, 50, 0.15)
        p_ignore += sum(v for k, v in f.items() if s[k] == -10000) / sum(f.values())
        if s[t] != -10000:
            escapes += 1
            floored += f[t] <= 0.15
    print('%d moves in check: %d ignored it (%.0f%%); the model at T = 50, floor 0.15 gives '
          'that %.0f%% on average; %d of the %d escapes taken (%.0f%%) are at the floor'
          % (len(rows), ignored, 100 * ignored / len(rows), 100 * p_ignore / len(rows),
             floored, escapes, 100 * floored / max(escapes, 1)))
    floors = (0.15, 0.3, 0.5, 1.0)
    print('T = 50; exposed floor \\ floor ' + ' '.join('%7g' % f for f in floors))
    for ef in (0.01, 0.05, 0.15, 0.3):
        print('%28g ' % ef + ' '.join('%7.3f' % loglik_split(rows, 50, f, ef) for f in floors))


def attacks_king(fen, move):
    """Whether the mover could take the other king after move (None: the pass)."""
    board = chess.Board(fen)
    board.push(chess.Move.from_uci(move) if move else chess.Move.null())
    king = board.king(board.turn)
    return king is not None and board.is_attacked_by(not board.turn, king)


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    args = sys.argv[1:]
    only_check = args[0] == '--in-check'
    if only_check:
        args = args[1:]
    if len(args) < 3:
        sys.exit(__doc__)
    if any(a.startswith('--') for a in args) or not args[1].isdigit():
        sys.exit(__doc__)
    if chess is None:
        sys.exit('replies.py: python-chess cannot be imported: put it on PYTHONPATH (docs/protocol.md)')
    bot, depth, files = args[0], int(args[1]), args[2:]
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
                if only_check and not in_check(fen):
                    continue
                scores = option_scores(eng, fen, depth)
                if taken in scores:
                    rows.append((scores, taken, attacks_king(fen, taken)))
    finally:
        eng.quit()
    if not rows:
        sys.exit('no moves of %s in the records' % bot)
    if only_check:
        report_in_check(rows)
        return
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
