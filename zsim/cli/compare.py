"""``zsim compare`` and ``zsim sweep``: designer what-ifs on common random numbers."""

from __future__ import annotations

from pathlib import Path

import click
import pandas as pd

from zsim.cli.batches import run_options, run_players
from zsim.compare import paired_differences, variance_reduction, verdict
from zsim.runner.experiment import (
    DEFAULT_EXPERIMENT,
    Experiment,
    ExperimentError,
    load_experiment,
)
from zsim.variants import Variants, parse


def _experiment_or_variants(entry: str) -> Experiment | Variants:
    """An experiment file, or a variant (file or KEY=VALUE) to apply to the base."""
    path = Path(entry)
    if path.suffix in (".yaml", ".yml") and path.is_file():
        try:
            return load_experiment(path)
        except ExperimentError:
            pass  # not an experiment: read it as a variant file
    return parse([entry])


def _apply(base: Experiment, variants: Variants) -> Experiment:
    merged = {**base.variants, **dict(v.split("=", 1) for v in variants.as_strings())}
    return base.with_overrides("variant", variants=merged)


@click.command("compare")
@click.argument("base")
@click.argument("variant", nargs=-1, required=True)
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="Directory for both runs, the comparison table and its report.")
@run_options
def command(base: str, variant: tuple[str, ...], out: Path, games: int | None,
            jobs: int | None, seed: int | None, quiet: bool) -> None:
    """Play BASE and VARIANT on the same game seeds and report paired differences.

    BASE is an experiment file (or 'default'); each VARIANT is an experiment file, a variant
    file or KEY=VALUE applied to BASE.
    """
    try:
        base_experiment = load_experiment(DEFAULT_EXPERIMENT if base == "default" else base)
        base_experiment = base_experiment.with_overrides("command line", games=games, jobs=jobs,
                                                         seed=seed)
        variant_experiment = base_experiment
        for entry in variant:
            found = _experiment_or_variants(entry)
            variant_experiment = found if isinstance(found, Experiment) else _apply(
                variant_experiment, found)
        variant_experiment = variant_experiment.with_overrides(
            "command line", games=base_experiment.games, seed=base_experiment.seed, jobs=jobs)
        before = run_players(base_experiment, out / "base", quiet)
        after = run_players(variant_experiment, out / "variant", quiet)
    except (ExperimentError, ValueError) as error:
        raise click.ClickException(str(error)) from error
    table = paired_differences(before, after)
    table.to_csv(out / "comparison.csv", index=False)
    variance_reduction(table).to_csv(out / "variance_reduction.csv", index=False)
    report = _write_report(table, out, base_experiment, variant_experiment)
    click.echo(_format(table))
    click.echo(verdict(table))
    click.echo(f"report: {report}")


def _format(table: pd.DataFrame) -> str:
    shown = table[table["metric"].isin(["win_share", "vp_total"]) | table["significant"]]
    columns = ["n_players", "strategy", "metric", "games", "base", "variant", "difference",
               "low", "high", "adjusted"]
    return shown[columns].to_string(index=False, float_format=lambda v: f"{v:.3f}")


def _write_report(table: pd.DataFrame, out: Path, base: Experiment,
                  variant: Experiment) -> Path:
    from reports.compare import write_comparison_report  # matplotlib only when needed

    return write_comparison_report(table, out, base, variant).index
