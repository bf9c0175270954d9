"""Stand-in for the reconchess package, for the bridge's tests only.

It has just the names blindfish_player.py imports, written for this
repository from the harness's documented Player API: the seven callbacks a
bot implements, and the types of their arguments (colours are booleans,
squares integers, moves and pieces python-chess objects).
"""

import enum

Color = bool
Square = int


class WinReason(enum.Enum):
    """Why a game ended."""
    KING_CAPTURE = 1
    TIMEOUT = 2
    RESIGN = 3
    TURN_LIMIT = 4
    MOVE_LIMIT = 5


class GameHistory:
    """The record of a game; the bridge passes it on without reading it."""


class Player:
    """The base class of a bot: the harness calls these, in the game's order."""

    def handle_game_start(self, color, board, opponent_name):
        raise NotImplementedError

    def handle_opponent_move_result(self, captured_my_piece, capture_square):
        raise NotImplementedError

    def choose_sense(self, sense_actions, move_actions, seconds_left):
        raise NotImplementedError

    def handle_sense_result(self, sense_result):
        raise NotImplementedError

    def choose_move(self, move_actions, seconds_left):
        raise NotImplementedError

    def handle_move_result(self, requested_move, taken_move, captured_opponent_piece, capture_square):
        raise NotImplementedError

    def handle_game_end(self, winner_color, win_reason, game_history):
        raise NotImplementedError
