"""``zsim effects KIND``: what each setup component of a kind does, forced in against kept out."""

from __future__ import annotations

from pathlib import Path

import click
import pandas as pd

from zsim.cli.batches import EXPERIMENT, PRECISION, Batch, run_options, run_players, staged
from zsim.experience.whatif import pair_runs
from zsim.options import KINDS, OptionError
from zsim.runner.experiment import Experiment, ExperimentError
from zsim.sequential import difference_sequences, pooled, stage_dir, stage_seed


def _components(experiment: Experiment, kind: str, only: tuple[str, ...]) -> tuple[
        list[str], dict[str, str]]:
    """The components to measure, and those skipped with the reason (one setup cannot both
    force and exclude, e.g. a tile every game lays out with this player count)."""
    from zsim.components import BoxError
    from zsim.rules.constraints import check, component_ids
    from zsim.rules.tables import compile_tables

    try:
        box = experiment.variant_set().load_box(experiment.box_dir())
    except (BoxError, OSError) as error:
        raise ExperimentError(f"{experiment.name}: key 'box': {error}") from None
    tables = compile_tables(box)
    ids = component_ids(box, tables, kind)
    unknown = sorted(set(only) - set(ids))
    if unknown:
        raise click.BadParameter(f"unknown {KINDS[kind]} {unknown[0]!r}; known: "
                                 f"{', '.join(ids)}", param_hint="--only")
    chosen, skipped = [], {}
    for component in (c for c in ids if not only or c in only):
        try:
            for mode in ("force", "exclude"):
                options = experiment.options().with_variants([f"setup.{mode}.{kind}={component}"])
                for count in experiment.players:
                    check(box, tables, count, options)
        except OptionError as error:
            skipped[component] = str(error)
            continue
        chosen.append(component)
    return chosen, skipped


@click.command("effects")
@click.argument("kind", type=click.Choice(list(KINDS)))
@EXPERIMENT
@click.option("--only", multiple=True, metavar="ID",
              help="Measure only this component (repeatable; default: every one of KIND).")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="Directory for the batches, effects.csv and the report.")
@run_options
@PRECISION
def command(kind: str, experiment_path: str | None, only: tuple[str, ...], out: Path,
            batch: Batch, precision: float | None) -> None:
    """Play, for each component of KIND, the experiment with it forced into play and with it
    excluded, on the same game seeds, and report the paired effect of having it in play on
    each strategy's win rate and on mean VP.
    """
    from zsim.causal import causal_table, component_effect

    try:
        base = batch.base(experiment_path)
        components, skipped = _components(base, kind, only)
        if not components:
            raise click.ClickException(f"no {KINDS[kind]} can be both forced and excluded in "
                                       f"{base.name}: " + "; ".join(skipped.values()))

        def play(stage: int) -> dict[str, tuple[pd.DataFrame, pd.DataFrame]]:
            played = {}
            for component in components:
                batches = []
                for mode in ("exclude", "force"):
                    key = f"setup.{mode}.{kind}"
                    experiment = base.with_overrides(
                        f"{key}={component}", variants={**base.variants, key: component},
                        seed=stage_seed(base.seed, stage))
                    batches.append(run_players(experiment,
                                               stage_dir(out, stage) / component / mode,
                                               batch.quiet))
                played[component] = (batches[0], batches[1])
            return played

        def both(done: list, component: str) -> tuple[pd.DataFrame, pd.DataFrame]:
            return (pooled([stage[component][0] for stage in done]),
                    pooled([stage[component][1] for stage in done]))

        stages = staged(precision, play, lambda done: pd.concat(
            [difference_sequences(*both(done, c), base.games).assign(component=c)
             for c in components], ignore_index=True), out)
        effects = {c: component_effect(*both(stages, c)) for c in components}
    except (ExperimentError, OptionError) as error:
        raise click.ClickException(str(error)) from error
    table = causal_table(effects, kind)
    table.to_csv(out / "effects.csv", index=False)
    # the experience is paired on the first stage's games (its runs are in ``out`` itself)
    experience = pair_runs([(component, out / component / "exclude", out / component / "force")
                            for component in effects])
    experience.write_csv(out)
    from zsim.reports.causal import write_causal_report  # matplotlib only when needed

    built = write_causal_report(table, out, kind, base, skipped, experience.sections())
    for component, why in skipped.items():
        click.echo(f"skipped {component}: {why}", err=True)
    click.echo(_format(table))
    click.echo(experience.text())
    click.echo(f"report: {built.index}")


def _format(table: pd.DataFrame) -> str:
    """Per component, player count and strategy: the win-rate effect in points, the VP effect,
    each with its interval."""
    shown = table.assign(
        scaled=[f"{d * k:+.1f} [{lo * k:+.1f}, {hi * k:+.1f}]{'*' if sig else ''}"
                for d, lo, hi, k, sig in zip(
                    table["difference"], table["low"], table["high"],
                    [100 if m == "win_share" else 1 for m in table["metric"]],
                    table["significant"], strict=True)],
        measure=table["metric"].map({"win_share": "win rate (points)", "vp_total": "VP"}))
    wide = shown.pivot_table(index=["component", "n_players", "strategy"], columns="measure",
                             values="scaled", aggfunc="first", sort=False).fillna("")
    return wide.to_string() + "\n(* significant after Holm over this table)"
