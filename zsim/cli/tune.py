"""``zsim tune``: the heuristic's best weights against a field, as a bot file, validated."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

if TYPE_CHECKING:  # the tuning modules load optuna and pandas: only when a command runs
    from zsim.runner.experiment import Experiment
    from zsim.tuning.arena import Execution, Setup
    from zsim.tuning.search import Budget
    from zsim.tuning.session import TuneResult

F = TypeVar("F", bound=Callable[..., object])

_SEARCH_OPTIONS = (
    click.option("--experiment", "experiment_path", type=click.Path(dir_okay=False),
                 default=None, help="Experiment giving the box, variants, field and player "
                                    "count: a file or a shipped name (default: default)."),
    click.option("--field", multiple=True, help="An opponent strategy spec (repeat; default: "
                                                 "the experiment's lineup)."),
    click.option("--players", "-n", type=click.IntRange(2, 4), default=None,
                 help="Players per game (default: the experiment's first count)."),
    click.option("--trials", type=click.IntRange(min=1), default=None,
                 help="Finished trials to reach, over all sessions (default 60, or the "
                      "study's own when resuming)."),
    click.option("--minutes", type=click.FloatRange(min=0, min_open=True), default=None,
                 help="Stop starting trials after this long (this session)."),
    click.option("--block-games", type=click.IntRange(min=1), default=48, show_default=True,
                 help="Games per block (rounded up to whole seat rotations)."),
    click.option("--blocks", type=click.IntRange(min=1), default=6, show_default=True,
                 help="Blocks of a full evaluation; weak candidates stop earlier."),
    click.option("--held-out-games", type=click.IntRange(min=1), default=800,
                 show_default=True, help="Fresh games validating the winner."),
    click.option("--sampler", type=click.Choice(["tpe", "cmaes"]), default="tpe",
                 show_default=True, help="Optuna sampler."),
    click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
                 help="Seed of the blocks' master seeds and of the sampler."),
    click.option("--jobs", "-j", type=int, default=-1, show_default=True,
                 help="Processes playing each block (-1 = all cores)."),
    click.option("--backend", type=click.Choice(["local", "dask"]), default="local",
                 show_default=True, help="Where blocks play (dask: a cluster, or a local one)."),
    click.option("--scheduler", default=None, help="Dask scheduler address."),
    click.option("--quiet", "-q", is_flag=True, help="No progress bar."),
)


def exit_status(stop: BaseException) -> int:
    """The exit status of a study stopped by Ctrl-C (130) or SIGTERM during a run (143), as
    ``zsim run``'s."""
    from zsim.cli.run import EXIT_INTERRUPTED, EXIT_TERMINATED

    return EXIT_TERMINATED if getattr(stop, "terminated", False) else EXIT_INTERRUPTED


def search_options(function: F) -> F:
    """The options ``tune`` and ``exploit`` share."""
    for option in reversed(_SEARCH_OPTIONS):
        function = option(function)
    return function


def setup_from_options(options: dict[str, Any], variants: tuple[str, ...] = (),
                       base: Experiment | None = None) -> Setup:
    """The checked ``Setup`` the options describe (``base``: an experiment already loaded)."""
    from zsim.tuning.arena import make_setup
    from zsim.whatif import base_experiment, with_variants

    experiment = base if base is not None else base_experiment(options["experiment_path"])
    if variants:
        experiment = with_variants(experiment, variants, "--variant")
    field = tuple(options["field"]) or tuple(experiment.strategies)
    return make_setup(experiment, field, options["players"] or experiment.players[0],
                      options["seed"], options["block_games"], options["blocks"],
                      options["held_out_games"])


def execution_from_options(options: dict[str, Any]) -> Execution:
    from zsim.tuning.arena import Execution

    if options["jobs"] == 0:
        raise click.BadParameter("give a positive count, or -1 for all cores",
                                 param_hint="--jobs")
    return Execution(options["jobs"], options["backend"], options["scheduler"])


def budget_from_options(options: dict[str, Any]) -> Budget:
    from zsim.tuning.search import Budget

    return Budget(options["trials"], options["minutes"])


@click.command("tune")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Directory for the study, the bot file and the figures.")
@click.option("--resume", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Continue the study in this directory (its setup is kept).")
@click.option("--variant", multiple=True, help="Rule variant (KEY=VALUE or a variant file).")
@search_options
def command(out: Path | None, resume: Path | None, variant: tuple[str, ...],
            **options: Any) -> None:
    """Tune the heuristic's weights and patience for win share against a field.

    Each trial plays blocks of games on the same seeds as every other trial, and stops early
    once it is significantly behind the best (paired, game by game). The winner is written
    as a bot file and replayed on held-out seeds against the best hand-weighted bot.
    """
    from zsim.runner.backends import BackendError
    from zsim.runner.batch import RunInterrupted
    from zsim.runner.experiment import ExperimentError
    from zsim.tuning import search
    from zsim.tuning.session import tune

    if (out is None) == (resume is None):
        raise click.UsageError("give --out DIR for a new study or --resume DIR, not both")
    try:
        execution = execution_from_options(options)
        if resume is not None:
            if variant:
                raise click.UsageError("--variant cannot change a study being resumed")
            setup = None
        else:
            setup = setup_from_options(options, variant)
        directory = resume or out
        assert directory is not None
        result = tune(directory, setup, execution, budget_from_options(options),
                      options["sampler"], not options["quiet"])
    except (KeyboardInterrupt, RunInterrupted) as stop:
        directory = resume or out
        click.echo(f"\ninterrupted; the study is kept in {directory}/{search.DATABASE}: "
                   f"continue it with zsim tune --resume {directory}", err=True)
        sys.exit(exit_status(stop))
    except (ExperimentError, BackendError, ValueError, OSError) as error:
        raise click.ClickException(str(error)) from error
    report(result)


def report(result: TuneResult) -> None:
    click.echo(f"trials: {result.trials}; games this session: {result.games}")
    click.echo(f"tuned bot: {result.out / 'tuned.yaml'}")
    click.echo(result.held_out.summary())
    click.echo(f"page: {result.page}")
