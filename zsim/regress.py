"""The regression gate on score distributions: record a run as a baseline, compare two.

A baseline is two files. The YAML summary keeps, per strategy and player count, the number of
games, the mean and SD of every VP column and the win rate: small enough to read in a code
review, and its diff after a re-recording shows exactly what moved. Beside it, a Parquet table
keeps every player's scores in every game with the game's seed and setup, so that a replay of
the same seeds is compared game by game and whole distributions can be tested. The YAML records
the table's digest, so a table from another recording is refused rather than compared.
Games are deterministic, so an unchanged engine replays the baseline's games exactly; a
fingerprint of the scores tells that case apart without any statistics.

The VP tests take one observation per game (the strategy's mean over its seats at that table),
not one per player-game: players at one table share its setup and length, so their scores are
not independent, while separate games are. The win-rate test counts player-games, as a win rate
is read; seats of one game compete for a single win, which only makes that test conservative.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from zsim.compare import per_game
from zsim.components import default_box_dir
from zsim.errors import UserError
from zsim.paired import Shift, distribution_shift, mean_shift, quantile_shifts
from zsim.runner.chunkfile import temporary
from zsim.runner.experiment import IDENTITY_FIELDS, Experiment, ExperimentError, parse_experiment
from zsim.runner.writer import RUN_JSON, DamagedRun, check_tables, read_manifest, read_table
from zsim.stats import (
    cohens_h,
    holm,
    mean_sample_size,
    normal_power,
    reach_power,
    two_proportion_test,
)
from zsim.validation import describe, read_yaml

FORMAT = 2
# Format 1 baselines (a summary without the per-game table) are read only so that --update can
# keep their experiment, alpha and tolerances.
_READABLE_FORMATS = (1, FORMAT)
VP_TOTAL = "vp_total"
WIN_RATE = "win_rate"
QUANTILE = "quantile"
DISTRIBUTION = "distribution"
DEFAULT_ALPHA = 0.05
# "vp" applies to every VP mean without a tolerance of its own; "win_rate" is absolute;
# "quantile" (VP) applies to every quantile shift; "distribution" to the Kolmogorov-Smirnov
# distance between the two ECDFs (a share of games).
DEFAULT_TOLERANCE: dict[str, float] = {"vp": 0.5, WIN_RATE: 0.02, QUANTILE: 1.0,
                                       DISTRIBUTION: 0.05}
DEFAULT_QUANTILES = (0.1, 0.5, 0.9)
# The per-game table's metadata key for the YAML's keys it was written with (``write_baseline``)
_RECORDED_WITH = b"zsim.recorded_with"
POWER = 0.9
CONFIDENCE = 0.95

# What the baseline records of the experiment: the keys that decide the games, and a label.
EXPERIMENT_KEYS = ("name", *IDENTITY_FIELDS, "box")
# The scoring columns of players.parquet that the fingerprint covers (plus every vp_* column).
_FINGERPRINT_KEYS = ["game", "seed", "n_players", "seat", "strategy", "rank", "win_share"]
# Columns of players.parquet that the per-game table leaves out: the run's id, a flag that
# win_share already holds, and the in-game counters (n_*). What remains besides the scores is
# the game's setup (tiles, layouts, first player), to look up what a moved game had in common.
_NOT_STORED = {"run_id", "winner"}
_HEADER = """\
# zsim regression baseline (docs/regress.md). Written by `zsim regress --update`; edit only
# `alpha`, `tolerance` and `quantiles` by hand. Per strategy and player count: `games` it played,
# the mean and SD over those games of its per-game mean of every VP column, its `player_games`
# and `win_rate` (a shared win counts 1/k). `per_game` names the table of every player's scores
# in every game, recorded with this file, and its digest.
"""


class BaselineError(UserError, ValueError):
    """A baseline that cannot be read, or that does not fit the run it is compared with."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Moments(_Frozen):
    """Mean and SD of one VP column over a group's games."""

    mean: float
    sd: float = Field(ge=0)


class Group(_Frozen):
    """One strategy at one player count."""

    games: int = Field(ge=1)  # games it played: the units of the VP tests
    player_games: int = Field(ge=1)  # its seats over those games: the units of the win rate
    win_rate: float = Field(ge=0, le=1)
    vp: dict[str, Moments]


class PerGame(_Frozen):
    """Where a baseline's per-game table is (beside the YAML) and the digest of its content."""

    file: str
    digest: str


class Baseline(_Frozen):
    """The summary of one run, as stored in ``configs/baselines/*.yaml``.

    A run being compared is summarised into the same shape, so a baseline file and a run
    directory are interchangeable on either side of a comparison.
    """

    format: int
    experiment: dict[str, Any]
    box_digest: str | None = None
    fingerprint: str
    games: int = Field(ge=0)  # finished games
    failed_games: int = Field(ge=0)
    alpha: float = Field(DEFAULT_ALPHA, gt=0, lt=1)
    tolerance: dict[str, float] = Field(default_factory=lambda: dict(DEFAULT_TOLERANCE))
    quantiles: tuple[float, ...] = DEFAULT_QUANTILES
    per_game: PerGame | None = None  # set when written to a file
    groups: dict[str, dict[int, Group]]

    @field_validator("format")
    @classmethod
    def _known_format(cls, value: int) -> int:
        if value not in _READABLE_FORMATS:
            raise ValueError(f"format {value} is not the one this zsim reads ({FORMAT})")
        return value

    @field_validator("quantiles")
    @classmethod
    def _levels(cls, value: tuple[float, ...]) -> tuple[float, ...]:
        if any(not 0 < q < 1 for q in value):
            raise ValueError(f"quantile levels lie strictly between 0 and 1, got {list(value)}")
        return tuple(sorted(set(value)))

    @field_validator("experiment")
    @classmethod
    def _runnable_experiment(cls, value: dict[str, Any]) -> dict[str, Any]:
        try:
            parse_experiment(value, "the baseline's experiment")
        except ExperimentError as error:
            raise ValueError(str(error)) from None
        return value

    @field_validator("tolerance", mode="before")
    @classmethod
    def _tolerance_defaults(cls, value: Any) -> Any:
        return {**DEFAULT_TOLERANCE, **value} if isinstance(value, dict) else value

    @model_validator(mode="after")
    def _consistent(self) -> Baseline:
        metric_sets = {tuple(sorted(g.vp)) for by_count in self.groups.values()
                       for g in by_count.values()}
        if len(metric_sets) > 1:
            raise ValueError("groups disagree on the VP columns they list")
        unknown = set(self.tolerance) - {*DEFAULT_TOLERANCE, *self.metrics}
        if unknown:
            raise ValueError(f"tolerance for unknown metrics {sorted(unknown)}; known: vp, "
                             f"{WIN_RATE}, {', '.join(self.metrics)}")
        negative = sorted(key for key, value in self.tolerance.items() if value < 0)
        if negative:
            raise ValueError(f"negative tolerance for {negative}")
        return self

    @property
    def metrics(self) -> list[str]:
        """The VP columns, total first."""
        for by_count in self.groups.values():
            for group in by_count.values():
                return vp_columns(list(group.vp))
        return []

    def group_keys(self) -> set[tuple[str, int]]:
        return {(strategy, n) for strategy, by_count in self.groups.items() for n in by_count}

    def tolerance_for(self, metric: str) -> float:
        """The metric's own tolerance, else the one for every VP mean."""
        return self.tolerance.get(metric, self.tolerance["vp"])

    def to_experiment(self, source: str) -> Experiment:
        return parse_experiment(self.experiment, source)

    def with_settings(self, tolerance: Mapping[str, float] | None = None,
                      alpha: float | None = None,
                      quantiles: tuple[float, ...] | None = None) -> Baseline:
        """A copy with tolerances added or replaced and/or another alpha or quantile levels,
        validated again."""
        data = self.model_dump()
        data["tolerance"] = {**self.tolerance, **(tolerance or {})}
        if alpha is not None:
            data["alpha"] = alpha
        if quantiles is not None:
            data["quantiles"] = quantiles
        return _validate(data, "the given tolerance/alpha/quantiles")


@dataclass(frozen=True)
class Recording:
    """A baseline's summary with its per-game table: one row per player per finished game
    (``table_columns``). Both sides of a comparison are one."""

    summary: Baseline
    players: pd.DataFrame

    def with_settings(self, tolerance: Mapping[str, float] | None = None,
                      alpha: float | None = None,
                      quantiles: tuple[float, ...] | None = None) -> Recording:
        return Recording(self.summary.with_settings(tolerance, alpha, quantiles), self.players)


# --- summarising a run ---------------------------------------------------------------------


def vp_columns(columns: list[str]) -> list[str]:
    """The VP columns of a players table: the total and every ``vp_*`` category."""
    return sorted((c for c in columns if c.startswith("vp_")), key=lambda c: (c != VP_TOTAL, c))


def table_columns(columns: list[str]) -> list[str]:
    """The columns of players.parquet that a per-game table keeps: the game plan, rank, win
    share, every VP column and the setup, in the order given."""
    keys = {*_FINGERPRINT_KEYS, *vp_columns(columns)}
    return [c for c in columns
            if c in keys or (c not in _NOT_STORED and not c.startswith("n_"))]


def table_digest(players: pd.DataFrame) -> str:
    """A digest of a per-game table's content (every column, canonical row order), so that it
    does not depend on how Parquet encoded it."""
    canonical = players[sorted(players.columns)].sort_values(["game", "seat"]).to_csv(
        index=False, float_format="%.9g", lineterminator="\n")
    return hashlib.sha256(canonical.encode()).hexdigest()[:16]


def fingerprint(players: pd.DataFrame) -> str:
    """A digest of every player's scores in every game, in a canonical order.

    It covers the game plan, ranks, win shares and VP columns only, so it changes exactly when
    some score changes, not when a counter is added to the tables or a comment to the box.
    """
    columns = sorted([*_FINGERPRINT_KEYS, *vp_columns(list(players.columns))])
    canonical = players[columns].sort_values(["game", "seat"]).to_csv(
        index=False, float_format="%.9g", lineterminator="\n")
    return hashlib.sha256(canonical.encode()).hexdigest()[:16]


def summarize(players: pd.DataFrame, *, experiment: Experiment,
              box_digest: str | None = None, failed_games: int = 0) -> Baseline:
    """Summarise a players table (one row per player per finished game) into a baseline with
    the default alpha and tolerances (``Baseline.with_settings`` changes them).

    Numbers are rounded so that the file diffs cleanly; rounding at the fourth decimal is far
    below anything the tests can resolve.
    """
    metrics = vp_columns(list(players.columns))
    keys = ["n_players", "strategy"]
    games_vp = per_game(players, metrics)
    mean = games_vp.groupby(level=keys).mean()
    sd = games_vp.groupby(level=keys).std(ddof=1).fillna(0.0)
    games = games_vp.groupby(level=keys).size()
    seats = players.groupby(keys)["win_share"].agg(["sum", "size"])
    groups: dict[str, dict[int, Group]] = {}
    for n, strategy in games.index:
        key = (n, strategy)
        groups.setdefault(str(strategy), {})[int(n)] = Group(
            games=int(games[key]),
            player_games=int(seats.loc[key, "size"]),
            win_rate=round(float(seats.loc[key, "sum"] / seats.loc[key, "size"]), 6),
            vp={m: Moments(mean=_round(mean.loc[key, m]), sd=_round(sd.loc[key, m]))
                for m in metrics})
    return _validate({
        "format": FORMAT,
        "experiment": _portable(experiment),
        "box_digest": box_digest,
        "fingerprint": fingerprint(players),
        "games": int(players["game"].nunique()),
        "failed_games": failed_games,
        "groups": groups,
    }, "the summary")


def _portable(experiment: Experiment) -> dict[str, Any]:
    """The experiment keys a baseline records. Runs record the box path resolved; the project's
    own box is stored as null instead, so that a baseline works in any checkout."""
    data = experiment.model_dump(include=set(EXPERIMENT_KEYS))
    if experiment.box_dir().resolve() == default_box_dir().resolve():
        data["box"] = None
    return data


def _round(value: float) -> float:
    return round(float(value), 4) + 0.0  # + 0.0 turns -0.0 into 0.0


def record(players: pd.DataFrame, *, experiment: Experiment, box_digest: str | None = None,
           failed_games: int = 0) -> Recording:
    """A players table as a recording: its summary and its per-game table."""
    table = players[table_columns(list(players.columns))].sort_values(["game", "seat"])
    return Recording(summarize(table, experiment=experiment, box_digest=box_digest,
                               failed_games=failed_games), table.reset_index(drop=True))


def read_run(run_dir: Path) -> Recording:
    """Record a finished run directory; only the columns a per-game table keeps are read."""
    path = run_dir / RUN_JSON
    if not path.is_file():
        raise BaselineError(f"{run_dir}: no {RUN_JSON}, so not a zsim run directory")
    try:
        manifest = read_manifest(path)
    except DamagedRun as error:
        raise BaselineError(str(error)) from None
    if manifest["status"] != "complete":
        raise BaselineError(f"{run_dir}: the run is {manifest['status']}, not complete; "
                            f"finish it with: zsim run --resume {run_dir}")
    players_path = run_dir / "players.parquet"
    try:
        try:
            names = pq.ParquetFile(players_path).schema_arrow.names
        except (OSError, ValueError):  # missing or not Parquet: read_table says so
            names = []
        players = read_table(run_dir, "players", [*table_columns(names), "run_id"])
        games = read_table(run_dir, "games", ["run_id", "game", "n_players", "failed"])
        check_tables(run_dir, manifest, games, players)
    except DamagedRun as error:
        raise BaselineError(str(error)) from None
    players = players.drop(columns="run_id")
    failed = games["failed"]
    try:
        experiment = parse_experiment(manifest["experiment"], str(path))
    except ExperimentError as error:
        raise BaselineError(str(error)) from None
    return record(players, experiment=experiment, box_digest=manifest.get("box_digest"),
                  failed_games=int(failed.sum()))


# --- the file ------------------------------------------------------------------------------


def table_path(path: Path) -> Path:
    """Where the per-game table of the baseline file ``path`` is written: beside it."""
    return path.with_suffix(".parquet")


def load_summary(path: Path) -> Baseline:
    """Read a baseline file's YAML summary alone, with errors that name the file and key."""
    record = "a baseline is written by: zsim regress --baseline FILE.yaml --update"
    if path.suffix == table_path(path).suffix and path.is_file():
        if (path.parent / "run.json").is_file():
            raise BaselineError(f"{path} is a table of a run, not a baseline; {record}")
        if not path.with_suffix(".yaml").is_file():
            raise BaselineError(f"{path} is a Parquet table, not a baseline; {record}")
        raise BaselineError(f"{path} is the per-game table of a baseline: give its YAML file "
                            f"({path.with_suffix('.yaml')})")
    data = read_yaml(path, BaselineError)
    if not isinstance(data, dict):
        raise BaselineError(f"{path}: a baseline is a mapping of keys (see docs/regress.md), "
                            f"got {type(data).__name__}")
    if "format" not in data:  # another file of zsim's (an experiment, say): one line, not 18
        what = ("an experiment" if {"strategies", "games", "players"} & set(data)
                else "not a baseline")
        raise BaselineError(f"{path} is {what} (it has no 'format' key); {record}")
    return _validate(data, str(path))


def load_baseline(path: Path) -> Recording:
    """Read a baseline file and its per-game table, refusing a table that is not the one
    recorded with it (an edited, stale or swapped file)."""
    summary = load_summary(path)
    from zsim.paths import said  # the shipped baseline by name: the command runs from anywhere

    again = f"re-record it with: zsim regress --baseline {said(path)} --update"
    if summary.per_game is None:
        raise BaselineError(f"{path}: format {summary.format} has no per-game table; {again}")
    table_file = path.parent / summary.per_game.file
    try:
        players = pd.read_parquet(table_file)
    except (OSError, ValueError) as error:
        raise BaselineError(f"{path}: cannot read its per-game table {table_file}: {error}; "
                            f"{again}") from None
    digest = table_digest(players)
    if digest != summary.per_game.digest:
        raise BaselineError(
            f"{path}: its per-game table {table_file} is not the one recorded with it (digest "
            f"{digest}, the baseline says {summary.per_game.digest}): the two files must come "
            f"from the same --update; {again}")
    # The table is the one recorded: a key that disagrees with it was edited in the YAML.
    recorded = {"fingerprint": fingerprint(players),
                **{key: value for key, value in _recorded_with(table_file).items()
                   if key == "box_digest"}}
    for key, value in recorded.items():
        if getattr(summary, key) != value:
            raise BaselineError(
                f"{path}: key {key!r}: {getattr(summary, key)} is not the {key} recorded with "
                f"its per-game table ({value}): the file was edited by hand; {again}")
    return Recording(summary, players)


def _recorded_with(table_file: Path) -> dict[str, Any]:
    """What ``write_baseline`` recorded in the table's metadata (nothing, for tables written
    before it did)."""
    try:
        metadata = pq.read_schema(table_file).metadata or {}
        return dict(json.loads(metadata.get(_RECORDED_WITH, b"{}")))
    except (OSError, ValueError, TypeError, pa.ArrowException):
        return {}


def load_reference(path: Path, tolerance: Mapping[str, float] | None = None,
                   alpha: float | None = None,
                   quantiles: tuple[float, ...] | None = None) -> Recording:
    """A baseline file or a run directory, as a recording; the settings override its own."""
    recording = read_run(path) if path.is_dir() else load_baseline(path)
    if tolerance or alpha or quantiles:
        return recording.with_settings(tolerance, alpha, quantiles)
    return recording


def _validate(data: dict[str, Any], source: str) -> Baseline:
    try:
        return Baseline.model_validate(data)
    except ValidationError as error:
        raise BaselineError(describe(error, source)) from None


class _Dumper(yaml.SafeDumper):
    """Block style, except a mapping or list of plain values (mean and SD, quantile levels)
    stays on one line."""

    def represent_dict(self, data: Mapping[Any, Any]) -> yaml.Node:  # type: ignore[override]
        node = super().represent_dict(data)
        node.flow_style = all(not isinstance(v, dict | list) for v in data.values())
        return node

    def represent_list(self, data: list[Any]) -> yaml.Node:  # type: ignore[override]
        node = super().represent_list(data)
        node.flow_style = all(not isinstance(v, dict | list) for v in data)
        return node


_Dumper.add_representer(dict, _Dumper.represent_dict)
_Dumper.add_representer(list, _Dumper.represent_list)
_Dumper.add_representer(tuple, _Dumper.represent_list)  # type: ignore[arg-type]  # as a list


def dump_baseline(baseline: Baseline) -> str:
    """The baseline as YAML: sorted keys, one line per VP column, a header saying what it is.

    Nothing in it depends on when or where it was written, so re-recording an unchanged
    engine gives the same bytes.
    """
    body = yaml.dump(baseline.model_dump(), Dumper=_Dumper, sort_keys=True, width=100,
                     default_flow_style=False)
    return _HEADER + body


def write_baseline(path: Path, recording: Recording) -> Baseline:
    """Write the YAML summary to ``path`` and the per-game table beside it; returns the summary
    as written (with the table's name and digest).

    Both are written to temporary files first and the table is put in place before the YAML,
    so an interrupted write leaves a pair that the digest rejects rather than a silent mix.
    The table is compressed with zstd: the CI baseline's 6,000 rows take about 150 KB.
    """
    table = table_path(path)
    data = recording.summary.model_dump()
    data["format"] = FORMAT
    data["per_game"] = {"file": table.name, "digest": table_digest(recording.players)}
    summary = _validate(data, "the new baseline")
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp_table = temporary(table)
    tmp_yaml = temporary(path)
    table_data = pa.Table.from_pandas(recording.players, preserve_index=False)
    recorded_with = json.dumps({"box_digest": summary.box_digest,
                                "fingerprint": summary.fingerprint}, sort_keys=True)
    table_data = table_data.replace_schema_metadata(
        {**(table_data.schema.metadata or {}), _RECORDED_WITH: recorded_with.encode()})
    pq.write_table(table_data, tmp_table, compression="zstd", compression_level=19)
    tmp_yaml.write_text(dump_baseline(summary), encoding="utf-8")
    tmp_table.replace(table)
    tmp_yaml.replace(path)
    return summary


# --- comparing -----------------------------------------------------------------------------


MEAN = "mean"  # the kinds of comparison: a mean (VP or win rate), a quantile, a whole ECDF


def paired_on_seeds(base: pd.DataFrame, now: pd.DataFrame) -> bool:
    """Whether two per-game tables can be compared game by game: some game numbers are in
    both, and each of them was played with the same seed at the same player count (a replay of
    the baseline's experiment, even with changed rules or a changed game count)."""
    plan = ["game", "seed", "n_players"]
    a = base[plan].drop_duplicates().set_index("game")
    b = now[plan].drop_duplicates().set_index("game")
    common = a.index.intersection(b.index)
    return len(common) > 0 and a.loc[common].equals(b.loc[common])


def compare(baseline: Recording, now: Recording, *, paired: bool | None = None,
            distributions: bool = True, resamples: int = 500) -> pd.DataFrame:
    """One row per strategy x player count x comparison: every VP mean and the win rate
    (``kind`` "mean"), and for every VP column its whole distribution ("distribution") and
    each of the baseline's quantile levels ("quantile", with ``level``).

    When the current run replays the baseline's seeds (``paired_on_seeds``; ``paired`` forces
    the choice) the games pair: means and win rates are tested on per-game differences (paired
    t), quantile shifts by McNemar's form of Mood's test with paired bootstrap intervals.
    Otherwise the tests are unpaired (Welch, two-proportion z, Mood's test with independent
    bootstrap intervals). ``distributions=False`` leaves out the
    distribution and quantile rows (the means-only gate, for calibration). ``resamples`` is the
    size of the quantile intervals' bootstrap; the verdict does not depend on it.

    Columns: the two values, ``diff`` (now - baseline; for a distribution the KS distance,
    located ``at``) with its 95% interval, the test and its p-value, ``p_holm`` (Holm across
    every row), the tolerance, ``gain`` (variance reduction of a paired mean), ``sd`` (SD of
    the per-game differences), ``games`` compared, and the flags ``significant`` (p_holm <
    alpha), ``beyond`` (|diff| > tolerance) and ``alarm`` (both). The baseline's alpha,
    tolerances and quantile levels decide. ``table.attrs["paired"]`` says which tests ran.
    Raises BaselineError when the two do not hold the same groups and columns, which no test
    can bridge, or when pairing is forced on runs of other seeds.
    """
    reference = baseline.summary
    _check_same_shape(reference, now.summary)
    can_pair = paired_on_seeds(baseline.players, now.players)
    if paired and not can_pair:
        raise BaselineError("the runs cannot be compared game by game: they played other seeds")
    pair = can_pair if paired is None else paired
    rows = []
    for strategy, n, a, b in _groups_compared(baseline, now, pair):
        old, new = reference.groups[strategy][n], now.summary.groups[strategy][n]
        base = {"strategy": strategy, "players": n, "games": len(b) if pair else len(a)}
        for metric in [*reference.metrics, WIN_RATE]:
            x, y = a[metric].to_numpy(float), b[metric].to_numpy(float)
            if pair or metric != WIN_RATE:
                test = "paired t" if pair else "Welch t"
                shift = mean_shift(x, y, pair, CONFIDENCE)
            else:  # over player-games, as a win rate is read
                test = "2-prop z"
                diff, low, high, p = two_proportion_test(
                    old.win_rate * old.player_games, old.player_games,
                    new.win_rate * new.player_games, new.player_games, CONFIDENCE)
                shift = Shift(diff, low, high, p, gain=1.0)
            rows.append({**base, "metric": metric, "kind": MEAN, "baseline": x.mean(),
                         "now": y.mean(), **_shift(shift), "test": test,
                         "tolerance": reference.tolerance_for(metric)})
        if not distributions:
            continue
        for metric in reference.metrics:
            x, y = a[metric].to_numpy(float), b[metric].to_numpy(float)
            ks = distribution_shift(x, y)
            rows.append({**base, "metric": metric, "kind": DISTRIBUTION, "diff": ks.distance,
                         "at": ks.at, "p": ks.pvalue, "test": "KS",
                         "tolerance": reference.tolerance[DISTRIBUTION]})
            for level, (q_old, q_new, shift) in zip(
                    reference.quantiles,
                    quantile_shifts(x, y, reference.quantiles, pair, CONFIDENCE, resamples),
                    strict=True):
                rows.append({**base, "metric": metric, "kind": QUANTILE, "level": level,
                             "baseline": q_old, "now": q_new, **_shift(shift),
                             "test": "Mood/McNemar" if pair else "Mood",
                             "tolerance": reference.tolerance[QUANTILE]})
    table = pd.DataFrame(rows).reindex(columns=_COLUMNS)
    table["p_holm"] = holm(table["p"].tolist())
    table["significant"] = table["p_holm"] < reference.alpha
    table["beyond"] = table["diff"].abs() > table["tolerance"] + 1e-9
    table["alarm"] = table["significant"] & table["beyond"]
    table.attrs["paired"] = pair
    table.attrs["games"] = _games_compared(baseline.players, now.players, pair)
    return table


def _games_compared(base: pd.DataFrame, now: pd.DataFrame, paired: bool) -> int:
    """Games in the comparison: the common ones when paired, else the current run's."""
    if paired:
        return len(set(base["game"]) & set(now["game"]))
    return int(now["game"].nunique())


_COLUMNS = ["strategy", "players", "metric", "kind", "level", "baseline", "now", "diff", "low",
            "high", "at", "test", "p", "tolerance", "gain", "sd", "games"]


def _shift(shift: Shift) -> dict[str, float]:
    return {"diff": shift.diff, "low": shift.low, "high": shift.high, "p": shift.pvalue,
            "gain": shift.gain, "sd": shift.sd}


def _per_game(recording: Recording) -> pd.DataFrame:
    """Per player count, strategy and game: the strategy's mean of every VP column, and its
    win shares summed over its seats, scaled by its mean seats per game so that their mean is
    its win rate over player-games."""
    players = recording.players
    keys = ["n_players", "strategy", "game"]
    frame = per_game(players, recording.summary.metrics)
    wins = players.groupby(keys)["win_share"].agg(["sum", "size"])
    seats = wins["size"].groupby(level=keys[:2]).transform("mean")
    frame[WIN_RATE] = wins["sum"] / seats
    return frame


def _groups_compared(baseline: Recording, now: Recording, paired: bool
                     ) -> Iterator[tuple[str, int, pd.DataFrame, pd.DataFrame]]:
    """Per strategy and player count, the two per-game samples; paired: the common games only,
    in one order."""
    old, new = _per_game(baseline), _per_game(now)
    for strategy, n in sorted(baseline.summary.group_keys()):
        a = cast(pd.DataFrame, old.loc[(n, strategy)])
        b = cast(pd.DataFrame, new.loc[(n, strategy)])
        if paired:
            a, b = a.align(b, join="inner", axis=0)
        yield strategy, n, a, b


def samples(baseline: Recording, now: Recording, paired: bool, strategy: str, n: int,
            metric: str) -> tuple[np.ndarray, np.ndarray]:
    """The two per-game samples that one row of ``compare`` tested (for its figure)."""
    for s, count, a, b in _groups_compared(baseline, now, paired):
        if (s, count) == (strategy, n):
            return a[metric].to_numpy(float), b[metric].to_numpy(float)
    raise KeyError((strategy, n))


def _check_same_shape(baseline: Baseline, now: Baseline) -> None:
    problems = []
    if baseline.group_keys() != now.group_keys():
        problems.append(
            f"the strategies and player counts differ (baseline: {_groups(baseline)}; "
            f"now: {_groups(now)}); were the lineup or player counts changed?")
    if baseline.metrics != now.metrics:
        gone = sorted(set(baseline.metrics) - set(now.metrics))
        new = sorted(set(now.metrics) - set(baseline.metrics))
        problems.append(f"the VP columns differ (only in the baseline: {gone or 'none'}; "
                        f"only now: {new or 'none'})")
    if problems:
        failed = f" ({now.failed_games} of its games failed)" if now.failed_games else ""
        raise BaselineError(f"the baseline does not match this run{failed}: "
                            + "; ".join(problems)
                            + ". Record a new baseline with --update if this is intended.")


def _groups(baseline: Baseline) -> str:
    return ", ".join(f"{s} {n}p" for s, n in sorted(baseline.group_keys())) or "none"


def experiment_changes(baseline: Baseline, now: Baseline) -> list[str]:
    """What differs between the two runs' setups: worth saying next to the verdict, since a
    new seed or game count is expected noise while new variants or component files are not."""
    changes = [f"{key}: {baseline.experiment.get(key)!r} -> {now.experiment.get(key)!r}"
               for key in EXPERIMENT_KEYS[1:]
               if baseline.experiment.get(key) != now.experiment.get(key)]
    if baseline.box_digest != now.box_digest:
        changes.append(f"component files: digest {baseline.box_digest} -> {now.box_digest}")
    return changes


@dataclass(frozen=True)
class Verdict:
    """The gate's decision."""

    identical: bool  # the same games with the same scores: nothing to test
    alarms: int  # rows both Holm-significant and beyond their tolerance
    new_failures: int  # failed games beyond those the baseline had

    @property
    def passed(self) -> bool:
        return self.alarms == 0 and self.new_failures == 0


def verdict(baseline: Baseline, now: Baseline, table: pd.DataFrame) -> Verdict:
    return Verdict(identical=baseline.fingerprint == now.fingerprint,
                   alarms=int(table["alarm"].sum()),
                   new_failures=max(0, now.failed_games - baseline.failed_games))


# --- sample size ---------------------------------------------------------------------------


def comparisons(baseline: Baseline, distributions: bool = True) -> int:
    """How many tests the gate's Holm family holds (constant columns included)."""
    per_column = 1 + (1 + len(baseline.quantiles) if distributions else 0)
    groups = len(baseline.group_keys())
    return groups * (len(baseline.metrics) * per_column + 1)


def games_needed(baseline: Baseline, table: pd.DataFrame | None = None,
                 power: float = POWER) -> pd.DataFrame:
    """Per mean metric: games per run that detect a shift of one tolerance with ``power``, and
    the shift that the baseline's own number of games detects (``detectable``); with a paired
    comparison's ``table``, the same for paired tests (``paired``, ``paired_detectable``).

    The level is alpha / number of comparisons, the strictest step of Holm's procedure, so the
    figures hold whichever comparison it is. Each group's need is scaled by the share of the
    run's games that group plays in; the hardest group decides. Unpaired effect sizes come from
    the baseline's SDs (Cohen's d for VP means, Cohen's h for the win rate), paired ones from
    the SD of the per-game differences that the comparison saw (a one-sample test), all on the
    normal approximation. The paired need depends on the change: one that alters no decision
    leaves differences that barely vary, one that reshuffles every game leaves them as wide as
    two independent runs. NaN where there is no spread at all, so that any shift would stand
    out at once.
    """
    groups = [(s, n, g) for s, by_count in baseline.groups.items() for n, g in by_count.items()]
    level = baseline.alpha / comparisons(baseline)
    paired_sd = {}
    if table is not None and table.attrs.get("paired"):
        means = table[table["kind"] == MEAN]
        paired_sd = {(r.strategy, r.players, r.metric): (r.sd, r.games)
                     for r in means.itertuples()}
    rows = []
    for strategy, n, group in groups:
        for metric in [*baseline.metrics, WIN_RATE]:
            tolerance = baseline.tolerance_for(metric)
            if metric == WIN_RATE:
                units = group.player_games
                needed = _win_rate_sample(group.win_rate, tolerance, level, power)
                detectable = _win_rate_shift(group.win_rate, units, level, power)
            else:
                units = group.games
                needed, detectable = mean_sample_size(group.vp[metric].sd, units, tolerance,
                                                  level, power, two_sample=True)
            sd, games = paired_sd.get((strategy, n, metric), (math.nan, 0))
            paired, paired_detectable = mean_sample_size(sd, games, tolerance, level, power,
                                                     two_sample=False)
            rows.append({"metric": metric, "group": f"{strategy} {n}p", "tolerance": tolerance,
                         "games": _per_run(needed, units / baseline.games),
                         "detectable": detectable,
                         "paired": _per_run(paired, group.games / baseline.games),
                         "paired_detectable": paired_detectable})
    frame = pd.DataFrame(rows)
    order = {metric: i for i, metric in enumerate([*baseline.metrics, WIN_RATE])}

    def hardest(column: str) -> pd.DataFrame:
        return (frame.sort_values(column, ascending=False, na_position="last")
                .drop_duplicates("metric").set_index("metric"))

    unpaired, hardest_paired = hardest("games"), hardest("paired")
    result = unpaired[["tolerance", "games", "group"]].assign(
        detectable=frame.groupby("metric")["detectable"].max(), paired=hardest_paired["paired"],
        paired_group=hardest_paired["group"].where(hardest_paired["paired"].notna()),
        paired_detectable=frame.groupby("metric")["paired_detectable"].max())
    return result.sort_index(key=lambda m: m.map(order))


def _per_run(needed: float, share: float) -> float:
    return math.nan if math.isnan(needed) else math.ceil(needed / share)


def _win_rate_sample(rate: float, tolerance: float, level: float, power: float) -> float:
    """Player-games per run to see ``rate`` move by ``tolerance`` the harder way (Cohen's h is
    smaller towards 0.5)."""
    shifted = [r for r in (rate - tolerance, rate + tolerance) if 0 <= r <= 1 and r != rate]
    if not shifted:
        return math.nan
    effect = min(abs(cohens_h(r, rate)) for r in shifted)
    return reach_power(lambda n: normal_power(effect, n, level), power, 1, 1e15)


def _win_rate_shift(rate: float, units: int, level: float, power: float) -> float:
    """The win-rate shift that ``units`` player-games per run detect, the harder way: the
    inverse of Cohen's h, h = 2 asin(sqrt(p1)) - 2 asin(sqrt(p2))."""
    if units < 2:
        return math.nan
    h = reach_power(lambda effect: normal_power(effect, units, level), power, 1e-9, math.pi)
    angle = 2 * math.asin(math.sqrt(rate))
    shifts = [abs(math.sin(a / 2) ** 2 - rate) for a in (angle - h, angle + h)
              if 0 <= a <= math.pi]
    return max(shifts, default=math.nan)
