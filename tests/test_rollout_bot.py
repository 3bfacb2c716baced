"""The example search bot of docs/architecture.md: it plays whole games, it is deterministic,
and what it cannot see does not change what it chooses."""

from __future__ import annotations

import pickle
import random

import pytest

from zsim.game import Game, play_game
from zsim.strategies.registry import UnknownStrategy, resolve


@pytest.mark.parametrize("seats", [["rollout", "random"], ["rollout", "lisi-1"],
                                   ["random", "rollout", "basic"]])
def test_it_plays_whole_games_and_the_same_game_twice(box, seats):
    first = play_game(box, [resolve(s) for s in seats], 3)
    again = play_game(box, [pickle.loads(pickle.dumps(resolve(s))) for s in seats], 3)
    assert first.scores == again.scores and first.decisions == again.decisions
    assert first.strategies == [s for s in seats]


def test_it_beats_the_random_bot(box):
    margins = []
    for seed in range(4):
        result = play_game(box, [resolve("rollout"), resolve("random")], seed)
        margins.append(result.scores[0]["vp_total"] - result.scores[1]["vp_total"])
    assert min(margins) > 0, margins


def test_its_choice_does_not_depend_on_the_cards_it_cannot_see(box):
    bot = resolve("rollout")
    game = Game(box, [None, None, None], 6)
    turns = 0
    while turns < 7:
        decision = game.pending()
        turns += decision.kind == "turn"
        if decision.kind != "turn" or turns < 7:
            game.answer(decision.options[0])
    seat = decision.seat
    other = game.fork(seat, random.Random(99))  # the same table, the hidden cards redealt
    assert other.state.hands != game.state.hands or other.state.decks != game.state.decks
    choices = []
    for table in (game, other):
        view = table.views[seat]
        view.rng.seed(11)
        choices.append(bot.choose(view, table.pending()))
    assert choices[0] == choices[1]


def test_bad_parameters_are_refused():
    with pytest.raises(UnknownStrategy, match="policy"):
        resolve("rollout(policy='mcts')")
    with pytest.raises(UnknownStrategy, match="rollouts"):
        resolve("rollout(rollouts=0)")


def test_the_lookahead_of_docs_architecture_plays_a_whole_game(box):
    import math
    import re
    from pathlib import Path

    from zsim.strategies.base import Strategy
    from zsim.strategies.random_bot import RandomStrategy

    text = (Path(__file__).parent.parent / "docs" / "architecture.md").read_text()
    code = next(block for block in re.findall(r"```python\n(.*?)```", text, re.DOTALL)
                if "class Lookahead" in block)
    assert len(code.strip().splitlines()) <= 15
    scope = {"Strategy": Strategy, "RandomStrategy": RandomStrategy, "math": math}
    exec(code, scope)
    # its forks are dealt from its own seeded RNG: the same game twice
    results = [play_game(box, [scope["Lookahead"](), resolve("random")], 2) for _ in range(2)]
    assert results[0].scores == results[1].scores and results[0].decisions > 100
