"""``zsim sweep KEY=V1,V2,...``: one batch per value on the same seeds, and their effect."""

from __future__ import annotations

from pathlib import Path

import click
import pandas as pd

from zsim.cli.batches import EXPERIMENT, PRECISION, Batch, run_options, run_players, staged
from zsim.compare import paired_differences, variance_reduction, verdict
from zsim.experience.whatif import pair_runs
from zsim.runner.experiment import ExperimentError
from zsim.sequential import difference_sequences, pooled, stage_dir, stage_seed
from zsim.whatif import sweep_experiments, sweep_summary, sweep_values


@click.command("sweep")
@click.argument("sweep")
@EXPERIMENT
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="Directory for one run per value, the table and the report.")
@run_options
@PRECISION
def command(sweep: str, experiment_path: str | None, out: Path, batch: Batch,
            precision: float | None) -> None:
    """Run the experiment once per value of KEY (a variant key) on the same game seeds.

    Every value after the first is compared with the first game by game, as `zsim compare`
    compares a variant with its base: paired differences with intervals and Holm-corrected
    tests (sweep_differences.csv), and how much pairing narrowed them
    (variance_reduction.csv).
    """
    try:
        key, values = sweep_values(sweep)
    except ExperimentError as error:
        raise click.BadParameter(str(error), param_hint="SWEEP") from error
    try:
        base = batch.base(experiment_path)
        planned = sweep_experiments(base, key, values)

        def play(stage: int) -> list[pd.DataFrame]:
            seed = stage_seed(base.seed, stage)
            return [run_players(experiment.with_overrides(seed=seed),
                                stage_dir(out, stage) / f"value-{i}", batch.quiet)
                    for i, (_, experiment) in enumerate(planned)]

        def intervals(done: list[list[pd.DataFrame]]) -> pd.DataFrame:
            by_value = [pooled([stage[i] for stage in done]) for i in range(len(planned))]
            return pd.concat([difference_sequences(by_value[0], players, base.games)
                              .assign(value=shown)
                              for (shown, _), players in zip(planned[1:], by_value[1:],
                                                              strict=True)],
                             ignore_index=True)

        stages = staged(precision, play, intervals, out)
        runs = [(shown, pooled([stage[i] for stage in stages]))
                for i, (shown, _) in enumerate(planned)]
        frames = [sweep_summary(players, shown) for shown, players in runs]
    except (ExperimentError, ValueError) as error:
        raise click.ClickException(str(error)) from error
    table = pd.concat(frames, ignore_index=True)
    table.to_csv(out / "sweep.csv", index=False)
    differences = pd.concat([paired_differences(runs[0][1], players).assign(value=shown)
                             for shown, players in runs[1:]], ignore_index=True)
    differences = differences[["value", *differences.columns[:-1]]]
    differences.to_csv(out / "sweep_differences.csv", index=False)
    variance_reduction(differences).to_csv(out / "variance_reduction.csv", index=False)
    experience = pair_runs([(f"{key}={shown}", out / "value-0", out / f"value-{i}")
                            for i, (shown, _) in enumerate(runs) if i])
    experience.write_csv(out)
    from zsim.reports.whatif import write_sweep_report  # matplotlib only when needed

    built = write_sweep_report(table, differences, out, key, experience.sections())
    click.echo(table[["value", "n_players", "strategy", "games", "win_rate", "vp_total"]]
               .to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    for shown, rows in differences.groupby("value", sort=False):
        click.echo(f"{key}={shown} against {key}={runs[0][0]}: "
                   f"{verdict(rows, changed=[key])}")
    click.echo(experience.text())
    click.echo(f"report: {built.index}")
