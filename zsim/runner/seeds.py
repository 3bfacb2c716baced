"""Which game sits at index *i* of a run: its seed, its player count and who sits where.

Everything here is a pure function of the run's master seed and the game index, never of the
order in which games are played, so any worker count, chunking or backend reproduces the run.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import combinations, permutations
from math import comb

import numpy as np


def game_seed(master_seed: int, index: int) -> int:
    """The seed handed to the engine for game ``index``: independent streams per index."""
    return int(np.random.SeedSequence([master_seed, index]).generate_state(1)[0])


@dataclass(frozen=True)
class GamePlan:
    index: int
    seed: int
    strategies: tuple[str, ...]  # by seat

    @property
    def n_players(self) -> int:
        return len(self.strategies)


@dataclass(frozen=True)
class Schedule:
    """How a run's games are laid out.

    Player counts take turns: game ``i`` has ``players[i % len(players)]`` players, so several
    counts get equal shares (to within one game). ``k = i // len(players)`` numbers the games
    of one count, and seating is decided on it so that each count gets full rotations:

    * the lineup is cycled to the player count when shorter;
    * ``balanced``: complete blocks (see :func:`balanced_seating`) in which every subset of
      the lineup sits down equally often and each of its strategies once in every seat;
    * ``rotate``: seat ``s`` gets ``pool[(s + k) % len(pool)]``; a lineup longer than the
      player count thereby also rotates who sits out;
    * ``random``: a permutation of the pool drawn from the game's seed, first seats taken;
    * ``fixed``: the lineup as given.
    """

    seed: int
    players: tuple[int, ...]
    lineup: tuple[str, ...]
    seats: str

    def plan(self, index: int) -> GamePlan:
        seed = game_seed(self.seed, index)
        count = self.players[index % len(self.players)]
        k = index // len(self.players)
        size = max(count, len(self.lineup))
        pool = [self.lineup[j % len(self.lineup)] for j in range(size)]
        if self.seats == "balanced":
            seated = [pool[j] for j in balanced_seating(size, count, k)]
        elif self.seats == "rotate":
            seated = [pool[(s + k) % size] for s in range(count)]
        elif self.seats == "random":
            order = np.random.default_rng([seed, 1]).permutation(size)
            seated = [pool[j] for j in order[:count]]
        else:
            seated = pool[:count]
        return GamePlan(index=index, seed=seed, strategies=tuple(seated))

    def block_size(self, count: int) -> int:
        """Games of one player count that make a complete block of the ``balanced`` design."""
        return comb(max(count, len(self.lineup)), count) * count


@cache
def _subsets(size: int, count: int) -> tuple[tuple[int, ...], ...]:
    return tuple(combinations(range(size), count))


def balanced_seating(size: int, count: int, k: int) -> tuple[int, ...]:
    """Pool positions by seat for game ``k`` of one player count in the ``balanced`` design.

    A block is ``C(size, count) * count`` games: every ``count``-subset of the pool, each in
    the ``count`` cyclic shifts of one seat order (a Latin square: each of its strategies sits
    once in every seat). Subsets vary fastest, so a partial block still seats every subset
    equally often (to within one game). Successive blocks take the ``(count - 1)!`` cyclic
    orders of each subset in turn, so that over that many blocks every seat order appears,
    and with it every neighbour on either side.
    """
    subsets = _subsets(size, count)
    block, within = divmod(k, len(subsets) * count)
    shift, which = divmod(within, len(subsets))
    first, *rest = subsets[which]
    orders = list(permutations(rest))
    order = (first, *orders[block % len(orders)])
    return tuple(order[(s + shift) % count] for s in range(count))
