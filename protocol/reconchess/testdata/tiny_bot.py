"""A tiny reconchess bot for rbcp_host.py's tests, written for them.

It senses the centre (as an integer that is not an int, as numpy's are) and
plays the first move it is offered, and prints to
standard output in every callback, lines that look like rbcp replies among
them, to show that a bot's prints never reach the protocol. It runs with the
harness (a reconchess Player) or on the host's stand-in types without it.
"""

try:
    from reconchess import Player
except ImportError:  # the host on the standard library alone
    Player = object

D4 = 27


class SquareNumber:
    """An integer that is not an int, as numpy's are: the harness takes it."""

    def __init__(self, n):
        self.n = n

    def __index__(self):
        return self.n


class TinyBot(Player):
    def handle_game_start(self, color, board, opponent_name):
        self.color = color
        print('ok')
        print('tiny bot: playing', 'white' if color else 'black', 'against', opponent_name)
        if board.piece_at(4).symbol() != 'K':
            raise AssertionError('no white king on e1: {!r}'.format(board))

    def handle_opponent_move_result(self, captured_my_piece, capture_square):
        if captured_my_piece != (capture_square is not None):
            raise AssertionError('capture flag and square disagree')
        print('readyok')

    def choose_sense(self, sense_actions, move_actions, seconds_left):
        print('sense a1')
        if not isinstance(seconds_left, float) or len(sense_actions) != 64:
            raise AssertionError('choose_sense got {!r}, {} squares'.format(seconds_left, len(sense_actions)))
        return SquareNumber(D4)

    def handle_sense_result(self, sense_result):
        print('tiny bot: sensed', [(s, p.symbol() if p else None) for s, p in sense_result])

    def choose_move(self, move_actions, seconds_left):
        print('move pass')
        for move in move_actions:
            if not 0 <= move.from_square < 64 or len(move.uci()) not in (4, 5):
                raise AssertionError('strange move {!r}'.format(move))
            return move
        return None

    def handle_move_result(self, requested_move, taken_move, captured_opponent_piece, capture_square):
        print('tiny bot: moved', requested_move, taken_move, captured_opponent_piece, capture_square)

    def handle_game_end(self, winner_color, win_reason, game_history):
        print('tiny bot: game over,', winner_color, win_reason)
