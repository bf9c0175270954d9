"""Blindfish as a reconchess bot.

This file is a bot for the reference Reconnaissance Blind Chess harness
(``pip install reconchess``). It starts the Blindfish engine as a separate
process and relays the harness's seven Player callbacks to it over rbcp, the
line protocol described in docs/protocol.md, so Blindfish plays wherever the
harness plays::

    rc-bot-match protocol/reconchess/blindfish_player.py reconchess.bots.trout_bot
    rc-connect protocol/reconchess/blindfish_player.py --username NAME

Environment:

BLINDFISH_ENGINE   the engine program (default: ``blindfish`` on PATH)
BLINDFISH_ARGS     its arguments, split like a shell would (default: ``engine``)
BLINDFISH_OPTIONS  engine options as ``name=value,name=value``, e.g.
                   ``sampler=exact,sense=voi`` or ``bot=random`` (each is sent
                   with setoption; the engine lists its options on start-up)
BLINDFISH_LOG      a file to append the engine's info lines to (belief size,
                   entropy, evaluations); unset: they are dropped
BLINDFISH_TIMEOUT  seconds to wait for the engine to start or to acknowledge a
                   notification (default 30)

Any engine that speaks rbcp can be played this way, not only Blindfish.
A failing engine (it dies, breaks the protocol or does not answer before its
clock runs out) is killed and the callback raises BlindfishEngineError, which
the harness reports as an error (rc-connect then error-resigns the game).
"""

import atexit
import os
import queue
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
from typing import List, Optional, Tuple

import chess
from reconchess import Color, GameHistory, Player, Square, WinReason

PROTOCOL_VERSION = 1

# Extra seconds allowed for a choose request beyond the clock: the engine
# bounds its own thinking by the clock; this only absorbs pipe latency before
# the bridge gives up on an engine that ignores its clock.
CHOOSE_GRACE = 1.0


class BlindfishEngineError(RuntimeError):
    """The engine failed: it died, broke the protocol, or did not answer in time."""


def _env_float(name: str, default: float) -> float:
    try:
        return float(os.environ.get(name, default))
    except ValueError:
        return default


def _parse_options(text: str) -> List[Tuple[str, str]]:
    """Splits ``a=1,b=2`` into [("a", "1"), ("b", "2")]."""
    options = []
    for item in text.split(','):
        item = item.strip()
        if not item:
            continue
        name, sep, value = item.partition('=')
        if not sep or not name.strip():
            raise ValueError('BLINDFISH_OPTIONS: {!r} is not name=value'.format(item))
        options.append((name.strip(), value.strip()))
    return options


def _square(square: Optional[int]) -> str:
    return '-' if square is None else chess.square_name(square)


def _move(move: Optional[chess.Move]) -> str:
    return '0000' if move is None else move.uci()


class _Engine:
    """One engine process and the lines it sends."""

    def __init__(self, argv: List[str], log_path: Optional[str]):
        self.argv = argv
        self.replies = queue.Queue()
        self._log = open(log_path, 'a', buffering=1) if log_path else None
        try:
            # A session of its own: Ctrl-C in the terminal goes to the harness,
            # which decides what happens to the game; kill() ends the whole group.
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         bufsize=1, universal_newlines=True, encoding='utf-8',
                                         start_new_session=True)
        except OSError as e:
            raise BlindfishEngineError('cannot start the engine {}: {}'.format(argv, e)) from e
        self._reader = threading.Thread(target=self._read, name='blindfish-engine-reader', daemon=True)
        self._reader.start()
        self.name = argv[0]

    def _read(self):
        try:
            for line in self.proc.stdout:
                line = line.rstrip('\r\n')
                if line == 'info' or line.startswith('info '):
                    if self._log:
                        self._log.write('{:.3f} {}\n'.format(time.time(), line[5:]))
                    continue
                self.replies.put(line)
        except (OSError, ValueError):
            pass
        finally:
            self.replies.put(None)  # EOF

    def send(self, line: str):
        try:
            self.proc.stdin.write(line + '\n')
            self.proc.stdin.flush()
        except (OSError, ValueError) as e:
            self.kill()
            raise BlindfishEngineError('the engine is gone (writing {!r}: {})'.format(line.split(' ')[0], e)) from e

    def reply(self, timeout: float, what: str) -> str:
        try:
            line = self.replies.get(timeout=max(timeout, 0.001))
        except queue.Empty:
            self.kill()
            raise BlindfishEngineError('the engine did not answer {} within {:.1f} s'.format(what, timeout))
        if line is None:
            self.kill()
            raise BlindfishEngineError('the engine exited while we waited for the answer to {}'.format(what))
        return line

    def request(self, line: str, timeout: float) -> str:
        """Sends a request and returns the final reply; an error reply raises."""
        what = line.split(' ', 1)[0]
        self.send(line)
        reply = self.reply(timeout, what)
        if reply == 'error' or reply.startswith('error '):
            raise BlindfishEngineError('the engine rejected {}: {}'.format(what, reply[6:]))
        return reply

    def expect_ok(self, line: str, timeout: float):
        reply = self.request(line, timeout)
        if reply != 'ok':
            self.kill()
            raise BlindfishEngineError('protocol violation: want ok to {}, got {!r}'.format(line.split(' ')[0], reply))

    def handshake(self, options: List[Tuple[str, str]], timeout: float):
        deadline = time.monotonic() + timeout
        self.send('rbcp {}'.format(PROTOCOL_VERSION))
        while True:
            reply = self.reply(deadline - time.monotonic(), 'rbcp')
            if reply.startswith('id name '):
                self.name = reply[len('id name '):]
            elif reply.startswith('id ') or reply.startswith('option '):
                continue
            elif reply == 'rbcpok {}'.format(PROTOCOL_VERSION):
                break
            else:
                self.kill()
                raise BlindfishEngineError('bad handshake from {}: {!r}'.format(self.argv[0], reply))
        for name, value in options:
            reply = self.request('setoption name {} value {}'.format(name, value), deadline - time.monotonic())
            if reply != 'ok':
                self.kill()
                raise BlindfishEngineError('want ok to setoption, got {!r}'.format(reply))
        if self.request('isready', deadline - time.monotonic()) != 'readyok':
            self.kill()
            raise BlindfishEngineError('want readyok')

    def quit(self, timeout: float):
        try:
            self.send('quit')
            self.proc.stdin.close()
        except (BlindfishEngineError, OSError, ValueError):
            pass
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            pass
        self.kill()

    def kill(self):
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except OSError:
                self.proc.kill()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        if self._log:
            self._log.close()
            self._log = None


# Engines still running when the interpreter exits (a crashed harness) are killed.
_live_engines = set()


@atexit.register
def _kill_live_engines():
    for engine in list(_live_engines):
        engine.kill()


class Blindfish(Player):
    """A reconchess Player played by an rbcp engine, Blindfish by default."""

    def __init__(self):
        program = os.environ.get('BLINDFISH_ENGINE', 'blindfish')
        path = shutil.which(program) or program
        args = shlex.split(os.environ.get('BLINDFISH_ARGS', 'engine'))
        self._argv = [path] + args
        self._options = _parse_options(os.environ.get('BLINDFISH_OPTIONS', ''))
        self._log_path = os.environ.get('BLINDFISH_LOG') or None
        self._timeout = _env_float('BLINDFISH_TIMEOUT', 30.0)
        self._engine = None  # type: Optional[_Engine]
        self._seconds_left = self._timeout

    def _running(self) -> _Engine:
        if self._engine is None:
            raise BlindfishEngineError('the engine is not running')
        return self._engine

    def _notify(self, line: str):
        # A notification may take as long as the clock allows (a belief update).
        self._running().expect_ok(line, max(self._seconds_left, 0) + self._timeout)

    def handle_game_start(self, color: Color, board: chess.Board, opponent_name: str):
        if self._engine is not None:  # a previous game that never ended
            self._engine.kill()
            _live_engines.discard(self._engine)
        self._engine = _Engine(self._argv, self._log_path)
        _live_engines.add(self._engine)
        self._engine.handshake(self._options, self._timeout)
        self._engine.expect_ok('newgame color {} fen {} opponent {}'.format(
            'white' if color == chess.WHITE else 'black', board.fen(), opponent_name or '?'), self._timeout)

    def handle_opponent_move_result(self, captured_my_piece: bool, capture_square: Optional[Square]):
        self._notify('opponentmove capture {}'.format(_square(capture_square if captured_my_piece else None)))

    def choose_sense(self, sense_actions: List[Square], move_actions: List[chess.Move],
                     seconds_left: float) -> Optional[Square]:
        self._seconds_left = seconds_left
        line = 'choosesense time {:.3f}'.format(seconds_left)
        if sorted(sense_actions) != list(chess.SQUARES):
            line += ' senses' + ''.join(' ' + chess.square_name(s) for s in sense_actions)
        line += ' moves' + ''.join(' ' + m.uci() for m in move_actions)
        reply = self._running().request(line, max(seconds_left, 0) + CHOOSE_GRACE)
        if reply == 'sense pass':
            return None
        if not reply.startswith('sense '):
            self._running().kill()
            raise BlindfishEngineError('protocol violation: want a sense, got {!r}'.format(reply))
        try:
            square = chess.parse_square(reply[len('sense '):])
        except ValueError:
            self._running().kill()
            raise BlindfishEngineError('protocol violation: bad square in {!r}'.format(reply))
        if square not in sense_actions:
            # The harness would stop the game with an error; a pass is harmless.
            print('blindfish: the engine chose sense {} outside the sense actions; passing'.format(reply[6:]),
                  file=sys.stderr)
            return None
        return square

    def handle_sense_result(self, sense_result: List[Tuple[Square, Optional[chess.Piece]]]):
        self._notify('senseresult' + ''.join(
            ' {}:{}'.format(chess.square_name(s), p.symbol() if p is not None else '-') for s, p in sense_result))

    def choose_move(self, move_actions: List[chess.Move], seconds_left: float) -> Optional[chess.Move]:
        self._seconds_left = seconds_left
        line = 'choosemove time {:.3f} moves'.format(seconds_left) + ''.join(' ' + m.uci() for m in move_actions)
        reply = self._running().request(line, max(seconds_left, 0) + CHOOSE_GRACE)
        if not reply.startswith('move '):
            self._running().kill()
            raise BlindfishEngineError('protocol violation: want a move, got {!r}'.format(reply))
        uci = reply[len('move '):]
        if uci in ('pass', '0000'):
            return None
        by_uci = {m.uci(): m for m in move_actions}
        # A bare promotion is a queen, as the harness reads it.
        move = by_uci.get(uci) or by_uci.get(uci + 'q')
        if move is None:
            # The harness would stop the game with an error; a pass is harmless.
            print('blindfish: the engine chose {} outside the move actions; passing'.format(uci), file=sys.stderr)
        return move

    def handle_move_result(self, requested_move: Optional[chess.Move], taken_move: Optional[chess.Move],
                           captured_opponent_piece: bool, capture_square: Optional[Square]):
        self._notify('moveresult requested {} taken {} capture {}'.format(
            _move(requested_move), _move(taken_move), _square(capture_square if captured_opponent_piece else None)))

    def handle_game_end(self, winner_color: Optional[Color], win_reason: Optional[WinReason],
                        game_history: GameHistory):
        engine, self._engine = self._engine, None
        if engine is None:
            return
        try:
            if engine.proc.poll() is None:
                winner = 'none' if winner_color is None else ('white' if winner_color == chess.WHITE else 'black')
                reason = 'none' if win_reason is None else win_reason.name
                engine.expect_ok('gameend winner {} reason {}'.format(winner, reason), self._timeout)
        finally:
            engine.quit(5.0)
            _live_engines.discard(engine)


def get_player():
    """The Player class of this file, for load_player."""
    return Blindfish
