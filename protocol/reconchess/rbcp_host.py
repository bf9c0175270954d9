"""A reconchess bot as an rbcp engine.

This is the other direction of blindfish_player.py: it speaks rbcp, the line
protocol of docs/protocol.md, as an ENGINE on stdin/stdout, and plays a
reconchess ``Player`` that it loads in its own process, so that Blindfish's
tools (``blindfish match --black py:BOT``) can play any reconchess bot::

    python3 rbcp_host.py my_bot.py                  # a bot file
    python3 rbcp_host.py reconchess.bots.trout_bot  # a module

The bot is loaded as the reference harness loads it (its ``load_player``):
the Player subclass in the file or module, or the class its ``get_player()``
returns when there are several. Each rbcp request becomes the Player call
the harness would make, with the same argument types (python-chess objects),
and ``newgame`` makes a fresh Player. Real bots need the harness
(``pip install reconchess``, which brings python-chess).

Without python-chess the host runs on the standard library alone and hands
the bot small stand-in types of its own: colours are booleans, squares the
integers 0 (a1) to 63 (h8), moves objects with ``from_square``,
``to_square``, ``promotion`` and ``uci()``, pieces objects with
``piece_type``, ``color`` and ``symbol()``, and the starting board an object
read from its FEN (``piece_at``, ``turn``, ``fen()``); the game history at
the end is None. Without reconchess a bot may subclass ``object``: the class
with the Player callbacks is taken. RBCP_HOST_STANDIN=1 forces the stand-ins
(tests).

The protocol owns the process's standard output: the bot's prints (and any
child process's) go to standard error. A callback that raises prints its
traceback on standard error and answers ``error player: ...``, which the
harness side counts as the bot's failure. One process plays one game; the
host exits at ``quit`` or at the end of its input, whatever threads the bot
left running.
"""

import importlib
import inspect
import operator
import os
import random
import re
import sys
import traceback

PROTOCOL_VERSION = 1
SEED_MAX = 2147483647

# --- types -----------------------------------------------------------------

_FILES = 'abcdefgh'
_SQUARE_NAMES = [f + r for r in '12345678' for f in _FILES]
_PIECE_LETTERS = ' pnbrqk'  # index: piece type, PAWN (1) to KING (6)


class StandinPiece:
    """A piece: a type from 1 (pawn) to 6 (king) and a colour (True: White)."""

    def __init__(self, piece_type, color):
        self.piece_type = piece_type
        self.color = color

    @classmethod
    def from_symbol(cls, symbol):
        return cls(_PIECE_LETTERS.index(symbol.lower()), symbol.isupper())

    def symbol(self):
        letter = _PIECE_LETTERS[self.piece_type]
        return letter.upper() if self.color else letter

    def __eq__(self, other):
        return isinstance(other, StandinPiece) and (self.piece_type, self.color) == (other.piece_type, other.color)

    def __hash__(self):
        return hash((self.piece_type, self.color))

    def __repr__(self):
        return 'Piece.from_symbol({!r})'.format(self.symbol())

    __str__ = symbol


class StandinMove:
    """A move between two squares (0-63), with an optional promotion type."""

    def __init__(self, from_square, to_square, promotion=None):
        self.from_square = from_square
        self.to_square = to_square
        self.promotion = promotion

    @classmethod
    def from_uci(cls, text):
        if text == '0000':
            return cls(0, 0)
        if len(text) not in (4, 5) or text[:2] not in _SQUARE_NAMES or text[2:4] not in _SQUARE_NAMES:
            raise ValueError('not a UCI move: {!r}'.format(text))
        promotion = _PIECE_LETTERS.index(text[4]) if len(text) == 5 and text[4] in 'nbrq' else None
        if len(text) == 5 and promotion is None:
            raise ValueError('not a UCI move: {!r}'.format(text))
        return cls(_SQUARE_NAMES.index(text[:2]), _SQUARE_NAMES.index(text[2:4]), promotion)

    def uci(self):
        if not self:
            return '0000'
        text = _SQUARE_NAMES[self.from_square] + _SQUARE_NAMES[self.to_square]
        return text + _PIECE_LETTERS[self.promotion] if self.promotion else text

    def __bool__(self):
        return self.from_square != self.to_square or self.promotion is not None

    def __eq__(self, other):
        return isinstance(other, StandinMove) and (self.from_square, self.to_square, self.promotion) == (
            other.from_square, other.to_square, other.promotion)

    def __hash__(self):
        return hash((self.from_square, self.to_square, self.promotion))

    def __repr__(self):
        return 'Move.from_uci({!r})'.format(self.uci())

    __str__ = uci


class StandinBoard:
    """A position read from a FEN: what a bot needs to start a game with."""

    def __init__(self, fen):
        fields = fen.split()
        if len(fields) != 6:
            raise ValueError('not a FEN: {!r}'.format(fen))
        self._pieces = {}
        rows = fields[0].split('/')
        if len(rows) != 8:
            raise ValueError('not a FEN: {!r}'.format(fen))
        for i, row in enumerate(rows):
            file = 0
            for c in row:
                if c.isdigit():
                    file += int(c)
                else:
                    self._pieces[8 * (7 - i) + file] = StandinPiece.from_symbol(c)
                    file += 1
            if file != 8:
                raise ValueError('not a FEN: {!r}'.format(fen))
        self.turn = fields[1] == 'w'
        self._rest = fields[2:4]
        self.halfmove_clock = int(fields[4])
        self.fullmove_number = int(fields[5])

    def piece_at(self, square):
        return self._pieces.get(square)

    def piece_map(self):
        return dict(self._pieces)

    def set_piece_at(self, square, piece):
        if piece is None:
            self._pieces.pop(square, None)
        else:
            self._pieces[square] = piece

    def remove_piece_at(self, square):
        return self._pieces.pop(square, None)

    def copy(self):
        return StandinBoard(self.fen())

    def board_fen(self):
        rows = []
        for rank in range(7, -1, -1):
            row, empty = '', 0
            for file in range(8):
                piece = self._pieces.get(8 * rank + file)
                if piece is None:
                    empty += 1
                    continue
                if empty:
                    row, empty = row + str(empty), 0
                row += piece.symbol()
            rows.append(row + (str(empty) if empty else ''))
        return '/'.join(rows)

    def fen(self):
        return ' '.join([self.board_fen(), 'w' if self.turn else 'b'] + self._rest +
                        [str(self.halfmove_clock), str(self.fullmove_number)])

    def __repr__(self):
        return 'Board({!r})'.format(self.fen())


class Types:
    """The types handed to the bot: python-chess's and the harness's where
    they can be imported, the stand-ins otherwise."""

    def __init__(self, standin):
        self.chess = None
        self.reconchess = None
        if not standin:
            try:
                import chess
                self.chess = chess
            except ImportError:
                pass
            try:
                import reconchess
                self.reconchess = reconchess
            except ImportError:
                pass

    def square(self, text):
        if text == '-':
            return None
        if text not in _SQUARE_NAMES:
            raise ValueError('not a square: {!r}'.format(text))
        return _SQUARE_NAMES.index(text)

    def move(self, text):
        """A move, or None for 0000 (a pass, or no move taken)."""
        if text == '0000':
            return None
        if self.chess:
            return self.chess.Move.from_uci(text)
        return StandinMove.from_uci(text)

    def piece(self, symbol):
        if symbol == '-':
            return None
        if self.chess:
            return self.chess.Piece.from_symbol(symbol)
        return StandinPiece.from_symbol(symbol)

    def board(self, fen):
        if self.chess:
            return self.chess.Board(fen)
        return StandinBoard(fen)

    def win_reason(self, name):
        """The harness's WinReason of that name; its name when there is no
        harness; None for none and for reasons the harness lacks."""
        if name == 'none':
            return None
        if self.reconchess:
            return getattr(self.reconchess.WinReason, name, None)
        return name

    def history(self):
        """What handle_game_end gets as the game's history: rbcp does not send
        it (the referee keeps the record), so an empty one, or None."""
        if self.reconchess:
            return self.reconchess.GameHistory()
        return None


# --- loading the bot --------------------------------------------------------

_CALLBACKS = ('handle_game_start', 'handle_opponent_move_result', 'choose_sense', 'handle_sense_result',
              'choose_move', 'handle_move_result', 'handle_game_end')


def load_player(source, types):
    """Returns the bot's player class, found as the harness finds it: the one
    Player subclass of the file or module, or what its get_player() returns
    when there are several. Without the harness, Player subclasses are the
    classes that have every Player callback."""
    if types.reconchess:
        return types.reconchess.load_player(source)[1]
    if os.path.exists(source):
        path = os.path.abspath(source)
        sys.path.insert(0, os.path.dirname(path))
        name = os.path.splitext(os.path.basename(path))[0]
    else:
        name = source
    module = importlib.import_module(name)
    players = [cls for _, cls in inspect.getmembers(module, inspect.isclass)
               if all(callable(getattr(cls, c, None)) for c in _CALLBACKS)]
    get_player = getattr(module, 'get_player', None)
    if not players:
        raise RuntimeError('{} has no player class (one with the methods {})'.format(source, ', '.join(_CALLBACKS)))
    if len(players) == 1:
        return players[0]
    if not inspect.isfunction(get_player):
        raise RuntimeError('{} has several player classes ({}) and no get_player function'.format(
            source, ', '.join(c.__name__ for c in players)))
    return get_player()


# --- the protocol -------------------------------------------------------------

_NEWGAME = re.compile(r'^color\s+(white|black)\s+fen\s+(.+?)\s+opponent(?:\s+(.*))?$')


class ProtocolError(Exception):
    """A request that does not parse or does not fit: answered with error."""


class PlayerError(Exception):
    """The bot raised: answered with error player."""


class Host:
    """The engine side of rbcp around one player class."""

    def __init__(self, player_cls, types, out):
        self.player_cls = player_cls
        self.types = types
        self.out = out
        self.seed = 0
        self.greeted = False
        self.player = None  # during a game

    def send(self, line):
        self.out.write(line + '\n')
        self.out.flush()

    def call(self, name, *args):
        try:
            return getattr(self.player, name)(*args)
        except Exception as e:
            print('rbcp_host: {}.{} raised:'.format(self.player_cls.__name__, name), file=sys.stderr)
            traceback.print_exc(file=sys.stderr)
            sys.stderr.flush()
            raise PlayerError('{}: {}: {}'.format(name, type(e).__name__, e)) from e

    def handle(self, line):
        """Answers one request; returns False at quit."""
        keyword, _, rest = line.strip().partition(' ')
        rest = rest.strip()
        if keyword == 'quit':
            return False
        if not keyword:
            return True  # an empty line is not a request
        try:
            if keyword == 'rbcp':
                self.hello(rest)
            elif not self.greeted:
                raise ProtocolError('the first request must be rbcp')
            elif keyword == 'isready':
                self.send('readyok')
            elif keyword == 'setoption':
                self.set_option(rest)
            else:
                method = getattr(self, 'req_' + keyword, None)
                if method is None:
                    raise ProtocolError('unknown request {!r}'.format(keyword))
                if keyword != 'newgame' and self.player is None:
                    raise ProtocolError('{} outside a game'.format(keyword))
                self.send(method(rest.split()) if keyword != 'newgame' else method(rest))
        except PlayerError as e:
            self.send('error player: ' + _one_line(str(e)))
        except (ProtocolError, ValueError, IndexError) as e:
            self.send('error ' + _one_line(str(e) or type(e).__name__))
        return True

    def hello(self, rest):
        try:
            version = int(rest)
        except ValueError:
            raise ProtocolError('rbcp wants a version number') from None
        if version < PROTOCOL_VERSION:
            raise ProtocolError('this engine speaks rbcp {}'.format(PROTOCOL_VERSION))
        self.send('id name ' + self.player_cls.__name__)
        self.send('id author {} (hosted by rbcp_host.py)'.format(self.player_cls.__module__))
        self.send('option name seed type spin default 0 min 0 max {}'.format(SEED_MAX))
        self.send('rbcpok {}'.format(PROTOCOL_VERSION))
        self.greeted = True

    def set_option(self, rest):
        m = re.match(r'^name\s+(\S+)\s+value(?:\s+(.*))?$', rest)
        if not m:
            raise ProtocolError('want setoption name NAME value VALUE')
        if self.player is not None:
            raise ProtocolError('options are set between games')
        if m.group(1) != 'seed':
            raise ProtocolError('no option {!r}'.format(m.group(1)))
        try:
            seed = int(m.group(2) or '')
        except ValueError:
            raise ProtocolError('seed wants an integer') from None
        if not 0 <= seed <= SEED_MAX:
            raise ProtocolError('seed out of range')
        self.seed = seed
        self.send('ok')

    def req_newgame(self, rest):
        m = _NEWGAME.match(rest)
        if not m:
            raise ProtocolError('want newgame color COLOR fen FEN opponent NAME')
        color = m.group(1) == 'white'
        board = self.types.board(m.group(2))
        # The bot's random choices follow the match's seed.
        random.seed(self.seed)
        if 'numpy' in sys.modules:
            sys.modules['numpy'].random.seed(self.seed)
        try:
            self.player = self.player_cls()
        except Exception as e:
            print('rbcp_host: {}() raised:'.format(self.player_cls.__name__), file=sys.stderr)
            traceback.print_exc(file=sys.stderr)
            raise PlayerError('{}(): {}: {}'.format(self.player_cls.__name__, type(e).__name__, e)) from e
        self.call('handle_game_start', color, board, m.group(3) or '')
        return 'ok'

    def req_opponentmove(self, f):
        _want(f, 2, 'capture')
        square = self.types.square(f[1])
        self.call('handle_opponent_move_result', square is not None, square)
        return 'ok'

    def req_choosesense(self, f):
        seconds, lists = self._timed(f, ('senses', 'moves'))
        senses = [self.types.square(s) for s in lists.get('senses', _SQUARE_NAMES)]
        moves = [self.types.move(m) for m in lists.get('moves', [])]
        square = self.call('choose_sense', senses, moves, seconds)
        if square is None:
            return 'sense pass'
        try:
            index = operator.index(square)  # numpy's integers too, as the harness takes them
        except TypeError:
            index = -1
        if not 0 <= index < 64:
            raise PlayerError('choose_sense returned {!r}, not a square'.format(square))
        return 'sense ' + _SQUARE_NAMES[index]

    def req_senseresult(self, f):
        result = []
        for item in f:
            square, sep, piece = item.partition(':')
            if not sep:
                raise ProtocolError('want SQUARE:PIECE, got {!r}'.format(item))
            result.append((self.types.square(square), self.types.piece(piece)))
        self.call('handle_sense_result', result)
        return 'ok'

    def req_choosemove(self, f):
        seconds, lists = self._timed(f, ('moves',))
        moves = [self.types.move(m) for m in lists.get('moves', [])]
        move = self.call('choose_move', moves, seconds)
        if move is None or not move:
            return 'move pass'
        uci = getattr(move, 'uci', None)
        if not callable(uci):
            raise PlayerError('choose_move returned {!r}, not a move'.format(move))
        return 'move ' + uci()

    def req_moveresult(self, f):
        _want(f, 6, 'requested', 'taken', 'capture')
        square = self.types.square(f[5])
        self.call('handle_move_result', self.types.move(f[1]), self.types.move(f[3]), square is not None, square)
        return 'ok'

    def req_gameend(self, f):
        _want(f, 4, 'winner', 'reason')
        if f[1] not in ('white', 'black', 'none'):
            raise ProtocolError('winner must be white, black or none')
        winner = None if f[1] == 'none' else f[1] == 'white'
        try:
            self.call('handle_game_end', winner, self.types.win_reason(f[3]), self.types.history())
        finally:
            self.player = None  # the game is over either way
        return 'ok'

    @staticmethod
    def _timed(f, list_names):
        """Reads 'time SECONDS' and then the named lists of a choose request."""
        if len(f) < 2 or f[0] != 'time':
            raise ProtocolError('want time SECONDS')
        seconds = float(f[1])
        lists, current = {}, None
        for word in f[2:]:
            if word in list_names and word not in lists:
                current = lists[word] = []
            elif current is None:
                raise ProtocolError('unexpected {!r}'.format(word))
            else:
                current.append(word)
        return seconds, lists


def _want(f, n, *keys):
    """Checks 'key value key value ...' with the given keys."""
    if len(f) != n or [f[i] for i in range(0, n, 2)] != list(keys):
        raise ProtocolError('want ' + ' '.join(k + ' X' for k in keys))


def _one_line(text):
    """Text fit for a reply: one line, no control characters."""
    return ' '.join(''.join(c if c.isprintable() else ' ' for c in text).split())


def main(argv):
    if len(argv) != 2 or argv[1].startswith('-'):
        print('usage: rbcp_host.py BOT.py|MODULE  (a reconchess bot, served as an rbcp engine)', file=sys.stderr)
        return 2
    # The protocol keeps the real stdin and stdout; the bot, and every process
    # it starts, gets stderr as its stdout and nothing as its stdin.
    proto_in = os.fdopen(os.dup(0), 'r', encoding='utf-8', newline='\n')
    proto_out = os.fdopen(os.dup(1), 'w', encoding='utf-8', newline='\n')
    os.dup2(2, 1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    sys.stdout = sys.stderr

    types = Types(standin=os.environ.get('RBCP_HOST_STANDIN') == '1')
    try:
        player_cls = load_player(argv[1], types)
    except Exception as e:
        traceback.print_exc(file=sys.stderr)
        # Refuse the handshake, so the harness side says why.
        for line in proto_in:
            if line.strip():
                proto_out.write('error cannot load bot {}: {}\n'.format(
                    _one_line(argv[1]), _one_line('{}: {}'.format(type(e).__name__, e))))
                proto_out.flush()
                break
        return 1
    host = Host(player_cls, types, proto_out)
    for line in proto_in:
        if not host.handle(line.rstrip('\r\n')):
            break
    return 0


if __name__ == '__main__':
    code = main(sys.argv)
    sys.stderr.flush()
    # A bot's threads (engines, pools) must not keep the process alive.
    os._exit(code)
