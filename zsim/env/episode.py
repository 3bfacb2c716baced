"""One game as the environments see it: the question pending, what the seat asked observes,
the legal actions, and the reward at the end.

Shared by the PettingZoo, Gymnasium and OpenSpiel front ends (``zsim.env``), so that all three
number actions with one codec (``zsim.encode.codec``), observe with one encoder
(``zsim.encode.observation``) and score the end of a game in one way.

Its game *suspends* (``zsim.game``): the segment under way waits at its question on a
continuation, so a step resumes the rules where they stopped instead of replaying them. An
episode ends that continuation when it is dropped (the continuation holds the game, and would
keep it alive).

Reward (``REWARDS``), paid once, when the game ends, to every seat:

- ``margin``: the seat's final VP minus the best final VP among the other players (positive for
  the winner, by how much it won; zero-sum only at two players);
- ``win``: the seat's share of the win, 1 for the sole winner, 1/k for each of k tied winners,
  0 for the others.
"""

from __future__ import annotations

import random
from functools import cache
from typing import TYPE_CHECKING, Any

import numpy as np

from zsim.components import Box, default_box_dir, load_box
from zsim.encode.codec import Codec, codec
from zsim.encode.observation import layout, observe
from zsim.game import Game, GameResult

if TYPE_CHECKING:
    from zsim.decisions import Decision

REWARDS = ("margin", "win")


@cache
def default_box() -> Box:
    """The built-in box (``configs/components``), loaded once."""
    return load_box(default_box_dir())


def final_rewards(result: GameResult, reward: str) -> list[float]:
    """Each seat's reward at the end of a game (see the module docstring)."""
    totals = [s["vp_total"] for s in result.scores]
    if reward == "win":
        return [1.0 / len(result.winners) if seat in result.winners else 0.0
                for seat in range(len(totals))]
    return [float(total - max(t for other, t in enumerate(totals) if other != seat))
            for seat, total in enumerate(totals)]


def check_reward(reward: str) -> str:
    if reward not in REWARDS:
        raise ValueError(f"reward {reward!r}: one of {', '.join(REWARDS)}")
    return reward


class Episode:
    """A game in progress, answered through action ids: ``decision`` is the question pending
    (None once the game is over)."""

    def __init__(self, box: Box, seats: list[Any], seed: int) -> None:
        self._start(Game(box, seats, seed))

    def _start(self, game: Game) -> None:
        self.box, self.game = game.t.box, game
        game.suspends = True
        self.codec: Codec = codec(game.t.box, game.n)
        self.size = layout(game.t, game.n).size
        self.decision: Decision | None = game.pending()
        self._ids: list[int] | None = None  # the pending question's options' ids, in order

    @classmethod
    def of(cls, game: Game) -> Episode:
        """An episode around a game already under way (a fork, a position read from text)."""
        episode = cls.__new__(cls)
        episode._start(game)
        return episode

    def __del__(self) -> None:
        """The game's continuation goes with the episode (the game itself may live on, and
        replays from then on)."""
        game = getattr(self, "game", None)
        if game is not None:
            try:
                game.suspends = False
                game.drop_continuation()
            except Exception:  # the interpreter may be shutting down
                pass

    def __deepcopy__(self, memo: dict[int, Any]) -> Episode:
        """A copy to continue apart: ``Game.fork()`` (what OpenSpiel's ``clone`` makes)."""
        return Episode.of(self.game.fork())

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its position text (``Game.to_text``: the random states included), what
        OpenSpiel's ``serialize`` keeps; only an episode on the built-in box (the text names no
        box)."""
        if self.box is not default_box():
            raise TypeError("only an episode on the built-in box pickles (as its position "
                            "text): save another with game.to_text()")
        return (episode_from_text, (self.game.to_text(),))

    @property
    def over(self) -> bool:
        return self.decision is None

    def observation(self, seat: int) -> np.ndarray:
        """What ``seat`` observes now, with the kind of the question when it is the one asked."""
        decision = self.decision
        asked = decision is not None and decision.seat == seat
        return observe(self.game.view(seat), decision.kind if decision is not None and asked
                       else None)

    def mask(self, seat: int) -> np.ndarray:
        """The legal actions of ``seat`` (all false unless it is the seat asked)."""
        if self.decision is None or self.decision.seat != seat:
            return np.zeros(self.codec.size, dtype=np.int8)
        return self.codec.mask(self.decision).astype(np.int8)

    def ids(self) -> list[int]:
        """The ids of the pending question's options, in the order offered (once a question).
        """
        ids = self._ids
        if ids is None:
            assert self.decision is not None, "the game is over"
            ids = self._ids = self.codec.legal(self.decision)
        return ids

    def legal(self) -> list[int]:
        """The ids of the pending question's options, ascending."""
        return sorted(self.ids()) if self.decision is not None else []

    def play(self, action: int) -> None:
        """Answer the pending question with the option of id ``action`` (``UnknownAction``
        for an id that is not one of its options)."""
        decision = self.decision
        assert decision is not None, "the game is over"
        ids = self.ids()
        # the option itself (ids are distinct); one not offered: the codec says why
        option = (decision.options[ids.index(action)] if action in ids
                  else self.codec.option(decision, action))
        self._ids = None
        self.decision = self.game.answer(option)

    def rewards(self, reward: str) -> list[float]:
        return final_rewards(self.game.result(), reward)


def episode_from_text(text: str) -> Episode:
    """The episode of a position text on the built-in box (what an episode unpickles as)."""
    return Episode.of(Game.from_text(text, default_box()))


def seed_from(rng: np.random.Generator | random.Random) -> int:
    """A game seed drawn from an environment's RNG."""
    if isinstance(rng, random.Random):
        return rng.getrandbits(31)
    return int(rng.integers(2**31))
