"""Run an experiment: plan the chunks, play them (``zsim.runner.backends``), merge, summarise.

``start_run`` begins a run in an empty directory; ``resume_run`` finishes an interrupted one
from its ``run.json`` and the chunks already on disk. Both end in the same ``_execute``.
"""

from __future__ import annotations

import contextlib
import errno
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tqdm.auto import tqdm  # a notebook's own bar in Jupyter (zsim.api)

from zsim import __version__
from zsim.components import BoxError
from zsim.game import Game, any_forks
from zsim.options import OptionError
from zsim.rules.lisi import LiSiSeat
from zsim.runner import backends, chunkfile, lock, stop, writer
from zsim.runner.boxfiles import load_for_run
from zsim.runner.experiment import Experiment, ExperimentError, parse_experiment
from zsim.runner.isolate import Isolated
from zsim.runner.limits import TimeLimits
from zsim.runner.merging import Merger
from zsim.runner.processes import WorkerError, WorkerLost
from zsim.runner.provenance import play_digest
from zsim.runner.summary import Summary, Tally, summarize
from zsim.runner.worker import ChunkResult, RunContext, peak_rss_bytes
from zsim.strategies.registry import UnknownStrategy, resolve

if TYPE_CHECKING:
    from zsim.strategies.base import Strategy

# Games per chunk at most when a strategy of the lineup searches (forks the game): such a game
# takes seconds, and the progress bar moves as chunks finish, so chunks of the usual size would
# leave it standing for minutes, with no time estimate. The tables do not depend on the chunk
# size; a chunk file per game or two costs little beside games that slow.
SEARCH_CHUNK_SIZE = 2
TAIL_PIECES = 4  # the last two chunks' worth is cut in quarters when workers share a run
MAX_CHUNKS = 100_000  # chunks a run's plan lists (a few MB): far beyond what a run plays
_PACKAGES = ("numpy", "pandas", "pyarrow", "joblib", "pydantic", "dask", "distributed")


class Terminated(KeyboardInterrupt):
    """SIGTERM (sent by ``timeout``, ``kill`` and CI cancellation), stopping a run as Ctrl-C
    does."""


class RunInterrupted(Exception):
    """The run was stopped (Ctrl-C, SIGTERM); its directory can be resumed."""

    def __init__(self, out: Path, finished: int, total: int, why: str = "interrupted",
                 terminated: bool = False) -> None:
        self.out, self.finished, self.total = out, finished, total
        self.terminated = terminated
        super().__init__(f"{why} with {finished} of {total} games finished; "
                         f"finish it with: zsim run --resume {out}")


class WorkerDied(RunInterrupted):
    """A worker process died (killed, out of memory, crashed), which stopped the run; its
    directory can be resumed."""

    def __init__(self, out: Path, finished: int, total: int, error: WorkerLost) -> None:
        super().__init__(out, finished, total, f"{error}\nstopped")


class RunFailed(Exception):
    """The run could not go on (a full disk, a file it cannot write); once that is fixed, its
    directory can be resumed."""


@dataclass
class RunReport:
    """What one ``start_run``/``resume_run`` call did, and the run's summary."""

    out: Path
    run_id: str
    experiment: Experiment
    summary: Summary
    played: int  # games played by this call (0 when resuming a complete run)
    decisions: int  # decisions taken in those games
    seconds: float  # wall time spent playing and writing them
    engine_seconds: float  # of which inside the games, summed over the processes that played
    peak_rss_bytes: int  # this process
    worker_peak_rss_bytes: int  # the largest worker process

    @property
    def too_many_failures(self) -> bool:
        return self.summary.failed > self.experiment.max_failures


def start_run(experiment: Experiment, out: Path, *, source: str = "experiment",
              given: Mapping[str, str] | None = None,
              strategies: Mapping[str, Strategy] | None = None,
              progress: bool = False) -> RunReport:
    """Run ``experiment`` into the empty (or new) directory ``out``.

    Everything that can be wrong (strategies, box, output directory) is checked before any game
    runs; an error names ``source``, or where a key was ``given`` when it maps the key (say,
    ``strategies`` to the command line). ``strategies`` maps lineup names to instances, for
    bots that the registry cannot name.
    """
    out = out.absolute()  # a bot's os.chdir in a worker must not move where the run writes
    experiment = experiment.with_overrides(source, box=str(experiment.box_dir().resolve()))
    context = _context(experiment, source, strategies, given)
    _plannable(experiment.games, chunk_size(experiment, context),
               (given or {}).get("games", source))
    with writer.claim_out(out):
        return _start(out, experiment, context, source, progress)


def _start(out: Path, experiment: Experiment, context: RunContext, source: str,
           progress: bool) -> RunReport:
    manifest = {
        "format": writer.RUN_FORMAT,
        "run_id": context.run_id,
        "status": "running",
        "experiment": experiment.model_dump(),
        "source": source,
        "box_digest": context.box_digest,
        "play_digest": play_digest(context.strategies),
        "master_seed": experiment.seed,
        "chunk_size": chunk_size(experiment, context),
        "tail_pieces": tail_pieces(experiment),
        "versions": _versions(),
        "git": _git_state(),
        "created": _now(),
        "sessions": [],
    }
    try:
        writer.write_json(out / writer.RUN_JSON, manifest)
    except OSError as error:
        raise RunFailed(_cannot_write(error, None)) from None
    return _execute(out, manifest, experiment, context, progress)


def chunk_size(experiment: Experiment, context: RunContext) -> int:
    """Games per chunk: the experiment's; at most a worker's share of the games, so that a
    short run keeps every worker busy; and at most ``SEARCH_CHUNK_SIZE`` when the lineup has
    a search bot (a strategy that forks). The size is recorded in run.json: a resume cuts
    the run as its start did, whatever jobs it is given."""
    size = experiment.chunk_size
    workers = backends.workers(experiment.backend, experiment.jobs, experiment.scheduler)
    if workers is not None:
        size = min(size, max(1, -(-experiment.games // workers)))
    if any_forks(list(context.strategies.values())):
        return min(size, SEARCH_CHUNK_SIZE)
    return size


def resume_run(out: Path, *, jobs: int | None = None, backend: str | None = None,
               scheduler: str | None = None, max_failures: int | None = None,
               decision_time_limit: float | None = None, game_time_limit: float | None = None,
               isolate: list[str] | None = None, isolate_memory: int | None = None,
               strategies: Mapping[str, Strategy] | None = None,
               progress: bool = False) -> RunReport:
    """Finish the run in ``out``: play only the chunks not on disk yet, or whose file is
    damaged or belongs to another run.

    Only how the run executes may change (jobs, backend, scheduler, failures tolerated, time
    limits, isolated strategies), never what it plays.
    """
    out = out.absolute()  # a bot's os.chdir in a worker must not move where the run writes
    changes = {"jobs": jobs, "backend": backend, "scheduler": scheduler,
               "max_failures": max_failures, "decision_time_limit": decision_time_limit,
               "game_time_limit": game_time_limit, "isolate": isolate,
               "isolate_memory": isolate_memory}
    path = out / writer.RUN_JSON
    if not path.is_file():
        raise ExperimentError(f"{out}: no {writer.RUN_JSON}, so not a zsim run directory")
    with lock.acquire(out):
        try:
            manifest = writer.read_manifest(path)
        except writer.DamagedRun as error:
            raise ExperimentError(str(error)) from None
        experiment = parse_experiment(manifest["experiment"], str(path)).with_overrides(
            source="--resume options", **changes)
        context = _context(experiment, str(path), strategies)
        if context.box_digest != manifest["box_digest"]:
            raise ExperimentError(
                f"{path}: the component files in {experiment.box_dir()} changed since the run "
                f"started; resuming would mix two rule sets")
        if context.run_id != manifest["run_id"]:
            raise ExperimentError(
                f"{path}: its experiment makes run id {context.run_id}, not the "
                f"{manifest['run_id']} recorded: it was edited since the run started, and "
                f"resuming would mix the games of two experiments. Start a new run instead")
        if manifest["status"] != "complete":
            _refuse_other_players(path, manifest, context)
        else:
            _check_complete(out, manifest)
        return _execute(out, manifest, experiment, context, progress)


def _check_complete(out: Path, manifest: dict[str, Any]) -> None:
    """A complete run's resume plays nothing and sums up its tables, whose chunks are gone:
    a table missing or damaged is refused in one line naming it (``writer.check_tables``)."""
    try:
        games = writer.read_table(out, "games")
        writer.check_tables(out, manifest, games, writer.read_table(out, "players"))
    except writer.DamagedRun as error:
        raise ExperimentError(f"cannot resume the complete run in {out}: {error}") from None


def _refuse_other_players(path: Path, manifest: dict[str, Any], context: RunContext) -> None:
    """Refuse to play the rest of a run with other engine or bot code, or other bots, than it
    started with (``zsim.runner.provenance``). Runs started before the digest was recorded
    cannot be checked."""
    recorded = manifest.get("play_digest")
    if recorded is None or recorded == play_digest(context.strategies):
        return
    commit = (manifest.get("git") or {}).get("commit")
    started = f"the code it started with (commit {commit})" if commit else "its original code"
    raise ExperimentError(
        f"{path}: zsim's code or the lineup's bots changed since the run started; resuming "
        f"would mix games played by two versions. Finish it with {started}, or start a new run")


def tail_pieces(experiment: Experiment) -> int:
    """In how many pieces the last two chunks' worth of a run is cut (``chunk_bounds``): in
    quarters when several workers share the run, so that they run out of work at nearly the
    same time instead of one idling while another plays a last full chunk; not at all for a
    lone worker, which has no one to wait for and would only pay each extra chunk's fixed
    work (its tables built, written and merged: about 18 ms of CPU each for random play,
    ``docs/running.md``). A Dask cluster's size is unknown here: cut. Recorded in run.json,
    so that a resume with other jobs cuts the run as its start did."""
    workers = backends.workers(experiment.backend, experiment.jobs, experiment.scheduler)
    return 1 if workers == 1 else TAIL_PIECES


def chunk_bounds(games: int, size: int, pieces: int = TAIL_PIECES) -> list[tuple[int, int, int]]:
    """(index, first game, end) of every chunk of a run: ``size`` games each, except the last
    two chunks' worth, which are cut in ``pieces`` (``tail_pieces``)."""
    tail = max(0, games - 2 * size) // size * size
    starts = [*range(0, tail, size), *range(tail, games, max(1, size // pieces))]
    return [(i, start, end) for i, (start, end) in enumerate(zip(starts, [*starts[1:], games],
                                                                 strict=True))]


def _plannable(games: int, size: int, where: str) -> None:
    """Refuse a run of more chunks than its plan can hold (every chunk is listed: a run of
    10**15 games would exhaust the memory before its first game), in one line."""
    chunks = games // size + 2 * TAIL_PIECES
    if chunks > MAX_CHUNKS:
        raise ExperimentError(
            f"{where}: key 'games': {games:,} games in chunks of {size:,} make {chunks:,} "
            f"chunks, more than a run plans ({MAX_CHUNKS:,}, so at most "
            f"{(MAX_CHUNKS - 2 * TAIL_PIECES) * size:,} games); raise chunk_size (at most "
            f"100,000) or split the games into several runs")


def _execute(out: Path, manifest: dict[str, Any], experiment: Experiment, context: RunContext,
             progress: bool) -> RunReport:
    _plannable(experiment.games, manifest["chunk_size"], str(out / writer.RUN_JSON))
    # a run.json from before the key was recorded: its tail was cut in quarters
    bounds = chunk_bounds(experiment.games, manifest["chunk_size"],
                          manifest.get("tail_pieces", TAIL_PIECES))
    session: dict[str, Any] = {"started": _now(), "backend": experiment.backend,
                               "jobs": experiment.jobs}
    totals = _Totals()
    tally: Tally | None = None  # the summary's sums, when this call merges the tables
    clock = time.perf_counter()
    if manifest["status"] != "complete":
        try:
            with _sigterm_stops():
                # new, or removed by hand (whose games then play again)
                (out / chunkfile.CHUNKS).mkdir(exist_ok=True)
                finished = _adopt(out, bounds, context, _say)
                pending = [chunk for chunk in bounds if chunk[0] not in finished]
                done = sum(stop - start for index, start, stop in bounds if index in finished)
                sums = Tally()
                # the tables are merged from the chunks as they come (zsim.runner.merging)
                merger = Merger(out, [index for index, _, _ in bounds], context.record,
                                observe=sums.add)
                try:
                    for index in sorted(finished):
                        merger.offer(index)
                    with backends.using(experiment.backend, experiment.jobs,
                                        experiment.scheduler) as pool:
                        session["workers"] = pool.size
                        with _bar(experiment.games, done, progress) as bar:
                            for chunk in pool.play(context, out, pending):
                                totals.add(chunk)
                                merger.offer(chunk.label.index)
                                bar.update(chunk.games)
                    merger.finish()
                except BaseException:
                    merger.abort()
                    raise
                tally = sums
                if experiment.trajectories != "off":
                    from zsim.experience import valuewin
                    from zsim.experience.winprob import fill_run  # pandas: only now

                    fill_run(out, valuewin.NAME if experiment.trajectories == "value" else None)
        except KeyboardInterrupt as stop:
            _close_session(out, manifest, session, totals, clock, "interrupted")
            terminated = isinstance(stop, Terminated)
            raise RunInterrupted(out, _games_on_disk(out, bounds), experiment.games,
                                 "terminated (SIGTERM)" if terminated else "interrupted",
                                 terminated) from None
        except WorkerLost as error:
            _close_session(out, manifest, session, totals, clock, "interrupted")
            raise WorkerDied(out, _games_on_disk(out, bounds), experiment.games,
                             error) from error
        except WorkerError as error:  # the runner's own code failed in a worker
            with contextlib.suppress(OSError):
                _close_session(out, manifest, session, totals, clock, "failed")
            raise RunFailed(f"{error}; once that is fixed, finish the run with: zsim run "
                            f"--resume {out}") from None
        except OSError as error:
            with contextlib.suppress(OSError):  # the disk may be too full for run.json too
                _close_session(out, manifest, session, totals, clock, "failed")
            raise RunFailed(_cannot_write(error, out)) from None
        _close_session(out, manifest, session, totals, clock, "complete")
    writer.drop_chunks(out)
    return RunReport(
        out=out, run_id=context.run_id, experiment=experiment,
        summary=tally.summary() if tally is not None else summarize(out),
        played=totals.played, decisions=totals.decisions,
        seconds=time.perf_counter() - clock, engine_seconds=totals.engine_seconds,
        peak_rss_bytes=peak_rss_bytes(),
        worker_peak_rss_bytes=totals.worker_rss)


def _say(line: str) -> None:
    print(line, file=sys.stderr)


def _adopt(out: Path, bounds: list[tuple[int, int, int]], context: RunContext,
           say: Callable[[str], None]) -> set[int]:
    """The chunks on disk that are whole and hold this run's games; every other chunk file is
    set aside (renamed ``*.rejected``), with a line saying why, so that its games play again."""
    expected = {index: (start, stop) for index, start, stop in bounds}
    adopted = set()
    for index in sorted(chunkfile.finished(out)):
        file = chunkfile.path(out, index)
        try:
            problem = _not_this_runs(index, chunkfile.check(file), expected, context)
        except chunkfile.ChunkDamaged as damaged:
            problem = str(damaged)
        if problem is None:
            adopted.add(index)
            continue
        aside = file.with_name(f"{file.name}.rejected")
        file.replace(aside)
        games = expected.get(index)
        again = (f"its games {games[0]}-{games[1] - 1} will be played again" if games
                 else "it is no chunk of this run")
        say(f"{file} {problem}: set aside as {aside.name}; {again}")
    return adopted


def _not_this_runs(index: int, label: chunkfile.Label, expected: dict[int, tuple[int, int]],
                   context: RunContext) -> str | None:
    """Why the whole chunk file of number ``index`` does not hold the games of this run's
    chunk of that number."""
    if label.run_id != context.run_id:
        return f"belongs to another run (run id {label.run_id}, not {context.run_id})"
    if label.index != index or expected.get(index) != (label.start, label.stop):
        return f"holds games {label.start}-{label.stop - 1}, not those of chunk {index}"
    seeds = (context.schedule.plan(game).seed for game in range(label.start, label.stop))
    if chunkfile.seeds_digest(seeds) != label.seeds:
        return "holds games of other seeds than this run's"
    return None


def _games_on_disk(out: Path, bounds: list[tuple[int, int, int]]) -> int:
    """Games of the chunk files on disk: what a resume starts from, whoever wrote them."""
    on_disk = chunkfile.finished(out)
    return sum(stop - start for index, start, stop in bounds if index in on_disk)


@contextlib.contextmanager
def _sigterm_stops() -> Iterator[None]:
    """While a run plays, SIGTERM stops it as Ctrl-C does (in the main thread, the only one
    that can take signals); both note the stop as the runner's own (``zsim.runner.stop``), so
    that a game playing in this process lets it through instead of failing on it."""
    stop.clear()
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def terminate(signum: int, frame: Any) -> None:
        stop.ask()
        raise Terminated

    def interrupt(signum: int, frame: Any) -> None:
        stop.ask()
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, terminate)
    before = signal.getsignal(signal.SIGINT)
    if before is signal.default_int_handler:  # not if the caller set its own
        signal.signal(signal.SIGINT, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
        if before is signal.default_int_handler:
            signal.signal(signal.SIGINT, before)


def _cannot_write(error: OSError, out: Path | None) -> str:
    """One line for a write that failed: the path, why, and what to do."""
    where = error.filename or (out if out is not None else "the run directory")
    full = error.errno in (errno.ENOSPC, errno.EDQUOT) or "No space left" in str(error)
    fix = "free some space on that disk" if full else "fix that"
    then = f", then finish the run with: zsim run --resume {out}" if out is not None else ""
    return f"cannot write {where}: {error.strerror or error}; {fix}{then}"


@dataclass
class _Totals:
    """Running counts of this call's chunks (the tables on disk hold the rest)."""

    played: int = 0
    decisions: int = 0
    engine_seconds: float = 0.0
    worker_rss: int = 0

    def add(self, chunk: ChunkResult) -> None:
        self.played += chunk.games
        self.decisions += chunk.decisions
        self.engine_seconds += chunk.engine_seconds
        self.worker_rss = max(self.worker_rss, chunk.peak_rss_bytes)


@contextlib.contextmanager
def _bar(total: int, initial: int, enabled: bool) -> Iterator[tqdm]:
    with tqdm(total=total, initial=initial, unit="game", disable=not enabled,
              file=sys.stderr, dynamic_ncols=True, smoothing=0.1) as bar:
        yield bar


def _close_session(out: Path, manifest: dict[str, Any], session: dict[str, Any],
                   totals: _Totals, clock: float, status: str) -> None:
    seconds = time.perf_counter() - clock
    session.update(finished=_now(), status=status, seconds=round(seconds, 3),
                   games=totals.played, decisions=totals.decisions,
                   games_per_second=round(totals.played / seconds, 2) if seconds else None,
                   engine_seconds=round(totals.engine_seconds, 3),
                   peak_rss_bytes=peak_rss_bytes(), worker_peak_rss_bytes=totals.worker_rss)
    manifest["sessions"].append(session)
    manifest["status"] = status
    writer.write_json(out / writer.RUN_JSON, manifest)


def _context(experiment: Experiment, source: str, instances_given: Mapping[str, Strategy] | None,
             given: Mapping[str, str] | None = None) -> RunContext:
    """Check the box, strategies and variants a run needs, with errors naming where the key
    was given and the key, so that a mistake stops the run before its first game instead of
    failing every game."""

    def where(key: str) -> str:
        return (given or {}).get(key, source)

    try:
        box, blob, digest = load_for_run(experiment.box_dir(), experiment.variant_set().box)
    except (BoxError, OSError) as error:
        key = "variants" if experiment.variant_set().box else "box"
        raise ExperimentError(f"{where(key)}: key '{key}': {error}") from None
    instances: dict[str, Strategy] = {}
    for name in experiment.strategies:
        try:
            instances[name] = (instances_given[name] if instances_given and name in instances_given
                               else resolve(name))
        except UnknownStrategy as error:
            raise ExperimentError(f"{where('strategies')}: key 'strategies': {error}") from None
        check = getattr(instances[name], "check_players", None)
        for n in experiment.players if check is not None else ():
            try:  # a bot with no model or scorer for a count would fail every game of it
                check(n)
            except ValueError as error:
                raise ExperimentError(f"{where('strategies')}: key 'strategies': {name}: "
                                      f"{error}") from None
    if backends.pickles_lineup(experiment.backend):
        for name, instance in instances.items():
            if (error := backends.pickling_error(instance)) is not None:
                raise ExperimentError(
                    f"{where('strategies')}: key 'strategies': {name} cannot be sent to worker "
                    f"processes ({type(error).__name__}: {error}); run it with the local "
                    f"backend, or keep only picklable state in the bot")
    for name in experiment.isolated():
        given_here = bool(instances_given and name in instances_given)
        instances[name] = _isolated(instances[name], name, experiment, where("isolate"),
                                    None if given_here else name)
    options, schedule = experiment.options(), experiment.schedule()
    try:  # setting a game up checks the variants against this box and each player count
        for first in map(schedule.plan, range(len(experiment.players))):
            Game(box, [instances[name] for name in first.strategies], first.seed, options)
    except OptionError as error:
        raise ExperimentError(f"{where('variants')}: key 'variants': {error}") from None
    return RunContext(run_id=experiment.run_id(digest), box_digest=digest, box_blob=blob,
                      options=options, strategies=instances, schedule=schedule,
                      limits=TimeLimits(experiment.decision_time_limit,
                                        experiment.game_time_limit),
                      record=tuple(experiment.record),
                      trajectories=experiment.trajectories, kingmaking=experiment.kingmaking)


def _isolated(instance: Strategy, name: str, experiment: Experiment, where: str,
              spec: str | None) -> Isolated:
    """``instance`` played in a process of its own; Li Si's seat (engine data, never asked)
    and a search (it forks the game, which an isolated strategy has not) cannot be."""
    if isinstance(instance, LiSiSeat) or getattr(instance, "forks", False):
        what = "is Li Si's seat" if isinstance(instance, LiSiSeat) else \
            "searches forks of the game, and an isolated strategy sees its table only"
        raise ExperimentError(f"{where}: key 'isolate': {name} cannot be isolated: it {what}")
    return Isolated(instance, experiment.isolate_memory, experiment.decision_time_limit, spec)


def _versions() -> dict[str, str | None]:
    return dict(_installed_versions())


@cache
def _installed_versions() -> dict[str, str | None]:
    """Read once per process: the packages installed do not change under a running program
    (an upgrade takes effect at its next start), and a sweep starts a run per point."""
    versions: dict[str, str | None] = {"zsim": __version__, "python": sys.version.split()[0]}
    for package in _PACKAGES:
        try:
            versions[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            versions[package] = None
    return versions


def _git_state() -> dict[str, Any] | None:
    """The commit of the zsim checkout, and whether it had local changes; None outside git
    (or in a repository without a commit). One ``git status`` says both."""
    root = Path(__file__).resolve().parents[2]
    try:
        status = subprocess.run(["git", "-C", str(root), "status", "--porcelain=v2", "--branch"],
                                capture_output=True, text=True, timeout=10, check=True)
    except (OSError, subprocess.SubprocessError):
        return None
    lines = status.stdout.splitlines()
    commit = next((line.split()[2] for line in lines if line.startswith("# branch.oid ")), None)
    if commit is None or commit == "(initial)":
        return None
    return {"commit": commit, "dirty": any(not line.startswith("#") for line in lines)}


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")
