"""``zsim run``: play an experiment's games in parallel batches into a run directory."""

from __future__ import annotations

import sys
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

import click

from zsim.cli.batches import (
    BOX,
    GAMES,
    JOBS,
    PLAYERS,
    PRECISION,
    QUIET,
    SEED,
    STRATEGY,
    VARIANT,
)
from zsim.options import OptionError
from zsim.runner import DEFAULT_EXPERIMENT, ExperimentError, load_experiment
from zsim.variants import parse as parse_variants

if TYPE_CHECKING:
    from zsim.runner import Experiment
    from zsim.runner.batch import RunReport

EXIT_INTERRUPTED = 130
EXIT_TERMINATED = 143  # 128 + SIGTERM, as a shell reports a process ended by it


@click.command("run")
@click.argument("experiment_file", required=False, metavar="[EXPERIMENT]",
                callback=lambda ctx, param, value: _experiment_path(value))
@GAMES
@PLAYERS
@STRATEGY
@click.option("--seats", type=click.Choice(["balanced", "rotate", "random", "fixed"]),
              help="How the lineup is seated in each game.")
@SEED
@JOBS
@click.option("--backend", type=click.Choice(["local", "dask"]),
              help="Where chunks run: worker processes on this machine, or Dask.")
@click.option("--scheduler", metavar="ADDRESS",
              help="Dask scheduler address (default: a LocalCluster).")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path),
              help="Output directory, new or empty (default: runs/NAME-TIMESTAMP).")
@VARIANT
@BOX
@click.option("--chunk-size", type=click.IntRange(min=1), help="Games per chunk.")
@click.option("--max-failures", type=click.IntRange(min=0),
              help="Failed games tolerated before the exit status is 1.")
@click.option("--decision-time-limit", type=click.FloatRange(min=0), metavar="SECONDS",
              help="Longest a strategy may take over one decision (0 = no limit; default 10); "
                   "a game over it fails.")
@click.option("--game-time-limit", type=click.FloatRange(min=0), metavar="SECONDS",
              help="Longest one game may take (0 = no limit; default 300); a game over it "
                   "fails.")
@click.option("--isolate", "isolate", multiple=True, metavar="SPEC",
              help="Play this strategy of the lineup in a process of its own, seeing only its "
                   "seat's table, with --isolate-memory and the decision time limit "
                   "(repeatable; 'all': every strategy; for bots you do not trust).")
@click.option("--isolate-memory", type=click.IntRange(min=16), metavar="MIB",
              help="Memory an isolated strategy's process may take beyond what it starts "
                   "with (default 1024).")
@click.option("--resume", type=click.Path(file_okay=False, exists=True, path_type=Path),
              help="Finish the interrupted run in this directory.")
@click.option("--solo", is_flag=True,
              help="The solo mode: each game is one --strategy against Li Si (2 seats).")
@click.option("--lisi", "lisi_level", type=click.IntRange(1, 4), default=1, show_default=True,
              help="Li Si's level with --solo.")
@click.option("--trajectories", type=click.Choice(["off", "vp", "value"]),
              help="What is recorded of each game's course (docs/experience.md): off (the "
                   "default) nothing, vp the score after every turn and the standing after "
                   "every round, "
                   "value also the standing after every turn, with the win probabilities of "
                   "the shipped value model where it has one (2 players).")
@click.option("--kingmaking", type=click.IntRange(min=0), metavar="GAMES",
              help="Replay the last choices of the players who did not win, in the first GAMES "
                   "games, with each alternative, to find kingmaking (docs/experience.md).")
@QUIET
@PRECISION
def command(experiment_file: Path | None, games: int | None, players: tuple[int, ...],
            strategies: tuple[str, ...], seats: str | None, seed: int | None,
            jobs: int | None, backend: str | None, scheduler: str | None, out: Path | None,
            variants: tuple[str, ...], box: str | None, chunk_size: int | None,
            max_failures: int | None,
            decision_time_limit: float | None, game_time_limit: float | None,
            isolate: tuple[str, ...], isolate_memory: int | None, resume: Path | None,
            solo: bool, lisi_level: int, trajectories: str | None, kingmaking: int | None,
            quiet: bool, precision: float | None) -> None:
    """Run EXPERIMENT: a file, or a shipped experiment's name (default: default).

    Options override the file. Exit status: 0 when done, 1 when more games failed than
    --max-failures allows (see failures.jsonl) or the run could not go on (a full disk), 130
    when interrupted by Ctrl-C and 143 by SIGTERM (resume with --resume).
    """
    execution = {"jobs": jobs, "backend": backend, "scheduler": scheduler,
                 "max_failures": max_failures, "decision_time_limit": decision_time_limit,
                 "game_time_limit": game_time_limit, "isolate": list(isolate) or None,
                 "isolate_memory": isolate_memory}
    if solo:
        if len(strategies) > 1 or players:
            raise click.UsageError("--solo plays one --strategy against Li Si on 2 seats")
        strategies, players = (*(strategies or ("greedy",)), f"lisi-{lisi_level}"), (2,)
    progress = not quiet and sys.stderr.isatty()
    experiment: Experiment | None = None
    given: dict[str, str] = {}
    if resume is not None:
        what = [name for name, value in (
            ("EXPERIMENT_FILE", experiment_file), ("--games", games), ("--players", players),
            ("--strategy", strategies), ("--seats", seats), ("--seed", seed),
            ("--out", out), ("--variant", variants), ("--box", box),
            ("--chunk-size", chunk_size), ("--trajectories", trajectories),
            ("--kingmaking", kingmaking)) if value]
        if what:
            raise click.UsageError(f"--resume finishes a run as it was started; "
                                   f"{', '.join(what)} cannot change it")
    else:
        path = experiment_file or DEFAULT_EXPERIMENT
        try:
            experiment = load_experiment(path)
            experiment_variants = bool(experiment.variants)
            experiment = experiment.with_overrides(
                games=games, players=list(players) or None,
                strategies=list(strategies) or None, seats=seats, seed=seed,
                chunk_size=chunk_size, box=box, trajectories=trajectories,
                kingmaking=kingmaking,
                variants=[*(f"{k}={v}" for k, v in experiment.variants.items()),
                          *parse_variants(variants).as_strings()] if variants else None,
                **execution)
        except (ExperimentError, OptionError) as error:
            raise click.ClickException(str(error)) from error
        given = _given_on_command_line(path, strategies, variants, experiment_variants,
                                       isolate)
        for warning in experiment.design_warnings():
            click.echo(f"warning: {warning}", err=True)
        out = out or Path("runs") / f"{experiment.name}-{datetime.now():%Y%m%d-%H%M%S}"
        if not quiet:
            click.echo(f"{experiment.games} games of {experiment.name} "
                       f"({', '.join(experiment.strategies)}; players "
                       f"{'/'.join(map(str, experiment.players))}) -> {out}", err=True)
    from zsim.runner.backends import BackendError
    from zsim.runner.batch import RunFailed, RunInterrupted, WorkerDied, resume_run, start_run
    from zsim.runner.lock import LockError
    from zsim.runner.writer import OutputError

    try:
        if experiment is None:
            report = resume_run(resume, progress=progress, **execution)
        else:
            report = start_run(experiment, out, source=str(path), given=given,
                               progress=progress)
    except (ExperimentError, OutputError, LockError, BackendError, OptionError) as error:
        raise click.ClickException(str(error)) from error
    except RunFailed as failed:
        raise click.ClickException(str(failed)) from failed
    except RunInterrupted as interrupted:
        click.echo(f"\n{interrupted}", err=True)
        sys.exit(1 if isinstance(interrupted, WorkerDied) else
                 EXIT_TERMINATED if interrupted.terminated else EXIT_INTERRUPTED)
    click.echo(_report_text(report))
    if report.too_many_failures:
        sys.exit(1)
    if precision is not None and experiment is not None and out is not None:
        _more_stages(experiment, out, precision, progress, str(path))


def _more_stages(experiment: Experiment, out: Path, precision: float, progress: bool,
                 source: str) -> None:
    """``--until-precision``: play further stages (the experiment on seeds of their own, in
    OUT/stage-K) until every strategy's win rate is known to ±``precision`` points by its
    anytime-valid confidence sequence (``zsim.sequential``)."""
    import pandas as pd

    from zsim.runner.batch import start_run
    from zsim.sequential import pooled, stage_dir, stage_seed, until_precision, win_rate_sequences

    def play(stage: int) -> pd.DataFrame:
        if stage:
            start_run(experiment.with_overrides(seed=stage_seed(experiment.seed, stage)),
                      stage_dir(out, stage), source=source, progress=progress)
        return pd.read_parquet(stage_dir(out, stage) / "players.parquet")

    stages, table = until_precision(
        precision / 100, play, lambda done: win_rate_sequences(pooled(done), experiment.games),
        say=lambda line: click.echo(line, err=True))
    table.to_csv(out / "confidence_sequences.csv", index=False)
    runs = " ".join(str(stage_dir(out, k)) for k in range(len(stages)))
    click.echo(f"{len(stages)} stage(s); win rates with their confidence sequences in "
               f"{out / 'confidence_sequences.csv'}"
               + (f"; report them together: zsim report {runs} --out {out / 'report-all'}"
                  if len(stages) > 1 else ""))


def _experiment_path(entry: str | None) -> Path | None:
    """The experiment argument as a file: a path that exists, or a shipped experiment's
    name (``zsim.paths``)."""
    from zsim.paths import named_file, unknown_name

    if entry is None:
        return None
    path = named_file("experiments", entry)
    if not path.exists():
        hint = "" if Path(entry).suffix or "/" in entry else (
            f"; {unknown_name('experiments', entry)}")
        raise click.BadParameter(f"{entry}: no such file{hint}", param_hint="EXPERIMENT")
    return path


def _given_on_command_line(path: Path, strategies: tuple[str, ...], variants: tuple[str, ...],
                           file_variants: bool, isolate: tuple[str, ...] = ()) -> dict[str, str]:
    """Where the keys that options set were given, for the messages of the checks that only
    the runner can make (a strategy that does not exist, a box variant that breaks a rule, a
    strategy that cannot be isolated)."""
    given = {}
    if strategies:
        given["strategies"] = "command line (--strategy)"
    if isolate:
        given["isolate"] = "command line (--isolate)"
    if variants:
        given["variants"] = ("command line (--variant)" if not file_variants
                             else f"command line (--variant) or {path}")
    return given


def _report_text(report: RunReport) -> str:
    rate = f", {report.played / report.seconds:.0f} games/s" if report.played else ""
    head = (f"run {report.run_id} in {report.out}: {report.played} games played this time in "
            f"{report.seconds:.1f}s{rate}")
    tail = ""
    if report.summary.failed:
        allowed = report.experiment.max_failures
        tail = (f"\nfailures: see {report.out / 'failures.jsonl'}"
                f" ({report.summary.failed} failed, --max-failures {allowed})")
    return f"{head}\n\n{report.summary.format()}{tail}"
