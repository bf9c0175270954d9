"""Drives blindfish_player.py through the reconchess callbacks for
standin_test.go, in place of the harness.

Usage: drive_bridge.py BRIDGE.py, with the stand-in (or real) chess and
reconchess modules on PYTHONPATH. Each line of standard input is a JSON
request {"call": CALLBACK, ...arguments}; each answer is one JSON line
{"result": ..., "seconds": S} or {"error": EXCEPTION CLASS NAME, "message":
TEXT, "seconds": S}, S being the time the callback took. Squares travel as
names ("e4"), moves in UCI, pieces as FEN letters, colours as "white" or
"black", and null stands for None.
"""

import importlib.util
import json
import sys
import time
import traceback

import chess
from reconchess import GameHistory, WinReason


def load_bridge(path):
    spec = importlib.util.spec_from_file_location('blindfish_player', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def square(name):
    return None if name is None else chess.parse_square(name)


def move(text):
    return None if text is None else chess.Move.from_uci(text)


def call(player, req):
    name = req['call']
    if name == 'handle_game_start':
        return player.handle_game_start(req['color'] == 'white', chess.Board(req['fen']), req['opponent'])
    if name == 'handle_opponent_move_result':
        return player.handle_opponent_move_result(req['captured'], square(req['square']))
    if name == 'choose_sense':
        senses = [square(s) for s in req['senses']]
        got = player.choose_sense(senses, [move(m) for m in req['moves']], req['seconds'])
        if got is None:
            return None
        if not isinstance(got, int) or got not in senses:
            raise TypeError('choose_sense returned {!r}, not a square of the sense actions'.format(got))
        return chess.square_name(got)
    if name == 'handle_sense_result':
        result = [(square(s), None if p is None else chess.Piece.from_symbol(p)) for s, p in req['result']]
        return player.handle_sense_result(result)
    if name == 'choose_move':
        moves = [move(m) for m in req['moves']]
        got = player.choose_move(moves, req['seconds'])
        if got is None:
            return None
        if not isinstance(got, chess.Move) or got not in moves:
            raise TypeError('choose_move returned {!r}, not one of the move actions'.format(got))
        return got.uci()
    if name == 'handle_move_result':
        return player.handle_move_result(move(req['requested']), move(req['taken']), req['captured'],
                                         square(req['square']))
    if name == 'handle_game_end':
        winner = None if req['winner'] is None else req['winner'] == 'white'
        reason = WinReason[req['reason']] if req['reason'] in WinReason.__members__ else None
        return player.handle_game_end(winner, reason, GameHistory())
    raise ValueError('unknown call {!r}'.format(name))


def main():
    bridge = load_bridge(sys.argv[1])
    player = bridge.get_player()()
    for line in sys.stdin:
        req = json.loads(line)
        start = time.monotonic()
        try:
            reply = {'result': call(player, req)}
        except Exception as e:  # reported to the test, which decides
            reply = {'error': type(e).__name__, 'message': str(e) or traceback.format_exc()}
        reply['seconds'] = time.monotonic() - start
        sys.stdout.write(json.dumps(reply) + '\n')
        sys.stdout.flush()


if __name__ == '__main__':
    main()
