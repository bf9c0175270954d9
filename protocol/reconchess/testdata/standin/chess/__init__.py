"""Stand-in for the python-chess package, for the bridge's tests only.

It has just the names that blindfish_player.py and drive_bridge.py use,
written for this repository from python-chess's documented behaviour:
squares are the integers 0 (a1) to 63 (h8), rank after rank; colours are
booleans (WHITE is True); moves print in UCI notation, a null move as 0000.
The board keeps the FEN it was made from and knows no rules: in these tests
the rules are the Go referee's.
"""

WHITE = True
BLACK = False

PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = 1, 2, 3, 4, 5, 6
_LETTERS = ' pnbrqk'  # index = piece type

_FILES = 'abcdefgh'
_RANKS = '12345678'
_NAMES = [f + r for r in _RANKS for f in _FILES]

SQUARES = list(range(64))

STARTING_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'


def square_name(square):
    """'e4' for square 28."""
    return _NAMES[square]


def parse_square(name):
    """28 for 'e4'; ValueError for anything that is not a square name."""
    if name not in _NAMES:
        raise ValueError('not a square: {!r}'.format(name))
    return _NAMES.index(name)


class Piece:
    """A piece type (PAWN..KING) and a colour."""

    def __init__(self, piece_type, color):
        self.piece_type = piece_type
        self.color = color

    def symbol(self):
        """The FEN letter: upper case for White."""
        letter = _LETTERS[self.piece_type]
        return letter.upper() if self.color == WHITE else letter

    @classmethod
    def from_symbol(cls, symbol):
        kind = _LETTERS.find(symbol.lower())
        if len(symbol) != 1 or kind < 1:
            raise ValueError('not a piece: {!r}'.format(symbol))
        return cls(kind, symbol.isupper())

    def __eq__(self, other):
        return isinstance(other, Piece) and (self.piece_type, self.color) == (other.piece_type, other.color)

    def __hash__(self):
        return hash((self.piece_type, self.color))

    def __repr__(self):
        return 'Piece.from_symbol({!r})'.format(self.symbol())


class Move:
    """A move from one square to another, with an optional promotion type."""

    def __init__(self, from_square, to_square, promotion=None):
        self.from_square = from_square
        self.to_square = to_square
        self.promotion = promotion

    def uci(self):
        if not self:
            return '0000'
        text = square_name(self.from_square) + square_name(self.to_square)
        if self.promotion:
            text += _LETTERS[self.promotion]
        return text

    def __bool__(self):
        # The null move is the only false one.
        return bool(self.from_square or self.to_square or self.promotion)

    @classmethod
    def null(cls):
        return cls(0, 0)

    @classmethod
    def from_uci(cls, text):
        if text == '0000':
            return cls.null()
        if len(text) not in (4, 5):
            raise ValueError('not a UCI move: {!r}'.format(text))
        promotion = None
        if len(text) == 5:
            promotion = _LETTERS.find(text[4])
            if promotion < KNIGHT or promotion > QUEEN:
                raise ValueError('bad promotion in {!r}'.format(text))
        return cls(parse_square(text[:2]), parse_square(text[2:4]), promotion)

    def __eq__(self, other):
        return isinstance(other, Move) and self.uci() == other.uci()

    def __hash__(self):
        return hash(self.uci())

    def __repr__(self):
        return 'Move.from_uci({!r})'.format(self.uci())

    def __str__(self):
        return self.uci()


class Board:
    """A position given by FEN. Only fen() is of use: there are no rules here."""

    def __init__(self, fen=STARTING_FEN):
        self._fen = fen

    def fen(self):
        return self._fen
