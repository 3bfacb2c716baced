"""What ``compare`` and ``sweep`` share: options for their batches and running one batch."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import click
import pandas as pd

from zsim.runner.batch import start_run
from zsim.runner.experiment import Experiment

F = TypeVar("F", bound=Callable[..., object])

_OPTIONS = (
    click.option("--games", type=click.IntRange(min=1), default=None,
                 help="Games per batch (default: the experiment's)."),
    click.option("--jobs", type=int, default=None, help="Processes playing (-1 = all cores)."),
    click.option("--seed", type=click.IntRange(min=0), default=None, help="Master seed."),
    click.option("--quiet", is_flag=True, help="No progress bars."),
)


def run_options(function: F) -> F:
    """Add --games, --jobs, --seed and --quiet to a command."""
    for option in reversed(_OPTIONS):
        function = option(function)
    return function


def run_players(experiment: Experiment, out: Path, quiet: bool) -> pd.DataFrame:
    """Run one batch into ``out`` and return its players table. The progress bar is drawn on
    a terminal only: redirected into a file or a CI log it would be hundreds of lines of
    carriage returns."""
    report = start_run(experiment, out, source=experiment.name,
                       progress=not quiet and sys.stderr.isatty())
    if report.summary.failed:
        click.echo(f"warning: {report.summary.failed} game(s) failed in {out}", err=True)
    return pd.read_parquet(out / "players.parquet")
