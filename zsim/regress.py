"""The regression gate on score distributions: summarise a run into a baseline, compare two.

A baseline keeps, per strategy and player count, only what the two-sample tests need: the number
of games, the mean and SD of every VP column, and the win rate. That keeps the file small enough
to read in a code review and to diff, and lets a comparison run without the baseline's tables.
Games are deterministic, so an unchanged engine replays the baseline's games exactly; a
fingerprint of the scores tells that case apart without any statistics.

The VP tests take one observation per game (the strategy's mean over its seats at that table),
not one per player-game: players at one table share its setup and length, so their scores are
not independent, while separate games are. The win-rate test counts player-games, as a win rate
is read; seats of one game compete for a single win, which only makes that test conservative.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow.parquet as pq
import scipy
import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from zsim.components import default_box_dir
from zsim.runner.experiment import IDENTITY_FIELDS, Experiment, ExperimentError, parse_experiment
from zsim.runner.writer import RUN_JSON, read_json
from zsim.stats import cohens_h, holm, two_proportion_test, welch_test_from_stats
from zsim.validation import describe, read_yaml

FORMAT = 1
VP_TOTAL = "vp_total"
WIN_RATE = "win_rate"
DEFAULT_ALPHA = 0.05
# "vp" applies to every VP mean without a tolerance of its own; "win_rate" is absolute.
DEFAULT_TOLERANCE: dict[str, float] = {"vp": 1.0, WIN_RATE: 0.02}
POWER = 0.9
CONFIDENCE = 0.95

# What the baseline records of the experiment: the keys that decide the games, and a label.
EXPERIMENT_KEYS = ("name", *IDENTITY_FIELDS, "box")
# The scoring columns of players.parquet that the fingerprint covers (plus every vp_* column).
_FINGERPRINT_KEYS = ["game", "seed", "n_players", "seat", "strategy", "rank", "win_share"]
_HEADER = """\
# zsim regression baseline (docs/regress.md). Written by `zsim regress --update`; edit only
# `alpha` and `tolerance` by hand. Per strategy and player count: `games` it played, the mean
# and SD over those games of its per-game mean of every VP column, its `player_games` and
# `win_rate` (a shared win counts 1/k).
"""


class BaselineError(ValueError):
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
    groups: dict[str, dict[int, Group]]

    @field_validator("format")
    @classmethod
    def _known_format(cls, value: int) -> int:
        if value != FORMAT:
            raise ValueError(f"format {value} is not the one this zsim reads ({FORMAT})")
        return value

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
                      alpha: float | None = None) -> Baseline:
        """A copy with tolerances added or replaced and/or another alpha, validated again."""
        data = self.model_dump()
        data["tolerance"] = {**self.tolerance, **(tolerance or {})}
        if alpha is not None:
            data["alpha"] = alpha
        return _validate(data, "the given tolerance/alpha")


# --- summarising a run ---------------------------------------------------------------------


def vp_columns(columns: list[str]) -> list[str]:
    """The VP columns of a players table: the total and every ``vp_*`` category."""
    return sorted((c for c in columns if c.startswith("vp_")), key=lambda c: (c != VP_TOTAL, c))


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
    keys = ["strategy", "n_players"]
    per_game = players.groupby([*keys, "game"])[metrics].mean()
    mean = per_game.groupby(level=keys).mean()
    sd = per_game.groupby(level=keys).std(ddof=1).fillna(0.0)
    games = per_game.groupby(level=keys).size()
    seats = players.groupby(keys)["win_share"].agg(["sum", "size"])
    groups: dict[str, dict[int, Group]] = {}
    for strategy, n in games.index:
        groups.setdefault(str(strategy), {})[int(n)] = Group(
            games=int(games[strategy, n]),
            player_games=int(seats.loc[(strategy, n), "size"]),
            win_rate=round(float(seats.loc[(strategy, n), "sum"] /
                                 seats.loc[(strategy, n), "size"]), 6),
            vp={m: Moments(mean=_round(mean.loc[(strategy, n), m]),
                           sd=_round(sd.loc[(strategy, n), m])) for m in metrics})
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


def read_run(run_dir: Path) -> Baseline:
    """Summarise a finished run directory; only the scoring columns are read."""
    path = run_dir / RUN_JSON
    if not path.is_file():
        raise BaselineError(f"{run_dir}: no {RUN_JSON}, so not a zsim run directory")
    manifest = read_json(path)
    if manifest.get("status") != "complete":
        raise BaselineError(f"{run_dir}: the run is {manifest.get('status')}, not complete; "
                            f"finish it with: zsim run --resume {run_dir}")
    players_path = run_dir / "players.parquet"
    try:
        names = pq.ParquetFile(players_path).schema_arrow.names
        players = pd.read_parquet(players_path, columns=[*_FINGERPRINT_KEYS, *vp_columns(names)])
        failed = pd.read_parquet(run_dir / "games.parquet", columns=["failed"])["failed"]
    except (OSError, ValueError) as error:  # pyarrow's errors derive from these
        raise BaselineError(f"{run_dir}: cannot read its tables: {error}") from None
    try:
        experiment = parse_experiment(manifest["experiment"], str(path))
    except ExperimentError as error:
        raise BaselineError(str(error)) from None
    return summarize(players, experiment=experiment,
                     box_digest=manifest.get("box_digest"), failed_games=int(failed.sum()))


# --- the file ------------------------------------------------------------------------------


def load_baseline(path: Path) -> Baseline:
    """Read a baseline file, with errors that name the file and the key."""
    data = read_yaml(path, BaselineError)
    if not isinstance(data, dict):
        raise BaselineError(f"{path}: a baseline is a mapping of keys (see docs/regress.md), "
                            f"got {type(data).__name__}")
    return _validate(data, str(path))


def load_reference(path: Path, tolerance: Mapping[str, float] | None = None,
                   alpha: float | None = None) -> Baseline:
    """A baseline file or a run directory, as a baseline; tolerance/alpha override its own."""
    baseline = read_run(path) if path.is_dir() else load_baseline(path)
    return baseline.with_settings(tolerance, alpha) if tolerance or alpha else baseline


def _validate(data: dict[str, Any], source: str) -> Baseline:
    try:
        return Baseline.model_validate(data)
    except ValidationError as error:
        raise BaselineError(describe(error, source)) from None


class _Dumper(yaml.SafeDumper):
    """Block style, except a mapping of plain values (mean and SD) stays on one line."""

    def represent_dict(self, data: Mapping[Any, Any]) -> yaml.Node:  # type: ignore[override]
        node = super().represent_dict(data)
        node.flow_style = all(not isinstance(v, dict | list) for v in data.values())
        return node


_Dumper.add_representer(dict, _Dumper.represent_dict)


def dump_baseline(baseline: Baseline) -> str:
    """The baseline as YAML: sorted keys, one line per VP column, a header saying what it is.

    Nothing in it depends on when or where it was written, so re-recording an unchanged
    engine gives the same bytes.
    """
    body = yaml.dump(baseline.model_dump(), Dumper=_Dumper, sort_keys=True, width=100,
                     default_flow_style=False)
    return _HEADER + body


def write_baseline(path: Path, baseline: Baseline) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(dump_baseline(baseline), encoding="utf-8")
    tmp.replace(path)


# --- comparing -----------------------------------------------------------------------------


def compare(baseline: Baseline, now: Baseline) -> pd.DataFrame:
    """One row per strategy x player count x metric (every VP mean and the win rate).

    Columns: the two values, ``diff`` (now - baseline) with its 95% interval, the test and its
    p-value, ``p_holm`` (Holm across every row), the tolerance, and the flags ``significant``
    (p_holm < alpha), ``beyond`` (|diff| > tolerance) and ``alarm`` (both). The baseline's
    alpha and tolerances decide. Raises BaselineError when the two do not hold the same groups
    and columns, which no test can bridge.
    """
    _check_same_shape(baseline, now)
    rows = []
    for strategy, n in sorted(baseline.group_keys()):
        old, new = baseline.groups[strategy][n], now.groups[strategy][n]
        for metric in baseline.metrics:
            a, b = old.vp[metric], new.vp[metric]
            test = welch_test_from_stats(a.mean, a.sd, old.games, b.mean, b.sd, new.games,
                                         CONFIDENCE)
            rows.append(_row(strategy, n, metric, a.mean, b.mean, "Welch t", test,
                             baseline.tolerance_for(metric)))
            if metric == VP_TOTAL:
                test = two_proportion_test(old.win_rate * old.player_games, old.player_games,
                                           new.win_rate * new.player_games, new.player_games,
                                           CONFIDENCE)
                rows.append(_row(strategy, n, WIN_RATE, old.win_rate, new.win_rate,
                                 "2-prop z", test, baseline.tolerance_for(WIN_RATE)))
    table = pd.DataFrame(rows)
    table["p_holm"] = holm(table["p"].tolist())
    table["significant"] = table["p_holm"] < baseline.alpha
    table["beyond"] = table["diff"].abs() > table["tolerance"] + 1e-9
    table["alarm"] = table["significant"] & table["beyond"]
    return table


def _row(strategy: str, n: int, metric: str, old: float, new: float, test_name: str,
         test: tuple[float, float, float, float], tolerance: float) -> dict[str, Any]:
    diff, low, high, p = test
    return {"strategy": strategy, "players": n, "metric": metric, "baseline": old, "now": new,
            "diff": diff, "low": low, "high": high, "test": test_name, "p": p,
            "tolerance": tolerance}


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


def games_needed(baseline: Baseline, power: float = POWER) -> pd.DataFrame:
    """Per metric: games per run that detect a shift of one tolerance with ``power``, and the
    shift that the baseline's own number of games detects (``detectable``).

    The level is alpha / number of comparisons, the strictest step of Holm's procedure, so the
    figures hold whichever comparison it is. Each group's need is scaled by the share of the
    run's games that group plays in; the hardest group decides. Effect sizes come from the
    baseline's SDs (Cohen's d for VP means, Cohen's h for the win rate), both on the normal
    approximation. NaN where the baseline shows no spread at all, so that any shift would
    stand out at once.
    """
    groups = [(s, n, g) for s, by_count in baseline.groups.items() for n, g in by_count.items()]
    level = baseline.alpha / (len(groups) * (len(baseline.metrics) + 1))
    rows = []
    for strategy, n, group in groups:
        for metric in [*baseline.metrics, WIN_RATE]:
            tolerance = baseline.tolerance_for(metric)
            if metric == WIN_RATE:
                units = group.player_games
                needed = _win_rate_sample(group.win_rate, tolerance, level, power)
                detectable = _win_rate_shift(group.win_rate, units, level, power)
            else:
                units, sd = group.games, group.vp[metric].sd
                spread = sd > 0 and units > 1
                needed = (_reach(lambda n, d=tolerance / sd: _power(d, n, level), power,
                                 1, 1e15) if spread and tolerance > 0 else math.nan)
                detectable = (sd * _reach(lambda d, n=units: _power(d, n, level), power,
                                          1e-9, 1e3) if spread else math.nan)
            share = units / baseline.games
            rows.append({"metric": metric, "group": f"{strategy} {n}p", "tolerance": tolerance,
                         "games": math.nan if math.isnan(needed) else math.ceil(needed / share),
                         "detectable": detectable})
    frame = pd.DataFrame(rows)
    order = {metric: i for i, metric in enumerate([*baseline.metrics, WIN_RATE])}
    hardest = (frame.sort_values("games", ascending=False, na_position="last")
               .drop_duplicates("metric").sort_values("metric", key=lambda m: m.map(order))
               .set_index("metric"))
    hardest["detectable"] = frame.groupby("metric")["detectable"].max()
    return hardest


def _win_rate_sample(rate: float, tolerance: float, level: float, power: float) -> float:
    """Player-games per run to see ``rate`` move by ``tolerance`` the harder way (Cohen's h is
    smaller towards 0.5)."""
    shifted = [r for r in (rate - tolerance, rate + tolerance) if 0 <= r <= 1 and r != rate]
    if not shifted:
        return math.nan
    effect = min(abs(cohens_h(r, rate)) for r in shifted)
    return _reach(lambda n: _power(effect, n, level), power, 1, 1e15)


def _win_rate_shift(rate: float, units: int, level: float, power: float) -> float:
    """The win-rate shift that ``units`` player-games per run detect, the harder way: the
    inverse of Cohen's h, h = 2 asin(sqrt(p1)) - 2 asin(sqrt(p2))."""
    if units < 2:
        return math.nan
    h = _reach(lambda effect: _power(effect, units, level), power, 1e-9, math.pi)
    angle = 2 * math.asin(math.sqrt(rate))
    shifts = [abs(math.sin(a / 2) ** 2 - rate) for a in (angle - h, angle + h)
              if 0 <= a <= math.pi]
    return max(shifts, default=math.nan)


def _power(effect: float, n: float, level: float) -> float:
    """The power of a two-sample test by statsmodels' normal approximation (imported when first
    needed, see ``zsim.stats``). With the hundreds of games a baseline holds it agrees with the
    t distribution to well under 1%, while statsmodels' t power turns NaN for the large samples
    that small effects at Holm's levels need."""
    from statsmodels.stats.power import NormalIndPower

    return NormalIndPower().power(effect, n, level)


def _reach(power_at: Callable[[float], float], target: float, low: float, high: float) -> float:
    """Where a power curve that rises with its argument (sample size or effect size) reaches
    ``target``, NaN if not below ``high``.

    statsmodels' ``solve_power`` can settle on a wrong root for small effects at small alpha
    (it gave fewer games for a stricter level), so the bracket grows by doubling from ``low``
    and a bracketed search finishes.
    """
    lower, upper = low, 2 * low
    while power_at(upper) < target:
        if upper >= high:
            return math.nan
        lower, upper = upper, 2 * upper
    return float(scipy.optimize.brentq(lambda x: power_at(x) - target, lower, upper, xtol=1e-9))
