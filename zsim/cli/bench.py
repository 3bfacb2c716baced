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
``play_game``, both taken in the same run, where the machine's speed cancels out. With
``--repeat``, the CPU overhead is the median over the rounds of each round's runner CPU over
the bare engine's CPU just before it (not the ratio of the fastest runs, which may come from
different rounds), and the rounds' values are listed under the table. Likewise
the parallel efficiency in run: the N-job run's time inside ``play_game`` over N times its wall
time, the share of the workers' time spent playing. What it leaves out is what the runner cannot
change: each game running slower while every core is busy (on a shared or virtual machine, a
tenth or more), which the wall and CPU figures include. That slowdown is measured as well, where
processes can be forked: the bare engine in N processes at once (``engine, N cores``), the most
the machine gives N jobs, and the runner's N-job speed as a share of it.

On a virtual machine the host may give part of the cores' time to other machines meanwhile
(Linux's steal time): each measurement says which share of the machine's busy time was taken so
while it ran (``stolen``), since wall figures include that time and CPU figures do not.

``--runner`` times whole ``zsim run`` processes instead, as a user starts them: interpreter,
imports, box, checks, workers, games, files, summary and exit. A short run with one job shows
the fixed costs (its wall time minus its games' time, from run.json); a long run with one job
against one with ``--jobs`` gives the parallel efficiency of the whole process, also at the
games' own speed (each run's wall time over its games' time), which a machine that got busier
or quieter between the two runs does not move.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, TypeVar

import click

from zsim.engine_build import ENGINE
from zsim.game import play_game
from zsim.runner import DEFAULT_EXPERIMENT, Experiment, load_experiment
from zsim.runner.batch import start_run
from zsim.runner.boxfiles import load_for_run
from zsim.runner.worker import peak_rss_bytes
from zsim.strategies.registry import UnknownStrategy, resolve

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

    from zsim.components import Box
    from zsim.options import GameOptions
    from zsim.strategies.base import Strategy

MIB = 1024 * 1024
# the bare engine's parallel measurement forks this process (the runner's workers fork too)
FORKS = "fork" in multiprocessing.get_all_start_methods()


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
    stolen: float | None = None  # share of the machine's busy time its hypervisor took

    @property
    def rate(self) -> float:
        return self.games / self.seconds


@dataclass
class ProcessRun:
    """One whole ``zsim run`` process, timed from outside, and what its run.json says."""

    games: int
    jobs: int
    seconds: float  # the process, from its start to its exit
    engine_seconds: float  # inside play_game, all its processes summed
    session_seconds: float  # run.json's session: the chunks, the tables and their files
    peak_rss_bytes: int  # the largest of its processes
    stolen: float | None = None  # share of the machine's busy time its hypervisor took

    @property
    def outside_play(self) -> float:
        """Wall time beyond the games' share of each job: for one job, everything but the
        games; for more, also the workers' start and the last chunks' imbalance."""
        return self.seconds - self.engine_seconds / self.jobs

    @property
    def around_session(self) -> float:
        """Before the first chunk and after run.json's last write: interpreter, imports, box,
        checks, summary, exit."""
        return self.seconds - self.session_seconds


@dataclass
class Row:
    timing: Timing
    versus: Timing | None = None  # what the efficiency or overhead is measured against
    jobs: int = 1
    ceiling: Timing | None = None  # the bare engine in as many processes at once
    # (this measurement's CPU seconds, ``versus``'s) in each round: the CPU overhead is the
    # median of the rounds' ratios, each taken back to back (``_cpu_overhead``)
    rounds: list[tuple[float, float]] = field(default_factory=list)


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
@click.option("--runner", "processes", is_flag=True,
              help="Time whole zsim run processes of the default lineup (or --strategy's) "
                   "instead: the time outside play of a --short-games run with one job, and "
                   "the parallel efficiency of --jobs over one job on --games.")
@click.option("--short-games", type=click.IntRange(min=1), default=200, show_default=True,
              help="Games of the --runner fixed-cost run.")
def command(games: int, jobs: int, chunk_size: int, repeat: int, strategies: tuple[str, ...],
            players: int, processes: bool, short_games: int) -> None:
    """Measure games/s, decisions/s, runner overhead, parallel efficiency and peak RSS
    for 4 random players and for the default experiment's lineup, or for the lineup given
    with --strategy."""
    if strategies:
        for spec in strategies:
            try:
                resolve(spec)
            except UnknownStrategy as error:
                raise click.BadParameter(str(error), param_hint="--strategy") from None
    if processes:
        lineup = [*(arg for spec in strategies for arg in ("-s", spec)),
                  *(["-n", str(players), "--seats", "balanced", "--seed", "1"]
                    if strategies else [])]
        click.echo(_process_table(_process_runs(games, short_games, jobs, chunk_size, repeat,
                                                lineup),
                                  ", ".join(strategies) or "default lineup", chunk_size))
        return
    if strategies:
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
                                         backend="local", max_failures=games)
        # Untimed: what a process does only once falls in no measurement (see above).
        _runner("warm-up", experiment.with_overrides(games=min(games, 8), jobs=jobs))
        measures = [partial(_engine, label, experiment), partial(_runner, label, experiment)]
        if jobs > 1:
            measures.append(partial(_runner, label, experiment.with_overrides(jobs=jobs)))
            if FORKS:
                measures.append(partial(_engines, label, experiment, jobs))
        rounds = [[_measured(measure) for measure in measures] for _ in range(repeat)]
        engine, single, *parallel = _fastest_of(rounds)
        paired = [(one[1].cpu_seconds, one[0].cpu_seconds) for one in rounds]
        run = parallel[0] if parallel else None
        cores = parallel[1] if len(parallel) > 1 else None
        rows += [Row(engine), *([Row(cores, versus=engine, jobs=jobs)] if cores else []),
                 Row(single, versus=engine, rounds=paired),
                 *([Row(run, versus=single, jobs=jobs, ceiling=cores)] if run else [])]
    click.echo(_table(rows))
    click.echo(f"engine: {ENGINE}.")
    if strategies:
        click.echo(f"chosen: {players} players from {', '.join(strategies)}, seats balanced.")


class _Measured(Protocol):
    seconds: float
    peak_rss_bytes: int
    stolen: float | None


M = TypeVar("M", bound=_Measured)


def _fastest(repeat: int, measures: list[Callable[[], M]]) -> list[M]:
    """The fastest of ``repeat`` runs of each measurement: other load on the machine only slows
    runs down. The measurements take turns, so that the machine getting busier or quieter
    meanwhile moves all of them alike, not only the ones that happened to run last, which
    would bias the ratios between them."""
    return _fastest_of([[_measured(measure) for measure in measures] for _ in range(repeat)])


def _fastest_of(rounds: list[list[M]]) -> list[M]:
    """Per measurement, its fastest round (``_fastest``), with the largest peak RSS of all."""
    best = []
    for timings in zip(*rounds, strict=True):
        fastest = min(timings, key=lambda t: t.seconds)
        fastest.peak_rss_bytes = max(t.peak_rss_bytes for t in timings)
        best.append(fastest)
    return best


def _measured(measure: Callable[[], M]) -> M:
    """Run one measurement with this process's peak RSS reset first, so that its figure is
    its own and not the high-water mark of an earlier, larger one. Linux resets it through
    ``/proc/self/clear_refs``; elsewhere the figure is the process's peak so far."""
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as refs:
            refs.write("5")
    except OSError:
        pass
    before = _cpu_ticks()
    measured = measure()
    measured.stolen = _stolen(before, _cpu_ticks())
    return measured


def _cpu_ticks() -> list[int] | None:
    """The machine's CPU time by state since boot (Linux's /proc/stat: user, nice, system,
    idle, iowait, irq, softirq, steal), or None where it cannot be read."""
    try:
        with open("/proc/stat", encoding="ascii") as stat:
            fields = stat.readline().split()
    except OSError:
        return None
    if len(fields) < 9 or fields[0] != "cpu":
        return None
    return [int(value) for value in fields[1:9]]


def _stolen(before: list[int] | None, after: list[int] | None) -> float | None:
    """Of the machine's busy time between two readings (user, system, interrupts and steal),
    the share its hypervisor gave to other machines: time in which no process here ran, which
    wall-clock figures count and CPU figures do not. None where it cannot be read."""
    if before is None or after is None:
        return None
    user, nice, system, _, _, irq, softirq, steal = (b - a for a, b in zip(before, after,
                                                                          strict=True))
    busy = user + nice + system + irq + softirq + steal
    return steal / busy if busy > 0 else 0.0


def _cpu() -> float:
    """User + system CPU seconds of this process and of its children that have exited."""
    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        usage = resource.getrusage(who)
        total += usage.ru_utime + usage.ru_stime
    return total


def _bare(experiment: Experiment) -> tuple[Box, GameOptions, list[list[Strategy]], list[int]]:
    """What the bare engine plays: the box the runner plays (its variants applied, its
    per-box caches as warm), the options, and each game's seated bots and seed."""
    box, _, _ = load_for_run(experiment.box_dir(), experiment.variant_set().box)
    instances = {name: resolve(name) for name in experiment.strategies}
    schedule = experiment.schedule()
    plans = [schedule.plan(i) for i in range(experiment.games)]
    return (box, experiment.options(), [[instances[name] for name in plan.strategies]
                                         for plan in plans], [plan.seed for plan in plans])


def _play_all(box: Box, options: GameOptions, seated: list[list[Strategy]],
              seeds: list[int]) -> int:
    """Play the games in a plain loop; the decisions they took."""
    return sum(play_game(box, bots, seed, options).decisions
               for bots, seed in zip(seated, seeds, strict=True))


def _engine(label: str, experiment: Experiment) -> Timing:
    """The bare engine: the same games, played in a plain loop with no runner around them."""
    box, options, seated, seeds = _bare(experiment)
    clock, cpu = time.perf_counter(), _cpu()
    decisions = _play_all(box, options, seated, seeds)
    return Timing(label, "engine, 1 core", experiment.games, time.perf_counter() - clock,
                  _cpu() - cpu, decisions, peak_rss_bytes())


def _engines(label: str, experiment: Experiment, jobs: int) -> Timing:
    """The bare engine in ``jobs`` processes at once, each playing every ``jobs``-th game:
    the most a run with that many jobs could get from this machine, which slows every game
    down when all its cores are busy (shared caches and memory, a virtual machine's host).
    The processes are forks of this one, so they start with everything loaded, as the
    runner's workers do."""
    box, options, seated, seeds = _bare(experiment)
    context = multiprocessing.get_context("fork")
    clock, cpu = time.perf_counter(), _cpu()
    pipes, processes = [], []
    for k in range(jobs):
        reader, writer = context.Pipe(duplex=False)
        process = context.Process(target=_play_share, args=(
            writer, box, options, seated[k::jobs], seeds[k::jobs]))
        process.start()
        writer.close()
        pipes.append(reader)
        processes.append(process)
    try:
        shares = [pipe.recv() for pipe in pipes]
    except EOFError:  # a game raised in a process: its traceback is on stderr
        for process in processes:
            process.join()
        codes = ", ".join(str(process.exitcode) for process in processes)
        raise click.ClickException(f"the bare engine on {jobs} cores failed ({label}; exit "
                                   f"codes {codes})") from None
    for process in processes:
        process.join()
    seconds = time.perf_counter() - clock
    return Timing(label, f"engine, {jobs} cores", experiment.games, seconds, _cpu() - cpu,
                  sum(decisions for decisions, _ in shares), max(peak for _, peak in shares))


def _play_share(pipe: Connection, box: Box, options: GameOptions, seated: list[list[Strategy]],
                seeds: list[int]) -> None:
    """One of ``_engines``'s processes: play, then send the decisions and its peak RSS."""
    pipe.send((_play_all(box, options, seated, seeds), peak_rss_bytes()))
    pipe.close()


def _runner(label: str, experiment: Experiment) -> Timing:
    """``zsim run``'s runner on ``experiment``, into a temporary directory."""
    jobs = experiment.jobs
    cpu = _cpu()
    with tempfile.TemporaryDirectory(prefix="zsim-bench-") as tmp:
        report = start_run(experiment, Path(tmp) / "run", source="bench")
    peak = max(report.peak_rss_bytes, report.worker_peak_rss_bytes)
    return Timing(label, f"runner, {jobs} job{'s' if jobs > 1 else ''}", report.played,
                  report.seconds, _cpu() - cpu, report.decisions, peak, report.engine_seconds)


# ``zsim`` in a process of its own, with this interpreter.
ZSIM = (sys.executable, "-c", "from zsim.cli import main; main()")


def _process_runs(games: int, short: int, jobs: int, chunk_size: int, repeat: int,
                  lineup: Sequence[str]) -> list[ProcessRun]:
    """The short one-job run, the long one-job run and the long run with ``jobs``, fastest of
    ``repeat`` each, taking turns (see ``_fastest``)."""
    runs = [(short, 1), (games, 1), *([(games, jobs)] if jobs > 1 else [])]
    return _fastest(repeat, [partial(_process_run, count, n, chunk_size, lineup)
                             for count, n in runs])


def _process_run(games: int, jobs: int, chunk_size: int, lineup: Sequence[str],
                 zsim: Sequence[str] = ZSIM) -> ProcessRun:
    """Time ``zsim run`` of ``games`` with ``jobs`` into a temporary directory."""
    with tempfile.TemporaryDirectory(prefix="zsim-bench-") as tmp:
        out = Path(tmp) / "run"
        command = [*zsim, "run", "--games", str(games), "--jobs", str(jobs), "--chunk-size",
                   str(chunk_size), "--out", str(out), "--quiet", *lineup]
        clock = time.perf_counter()
        # in the empty directory: ``-c`` puts the working directory first on sys.path
        done = subprocess.run(command, capture_output=True, text=True, cwd=tmp)
        seconds = time.perf_counter() - clock
        if done.returncode != 0:
            raise click.ClickException(f"{' '.join(command[3:])} failed: "
                                       f"{(done.stderr.strip() or done.stdout).splitlines()[-1]}")
        session = json.loads((out / "run.json").read_text(encoding="utf-8"))["sessions"][-1]
    return ProcessRun(games, jobs, seconds, session["engine_seconds"], session["seconds"],
                      max(session["peak_rss_bytes"], session["worker_peak_rss_bytes"]))


def _process_table(runs: list[ProcessRun], lineup: str, chunk_size: int) -> str:
    header = (f"{'games':>6}{'jobs':>6}{'wall s':>9}{'in games s':>12}{'outside play s':>16}"
              f"{'around the run s':>18}{'peak RSS':>10}{'stolen':>8}")
    lines = [f"whole zsim run processes: {lineup}, chunks of {chunk_size}", header,
             "-" * len(header)]
    lines += [f"{r.games:>6}{r.jobs:>6}{r.seconds:>9.2f}{r.engine_seconds:>12.2f}"
              f"{r.outside_play:>16.2f}{r.around_session:>18.2f}"
              f"{r.peak_rss_bytes / MIB:>6.0f} MiB{_share(r.stolen):>8}" for r in runs]
    if len(runs) == 3:
        single, parallel = runs[1], runs[2]
        wall = single.seconds / (parallel.jobs * parallel.seconds)
        own = wall * parallel.engine_seconds / single.engine_seconds
        lines.append(f"parallel efficiency, {parallel.jobs} jobs over 1: {wall:.1%} by wall "
                     f"time, {own:.1%} at the games' own speed")
    lines += [
        "in games: inside play_game, summed over the processes (run.json); outside play: wall "
        "minus in games / jobs;",
        "around the run: before its first chunk and after run.json's last write (imports, box, "
        "checks, summary, exit).",
        STOLEN,
    ]
    return "\n".join(lines)


STOLEN = ("stolen: of the machine's busy time during the measurement, the share its "
          "hypervisor gave to other machines (Linux's steal time): wall figures include it, "
          "CPU figures do not; '-' where the system does not say.")


def _cpu_overhead(row: Row) -> float:
    """The runner's CPU over the bare engine's: with several rounds, the median of each
    round's ratio. Two runs of the same games differ by several percent on a busy machine,
    as much as the overhead, and the rounds' fastest runs (the other figures) may come from
    different rounds: a ratio taken back to back within a round moves less."""
    if len(row.rounds) > 1:
        return statistics.median(runner / engine for runner, engine in row.rounds)
    assert row.versus is not None
    return row.timing.cpu_seconds / row.versus.cpu_seconds


def _share(value: float | None) -> str:
    return "-" if value is None else f"{value:.1%}"


def _table(rows: list[Row]) -> str:
    header = (f"{'lineup':<10}{'mode':<16}{'games':>6}{'wall s':>8}{'games/s':>9}"
              f"{'decisions/s':>12}{'CPU s':>8}{'games/CPU-s':>12}"
              f"{'efficiency wall/CPU/in run':>28}{'overhead wall/CPU/in run':>27}"
              f"{'peak RSS':>10}{'stolen':>8}")
    lines = [header, "-" * len(header)]
    ceilings: list[str] = []
    round_notes: list[str] = []
    for row in rows:
        t, base = row.timing, row.versus
        efficiency = overhead = ""
        if base is not None and row.jobs > 1:
            efficiency = (f"{t.rate / (row.jobs * base.rate):.1%} / "
                          f"{base.cpu_seconds / t.cpu_seconds:.1%}")
            if t.engine_seconds is not None:
                efficiency += f" / {t.engine_seconds / (row.jobs * t.seconds):.1%}"
            if row.ceiling is not None:
                ceilings.append(f"{t.lineup}: {t.rate / row.ceiling.rate:.1%}")
        elif base is not None:
            overhead = (f"{t.seconds / base.seconds - 1:.1%} / "
                        f"{_cpu_overhead(row) - 1:.1%} / "
                        f"{t.seconds / t.engine_seconds - 1:.1%}")
            if len(row.rounds) > 1:
                spread = ", ".join(f"{runner / engine - 1:.1%}" for runner, engine in row.rounds)
                round_notes.append(f"{t.lineup}: CPU overhead by round {spread}")
        lines.append(
            f"{t.lineup:<10}{t.mode:<16}{t.games:>6}{t.seconds:>8.2f}{t.rate:>9.1f}"
            f"{t.decisions / t.seconds:>12.0f}{t.cpu_seconds:>8.2f}"
            f"{t.games / t.cpu_seconds:>12.1f}{efficiency:>28}{overhead:>27}"
            f"{t.peak_rss_bytes / MIB:>6.0f} MiB{_share(t.stolen):>8}")
    lines += [
        "overhead: runner over bare engine, minus 1 (wall; CPU: with --repeat, the median of "
        "the rounds' ratios, each round's runner against the bare engine just before it); in "
        "run: the run's wall time over its time inside play_game, minus 1.",
        *round_notes,
        "efficiency: games/s with N jobs over N x games/s with 1 job (wall); CPU of 1 job over "
        "CPU of N jobs (CPU); in run: the N-job run's time inside play_game over N x its wall "
        "time.",
        "peak RSS: the largest process that played (the runner itself, or a worker).",
        STOLEN,
    ]
    if ceilings:
        lines.append("engine, N cores: the bare engine in N processes at once, the most this "
                     "machine gives N jobs; the runner's N jobs reach, of its games/s: "
                     f"{', '.join(ceilings)}.")
    return "\n".join(lines)
