"""What ``compare``, ``sweep`` and ``effects`` share: options for their batches, running one
batch, and playing stages until precise enough (``--until-precision``)."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

import click

if TYPE_CHECKING:  # `zsim run` imports this module before it starts its workers: keep it light
    import pandas as pd

    from zsim.runner.experiment import Experiment

F = TypeVar("F", bound=Callable[..., object])
T = TypeVar("T")

# --- the batch commands' one vocabulary (docs/running.md, "The options of every batch") -------
# Each option is defined here once, and every command that takes it takes it from here.

GAMES = click.option("--games", type=click.IntRange(min=1), default=None,
                     help="Games (per batch; default: the experiment's).")
SEED = click.option("--seed", type=click.IntRange(min=0), default=None, help="Master seed.")
JOBS = click.option("--jobs", "-j", type=int, default=None,
                    help="Processes playing (-1 = all cores).")
QUIET = click.option("--quiet", "-q", is_flag=True, help="No progress bar or header line.")
PLAYERS = click.option("--players", "-n", "players", multiple=True, type=click.IntRange(2, 4),
                       help="Player count; repeat for several (default: the experiment's).")
STRATEGY = click.option("--strategy", "-s", "strategies", multiple=True, metavar="SPEC",
                        help="The lineup, repeatable, cycled over the seats (default: the "
                             "experiment's); `zsim strategies` lists the names.")
VARIANT = click.option("--variant", "variants", multiple=True, metavar="KEY=VALUE|NAME",
                       help="A rule option (board=board2), a box value by key path "
                            "(rules.palace_vp=8), a variant file or a shipped variant's name "
                            "(`zsim variants`), added to the experiment's. Repeatable.")
BOX = click.option("--box", type=click.Path(file_okay=False, exists=True, resolve_path=True),
                   default=None, metavar="DIR",
                   help="A component box of your own (default: the experiment's box:, or the "
                        "built-in one; `zsim components export DIR` writes it out).")
EXPERIMENT = click.option("--experiment", "experiment_path", default=None, metavar="FILE|NAME",
                          help="The experiment to start from: a file or a shipped one's name "
                               "(default: default).")
_OPTIONS = (GAMES, JOBS, SEED, QUIET, BOX, PLAYERS, STRATEGY, VARIANT)


@dataclass(frozen=True)
class Batch:
    """What the shared options of a batch command asked for: applied to an experiment by
    ``apply``, so that ``-n 2 -s greedy --variant palace_vp_8`` mean the same everywhere."""

    games: int | None = None
    jobs: int | None = None
    seed: int | None = None
    quiet: bool = False
    box: str | None = None
    players: tuple[int, ...] = ()
    strategies: tuple[str, ...] = ()
    variants: tuple[str, ...] = ()

    def apply(self, experiment: Experiment) -> Experiment:
        """``experiment`` with what the command line set (variants added to its own)."""
        from zsim.whatif import with_variants

        changed = experiment.with_overrides(
            "command line", games=self.games, jobs=self.jobs, seed=self.seed, box=self.box,
            players=list(self.players) or None, strategies=list(self.strategies) or None)
        return with_variants(changed, self.variants, "--variant") if self.variants else changed

    def base(self, experiment: str | None) -> Experiment:
        """The experiment named (a file, a shipped name, or None: the default) with these
        options applied."""
        from zsim.whatif import base_experiment

        return self.apply(base_experiment(experiment))


def run_options(function: F) -> F:
    """Add --games, -j/--jobs, --seed, -q/--quiet, --box, -n/--players, -s/--strategy and
    --variant to a command, which receives them together as ``batch`` (a ``Batch``)."""

    @functools.wraps(function)
    def command(*args: Any, **kwargs: Any) -> Any:
        batch = Batch(**{name: kwargs.pop(name) for name in Batch.__dataclass_fields__})
        return function(*args, batch=batch, **kwargs)

    for option in reversed(_OPTIONS):
        command = option(command)
    return cast(F, command)


PRECISION = click.option(
    "--until-precision", "precision", type=click.FloatRange(min=0, min_open=True),
    default=None, metavar="POINTS",
    help="Keep playing stages of --games games (each a whole design on seeds of its own) until "
         "every win-rate interval of interest is within ±POINTS percentage points, judged by "
         "anytime-valid 95% confidence sequences (docs/reports.md).")


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
