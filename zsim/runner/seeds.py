"""Which game sits at index *i* of a run: its seed, its player count and who sits where.

Everything here is a pure function of the run's master seed and the game index, never of the
order in which games are played, so any worker count, chunking or backend reproduces the run.
"""

from __future__ import annotations

from dataclasses import dataclass

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
        if self.seats == "rotate":
            seated = [pool[(s + k) % size] for s in range(count)]
        elif self.seats == "random":
            order = np.random.default_rng([seed, 1]).permutation(size)
            seated = [pool[j] for j in order[:count]]
        else:
            seated = pool[:count]
        return GamePlan(index=index, seed=seed, strategies=tuple(seated))
