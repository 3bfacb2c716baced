"""``zsim compare`` and ``zsim sweep``: designer what-ifs on common random numbers."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click
import pandas as pd

from zsim.cli.batches import PRECISION, Batch, run_options, run_players, staged
from zsim.compare import paired_differences, variance_reduction, verdict
from zsim.experience.whatif import PairedExperience, pair_runs
from zsim.runner.experiment import ExperimentError
from zsim.sequential import difference_sequences, pooled, stage_dir, stage_seed
from zsim.whatif import variant_experiment

if TYPE_CHECKING:
    from zsim.runner.experiment import Experiment


@click.command("compare")
@click.argument("base")
@click.argument("variant", nargs=-1, required=True)
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="Directory for both runs, the comparison table and its report.")
@run_options
@PRECISION
def command(base: str, variant: tuple[str, ...], out: Path, batch: Batch,
            precision: float | None) -> None:
    """Play BASE and VARIANT on the same game seeds and report paired differences.

    BASE is an experiment (a file, or a shipped name: 'default'); each VARIANT is an
    experiment, a variant (a file, a shipped name such as palace_vp_8, `zsim variants`) or
    KEY=VALUE applied to BASE; -n, -s and --variant change BASE (and so both). With
    --until-precision, later stages go into OUT/stage-K/base and OUT/stage-K/variant.
    """
    try:
        before_experiment = batch.base(base)
        after_experiment = variant_experiment(before_experiment, variant, jobs=batch.jobs)

        def play(stage: int) -> tuple[pd.DataFrame, pd.DataFrame]:
            seed = stage_seed(before_experiment.seed, stage)
            where = stage_dir(out, stage)
            return (run_players(before_experiment.with_overrides(seed=seed), where / "base",
                                batch.quiet),
                    run_players(after_experiment.with_overrides(seed=seed), where / "variant",
                                batch.quiet))

        stages = staged(precision, play, lambda done: difference_sequences(
            pooled([b for b, _ in done]), pooled([a for _, a in done]), before_experiment.games),
            out)
        before, after = pooled([b for b, _ in stages]), pooled([a for _, a in stages])
    except (ExperimentError, ValueError) as error:
        raise click.ClickException(str(error)) from error
    table = paired_differences(before, after)
    table.to_csv(out / "comparison.csv", index=False)
    variance_reduction(table).to_csv(out / "variance_reduction.csv", index=False)
    experience = pair_runs([("", out / "base", out / "variant")])
    experience.write_csv(out)
    report = _write_report(table, out, before_experiment, after_experiment, experience)
    click.echo(_format(table))
    click.echo(verdict(table, changed=_changed(before_experiment, after_experiment)))
    click.echo(experience.text())
    click.echo(f"report: {report}")


def _changed(base: Experiment, variant: Experiment) -> list[str]:
    """The variant keys the variant sets differently from the base."""
    return sorted(k for k, v in variant.variants.items() if base.variants.get(k) != v)


def _format(table: pd.DataFrame) -> str:
    shown = table[table["metric"].isin(["win_share", "vp_total"]) | table["significant"]]
    columns = ["n_players", "strategy", "metric", "games", "base", "variant", "difference",
               "low", "high", "adjusted"]
    # A difference of too few games has no interval and no test: a dash, not "NaN".
    return shown[columns].to_string(index=False, float_format=lambda v: f"{v:.3f}",
                                    na_rep="–")


def _write_report(table: pd.DataFrame, out: Path, base: Experiment,
                  variant: Experiment, experience: PairedExperience) -> Path:
    from zsim.reports.whatif import write_comparison_report  # matplotlib only when needed

    return write_comparison_report(table, out, base, variant, experience.sections()).index
