"""``zsim sweep KEY=V1,V2,...``: one batch per value on the same seeds, and their effect."""

from __future__ import annotations

import json
from pathlib import Path

import click
import pandas as pd
import yaml

from zsim.cli.batches import run_options, run_players
from zsim.rules.scoring import CATEGORIES
from zsim.runner.experiment import DEFAULT_EXPERIMENT, Experiment, ExperimentError, load_experiment
from zsim.stats import wilson_interval
from zsim.yamlload import safe_load


def sweep_values(spec: str) -> tuple[str, list]:
    """``KEY=V1,V2`` -> (KEY, [V1, V2]); values are YAML, so ``[1, 2],[3, 4]`` are two lists."""
    key, sep, values = spec.partition("=")
    if not sep or not key.strip():
        raise click.BadParameter(f"{spec!r} is not KEY=V1,V2,...", param_hint="SWEEP")
    try:
        parsed = safe_load(f"[{values}]")
    except yaml.YAMLError as error:
        raise click.BadParameter(f"cannot read the values of {spec!r}: {error}",
                                 param_hint="SWEEP") from error
    if len(parsed) < 2:
        raise click.BadParameter(f"{spec!r}: give at least two values", param_hint="SWEEP")
    return key.strip(), parsed


def summarize(players: pd.DataFrame, value: object) -> pd.DataFrame:
    """Per player count and strategy: games, win rate with its interval, mean VP by category."""
    finished = players[~players["failed"]] if "failed" in players else players
    rows = []
    for (n_players, strategy), group in finished.groupby(["n_players", "strategy"]):
        low, high = wilson_interval(group["win_share"].sum(), len(group))
        rows.append({"value": value, "n_players": n_players, "strategy": strategy,
                     "games": group["game"].nunique(), "win_rate": group["win_share"].mean(),
                     "win_low": low, "win_high": high, "vp_total": group["vp_total"].mean(),
                     **{c: group[c].mean() for c in CATEGORIES}})
    return pd.DataFrame(rows)


@click.command("sweep")
@click.argument("sweep")
@click.option("--experiment", "experiment_path", type=click.Path(dir_okay=False, exists=True),
              default=None, help="Experiment to sweep (default: configs/experiments/default).")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="Directory for one run per value, the table and the report.")
@run_options
def command(sweep: str, experiment_path: str | None, out: Path, games: int | None,
            jobs: int | None, seed: int | None, quiet: bool) -> None:
    """Run the experiment once per value of KEY (a variant key) on the same game seeds."""
    key, values = sweep_values(sweep)
    try:
        base: Experiment = load_experiment(experiment_path or DEFAULT_EXPERIMENT)
        base = base.with_overrides("command line", games=games, jobs=jobs, seed=seed)
        frames = []
        for i, value in enumerate(values):
            shown = value if isinstance(value, str) else json.dumps(value)
            experiment = base.with_overrides(f"{key}={shown}",
                                             variants={**base.variants, key: shown})
            players = run_players(experiment, out / f"value-{i}", quiet)
            frames.append(summarize(players, shown))
    except (ExperimentError, ValueError) as error:
        raise click.ClickException(str(error)) from error
    table = pd.concat(frames, ignore_index=True)
    table.to_csv(out / "sweep.csv", index=False)
    from reports.compare import write_sweep_report  # matplotlib only when needed

    built = write_sweep_report(table, out, key)
    click.echo(table[["value", "n_players", "strategy", "games", "win_rate", "vp_total"]]
               .to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    click.echo(f"report: {built.index}")
