"""``zsim bench``: how fast the engine and the runner are, alone and in parallel.

For each lineup it times the bare engine (a loop of ``play_game`` in this process), the runner
with one job (the difference is the runner's overhead: box, seeding, rows, tables, files,
summary) and the runner with ``--jobs N`` (parallel efficiency = games/s with N jobs over
N x games/s with one).

Wall-clock figures are what a user sees, but on a machine shared with other work they mostly
measure the other work. So every measurement also counts the CPU time of this process and of
its worker processes (the worker pool is shut down after each parallel run so that the
operating system accounts for it): games per CPU-second is the one-core speed however busy the
machine is, and the CPU ratios show the overheads of the runner and of parallelism.

Before any measurement, each lineup plays a few games through the runner with the parallel
measurement's jobs. Whatever a process does only once (importing the summary's
statistics libraries, loading the box, starting loky's resource-tracker processes) then falls in
no measurement: otherwise the first one-job run alone would pay half a second of imports, which
made one job look slower and the parallel efficiency look better than they are. Each parallel
measurement still starts its worker processes, as every ``zsim run`` does.

The overhead over the bare engine compares two runs, and on a busy machine two runs of the
same games differ by several percent, as much as the overhead itself. So the one-job runner's
overhead is also given in run: its wall time over the time its games spent inside
``play_game``, both taken in the same run, where the machine's speed cancels out.
"""

from __future__ import annotations

import os
import resource
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import click

from strategies.model import BUILD
from strategies.registry import UnknownStrategy, resolve
from zsim.game import play_game
from zsim.runner import DEFAULT_EXPERIMENT, Experiment, load_experiment
from zsim.runner.backends import stop_workers
from zsim.runner.batch import start_run
from zsim.runner.boxfiles import load_for_run
from zsim.runner.worker import peak_rss_bytes

MIB = 1024 * 1024


@dataclass
class Timing:
    lineup: str
    mode: str
    games: int
    seconds: float
    cpu_seconds: float  # this process and its finished children
    decisions: int
    peak_rss_bytes: int
    engine_seconds: float | None = None  # a run's time inside play_game, all processes summed

    @property
    def rate(self) -> float:
        return self.games / self.seconds


@dataclass
class Row:
    timing: Timing
    versus: Timing | None = None  # what the efficiency or overhead is measured against
    jobs: int = 1


@click.command("bench")
@click.option("--games", type=click.IntRange(min=1), default=2000, show_default=True,
              help="Games per measurement.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=os.cpu_count() or 1,
              show_default="all cores", help="Workers of the parallel measurement.")
@click.option("--chunk-size", type=click.IntRange(min=1),
              default=Experiment.model_fields["chunk_size"].default, show_default=True,
              help="Games per chunk in the runner measurements (default: zsim run's).")
@click.option("--repeat", type=click.IntRange(min=1), default=1, show_default=True,
              help="Times each measurement, in turns, keeping the fastest (for a busy "
                   "machine).")
@click.option("--strategy", "-s", "strategies", multiple=True, metavar="SPEC",
              help="Measure this lineup instead (repeatable; seats balanced), e.g. "
                   "-s greedy -s builder -s governor -s alchemist.")
@click.option("--players", type=click.IntRange(2, 4), default=4, show_default=True,
              help="Players per game of the --strategy lineup.")
def command(games: int, jobs: int, chunk_size: int, repeat: int, strategies: tuple[str, ...],
            players: int) -> None:
    """Measure games/s, decisions/s, runner overhead, parallel efficiency and peak RSS
    for 4 random players and for the default experiment's lineup, or for the lineup given
    with --strategy."""
    if strategies:
        for spec in strategies:
            try:
                resolve(spec)
            except UnknownStrategy as error:
                raise click.BadParameter(str(error), param_hint="--strategy") from None
        lineups = {"chosen": Experiment(games=games, players=[players],
                                        strategies=list(strategies), seed=1)}
    else:
        lineups = {
            "4 random": Experiment(games=games, players=[4], strategies=["random"], seed=1),
            "default": load_experiment(DEFAULT_EXPERIMENT),
        }
    rows = []
    for label, base in lineups.items():
        experiment = base.with_overrides(games=games, chunk_size=chunk_size, jobs=1,
                                         backend="loky", max_failures=games)
        # Untimed: what a process does only once falls in no measurement (see above).
        _runner("warm-up", experiment.with_overrides(games=min(games, 8), jobs=jobs))
        measures = [partial(_engine, label, experiment), partial(_runner, label, experiment)]
        if jobs > 1:
            measures.append(partial(_runner, label, experiment.with_overrides(jobs=jobs)))
        engine, single, *parallel = _fastest(repeat, measures)
        rows += [Row(engine), Row(single, versus=engine)]
        rows += [Row(timing, versus=single, jobs=jobs) for timing in parallel]
    click.echo(_table(rows))
    click.echo(f"heuristic bots' estimates: {BUILD}.")
    if strategies:
        click.echo(f"chosen: {players} players from {', '.join(strategies)}, seats balanced.")


def _fastest(repeat: int, measures: list[Callable[[], Timing]]) -> list[Timing]:
    """The fastest of ``repeat`` runs of each measurement: other load on the machine only slows
    runs down. The measurements take turns, so that the machine getting busier or quieter
    meanwhile moves all of them alike, not only the ones that happened to run last, which
    would bias the ratios between them."""
    rounds = [[_measured(measure) for measure in measures] for _ in range(repeat)]
    best = []
    for timings in zip(*rounds, strict=True):
        fastest = min(timings, key=lambda t: t.seconds)
        fastest.peak_rss_bytes = max(t.peak_rss_bytes for t in timings)
        best.append(fastest)
    return best


def _measured(measure: Callable[[], Timing]) -> Timing:
    """Run one measurement with this process's peak RSS reset first, so that its figure is
    its own and not the high-water mark of an earlier, larger one. Linux resets it through
    ``/proc/self/clear_refs``; elsewhere the figure is the process's peak so far."""
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as refs:
            refs.write("5")
    except OSError:
        pass
    return measure()


def _cpu() -> float:
    """User + system CPU seconds of this process and of its children that have exited."""
    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        usage = resource.getrusage(who)
        total += usage.ru_utime + usage.ru_stime
    return total


def _engine(label: str, experiment: Experiment) -> Timing:
    """The bare engine: the same games, played in a plain loop with no runner around them, on
    the box the runner plays (its variants applied, its per-box caches as warm)."""
    box, _, _ = load_for_run(experiment.box_dir(), experiment.variant_set().box)
    options = experiment.options()
    instances = {name: resolve(name) for name in experiment.strategies}
    schedule = experiment.schedule()
    plans = [schedule.plan(i) for i in range(experiment.games)]
    decisions = 0
    clock, cpu = time.perf_counter(), _cpu()
    for plan in plans:
        seated = [instances[name] for name in plan.strategies]
        decisions += play_game(box, seated, plan.seed, options).decisions
    return Timing(label, "engine, 1 core", experiment.games, time.perf_counter() - clock,
                  _cpu() - cpu, decisions, peak_rss_bytes())


def _runner(label: str, experiment: Experiment) -> Timing:
    """``zsim run``'s runner on ``experiment``, into a temporary directory."""
    jobs = experiment.jobs
    cpu = _cpu()
    with tempfile.TemporaryDirectory(prefix="zsim-bench-") as tmp:
        report = start_run(experiment, Path(tmp) / "run", source="bench")
    if jobs > 1:
        stop_workers()  # their CPU time gets counted
    peak = max(report.peak_rss_bytes, report.worker_peak_rss_bytes)
    return Timing(label, f"runner, {jobs} job{'s' if jobs > 1 else ''}", report.played,
                  report.seconds, _cpu() - cpu, report.decisions, peak, report.engine_seconds)


def _table(rows: list[Row]) -> str:
    header = (f"{'lineup':<10}{'mode':<16}{'games':>6}{'wall s':>8}{'games/s':>9}"
              f"{'decisions/s':>12}{'CPU s':>8}{'games/CPU-s':>12}"
              f"{'efficiency wall/CPU':>21}{'overhead wall/CPU/in run':>27}{'peak RSS':>10}")
    lines = [header, "-" * len(header)]
    for row in rows:
        t, base = row.timing, row.versus
        efficiency = overhead = ""
        if base is not None and row.jobs > 1:
            efficiency = (f"{t.rate / (row.jobs * base.rate):.1%} / "
                          f"{base.cpu_seconds / t.cpu_seconds:.1%}")
        elif base is not None:
            overhead = (f"{t.seconds / base.seconds - 1:.1%} / "
                        f"{t.cpu_seconds / base.cpu_seconds - 1:.1%} / "
                        f"{t.seconds / t.engine_seconds - 1:.1%}")
        lines.append(
            f"{t.lineup:<10}{t.mode:<16}{t.games:>6}{t.seconds:>8.2f}{t.rate:>9.1f}"
            f"{t.decisions / t.seconds:>12.0f}{t.cpu_seconds:>8.2f}"
            f"{t.games / t.cpu_seconds:>12.1f}{efficiency:>21}{overhead:>27}"
            f"{t.peak_rss_bytes / MIB:>6.0f} MiB")
    lines += [
        "overhead: runner over bare engine, minus 1 (wall; CPU); in run: the run's wall time "
        "over its time inside play_game, minus 1.",
        "efficiency: games/s with N jobs over N x games/s with 1 job (wall); CPU of 1 job over "
        "CPU of N jobs (CPU).",
        "peak RSS: the largest process that played (the runner itself, or a worker).",
    ]
    return "\n".join(lines)
