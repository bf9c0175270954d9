#!/usr/bin/env python3
"""Play random Kriegspiel games with the reference referee and dump every
question and answer as JSON lines, one game a line.

The reference referee is the Python package `kriegspiel` (repository
Kriegspiel/ks-game) with its dependency python-chess; neither is part of
this repository. Put both on PYTHONPATH:

    PYTHONPATH=/path/to/ks-game:/path/to/python-chess \
        python3 scripts/kriegspiel/dump_reference.py --games 300 --seed 1 \
        | gzip -9 > testdata/kriegspiel/reference.jsonl.gz

With --script FILE it asks, instead, the questions of each line of FILE
({"ruleset", "fen", "asks": ["e2e4", "any", ...]}, plus "seed" and "name"
copied to the output): the hand-made cases of kriegspiel/game_test.go, which
`BLINDFISH_KRIEGSPIEL_WRITE_SCRIPT=FILE go test -run TestWriteHandmadeScript
./kriegspiel/` writes.

The Go test kriegspiel/conformance_test.go replays each game's questions
through our referee and compares the answers field by field. The format of
a line (written by this script only):

    {"ruleset": "wild16", "seed": 7, "fen": START_FEN,
     "questions": N, "pawn_tries": T or null,
     "events": ["QUESTION MAIN CAPTURE KIND SPECIAL CHECK1 CHECK2 TRIES HEARD N", ...],
     "over": true|false, "final_fen": FEN}

where QUESTION is a UCI move or "any"; MAIN, SPECIAL, CHECK1, CHECK2 are
the reference's enum names; CAPTURE a square name; KIND "PAWN" or "PIECE";
TRIES the next player's announced pawn tries; "-" stands for none. HEARD
is two digits: whether the answer went on the asker's scoresheet and on the
opponent's. N is the number of questions the player to move may ask after
the answer ("questions" before the first one). FENs show the en-passant
square after every double push, as rbc's do.

The players are random but lean on what the referee knows, so that games
are varied and end: most questions come from the referee's list of possible
questions, some are junk (impossible moves, "any?" where it is not allowed,
repeats), and the move that ends a turn is a legal one that prefers mates,
captures and checks.
"""

import argparse
import json
import random
import sys

import chess
from kriegspiel import KriegspielGame, KriegspielMove, QuestionAnnouncement
from kriegspiel.move import MainAnnouncement

RULESETS = [("wild16", 6), ("berkeley", 3), ("berkeley_any", 4)]

# Starting positions and their weights: the standard start most of the
# time, then positions rich in what the referee must get right.
STARTS = [
    (chess.STARTING_FEN, 60),
    # Kiwipete: castling both ways, pins, checks.
    ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 6),
    # En passant along a rank with the king behind.
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5),
    ("8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1", 3),
    ("3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1", 3),
    # Promotions, with and without capture.
    ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 4),
    ("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", 5),
    ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 4),
    # Castling through and out of attacked squares.
    ("r3k2r/8/3Q4/8/8/5q2/8/R3K2R b KQkq - 0 1", 4),
    ("r3k2r/1b4bq/8/8/8/8/7B/R3K2R w KQkq - 0 1", 4),
    # Mates and stalemates with few men.
    ("8/8/8/4k3/8/8/8/KQ6 w - - 0 1", 4),
    ("8/8/8/4k3/8/8/8/KR6 w - - 0 1", 3),
    ("k7/8/1Q6/8/8/8/8/7K w - - 0 1", 3),
    ("8/k1P5/8/1K6/8/8/8/8 w - - 0 1", 3),
    ("4k3/8/8/8/8/8/4n3/4K2B w - - 0 1", 2),
    # Discovered and double checks: a knight or bishop leaves a line.
    ("4k3/8/8/4N3/8/8/4R3/K7 w - - 0 1", 3),
    ("7k/8/8/4N3/8/8/8/B3K3 w - - 0 1", 3),
    ("4k3/8/8/8/8/8/4B3/K3R3 w - - 0 1", 3),
    ("r3k3/8/8/8/3n4/8/8/4K3 b - - 0 1", 2),
    # Locked pawns, kings apart: the half-move limit (2000) ends it.
    ("7k/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/8/K7 w - - 1980 1100", 3),
    ("4k3/8/8/8/8/8/8/R3K2R w KQ - 1990 1000", 3),
]


def weighted(rng, pairs):
    total = sum(w for _, w in pairs)
    x = rng.uniform(0, total)
    for item, w in pairs:
        x -= w
        if x <= 0:
            return item
    return pairs[-1][0]


def new_game(ruleset, fen):
    game = KriegspielGame(ruleset=ruleset)
    if fen != chess.STARTING_FEN:
        # The reference has no public way to start from a position; set its
        # board and recompute the questions, as its own tests do.
        game._board = chess.Board(fen)
        game._generate_possible_to_ask_list()
    return game


def scoresheet_size(sheet, own):
    turns = sheet.moves_own if own else sheet.moves_opponent
    return sum(len(t) for t in turns)


def sheets(game, color):
    return game._whites_scoresheet if color == chess.WHITE else game._blacks_scoresheet


def junk_question(rng, board):
    """A question the player might well ask but the referee may refuse."""
    us = board.turn
    own = [sq for sq in chess.SQUARES if board.color_at(sq) == us]
    kind = rng.random()
    if kind < 0.2:
        return KriegspielMove(QuestionAnnouncement.ASK_ANY)
    frm = rng.choice(own)
    to = rng.choice([sq for sq in chess.SQUARES if sq != frm])
    promotion = None
    if board.piece_type_at(frm) == chess.PAWN and chess.square_rank(to) in (0, 7):
        promotion = rng.choice([None, chess.QUEEN, chess.KNIGHT])
    elif kind < 0.25:
        promotion = chess.QUEEN
    return KriegspielMove(QuestionAnnouncement.COMMON, chess.Move(frm, to, promotion))


def legal_choice(rng, game):
    """A legal move the referee will accept now, preferring mates, captures, checks."""
    board = game._board
    moves = [m for m in board.legal_moves
             if game.is_possible_to_ask(KriegspielMove(QuestionAnnouncement.COMMON, m))]
    if not moves:
        return None
    mates, captures, checks = [], [], []
    for m in moves:
        if board.is_capture(m):
            captures.append(m)
        board.push(m)
        if board.is_checkmate():
            mates.append(m)
        elif board.is_check():
            checks.append(m)
        board.pop()
    if mates and rng.random() < 0.8:
        return rng.choice(mates)
    if captures and rng.random() < 0.5:
        return rng.choice(captures)
    if checks and rng.random() < 0.3:
        return rng.choice(checks)
    return rng.choice(moves)


def name(value):
    return "-" if value is None else value.name


def ask(game, question):
    """Ask one question and return the event line of the dump."""
    mover = game._board.turn
    own_before = scoresheet_size(sheets(game, mover), True)
    opp_before = scoresheet_size(sheets(game, not mover), False)
    answer = game.ask_for(question)
    heard = "%d%d" % (
        scoresheet_size(sheets(game, mover), True) - own_before,
        scoresheet_size(sheets(game, not mover), False) - opp_before,
    )
    capture = answer.capture_at_square
    tries = answer.next_turn_pawn_tries
    q = "any" if question.question_type == QuestionAnnouncement.ASK_ANY else question.chess_move.uci()
    return " ".join([
        q,
        answer.main_announcement.name,
        "-" if capture is None else chess.square_name(capture),
        name(answer.captured_piece_announcement),
        answer.special_announcement.name,
        name(answer.check_1),
        name(answer.check_2),
        "-" if tries is None else str(tries),
        heard,
        str(len(game.possible_to_ask)),
    ])


def play(seed, max_plies):
    rng = random.Random(seed)
    ruleset = weighted(rng, RULESETS)
    fen = weighted(rng, STARTS)
    game = new_game(ruleset, fen)
    out = {
        "ruleset": ruleset,
        "seed": seed,
        "fen": game._board.fen(en_passant="fen"),
        "questions": len(game.possible_to_ask),
        "pawn_tries": game.current_turn_pawn_tries,
        "events": [],
    }
    plies = 0
    asked = []  # this turn's questions, for repeats
    while not game.game_over and plies < max_plies:
        board = game._board
        r = rng.random()
        question = None
        if len(asked) >= 30 or r < 0.35:
            m = legal_choice(rng, game)
            if m is not None:
                question = KriegspielMove(QuestionAnnouncement.COMMON, m)
        if question is None:
            if r < 0.80 and game.possible_to_ask:
                question = rng.choice(sorted(game.possible_to_ask))
            elif r < 0.88 and asked:
                question = rng.choice(asked)
            else:
                question = junk_question(rng, board)
        event = ask(game, question)
        out["events"].append(event)
        main = event.split()[1]
        if main in ("REGULAR_MOVE", "CAPTURE_DONE"):
            plies += 1
            asked = []
        elif main != MainAnnouncement.IMPOSSIBLE_TO_ASK.name:
            asked.append(question)
    out["over"] = game.game_over
    out["final_fen"] = game._board.fen(en_passant="fen")
    return out


def parse_question(text):
    if text == "any":
        return KriegspielMove(QuestionAnnouncement.ASK_ANY)
    return KriegspielMove(QuestionAnnouncement.COMMON, chess.Move.from_uci(text))


def play_script(case):
    """Ask the questions of one scripted case: {"ruleset", "fen", "asks"}."""
    game = new_game(case["ruleset"], case["fen"])
    out = {
        "ruleset": case["ruleset"],
        "seed": case.get("seed", 0),
        "name": case.get("name", ""),
        "fen": game._board.fen(en_passant="fen"),
        "questions": len(game.possible_to_ask),
        "pawn_tries": game.current_turn_pawn_tries,
        "events": [],
    }
    for text in case["asks"]:
        out["events"].append(ask(game, parse_question(text)))
    out["over"] = game.game_over
    out["final_fen"] = game._board.fen(en_passant="fen")
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game; game i uses seed+i")
    parser.add_argument("--max-plies", type=int, default=300, help="stop a game unfinished after this many moves")
    parser.add_argument("--script", metavar="FILE",
                        help="instead of random games, ask the questions of each JSON line of FILE: "
                             '{"ruleset": R, "fen": F, "asks": ["e2e4", "any", ...]}')
    args = parser.parse_args()
    if args.script:
        with open(args.script) as f:
            for line in f:
                if line.strip():
                    sys.stdout.write(json.dumps(play_script(json.loads(line)), separators=(",", ":")) + "\n")
        return
    for i in range(args.games):
        sys.stdout.write(json.dumps(play(args.seed + i, args.max_plies), separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
