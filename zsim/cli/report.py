"""``zsim report``: turn one or more run directories into an HTML report with figures and CSVs."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING

import click

from zsim.recheck import DEFAULT_BUDGET

if TYPE_CHECKING:
    from collections.abc import Callable

    from zsim.reports.model import Section


@click.command("report")
@click.argument("run_dirs", nargs=-1, required=True,
                type=click.Path(file_okay=False, path_type=Path))
@click.option("--out", type=click.Path(file_okay=False, path_type=Path),
              help="Output directory (default: RUN_DIR/report for a single run; required "
                   "for several).")
@click.option("--summary", "show_summary", is_flag=True,
              help="Also print the report's one-page summary in the terminal.")
@click.option("--recheck", "bot", metavar="BOT", default=None,
              help="Replay the top findings with BOT in every seat (e.g. distilled, or "
                   "'mcts(iterations=50)'), each component forced in and kept out on the same "
                   "seeds, and give each a verdict (holds, shrinks, vanished, flips, cannot "
                   "tell). Default: the strongest cheap bot of each player count.")
@click.option("--no-recheck", is_flag=True, help="Do not replay the findings.")
@click.option("--budget", type=click.FloatRange(min=0, min_open=True), default=DEFAULT_BUDGET,
              show_default=True, metavar="MINUTES", help="Time the recheck may take.")
def command(run_dirs: tuple[Path, ...], out: Path | None, show_summary: bool,
            bot: str | None, no_recheck: bool, budget: float) -> None:
    """Write a report of RUN_DIR(s) (pooled) as index.html, figures/ and tables/.

    The page is self-contained (it works offline and can be mailed). Every figure is also
    written as PNG and SVG, every table as CSV. By default the top findings are replayed
    under the strongest cheap bot within --budget minutes. See docs/reports.md.
    """
    if out is None:
        if len(run_dirs) > 1:
            raise click.UsageError("--out is required when pooling several run directories")
        out = run_dirs[0] / "report"
    if no_recheck and bot:
        raise click.UsageError("--recheck and --no-recheck contradict each other")
    # Imported here: matplotlib, scipy and statsmodels would slow every other command's start.
    from zsim.reports.build import ReportOutputError, build_report
    from zsim.reports.loader import RunDirError

    started = time.perf_counter()
    replay = None if no_recheck else _replay(run_dirs[0], out, bot, budget)
    try:
        built = build_report(list(run_dirs), out, replay)
    except (RunDirError, ReportOutputError) as error:
        raise click.ClickException(str(error)) from error
    if show_summary and built.summary is not None:
        from zsim.reports.summary import text

        click.echo(text(built.summary))
    click.echo(f"{built.index}: {built.figures} figures, {built.tables} tables, "
               f"{built.significant} significant finding(s) "
               f"in {time.perf_counter() - started:.1f}s")


def _replay(run_dir: Path, out: Path, bot: str | None,
            budget: float) -> Callable[[Section], Section] | None:
    """The recheck step: checks BOT and the run's experiment now (one clear line each), and
    returns what replays the findings once they are listed. Without BOT, each player count's
    strongest cheap bot (``strategies.registry.strongest_cheap``); a run that cannot be
    replayed that way (a solo run, a run's experiment that cannot be read) is reported
    without a recheck, and says why."""
    import shutil

    from zsim.cli.batches import run_players
    from zsim.options import OptionError
    from zsim.runner.experiment import ExperimentError, parse_experiment
    from zsim.runner.writer import DamagedRun, read_manifest
    from zsim.strategies.registry import UnknownStrategy, resolve, strongest_cheap

    if bot is not None:
        try:
            resolve(bot)
        except UnknownStrategy as error:
            raise click.BadParameter(str(error), param_hint="--recheck") from None
    path = run_dir / "run.json"
    try:
        base = parse_experiment(read_manifest(path)["experiment"], str(path))
    except (DamagedRun, ExperimentError, KeyError, OSError) as error:
        if bot is None:  # the report says what is wrong with the run, in one line
            return None
        raise click.ClickException(f"{path}: cannot read the run's experiment to replay it "
                                   f"({error})") from None
    if bot is None:
        try:
            chosen = {n: strongest_cheap(n) for n in base.players}
        except UnknownStrategy as error:
            click.echo(f"no recheck: {error}", err=True)
            return None
        spec: str | Callable[[int], str] = chosen.__getitem__
        name = " / ".join(dict.fromkeys(chosen.values()))
    else:
        spec, name = bot, bot

    def replay(listing: Section) -> Section:
        from zsim.recheck import recheck
        from zsim.reports.recheck import (
            attach,
            candidates,
            listed_findings,
            section,
            terminal_lines,
        )
        from zsim.reports.summary import first_screen

        pairs = candidates(listing, [part for _, part in first_screen(
            listed_findings(listing))])
        where = out / "recheck"
        shutil.rmtree(where, ignore_errors=True)
        try:
            results, left = recheck(base, spec, [c for _, c in pairs], budget * 60, where,
                                    lambda experiment, to: run_players(experiment, to, True))
        except (ExperimentError, OptionError, OSError) as error:
            # the report is still written, without the replays, and says why in one line
            click.echo(f"recheck stopped: {str(error).splitlines()[0]}", err=True)
            results, left = [], []
        attach(pairs, results, left)
        for line in terminal_lines(results, left):
            click.echo(line, err=True)
        return section(name, budget, results, left)

    return replay

