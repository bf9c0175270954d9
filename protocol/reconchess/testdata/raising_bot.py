"""A bot for rbcp_host.py's tests whose choose_move raises; written for them.

Importing TinyBot gives this file two player classes, so it names its own
with get_player, as the harness asks.
"""

from tiny_bot import TinyBot


class RaisingBot(TinyBot):
    def choose_move(self, move_actions, seconds_left):
        return {}['no such key: raised on purpose']


def get_player():
    return RaisingBot
