"""A run's experience tables, read from its directory, and the metrics computed from them.

``zsim run`` writes ``trajectories.parquet``, ``choices.parquet`` and ``options.parquet``
(``zsim.experience.record``); a run made with ``--trajectories off``, or before these tables
existed, has them empty or lacks them, and ``Experience.recorded`` is then false. Everything
here reads those files and the players table, nothing else.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from zsim.errors import UserError
from zsim.experience import metrics, unused, winprob

TABLES = ("trajectories", "choices", "options")


class ExperienceError(UserError, ValueError):
    """An experience table that cannot be read; the message names the file."""


def _read(path: Path) -> pd.DataFrame | None:
    if not path.is_file():
        return None
    try:
        return pq.read_table(path).to_pandas()
    except (OSError, pa.ArrowException) as error:
        raise ExperienceError(f"{path}: cannot be read as Parquet ({error})") from None


@dataclass
class Experience:
    """The experience tables of one or more runs (rows of every run, keyed by ``run_id`` and
    ``game``), with the players table for the first player's share, and what filled
    ``p_win`` (``estimators``: one note per run that has one)."""

    trajectories: pd.DataFrame
    choices: pd.DataFrame
    options: pd.DataFrame
    players: pd.DataFrame | None = None
    estimators: list[str] = field(default_factory=list)

    @property
    def recorded(self) -> bool:
        return not self.trajectories.empty

    @property
    def every_turn(self) -> bool:
        """Whether the standing was recorded after every turn (``value`` mode)."""
        turns = self.trajectories[self.trajectories["stage"] == "turn"]
        return bool(len(turns)) and bool(turns["standing"].notna().all())

    @cached_property
    def games(self) -> pd.DataFrame:
        """``metrics.per_game``: one row per game, every metric."""
        return metrics.per_game(self.trajectories, self.choices, self.players)

    @cached_property
    def summary(self) -> pd.DataFrame:
        """``metrics.per_run``: each metric's mean with its interval, per player count."""
        return metrics.per_run(self.games)

    @cached_property
    def kinds(self) -> pd.DataFrame:
        """``metrics.per_kind``: branching, real choices and clarity per decision kind."""
        return metrics.per_kind(self.choices)

    @cached_property
    def option_use(self) -> pd.DataFrame:
        return unused.option_use(self.options)

    @cached_property
    def never_taken(self) -> pd.DataFrame:
        return unused.never_taken(self.options)

    @cached_property
    def calibration(self) -> pd.DataFrame:
        """How the estimated win probabilities match the outcomes (``winprob.calibration``)."""
        return winprob.calibration(self.trajectories)


def _empty(name: str) -> pd.DataFrame:
    from zsim.runner.columns import BASE

    return BASE[name].empty_table().to_pandas()


def read(run_dirs: Sequence[str | Path], players: pd.DataFrame | None = None) -> Experience:
    """The experience tables of these run directories, pooled (empty where none were
    recorded); ``players`` (their players table) adds the first player's share."""
    frames: dict[str, list[pd.DataFrame]] = {name: [] for name in TABLES}
    notes = []
    for run in map(Path, run_dirs):
        for name in TABLES:
            frame = _read(run / f"{name}.parquet")
            if frame is not None and len(frame):
                frames[name].append(frame)
        path = run / winprob.TRAJECTORIES
        if path.is_file() and (note := winprob.estimator_note(path)) is not None:
            notes.append(note)
    tables = {name: pd.concat(parts, ignore_index=True) if parts else _empty(name)
              for name, parts in frames.items()}
    if players is None:
        players = pd.concat([pd.read_parquet(Path(run) / "players.parquet")
                             for run in run_dirs if (Path(run) / "players.parquet").is_file()],
                            ignore_index=True) if run_dirs else None
    return Experience(**tables, players=players, estimators=sorted(set(notes)))
