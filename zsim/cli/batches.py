"""What ``compare``, ``sweep`` and ``effects`` share: options for their batches, running one
batch, and playing stages until precise enough (``--until-precision``)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import click

if TYPE_CHECKING:  # `zsim run` imports this module before it starts its workers: keep it light
    import pandas as pd

    from zsim.runner.experiment import Experiment

F = TypeVar("F", bound=Callable[..., object])
T = TypeVar("T")

_OPTIONS = (
    click.option("--games", type=click.IntRange(min=1), default=None,
                 help="Games per batch (default: the experiment's)."),
    click.option("--jobs", type=int, default=None, help="Processes playing (-1 = all cores)."),
    click.option("--seed", type=click.IntRange(min=0), default=None, help="Master seed."),
    click.option("--quiet", is_flag=True, help="No progress bars."),
    click.option("--box", type=click.Path(file_okay=False, exists=True, resolve_path=True),
                 default=None,
                 metavar="DIR", help="A component box of your own (default: the experiment's "
                 "box:, or the built-in one; `zsim components export DIR` writes it out)."),
)


PRECISION = click.option(
    "--until-precision", "precision", type=click.FloatRange(min=0, min_open=True),
    default=None, metavar="POINTS",
    help="Keep playing stages of --games games (each a whole design on seeds of its own) until "
         "every win-rate interval of interest is within ±POINTS percentage points, judged by "
         "anytime-valid 95% confidence sequences (docs/reports.md).")


def run_options(function: F) -> F:
    """Add --games, --jobs, --seed, --quiet and --box to a command."""
    for option in reversed(_OPTIONS):
        function = option(function)
    return function


def staged(precision: float | None, play: Callable[[int], T],
           intervals: Callable[[list[T]], pd.DataFrame], out: Path) -> list[T]:
    """Stage 0 alone, or (with ``--until-precision``) stages until every interval of
    ``intervals`` is within ±``precision`` points; the last intervals are written to
    ``out/confidence_sequences.csv``."""
    from zsim.sequential import until_precision

    if precision is None:
        return [play(0)]
    stages, table = until_precision(precision / 100, play, intervals,
                                    say=lambda line: click.echo(line, err=True))
    table.to_csv(out / "confidence_sequences.csv", index=False)
    return stages


def run_players(experiment: Experiment, out: Path, quiet: bool) -> pd.DataFrame:
    """Run one batch into ``out`` and return its players table. The progress bar is drawn on
    a terminal only: redirected into a file or a CI log it would be hundreds of lines of
    carriage returns."""
    from zsim.runner.batch import start_run  # not at import: `zsim run` starts workers first
    from zsim.whatif import recording

    experiment = recording(experiment)
    report = start_run(experiment, out, source=experiment.name,
                       progress=not quiet and sys.stderr.isatty())
    if report.summary.failed:
        click.echo(f"warning: {report.summary.failed} game(s) failed in {out}", err=True)
    import pandas as pd

    return pd.read_parquet(out / "players.parquet")
