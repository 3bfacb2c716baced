"""``zsim balance KEY=LOW..HIGH``: the component value that best evens the field's win shares."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from zsim.cli.batches import EXPERIMENT, Batch, run_options


def _target(text: str | None) -> tuple[str, float] | None:
    if text is None:
        return None
    name, sep, share = text.rpartition("=")
    try:
        value = float(share)
    except ValueError:
        value = -1.0
    if not sep or not name or not 0 <= value <= 1:
        raise click.BadParameter(f"{text!r} is not STRATEGY=SHARE with a share in [0, 1]",
                                 param_hint="--target")
    return name, value


@click.command("balance")
@click.argument("ranges", nargs=-1, required=True)
@EXPERIMENT
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="Directory for one run per value, the curve and its figure.")
@click.option("--points", type=click.IntRange(min=2), default=5, show_default=True,
              help="Values per key in the coarse grid and in each refinement.")
@click.option("--rounds", type=click.IntRange(min=0), default=1, show_default=True,
              help="Refinements around the best value.")
@click.option("--target", default=None,
              help="STRATEGY=SHARE: bring that strategy's win rate to SHARE instead of "
                   "minimising the spread of the field's rates.")
@run_options
def command(ranges: tuple[str, ...], experiment_path: str | None, out: Path, points: int,
            rounds: int, target: str | None, batch: Batch) -> None:
    """Search KEY=LOW..HIGH (one or two keys) for the value that best evens the win shares.

    Every value plays the same game seeds; the curve shows each value's spread (or distance
    from --target) with a paired bootstrap interval, and the recommended value comes with the
    values not significantly worse than it.
    """
    from zsim.cli.batches import run_players
    from zsim.components import BoxError
    from zsim.options import OptionError
    from zsim.runner.experiment import ExperimentError
    from zsim.tuning.balance import BalanceError, parse_range, search
    from zsim.whatif import with_variants

    if len(ranges) > 2:
        raise click.UsageError("give one or two KEY=LOW..HIGH ranges")
    aim = _target(target)
    try:
        axes = [parse_range(spec) for spec in ranges]
        if len({axis.key for axis in axes}) < len(axes):
            raise BalanceError("the two ranges have the same key")
        base = batch.base(experiment_path)
        if aim is not None and aim[0] not in base.strategies:
            raise BalanceError(f"--target: strategy {aim[0]!r} is not in the field "
                               f"({', '.join(base.strategies)})")

        def variant_of(value: tuple[float, ...]) -> list[str]:
            return [f"{axis.key}={axis.text(v)}" for axis, v in zip(axes, value, strict=True)]

        probe = with_variants(base, variant_of(tuple(axis.low for axis in axes)), "--variant")
        probe.variant_set().load_box(probe.box_dir())  # an unknown key stops here, not later

        def play(value: tuple[float, ...]) -> Any:
            name = ",".join(variant_of(value))
            experiment = with_variants(base, variant_of(value), "--variant")
            return run_players(experiment, out / "runs" / name, batch.quiet)

        table, matrices = search(axes, points, rounds, play, aim)
    except (ExperimentError, BoxError, OptionError, ValueError) as error:
        raise click.ClickException(str(error)) from error
    curve = _curve(table, matrices, axes)
    curve.to_csv(out / "balance.csv", index=False)
    from zsim.tuning.figures import balance_figure, write_page

    balance_figure(curve, [axis.key for axis in axes], aim, out / "balance.png")
    finding = recommendation(curve, [axis.key for axis in axes], aim)
    page = write_page(out, "zsim balance", [finding], ["balance.png"], {"Curve": curve})
    shown = [*(axis.key for axis in axes), "games", "objective", "corrected", "low",
             "high", "plausible"]
    click.echo(curve.drop_duplicates(shown)[shown].to_string(
        index=False, float_format=lambda v: f"{v:.3f}"))
    click.echo(finding)
    click.echo(f"page: {page}")


def _curve(table: Any, matrices: dict, axes: list) -> Any:
    """The assessment joined to each strategy's win rate (Wilson interval) at each value."""
    import pandas as pd

    from zsim.stats import wilson_interval

    rows = []
    for _, row in table.iterrows():
        matrix = matrices[row["value"]]
        for strategy in matrix.columns:
            played = matrix[strategy].dropna()
            low, high = wilson_interval(float(played.sum()), len(played))
            rows.append({**{axis.key: v for axis, v in zip(axes, row["value"], strict=True)},
                         **row.drop("value").to_dict(), "strategy": strategy,
                         "win_rate": played.mean(), "win_low": low, "win_high": high})
    keys = [axis.key for axis in axes]
    return pd.DataFrame(rows).sort_values([*keys, "strategy"]).reset_index(drop=True)


def recommendation(curve: Any, keys: list[str], target: tuple[str, float] | None) -> str:
    """The best value, its objective with interval, and the values as good within the noise."""
    per_value = curve.drop_duplicates(keys)
    best = per_value[per_value["best"]].iloc[0]
    plausible = per_value[per_value["plausible"]]
    what = (f"distance of {target[0]}'s win rate from {target[1]:.0%}" if target else
            "spread of win rates (highest - lowest)")
    where = ", ".join(f"{k}={best[k]:g}" for k in keys)
    others = "; ".join(", ".join(f"{k}={r[k]:g}" for k in keys) for _, r in plausible.iterrows())
    return (f"recommended {where}: {what} {best['objective'] * 100:.1f} points as played, "
            f"{best['corrected'] * 100:.1f} corrected for noise "
            f"[{best['low'] * 100:.1f}, {best['high'] * 100:.1f}] over {int(best['games'])} "
            f"games; not significantly worse (paired): {others}")
