"""Invariants after every decision of many random games, and determinism of whole games."""

from __future__ import annotations

import os
from typing import Any

import pytest

from zsim.game import Game, play_game
from zsim.invariants import violations
from zsim.options import GameOptions
from zsim.rules.scoring import CATEGORIES
from zsim.strategies.basic import BasicStrategy
from zsim.strategies.random_bot import RandomStrategy

# Raise it for a long soak: ZSIM_INVARIANT_GAMES=10000 python -m pytest tests/test_invariants.py
GAMES_PER_COUNT = int(os.environ.get("ZSIM_INVARIANT_GAMES", "40"))


class Checked:
    """Checks every invariant at each decision and each turn of the game it listens to."""

    def event(self, game: Game, kind: str, data: dict[str, Any]) -> None:
        broken = violations(game.state, game.t)
        assert not broken, f"seed {game.seed}, at a {kind!r} event: {broken}"
        if kind == "decision":
            assert data["decision"].options, "an empty decision was asked"


@pytest.mark.parametrize("n", [2, 3, 4])
def test_invariants_hold_after_every_step_of_random_games(box, n):
    variants = [GameOptions(), GameOptions(mausoleum="advanced", court_reset=True)]
    for seed in range(GAMES_PER_COUNT):
        game = Game(box, [RandomStrategy() for _ in range(n)], seed, variants[seed % 2])
        game.listen(Checked(), ("decision", "turn", "phase"))
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


def _public_picture(state) -> str:
    return repr([(p.tableau, p.officials, p.vp) for p in state.players]
                + [w.slots for w in state.walls] + [m.slots for m in state.mausoleum]
                + [state.governor_slots, state.hands, state.court])


def test_a_state_copy_shares_nothing_mutable_with_the_original(box):
    game = Game(box, [RandomStrategy(), RandomStrategy(), RandomStrategy()], 4)
    game.play()
    original = game.state
    snapshot = _public_picture(original)
    copy = original.copy()
    copy.players[0].tableau[0].append(999)
    copy.players[1].officials[2][1] += 5
    copy.players[2].vp["vp_cards"] = -1
    copy.walls[0].slots[0] = 2
    copy.mausoleum[4].slots[1] = 1
    copy.governor_slots[0][0][1] = 2
    copy.hands[0].append(7)
    copy.court.append(8)
    assert _public_picture(original) == snapshot
    assert _public_picture(copy) != snapshot
