"""A candidate bot against a field, on numbered blocks of seeds played by the runner.

A block is one small batch (``zsim.runner.batch.start_run``): the candidate and ``players - 1``
bots of the field, seats rotated so the candidate sits in every seat equally often, on the
block's own master seed. Every candidate plays block *b* on the same seeds, seating and
opponents, so two candidates' results on a block differ only by how they play (common random
numbers), and a comparison of the two is paired game by game.

Opponents: when the field is larger than the seats left, block *b* takes the *b*-th of all
(players - 1)-sets of the field in a fixed shuffled order, so over the blocks the candidate
meets every bot of the field equally often.

Training blocks and held-out blocks have disjoint master seeds: a study never sees the games
its winner is validated on.
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import random
import shutil
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, cast

import numpy as np
import pandas as pd
from joblib import effective_n_jobs

from zsim.runner.batch import start_run
from zsim.runner.experiment import Experiment, parse_experiment
from zsim.strategies.base import Strategy

CANDIDATE = "candidate"  # the lineup name of the seat being evaluated
HELD_OUT = 1_000_000  # held-out block b plays on master seed seed + HELD_OUT + b


@dataclass(frozen=True)
class Setup:
    """What a study plays. Stored in the study, so a resumed study plays the very same games;
    how it executes (jobs, backend) may change between sessions."""

    experiment: dict[str, Any]  # the base experiment (box, variants), as model_dump()
    field: tuple[str, ...]  # the opponents' strategy specs
    players: int
    seed: int
    block_games: int  # games per block, a multiple of ``players``
    blocks: int  # training blocks of a full evaluation
    held_out_games: int
    digest: str = ""  # of the rules, the engine and the field's bots (``play_digest``)

    def __post_init__(self) -> None:
        if not self.field:
            raise ValueError("the field is empty: name at least one opponent strategy")
        if self.block_games % self.players:
            raise ValueError(f"games per block ({self.block_games}) must be a multiple of the "
                             f"player count ({self.players}), so seats rotate fully")

    @property
    def variants(self) -> dict[str, str]:
        return dict(self.experiment.get("variants") or {})

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "field": list(self.field)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Setup:
        return cls(**{**data, "field": tuple(data["field"])})

    def opponents(self, block: int) -> tuple[str, ...]:
        """The field's bots facing the candidate in ``block``."""
        seats = self.players - 1
        if len(self.field) <= seats:
            return tuple(self.field[j % len(self.field)] for j in range(seats))
        sets = list(itertools.combinations(self.field, seats))
        random.Random(self.seed).shuffle(sets)
        return sets[block % len(sets)]

    def current_digest(self) -> str:
        """The digest of what plays this setup's games now: the component files with the
        variants, the engine's and bots' code, and the field's bots as configured."""
        return play_digest(parse_experiment(self.experiment, "tuning setup"), self.field)

    def held_out_blocks(self) -> int:
        return -(-self.held_out_games // self.block_games)


@dataclass
class Execution:
    """How blocks are played: never changes a result."""

    jobs: int = -1
    backend: str = "local"
    scheduler: str | None = None


@dataclass
class Arena:
    """Plays blocks for a study, in a scratch directory that only ever holds the current block."""

    setup: Setup
    execution: Execution
    scratch: Path
    games_played: int = dataclasses.field(default=0, init=False)

    def experiment(self, block: int, held_out: bool = False) -> Experiment:
        """The batch of one block, checked like any experiment."""
        setup = self.setup
        workers = max(1, effective_n_jobs(self.execution.jobs))
        return parse_experiment(self.setup.experiment, "tuning setup").with_overrides(
            f"block {block}", name=f"{'held-out' if held_out else 'block'}-{block}",
            games=setup.block_games, players=[setup.players],
            strategies=[CANDIDATE, *setup.opponents(block)], seats="rotate",
            seed=setup.seed + (HELD_OUT if held_out else 0) + block,
            chunk_size=max(1, setup.block_games // (2 * workers)), jobs=self.execution.jobs,
            backend=self.execution.backend, scheduler=self.execution.scheduler)

    def play(self, bot: Strategy, block: int, held_out: bool = False) -> np.ndarray:
        """The candidate's win share in each game of the block, in game order (NaN where the
        game failed)."""
        out = self.scratch / "block"
        shutil.rmtree(out, ignore_errors=True)
        start_run(self.experiment(block, held_out), out, source="tuning",
                  strategies={CANDIDATE: bot})
        players = pd.read_parquet(out / "players.parquet",
                                  columns=["game", "strategy", "win_share"])
        shutil.rmtree(out, ignore_errors=True)
        self.games_played += self.setup.block_games
        return candidate_shares(players, self.setup.block_games)

    def play_blocks(self, bot: Strategy, blocks: int, held_out: bool = False) -> np.ndarray:
        return np.concatenate([self.play(bot, b, held_out) for b in range(blocks)])


def candidate_shares(players: pd.DataFrame, games: int) -> np.ndarray:
    """Per game index 0..games-1, the candidate's win share; NaN for a failed game (which has
    no player rows)."""
    seat = players[players["strategy"] == CANDIDATE].set_index("game")["win_share"]
    return seat.reindex(range(games)).to_numpy(float)


@contextlib.contextmanager
def dask_cluster(execution: Execution) -> Iterator[Execution]:
    """On Dask without a scheduler, one LocalCluster for the whole search (rather than one per
    block); the blocks then run on it by its address. Anything else passes through."""
    if execution.backend != "dask" or execution.scheduler:
        yield execution
        return
    from zsim.runner.backends import local_cluster

    with local_cluster(execution.jobs) as cluster:
        yield Execution(execution.jobs, "dask", cast(Any, cluster).scheduler_address)


def make_setup(experiment: Experiment, field: tuple[str, ...], players: int, seed: int,
               block_games: int, blocks: int, held_out_games: int) -> Setup:
    """A checked setup: every strategy of the field can be named, the variants apply to the
    box, and a block's games fill whole rotations of the seats (rounded up to them)."""
    from zsim.components import BoxError
    from zsim.options import OptionError
    from zsim.strategies.registry import UnknownStrategy, resolve

    for spec in field:
        try:
            resolve(spec)
        except UnknownStrategy as error:
            raise ValueError(f"--field: {error}") from None
    try:
        experiment.variant_set().load_box(experiment.box_dir())
        experiment.options()
    except (BoxError, OptionError) as error:
        raise ValueError(f"--variant: {error}") from None
    if not 2 <= players <= 4:
        raise ValueError(f"--players: {players} is not between 2 and 4")
    block_games = -(-block_games // players) * players
    return Setup(experiment=experiment.model_dump(), field=tuple(field), players=players,
                 seed=seed, block_games=block_games, blocks=blocks,
                 held_out_games=held_out_games, digest=play_digest(experiment, field))


def play_digest(experiment: Experiment, field: tuple[str, ...]) -> str:
    """What the runner's resume checks, for a whole study: the rules and what plays them."""
    import hashlib

    from zsim.runner.boxfiles import run_box_digest
    from zsim.runner.provenance import play_digest as code_digest
    from zsim.strategies.registry import resolve

    rules = run_box_digest(experiment.box_dir(), experiment.variant_set().box)
    code = code_digest({spec: resolve(spec) for spec in field})
    return hashlib.sha256(f"{rules} {code}".encode()).hexdigest()[:16]
