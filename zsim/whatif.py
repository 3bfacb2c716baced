"""The experiments a designer's what-if plays: a base and its variant, or one run per value.

``zsim compare``, ``zsim sweep`` and ``zsim.api`` all plan their batches here, so the command
line and a notebook play exactly the same games for the same request. Running the batches and
the statistics on them live elsewhere (``zsim.runner.batch``, ``zsim.compare``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import cast

import pandas as pd
import yaml

from zsim.paths import named_file, unknown_name
from zsim.rules.scoring import CATEGORIES
from zsim.runner.experiment import (
    DEFAULT_EXPERIMENT,
    Experiment,
    ExperimentError,
    load_experiment,
)
from zsim.stats import wilson_interval
from zsim.variants import Variants, parse
from zsim.yamlload import safe_load


def base_experiment(base: str | Path | Experiment | None) -> Experiment:
    """An experiment as given, read from its file, or the default one (None or 'default')."""
    if isinstance(base, Experiment):
        return base
    if base is None or str(base) == "default":
        return load_experiment(DEFAULT_EXPERIMENT)
    return load_experiment(experiment_file(str(base)))


def experiment_file(entry: str) -> Path:
    """An experiment file as given: a path, or a shipped experiment's name (``default``);
    a name that is neither is refused with the shipped names."""
    path = named_file("experiments", entry)
    if not path.is_file() and not Path(entry).suffix and "/" not in entry:
        raise ExperimentError(f"{entry}: not a file, and {unknown_name('experiments', entry)}")
    return path


def recording(experiment: Experiment) -> Experiment:
    """``experiment`` recording each game's course (``trajectories: vp``) unless it records
    more already: the commands that compare batches pair the game-experience metrics too
    (docs/experience.md), which need it, while a plain run records nothing by default, to keep
    its cost."""
    if experiment.trajectories != "off":
        return experiment
    return experiment.with_overrides(experiment.name, trajectories="vp")


def _experiment_or_variants(entry: str) -> Experiment | Variants:
    """An experiment file, or a variant (file or KEY=VALUE) to apply to the base."""
    path = named_file("experiments", entry)
    if path.suffix in (".yaml", ".yml") and path.is_file():
        try:
            return load_experiment(path)
        except ExperimentError:
            pass  # not an experiment: read it as a variant file
    return parse([entry])


def with_variants(base: Experiment, variants: Variants | Sequence[str],
                  source: str = "variant") -> Experiment:
    """``base`` with ``variants`` (parsed, or entries ``KEY=VALUE`` and variant files) added to
    its own (a repeated key takes the new value)."""
    if not isinstance(variants, Variants):
        variants = parse(list(variants))
    merged = {**base.variants, **dict(v.split("=", 1) for v in variants.as_strings())}
    return base.with_overrides(source, variants=merged)


def variant_experiment(base: Experiment, entries: Sequence[str],
                       jobs: int | None = None) -> Experiment:
    """What ``zsim compare BASE VARIANT...`` plays as its variant: each entry an experiment file
    (which replaces what came before) or a variant applied on top; always on the base's games
    and seed, so that game *i* is the same deal in both."""
    if not entries:
        raise ExperimentError("a comparison needs at least one variant")
    variant = base
    for entry in entries:
        found = _experiment_or_variants(entry)
        variant = found if isinstance(found, Experiment) else with_variants(variant, found)
    return variant.with_overrides("command line", games=base.games, seed=base.seed, jobs=jobs)


def sweep_values(spec: str) -> tuple[str, list]:
    """``KEY=V1,V2`` -> (KEY, [V1, V2]); values are YAML, so ``[1, 2],[3, 4]`` are two lists."""
    key, sep, values = spec.partition("=")
    if not sep or not key.strip():
        raise ExperimentError(f"{spec!r} is not KEY=V1,V2,...")
    try:
        parsed = safe_load(f"[{values}]")
    except yaml.YAMLError as error:
        raise ExperimentError(f"cannot read the values of {spec!r}: {error}") from error
    if len(parsed) < 2:
        raise ExperimentError(f"{spec!r}: give at least two values")
    _refuse_repeats(key.strip(), parsed)
    return key.strip(), parsed


def _refuse_repeats(key: str, values: list) -> None:
    """Refuse a value given twice (``6,6``, or ``6,06`` read as YAML): its two batches would
    be the same games, and the tables keyed by value could not tell them apart (the sweep
    failed after playing every game)."""
    def show(value: object) -> str:
        return value if isinstance(value, str) else json.dumps(value)

    for i, value in enumerate(values):
        if value in values[:i]:
            first = show(values[values.index(value)])
            again = "" if show(value) == first else f" (again as {show(value)})"
            raise ExperimentError(f"{key}: the value {first} is given twice{again}; give each "
                                  "value once")


def sweep_experiments(base: Experiment, key: str, values: Sequence) -> list[tuple[str, Experiment]]:
    """One experiment per value of the variant ``key``, each labelled by the value as shown
    (strings as they are, anything else as JSON), all on the base's games and seed."""
    planned = []
    for value in values:
        shown = value if isinstance(value, str) else json.dumps(value)
        planned.append((shown, base.with_overrides(f"{key}={shown}",
                                                   variants={**base.variants, key: shown})))
    return planned


def sweep_summary(players: pd.DataFrame, value: object) -> pd.DataFrame:
    """Per player count and strategy: the games played at that player count, the games the
    strategy sat in, its win rate with its interval, mean VP by category."""
    finished = players[~players["failed"]] if "failed" in players else players
    played = finished.groupby("n_players")["game"].nunique()
    rows = []
    for (n_players, strategy), group in finished.groupby(["n_players", "strategy"]):
        low, high = wilson_interval(group["win_share"].sum(), len(group))
        rows.append({"value": value, "n_players": n_players, "strategy": strategy,
                     "games_played": int(played[cast("int", n_players)]),
                     "games": group["game"].nunique(),
                     "win_rate": group["win_share"].mean(),
                     "win_low": low, "win_high": high, "vp_total": group["vp_total"].mean(),
                     **{c: group[c].mean() for c in CATEGORIES}})
    return pd.DataFrame(rows)
