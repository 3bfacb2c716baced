"""The action codec: a fixed id for every option, its inverse, the legal-action mask, and a
version that moves with the ids."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from zsim.components import default_box_dir, load_box
from zsim.decisions import Decision
from zsim.encode.codec import Codec, UnknownAction, codec
from zsim.game import Game
from zsim.kinds import KINDS, STOP, Court, Unify
from zsim.rules.lisi import LiSiSeat
from zsim.strategies.random_bot import RandomStrategy


class RoundTrips:
    """A listener checking the codec on every decision of a game."""

    def __init__(self, space: Codec) -> None:
        self.space = space
        self.options = 0

    def event(self, game: Game, kind: str, data: dict[str, Any]) -> None:
        decision: Decision = data["decision"]
        space = self.space
        ids = space.legal(decision)
        assert len(set(ids)) == len(ids)  # distinct options, distinct ids
        for option, action in zip(decision.options, ids, strict=True):
            assert space.encode(decision.kind, option) == action
            assert action in space.kinds[decision.kind]
            back_kind, back = space.decode(action)
            assert back_kind == decision.kind and back == option and type(back) is type(option)
            assert space.option(decision, action) is option
        mask = space.mask(decision)
        assert mask.dtype == np.bool_ and mask.shape == (space.size,)
        assert np.flatnonzero(mask).tolist() == sorted(ids)
        self.options += len(ids)


def play_checked(box, n: int, seed: int, seats: list | None = None) -> int:
    space = codec(box, n)
    game = Game(box, seats or [RandomStrategy() for _ in range(n)], seed)
    checker = RoundTrips(space)
    game.listen(checker, ("decision",))
    game.play()
    return checker.options


def test_every_option_of_500_games_round_trips(box):
    # random 2-player games: the cheapest games that reach every kind in time
    options = sum(play_checked(box, 2, seed) for seed in range(500))
    assert options > 100_000


@pytest.mark.parametrize("n", [3, 4])
def test_every_option_round_trips_at_three_and_four(box, n):
    assert sum(play_checked(box, n, seed) for seed in range(10)) > 1000


def test_every_option_round_trips_in_solo_games(box):
    for seed in range(10):
        play_checked(box, 2, seed, [RandomStrategy(), LiSiSeat(1 + seed % 4)])


def test_the_space_is_laid_out_kind_by_kind(box):
    space = codec(box, 2)
    assert list(space.kinds) == list(KINDS)
    starts = [ids.start for ids in space.kinds.values()]
    assert starts == sorted(starts) and starts[0] == 0
    assert sum(len(ids) for ids in space.kinds.values()) == space.size
    turn = space.kinds["turn"]
    assert space.decode(turn.start) == ("turn", Unify("unify", 1, 0))  # card 1, Chu
    assert space.decode(turn.start + 1) == ("turn", Unify("unify", 1, 1))
    assert space.encode("turn", ("court", 7, 3)) == space.encode("turn", Court("court", 7, 3))
    soldier = space.kinds["soldier"]
    assert space.decode(soldier[-1]) == ("soldier", STOP)


def test_the_player_count_sizes_the_wall_and_governor_domains(box):
    two, four = codec(box, 2), codec(box, 4)
    assert len(two.kinds["turn"]) == len(four.kinds["turn"])
    walls = {n: len(box.board.wall.tiers[n]) for n in (2, 4)}
    sections = box.board.wall.sites * box.board.wall.sections_per_site
    assert len(two.kinds["wall"]) == sections * walls[2]
    assert len(four.kinds["wall"]) == sections * walls[4]
    slots = box.board.rules.governor_bonus_slots
    assert len(four.kinds["governor_slot"]) == slots[4] + 1  # and the area


def test_ids_are_stable_and_the_version_moves_with_them():
    base = load_box(default_box_dir())
    same = Codec(load_box(default_box_dir()), 3)
    assert same.version == Codec(base, 3).version
    assert same.actions == Codec(base, 3).actions
    # a value that moves no id keeps the version
    scored = Codec(load_box(default_box_dir(), [("rules.palace_vp", 9)]), 3)
    assert scored.version == same.version
    # another number of tokens to unlock a soldier: other payments, other ids, another version
    assert base.board.rules.unlock_cost != 2
    dearer = Codec(load_box(default_box_dir(), [("rules.unlock_cost", 2)]), 3)
    assert dearer.version != same.version
    assert dearer.size != same.size


def test_bad_ids_and_options_are_refused_in_one_line(box):
    space = codec(box, 2)
    with pytest.raises(UnknownAction, match="outside the action space"):
        space.decode(space.size)
    with pytest.raises(UnknownAction, match="no id"):
        space.encode("turn", ("unify", 999, 0))
    with pytest.raises(UnknownAction, match="no id"):
        space.encode("turn", ["unify", 1, 0])  # unhashable
    game = Game(box, [None, None], 1)
    decision = game.pending()
    assert decision is not None
    other = next(a for a in space.kinds[decision.kind]
                 if space.decode(a)[1] not in decision.options)
    with pytest.raises(UnknownAction, match="not among the options"):
        space.option(decision, other)
    with pytest.raises(UnknownAction, match="decision"):
        space.option(decision, space.kinds["reward"].start)


def test_the_mask_of_a_finished_game_is_empty(box):
    game = Game(box, [None, None], 2)
    game.play([RandomStrategy(), RandomStrategy()])
    assert not codec(box, 2).mask(game.pending()).any()
