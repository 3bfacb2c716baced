"""zsim from Python (a notebook, a script): batches as DataFrames, and single games.

    from zsim import api
    results = api.run(games=200, players=[2, 4], strategies=["greedy", "random"])
    results.players.groupby("strategy")["win_share"].mean()

``run`` plays an experiment with the same runner as ``zsim run`` (same seeds, same tables) into
a temporary directory that is removed once its tables are read, or into ``out=DIR`` to keep
it; ``load`` reads a run directory that ``zsim run`` wrote; ``rate`` fits its ratings as
``zsim rate`` does (a run's ``experience`` and ``trajectories`` say how its games unfolded,
docs/experience.md); ``compare`` and ``sweep`` plan their
batches exactly as ``zsim compare`` and ``zsim sweep`` do (``zsim.whatif``); ``play`` plays one
game and keeps its narration and the step record that ``GameRecord.html`` turns into the viewer
page. The progress bar is tqdm's notebook-aware one.

Bad arguments raise ``ExperimentError`` (an unknown experiment key, an unknown strategy, a bad
variant), ``OutputError`` (an ``out`` directory that is not empty), ``RunDirError`` (a missing
or unfinished run directory) or, for ``play``, the error of the component files, the options or
the lineup (``GameFailed``, with the game up to its failure, when a bot or the engine fails),
each with a message naming the culprit.
"""

from __future__ import annotations

import tempfile
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from zsim.compare import paired_differences, verdict
from zsim.experience.data import Experience
from zsim.experience.data import read as read_experience
from zsim.experience.metrics import ALL
from zsim.experience.paired import HEADLINE, paired_experience, sentences
from zsim.lineup import seat_game
from zsim.options import OptionError
from zsim.ratings import RatingError, Ratings
from zsim.ratings import rate as rate_players
from zsim.reports.loader import RunDirError, load_runs
from zsim.runner.batch import start_run
from zsim.runner.experiment import Experiment, ExperimentError, parse_experiment
from zsim.runner.summary import Summary, summarize
from zsim.variants import parse as parse_variants
from zsim.whatif import (
    base_experiment,
    recording,
    sweep_experiments,
    sweep_summary,
    sweep_values,
    variant_experiment,
)

if TYPE_CHECKING:
    from zsim.game import GameResult
    from zsim.strategies.base import Strategy

__all__ = ["Comparison", "ExperimentError", "GameRecord", "RatingError", "Results", "RunDirError",
           "compare", "load", "make_experiment", "play", "rate", "run", "sweep"]


@dataclass
class Results:
    """The tables of one run, as ``zsim run`` writes them (docs/running.md), and its summary.

    ``players`` holds the finished games' rows, with three columns added for analysis:
    ``game_key`` (equal to ``game`` for one run), ``lineup`` (the game's strategies, sorted) and
    ``stratum`` (strategy within lineup); with ``first_player`` recorded, also ``position``
    (0 = first in the first round's turn order). ``path`` is None when the run was played in a
    temporary directory.
    """

    run_id: str
    experiment: dict[str, Any]
    summary: Summary
    players: pd.DataFrame
    games: pd.DataFrame
    walls: pd.DataFrame
    rewards: pd.DataFrame
    abilities: pd.DataFrame
    tiles: pd.DataFrame
    failures: list[dict[str, Any]] = field(default_factory=list)
    path: Path | None = None
    #: how each game unfolded (docs/experience.md): empty when the run recorded none
    trajectories: pd.DataFrame = field(default_factory=pd.DataFrame)
    choices: pd.DataFrame = field(default_factory=pd.DataFrame)
    options: pd.DataFrame = field(default_factory=pd.DataFrame)
    kingmaking: pd.DataFrame = field(default_factory=pd.DataFrame)
    estimators: list[str] = field(default_factory=list)

    @property
    def experience_tables(self) -> Experience:
        """The experience tables with the metrics computed from them (``zsim.experience``)."""
        cached = self.__dict__.get("_experience")
        if cached is None:
            cached = self.__dict__["_experience"] = Experience(
                self.trajectories, self.choices, self.options, self.players, self.estimators)
        return cached

    @property
    def experience(self) -> pd.DataFrame:
        """One row per game: every experience metric (lead changes, drama, decisiveness...)."""
        return self.experience_tables.games

    @property
    def experience_summary(self) -> pd.DataFrame:
        """Per player count and metric: the mean over the games, its 95% interval, the
        median."""
        return self.experience_tables.summary

    @property
    def win_rates(self) -> pd.DataFrame:
        """The summary table: per strategy, win rate with its 95% interval and mean VP."""
        return self.summary.table

    def __repr__(self) -> str:
        where = str(self.path) if self.path else "in memory"
        return (f"Results(run {self.run_id}, {self.summary.games} games, "
                f"{self.summary.failed} failed, {where})")

    def _repr_html_(self) -> str:
        return (f"<p>Run <code>{self.run_id}</code>: {self.summary.games} games, "
                f"{self.summary.failed} failed</p>" + self.summary.table.to_html(
                    float_format=lambda v: f"{v:.3f}"))


def load(run_dir: str | Path) -> Results:
    """The tables of a finished run directory."""
    path = Path(run_dir)
    data = load_runs([path])
    info = data.runs[0]
    empty = pd.DataFrame(columns=["run_id", "game"])
    experience = read_experience([path], players=data.players)
    kingmaking = path / "kingmaking.parquet"
    return Results(
        run_id=info.run_id, experiment=info.experiment, summary=summarize(path),
        players=data.players, games=data.games, walls=data.walls, rewards=data.rewards,
        abilities=data.abilities if data.abilities is not None else empty,
        tiles=data.tiles if data.tiles is not None else empty,
        failures=info.failures, path=path, trajectories=experience.trajectories,
        choices=experience.choices, options=experience.options,
        kingmaking=pd.read_parquet(kingmaking) if kingmaking.is_file() else empty,
        estimators=experience.estimators)


def rate(results: Results | str | Path) -> Ratings:
    """The ratings ``zsim rate`` fits for a run (its ``Results`` or its directory):
    ``.table`` per player count and strategy, and per player count a ladder with its ``gaps``
    and ``notes`` (docs/ratings.md). Raises ``RatingError`` when there is nothing to rate."""
    players = results.players if isinstance(results, Results) else load(results).players
    return rate_players(players)


def make_experiment(experiment: str | Path | Experiment | Mapping[str, Any] | None = None,
                    **overrides: Any) -> Experiment:
    """An experiment: a file, an ``Experiment``, a mapping of its keys, or None for the default
    one, with ``overrides`` (any experiment key, as in docs/running.md) applied. ``variants``
    given as an override are added to the experiment's own, as ``--variant`` does."""
    if not isinstance(experiment, str | Path | Experiment | Mapping | None):
        raise TypeError(f"experiment: expected an experiment file (str or Path), an Experiment, "
                        f"a mapping of its keys or None, not {type(experiment).__name__} "
                        f"{experiment!r}")
    if isinstance(experiment, Mapping):
        base = parse_experiment(dict(experiment), "experiment mapping")
    else:
        base = base_experiment(experiment)
    variants = overrides.pop("variants", None)
    if variants is not None:
        overrides["variants"] = {**base.variants, **_variant_mapping(variants)}
    return base.with_overrides("overrides", **overrides) if overrides else base


def _variant_mapping(variants: Any) -> dict[str, Any]:
    """Variants as a mapping: given as one (``{"rules.palace_vp": 8}``), or as the command line
    takes them, ``KEY=VALUE`` strings and variant files (``["rules.palace_vp=8"]``)."""
    if isinstance(variants, Mapping):
        return {str(k): v for k, v in variants.items()}
    if isinstance(variants, str):
        variants = [variants]
    if not isinstance(variants, Sequence) or not all(isinstance(v, str) for v in variants):
        raise ExperimentError("key 'variants': give KEY=VALUE strings (or variant files), or a "
                              "mapping of KEY: VALUE")
    try:
        parsed = parse_variants(list(variants))
    except OptionError as error:
        raise ExperimentError(f"key 'variants': {error}") from None
    return dict(entry.split("=", 1) for entry in parsed.as_strings())


class DesignWarning(UserWarning):
    """The run's design measures something only approximately (a partial balanced block) or
    not at all (a seat aliased with the lineup); ``zsim run`` prints the same lines."""


def run(experiment: str | Path | Experiment | Mapping[str, Any] | None = None, *,
        out: str | Path | None = None, progress: bool = True,
        bots: Mapping[str, Strategy] | None = None, **overrides: Any) -> Results:
    """Play an experiment (see ``make_experiment`` for what it may be, and its overrides) and return
    its tables. Without ``out`` the run lives in a temporary directory, removed once read;
    ``bots`` maps lineup names to bot instances the registry cannot name."""
    return _run(make_experiment(experiment, **overrides), out, progress, bots)


def _run(planned: Experiment, out: str | Path | None, progress: bool,
         bots: Mapping[str, Strategy] | None) -> Results:
    for line in planned.design_warnings():
        warnings.warn(line, DesignWarning, stacklevel=3)
    if out is not None:
        start_run(planned, Path(out), source=planned.name, strategies=bots, progress=progress)
        return load(out)
    with tempfile.TemporaryDirectory(prefix="zsim-") as scratch:
        start_run(planned, Path(scratch) / "run", source=planned.name, strategies=bots,
                  progress=progress)
        results = load(Path(scratch) / "run")
    results.path = None
    return results


@dataclass
class Comparison:
    """A paired comparison (``zsim.compare.paired_differences``) and both runs."""

    table: pd.DataFrame
    base: Results
    variant: Results

    @property
    def verdict(self) -> str:
        return verdict(self.table)

    @property
    def experience(self) -> pd.DataFrame | None:
        """The experience metrics paired game by game (``zsim.experience.paired``), or None
        when either run recorded no trajectories."""
        if "_experience" not in self.__dict__:
            self.__dict__["_experience"] = paired_experience(self.base.experience_tables,
                                                             self.variant.experience_tables)
        return self.__dict__["_experience"]

    @property
    def experience_sentences(self) -> list[str]:
        """Each headline experience metric's paired difference said in words, or refused."""
        table = self.experience
        if table is None:
            return []
        return sentences(table[table["n_players"] != ALL], HEADLINE)

    def __repr__(self) -> str:
        return f"Comparison({self.verdict})"


def compare(base: str | Path | Experiment | Mapping[str, Any] | None, *variants: str,
            out: str | Path | None = None, progress: bool = True, **overrides: Any) -> Comparison:
    """Play ``base`` and its variant on the same seeds and return the paired differences. Each
    entry of ``variants`` is an experiment file, a variant file or ``KEY=VALUE``, applied in
    turn as by ``zsim compare``; ``overrides`` (games, seed, jobs...) apply to the base.
    With ``out``, the two runs are kept in ``out/base`` and ``out/variant``."""
    before = recording(make_experiment(base, **overrides))
    after = variant_experiment(before, variants, jobs=before.jobs)
    root = Path(out) if out is not None else None
    base_results = _run(before, root / "base" if root else None, progress, None)
    variant_results = _run(after, root / "variant" if root else None, progress, None)
    return Comparison(table=paired_differences(base_results.players, variant_results.players),
                      base=base_results, variant=variant_results)


def sweep(spec: str, experiment: str | Path | Experiment | Mapping[str, Any] | None = None, *,
          out: str | Path | None = None, progress: bool = True,
          **overrides: Any) -> pd.DataFrame:
    """One run per value of a variant key (``spec`` is ``KEY=V1,V2,...``, values in YAML) on
    the same seeds: per value, player count and strategy, the games, the win rate with its
    interval and the mean VP by category (the table of ``zsim sweep``). With ``out`` the runs
    are kept in ``out/value-<i>``."""
    key, values = sweep_values(spec)
    base = recording(make_experiment(experiment, **overrides))
    frames = []
    for i, (shown, planned) in enumerate(sweep_experiments(base, key, values)):
        results = _run(planned, Path(out) / f"value-{i}" if out is not None else None,
                       progress, None)
        frames.append(sweep_summary(results.players, shown))
    return pd.concat(frames, ignore_index=True)


@dataclass
class GameRecord:
    """One game played by ``play``: its result, its narration and its step record."""

    result: GameResult
    record: dict[str, Any]  # zsim.viewer.record: meta, steps and table snapshots

    @property
    def log(self) -> list[str]:
        return self.result.log or []

    @property
    def scores(self) -> pd.DataFrame:
        """The score sheet: one row per seat, the VP categories, total, rank and strategy."""
        frame = pd.DataFrame(self.result.scores)
        frame.insert(0, "strategy", self.result.strategies)
        frame.insert(0, "colour", [p["colour"] for p in self.record["meta"]["players"]])
        frame["rank"] = self.result.ranks
        frame.index.name = "seat"
        return frame

    @property
    def steps(self) -> pd.DataFrame:
        """Every step of the game: narration lines and decisions (options, choice, values)."""
        return pd.DataFrame(self.record["steps"]).drop(columns=["state"])

    def html(self, path: str | Path) -> Path:
        """Write the viewer page (one offline HTML file) to ``path``."""
        from zsim.viewer.page import write_page

        return write_page(self.record, path)

    def __repr__(self) -> str:
        totals = ", ".join(f"{p['colour']} {s['vp_total']}"
                           for p, s in zip(self.record["meta"]["players"], self.result.scores,
                                           strict=True))
        return f"GameRecord(seed {self.result.seed}: {totals})"


def play(strategies: Sequence[str] = ("random",), players: int = 4, seed: int = 1,
         variants: Sequence[str] | Mapping[str, Any] = (), box: str | Path | None = None,
         solo: bool = False, lisi: int = 1) -> GameRecord:
    """Play one game as ``zsim play`` does (the last strategy fills the remaining seats;
    ``solo`` plays the one strategy against Li Si at level ``lisi``)."""
    from zsim.viewer.record import record_game

    for name, value in (("players", players), ("seed", seed), ("lisi", lisi)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"{name}: expected an integer, not {type(value).__name__} "
                            f"{value!r}")
    if isinstance(variants, Mapping):
        variants = [f"{k}={v}" for k, v in variants.items()]
    if isinstance(strategies, str):
        strategies = [strategies]
    seated = seat_game(strategies, 2 if solo else players, seed, variants, box, solo, lisi)
    result, record = record_game(seated)
    return GameRecord(result=result, record=record)
