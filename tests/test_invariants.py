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


def _break(state, t, what: str) -> None:
    """Break one invariant of a finished 3-player game's state (seat 1's, where a seat)."""
    p = state.players[1]
    if what == "officials":
        p.official_supply[2] += 1
    elif what == "negative officials":
        p.officials[0][1] -= 1
        p.official_supply[1] += 1  # still conserved: only the bound is broken
    elif what == "governors":
        p.governors -= 1
    elif what == "palaces":
        state.palace_count[3][1] += 1
    elif what == "walls":
        p.walls += 1
    elif what == "soldiers":
        p.entrance += 1
    elif what == "unrest":
        p.unrest[4] = -1
    elif what == "region":
        p.tableau[0].extend(range(20))
    elif what == "workers":
        p.workers[2] = -1
    elif what == "alchemists":
        p.alchemist_supply.clear()  # and those recruited: none of its set is left
        for region in p.tableau:
            region[:] = [c for c in region if t.card_type[c] != 3]
    elif what == "small tokens":
        state.supply[0] += 1
    elif what == "large token":
        p.large[2] += 1
    elif what == "cards":
        state.court.append(state.court[0] if state.court else 0)
    elif what == "wall section":
        section = next(s for s in state.walls if len(s.slots) > 1)
        section.slots[:2] = [0, 0]


@pytest.mark.parametrize("what, message", [
    ("officials", "seat 1: officials of type 2 not conserved"),
    ("negative officials", "seat 1: negative officials"),
    ("governors", "seat 1: Governors not conserved"),
    ("palaces", "seat 1: Palaces not conserved"),
    ("walls", "seat 1: Walls not conserved"),
    ("soldiers", "seat 1: soldiers not conserved"),
    ("unrest", "seat 1: Unrest out of range"),
    ("region", "seat 1: too many cards in a region"),
    ("workers", "seat 1: negative Workers or tokens"),
    ("alchemists", "seat 1: Alchemist cards not conserved"),
    ("small tokens", "small tokens of suit 0 not conserved"),
    ("large token", "large token of suit 2 not conserved"),
    ("cards", "Unification cards not conserved"),
    ("wall section", "a player has two Walls in one section"),
])
def test_each_broken_invariant_is_named(box, what, message):
    game = Game(box, [RandomStrategy() for _ in range(3)], 11)
    game.play()
    assert violations(game.state, game.t) == []
    state = game.state.copy()
    _break(state, game.t, what)
    assert message in violations(state, game.t)
    assert violations(game.state, game.t) == []  # the copy shares nothing with the game


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
