"""Invariants after every decision of many random games, and determinism of whole games."""

from __future__ import annotations

import os
from typing import Any

import pytest

from strategies.basic import BasicStrategy
from strategies.random_bot import RandomStrategy
from zsim.decisions import Decision
from zsim.game import Game, play_game
from zsim.invariants import violations
from zsim.options import GameOptions
from zsim.rules.scoring import CATEGORIES
from zsim.view import PlayerView

# Raise it for a long soak: ZSIM_INVARIANT_GAMES=10000 python -m pytest tests/test_invariants.py
GAMES_PER_COUNT = int(os.environ.get("ZSIM_INVARIANT_GAMES", "40"))


class Checked(RandomStrategy):
    """A random player that checks every invariant each time it is asked something."""

    def choose(self, view: PlayerView, decision: Decision) -> Any:
        game = view._game
        broken = violations(game.state, game.t)
        assert not broken, f"seed {game.seed}, before a {decision.kind!r} decision: {broken}"
        assert decision.options, "an empty decision was asked"
        return super().choose(view, decision)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_invariants_hold_after_every_step_of_random_games(box, n):
    variants = [GameOptions(), GameOptions(mausoleum="advanced", court_reset=True)]
    for seed in range(GAMES_PER_COUNT):
        game = Game(box, [Checked() for _ in range(n)], seed, variants[seed % 2])
        result = game.play()
        assert not violations(game.state, game.t)
        for score in result.scores:
            assert sum(score[c] for c in CATEGORIES) == score["vp_total"]
        assert all(not hand for hand in game.state.hands)
        assert result.winners and all(result.ranks[s] == 1 for s in result.winners)


def test_the_same_seed_gives_the_identical_game(box):
    def run(seed: int) -> tuple:
        result = play_game(box, [BasicStrategy(), RandomStrategy(), RandomStrategy()], seed,
                           narrate=True)
        return result.log, result.scores, result.setup, result.decisions

    assert run(7) == run(7)
    assert run(7) != run(8)


def test_every_unification_board_and_mode_plays(box):
    for board in [b.id for b in box.unification_boards]:
        result = play_game(box, [RandomStrategy(), RandomStrategy()], 3,
                           GameOptions(board=board, mausoleum="advanced"))
        assert result.setup["unification_board"] == board
