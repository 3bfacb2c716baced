"""Positions as text: every decision of a game written out and read back continues the game
exactly; the text reads as a person would write it; ``zsim play --from`` and ``--ask``."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from zsim.cli import main
from zsim.engine_build import ENGINE
from zsim.game import Game
from zsim.position import PositionError
from zsim.rules.lisi import LiSiSeat
from zsim.state import Stage


def play_out(game: Game, seed: int, round_trip: bool, box, rounds: int = 99
             ) -> tuple[Game, int]:
    """Answer every question at random (from ``seed``) until the game ends or ``rounds`` are
    over; with ``round_trip``, the game is replaced at every question by the one its text
    describes."""
    rng = random.Random(seed)
    decision = game.pending()
    questions = 0
    while decision is not None and game.state.round <= rounds:
        if round_trip:
            text = game.to_text()
            game = Game.from_text(text, box)
            again = game.pending()
            assert again is not None and again.kind == decision.kind
            assert again.seat == decision.seat and again.options == decision.options
            assert game.to_text() == text  # read back, written again: the same text
            decision = again
        decision = game.answer(decision.options[rng.randrange(len(decision.options))])
        questions += 1
    return game, questions


def same_game(a: Game, b: Game) -> None:
    ra, rb = a.result(), b.result()
    assert ra.scores == rb.scores and ra.stats == rb.stats and ra.decisions == rb.decisions
    assert (ra.walls, ra.rewards, ra.abilities, ra.tiles) == (rb.walls, rb.rewards, rb.abilities,
                                                              rb.tiles)
    assert ra.start_tiles == rb.start_tiles and ra.log == rb.log


def test_every_decision_of_200_short_games_round_trips_and_continues_identically(box):
    """Short games (2 players, the first round and the first question of the second): played
    with and without a round trip through text at every question, they end up the same, to
    the RNG's state and the result records."""
    total = 0
    for seed in range(200):
        plain, _ = play_out(Game(box, [None, None], seed), seed, False, box, rounds=1)
        tripped, questions = play_out(Game(box, [None, None], seed), seed, True, box, rounds=1)
        assert plain.state.round == 2 and plain.pending() is not None
        assert tripped.to_text() == plain.to_text()
        total += questions
    assert total > 5000


@pytest.mark.parametrize("seats", [3, 4, "solo"])
def test_whole_narrated_games_round_trip_at_every_decision(box, seats):
    def fresh() -> Game:
        if seats == "solo":
            return Game(box, [None, LiSiSeat(2)], 8, narrate=True)
        return Game(box, [None] * seats, 8, narrate=True)

    plain, _ = play_out(fresh(), 3, False, box)
    tripped, questions = play_out(fresh(), 3, True, box)
    same_game(plain, tripped)
    assert plain.log and questions > 80


def position_at(box, seed: int, kind: str, round_: int) -> Game:
    game = Game(box, [None, None], seed)
    rng = random.Random(seed)
    decision = game.pending()
    while decision.kind != kind or game.state.round < round_:
        decision = game.answer(decision.options[rng.randrange(len(decision.options))])
    return game


def test_the_text_says_where_the_game_stands_in_words(box):
    game = position_at(box, 4, "turn", 2)
    data = json.loads(game.to_text())
    assert data["n_players"] == 2 and data["round"] == 2 and data["stage"] == "turns"
    decision = game.pending()
    assert data["turn"] == decision.seat
    assert data["question"]["kind"] == "turn" and data["question"]["seat"] == decision.seat
    assert len(data["question"]["options"]) == len(decision.options)
    assert all(option.startswith(("tuck ", "Court: ", "lay "))
               for option in data["question"]["options"])
    hand = data["hands"][decision.seat]
    assert hand and all(isinstance(card, str) and card.split()[0] in ("Writing", "Currency",
                                                                      "Laws") for card in hand)
    assert len(data["hands"]) == 2 and len(data["decks"]) == 3  # the whole game is written
    assert set(data["players"][0]) >= {"tableau", "officials", "workers", "unrest", "vp"}


def test_the_text_is_the_same_from_either_build(box, tmp_path):
    """Another process, on the other build (pure Python if this one is compiled), writes the
    same text at the same question and continues this one's text to the same end."""
    game = position_at(box, 6, "turn", 3)
    text = game.to_text()
    (tmp_path / "mine.json").write_text(text)
    script = (
        "import json, random, sys\n"
        "from zsim.components import default_box_dir, load_box\n"
        "from zsim.engine_build import ENGINE\n"
        "from zsim.game import Game\n"
        "box = load_box(default_box_dir())\n"
        "game = Game(box, [None, None], 6)\n"
        "rng = random.Random(6)\n"
        "d = game.pending()\n"
        "while d.kind != 'turn' or game.state.round < 3:\n"
        "    d = game.answer(d.options[rng.randrange(len(d.options))])\n"
        f"open({str(tmp_path / 'theirs.json')!r}, 'w').write(game.to_text())\n"
        f"other = Game.from_text(open({str(tmp_path / 'mine.json')!r}).read(), box)\n"
        "other.play([__import__('zsim.strategies.random_bot', fromlist=['x']).RandomStrategy()]"
        " * 2)\n"
        "print(json.dumps(other.result().scores)); print(ENGINE)\n")
    env = dict(os.environ, ZSIM_PURE_PYTHON="0" if ENGINE.startswith("pure") else "1")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=env, check=True)
    assert (tmp_path / "theirs.json").read_text() == text
    scores, engine = done.stdout.strip().splitlines()
    from zsim.strategies.random_bot import RandomStrategy
    here = Game.from_text(text, box)
    here.play([RandomStrategy(), RandomStrategy()])
    assert json.loads(scores) == here.result().scores
    if ENGINE.startswith("compiled"):
        assert engine.startswith("pure")


HAND_WRITTEN = {
    "n_players": 2,
    "seed": 5,
    "round": 3,
    "stage": "turns",
    "step": 0,
    "board": {"court": ["Laws 110"]},
    "players": [
        {"tableau": [["Writing 1", "Writing 2"], [], [], [], []],
         "officials": [[0, 1, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]],
         "workers": [3, 1, 0, 0, 0]},
        {},
    ],
    "hands": [["Writing 3", "Currency 41", "Laws 81"], ["Writing 4", "Currency 42", "Laws 82"]],
}


def test_a_position_written_by_hand_is_played_from_its_fields(box):
    game = Game.from_text(json.dumps(HAND_WRITTEN), box)
    state = game.state
    assert (state.round, state.stage) == (3, Stage.TURNS)
    names = {name: card for card, name in enumerate(game.t.card_name) if name}
    assert state.players[0].tableau[0] == [names["Writing 1"], names["Writing 2"]]
    placed = {names[c] for hand in HAND_WRITTEN["hands"] for c in hand} | {
        names["Laws 110"], names["Writing 1"], names["Writing 2"]}
    assert not placed & {c for deck in state.decks for c in deck}  # taken out of the decks
    decision = game.pending()
    assert decision.kind == "turn" and decision.seat == state.turn_order[0]
    assert {o.card for o in decision.options} == set(state.hands[decision.seat])
    from zsim.strategies.random_bot import RandomStrategy
    result = game.play([RandomStrategy(), RandomStrategy()])
    assert result.decisions > 0


def test_what_the_placed_pieces_decide_is_worked_out_when_left_out(box):
    # a hand-written position gives the pieces on the board; each supply, the table's tokens
    # and whether the next Court card is the game's first follow from them (RULINGS 19: only
    # the first Court card of the game is free)
    from zsim.invariants import violations

    position = json.loads(json.dumps(HAND_WRITTEN))
    position["board"].update({"palace_count": [[1, 0], [0, 0], [0, 0], [0, 0], [0, 0]],
                              "governor_count": [[0, 2], [0, 0], [0, 0], [0, 0], [0, 0]]})
    position["players"][0].update({"tokens": [2, 0, 1], "large": [1, 0, 0], "entrance": 0})
    state = Game.from_text(json.dumps(position), box).state
    rules = box.board.rules
    red, blue = state.players
    assert state.court_free is False  # Laws 110 lies on the Court pile
    assert red.official_supply == [rules.officials_per_type, rules.officials_per_type - 1,
                                   rules.officials_per_type]
    assert (red.palaces, blue.governors) == (rules.palaces - 1, rules.governors - 2)
    assert red.soldiers == rules.soldiers  # none unlocked, none at the Mausoleum
    assert state.supply == [rules.small_tokens[2] - 2, rules.small_tokens[2],
                            rules.small_tokens[2] - 1]
    assert state.large_on_board == [0, 1, 1]
    assert not violations(state, Game.from_text(json.dumps(position), box).t)
    # an empty Court pile: the next card is the first; what the text gives is kept as given
    position["board"] = {"court": []}
    assert Game.from_text(json.dumps(position), box).state.court_free is True
    position["board"] = {"court": ["Laws 110"], "court_free": True}
    position["players"][0]["official_supply"] = [0, 0, 0]
    state = Game.from_text(json.dumps(position), box).state
    assert state.court_free is True and state.players[0].official_supply == [0, 0, 0]


@pytest.mark.parametrize(("change", "message"), [
    ({"players": [{"officials": [[0, 5, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]]}]},
     r"players\[0\].officials: 5 of one type placed"),
    ({"board": {"palace_count": [[7, 0], [0, 0], [0, 0], [0, 0], [0, 0]]}},
     "board.palace_count: 7 of seat 0's palaces placed"),
    ({"players": [{"tokens": [99, 0, 0]}]}, r"players\[\*\].tokens: 99 of suit 0 held"),
])
def test_a_position_placing_more_pieces_than_the_box_has_is_refused(box, change, message):
    with pytest.raises(PositionError, match=message):
        Game.from_text(json.dumps({**HAND_WRITTEN, **change}), box)


@pytest.mark.parametrize(("change", "message"), [
    ({"stage": "lunch"}, "stage: 'lunch'"),
    ({"hands": [["Writing 999"], []]}, r"hands\[0\]\[0\]: no card is called 'Writing 999'"),
    ({"hands": [["Writing 20"], ["Writing 20"]]},
     r"^hands\[1\]\[0\]: 'Writing 20' is placed twice \(also in hands\[0\]\[0\]\)$"),
    ({"hands": [["Writing 20"], []], "decks": [["Writing 20"], [], []]},
     r"^decks\[0\]\[0\]: 'Writing 20' is placed twice \(also in hands\[0\]\[0\]\)$"),
    ({"hands": [["Writing 1"], []]},
     r"^hands\[0\]\[0\]: 'Writing 1' is placed twice \(also in players\[0\]\.tableau\[0\]\[0\]\)$"),
    ({"round": -4}, r"^round: -4; expected 0 to 5$"),
    ({"step": 99}, r"^step: 99; expected 0 to \d+$"),
    ({"rnd": 2}, "rnd: no such key"),
    ({"board": {"courtt": []}}, "board.courtt: no such field"),
    ({"players": [{"tablo": []}]}, r"players\[0\].tablo: no such field"),
    ({"n_players": 5}, "n_players: 5"),
])
def test_a_bad_position_is_refused_naming_the_key(box, change, message):
    with pytest.raises(PositionError, match=message):
        Game.from_text(json.dumps({**HAND_WRITTEN, **change}), box)
    with pytest.raises(PositionError, match="not JSON"):
        Game.from_text("{", box)


def test_play_from_a_position_narrates_the_rest_of_the_game(box, tmp_path):
    path = tmp_path / "position.json"
    path.write_text(json.dumps(HAND_WRITTEN))
    result = CliRunner().invoke(main, ["play", "--from", str(path), "-s", "greedy"])
    assert result.exit_code == 0, result.output
    assert "=== Round 4 ===" in result.output and "=== Round 3 ===" not in result.output
    assert "Winner" in result.output
    as_json = CliRunner().invoke(main, ["play", "--from", str(path), "-s", "greedy", "--json"])
    assert json.loads(as_json.output)["n_players"] == 2


def test_play_ask_prints_each_bots_choice_and_values(box, tmp_path):
    game = position_at(box, 4, "turn", 2)
    path = tmp_path / "position.json"
    path.write_text(game.to_text())
    result = CliRunner().invoke(main, ["play", "--from", str(path), "--ask", "greedy",
                                       "--ask", "random"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].endswith("Your turn: which card, and what for?")
    greedy = lines.index(next(line for line in lines if line.startswith("greedy: ")))
    chosen = lines[greedy].removeprefix("greedy: ")
    best = lines[greedy + 1]
    assert best.lstrip().startswith("*") and best.endswith(chosen)  # its best valued first
    values = [float(line.split()[1 if line.lstrip().startswith("*") else 0])
              for line in lines[greedy + 1:greedy + 13]]
    assert values == sorted(values, reverse=True)
    assert any(line.startswith("random: ") for line in lines)
    # the game in the file is untouched: asking twice says the same
    again = CliRunner().invoke(main, ["play", "--from", str(path), "--ask", "greedy",
                                      "--ask", "random"])
    assert again.output == result.output


def test_play_from_refuses_what_it_cannot_read(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"n_players": 2, "stage": "lunch"}')
    result = CliRunner().invoke(main, ["play", "--from", str(path)])
    assert result.exit_code != 0 and "bad.json: stage: 'lunch'" in result.output
    assert "Traceback" not in result.output
    missing = CliRunner().invoke(main, ["play", "--from", str(tmp_path / "none.json")])
    assert missing.exit_code != 0 and "cannot be read" in missing.output
    asked = CliRunner().invoke(main, ["play", "--ask", "greedy"])
    assert asked.exit_code != 0 and "--from" in asked.output


def test_the_position_format_is_documented():
    text = (Path(__file__).resolve().parent.parent / "docs" / "research.md").read_text()
    for key in ("n_players", "stage", "answers", "question", "hands", "decks", "rng"):
        assert f"`{key}`" in text


def test_the_vp_of_a_position_written_by_hand_count_as_scored(box):
    """A position brings no record of how its VP were scored: the end-of-game audit takes them
    as scored, and a position that does give the ledger is held to it."""
    from zsim.invariants import ScoreAuditError
    from zsim.strategies.random_bot import RandomStrategy

    players = [dict(HAND_WRITTEN["players"][0], vp={"vp_cards": 40}), {"vp": {"vp_walls": 3}}]
    position = dict(HAND_WRITTEN, players=players)
    result = Game.from_text(json.dumps(position), box).play([RandomStrategy(), RandomStrategy()])
    assert result.scores[0]["vp_cards"] >= 40
    game = Game.from_text(json.dumps(position), box)
    again = json.loads(game.to_text())
    assert again["records"]["ledger"] == [{"vp_cards": 40}, {"vp_walls": 3}]
    again["records"]["ledger"] = [{}, {"vp_walls": 3}]
    with pytest.raises(ScoreAuditError, match="seat 0"):
        Game.from_text(json.dumps(again), box).play([RandomStrategy(), RandomStrategy()])


ODD_BOT = '''
from zsim.strategies.base import Strategy


class Contrary(Strategy):
    """Values the options in the order offered, and answers the last one."""

    name = "contrary"

    def option_values(self, view, decision):
        return [float(len(decision.options) - i) for i in range(len(decision.options))]

    def choose(self, view, decision):
        return decision.options[-1]
'''


def test_play_ask_names_the_seat_by_colour_and_says_why_a_lower_value_is_starred(box, tmp_path):
    """The seat asked is a colour (not "outside": nobody sits in a position's seats yet), and a
    bot whose answer is not its highest value listed gets a line saying so."""
    game = position_at(box, 2, "turn", 2)
    path = tmp_path / "position.json"
    path.write_text(game.to_text())
    bot = tmp_path / "contrary.py"
    bot.write_text(ODD_BOT)
    result = CliRunner().invoke(main, ["play", "--from", str(path), "--ask", "greedy",
                                       "--ask", f"{bot}:Contrary"])
    assert result.exit_code == 0, result.output
    assert "outside" not in result.output
    assert result.output.splitlines()[0].split(", round")[0].split("(")[1].rstrip(")") in (
        "Red", "Blue", "Green", "Yellow", "Black", "White")
    contrary = result.output.split(f"{bot}:Contrary: ")[1]
    assert "below its best value listed" in contrary
    greedy = result.output.split("greedy: ")[1].split(f"{bot}:Contrary")[0]
    assert "below its best value listed" not in greedy  # greedy answers its best
