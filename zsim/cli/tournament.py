"""``zsim tournament -s A -s B ...``: a seat-balanced round robin, played as a run and rated."""

from __future__ import annotations

import sys
from datetime import datetime
from pathlib import Path

import click

from zsim.cli.batches import JOBS, QUIET, SEED, VARIANT
from zsim.cli.rate import rating_outputs, show_ratings
from zsim.options import OptionError
from zsim.runner.experiment import ExperimentError


@click.command("tournament")
@click.option("--strategy", "-s", "strategies", multiple=True,
              help="A strategy of the lineup, repeatable, named as for `zsim run -s` "
                   "(default: the default experiment's lineup).")
@click.option("--games", type=click.IntRange(min=1),
              help="Games to play, rounded up to whole rounds (default: the default "
                   "experiment's).")
@click.option("--players", "-n", type=click.IntRange(2, 4),
              help="Seats per game (default: the default experiment's).")
@JOBS
@SEED
@VARIANT
@click.option("--out", type=click.Path(file_okay=False, path_type=Path),
              help="Run directory, new or empty (default: runs/tournament-TIMESTAMP).")
@click.option("--isolate", "isolate", multiple=True, metavar="SPEC",
              help="Play this strategy in a process of its own, as for `zsim run` "
                   "(repeatable; 'all': every strategy of the tournament).")
@QUIET
@rating_outputs
def command(strategies: tuple[str, ...], games: int | None, players: int | None,
            jobs: int | None, seed: int | None, variants: tuple[str, ...], out: Path | None,
            isolate: tuple[str, ...], quiet: bool, csv_path: Path | None,
            figure_path: Path | None, as_json: bool) -> None:
    """Play every PLAYERS-subset of the lineup in every seat order equally often, then rate.

    One round is C(strategies, players) x players! games; --games is rounded up to whole
    rounds, so that strategy is aliased neither with seat nor with opponents. The games are
    an ordinary run (`zsim report`, `zsim rate` and `zsim run --resume` read it); the ratings
    are `zsim rate`'s. See docs/ratings.md.
    """
    from zsim.tournament import plan_tournament
    from zsim.variants import parse as parse_variants
    from zsim.whatif import base_experiment, with_variants

    try:
        base = base_experiment(None)
        if variants:
            base = with_variants(base, parse_variants(variants), "command line (--variant)")
        planned = plan_tournament(base, strategies or base.strategies,
                                  players or base.players[0], games, jobs=jobs, seed=seed,
                                  isolate=list(isolate) or None)
    except (ExperimentError, OptionError) as error:
        raise click.ClickException(str(error)) from error
    experiment = planned.experiment
    out = out or Path("runs") / f"tournament-{datetime.now():%Y%m%d-%H%M%S}"
    click.echo(planned.describe(), err=True)
    if not quiet:
        click.echo(f"{experiment.games} games ({', '.join(experiment.strategies)}) -> {out}",
                   err=True)
    # The runner is imported only now, as `zsim run` does.
    from zsim.reports.loader import load_runs
    from zsim.runner.backends import BackendError
    from zsim.runner.batch import RunFailed, RunInterrupted, start_run
    from zsim.runner.lock import LockError
    from zsim.runner.writer import OutputError

    try:
        report = start_run(experiment, out, source="zsim tournament",
                           given={"strategies": "command line (--strategy)"} if strategies
                           else None,
                           progress=not quiet and sys.stderr.isatty())
    except (ExperimentError, OutputError, LockError, BackendError, OptionError,
            RunFailed) as error:
        raise click.ClickException(str(error)) from error
    except RunInterrupted as interrupted:
        click.echo(f"\n{interrupted}, then rate it with: zsim rate {out}", err=True)
        sys.exit(1)
    if report.summary.failed:
        click.echo(f"warning: {report.summary.failed} game(s) failed (see "
                   f"{out / 'failures.jsonl'}); the ratings use the finished ones, so the "
                   "design is balanced only approximately", err=True)
    click.echo(f"tournament run {report.run_id} in {out}", err=True)
    show_ratings(load_runs([out]).players, csv_path, figure_path, as_json)
