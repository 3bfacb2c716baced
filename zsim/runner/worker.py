"""Play one chunk of a run's games and hand back its tables, never letting one game sink it.

This runs in a worker process of the run (``zsim.runner.processes``) or on a Dask worker. A game
that raises, whether a strategy failed (even calling ``sys.exit``), answered illegally or went
over its time limit (``zsim.runner.limits``), or the engine broke, becomes a failed row and a
failure record with its seed and traceback; the chunk goes on. So does a game that ends with
one of the invariants of ``zsim.invariants`` broken. The result holds the chunk's tables
already serialised as Arrow IPC, ready to be written as they are.
"""

from __future__ import annotations

import hashlib
import json
import resource
import sys
import time
import traceback
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyarrow as pa

from zsim import cores
from zsim.components import Box
from zsim.consult import blame
from zsim.decisions import safe_text
from zsim.experience import kingmaking
from zsim.experience.kingmaking import AnswerLog
from zsim.experience.record import RECORD_FIELDS as EXPERIENCE_FIELDS
from zsim.experience.record import ExperienceRecorder
from zsim.game import RECORD_FIELDS, Game, GameResult
from zsim.invariants import violations
from zsim.options import GameOptions
from zsim.runner import chunkfile, limits, recorders, stop
from zsim.runner.boxfiles import unpack_box
from zsim.runner.columns import TABLES, Columns
from zsim.runner.isolate import Isolated
from zsim.runner.limits import Overrun, TimeLimitExceeded, TimeLimits
from zsim.runner.seeds import GamePlan, Schedule

if TYPE_CHECKING:
    from zsim.experience.record import PositionEstimator
    from zsim.strategies.base import Strategy


@dataclass(frozen=True)
class RunContext:
    """What every chunk of a run needs; small enough to ship with each chunk."""

    run_id: str
    box_digest: str
    box_blob: bytes  # the packed Box, see zsim.runner.boxfiles
    options: GameOptions
    strategies: dict[str, Strategy]  # lineup name -> instance
    schedule: Schedule
    limits: TimeLimits = field(default_factory=TimeLimits)
    record: tuple[str, ...] = ()  # extra tables recorded from each game (zsim.runner.recorders)
    trajectories: str = "off"  # zsim.experience.record.MODES: what is recorded of each game
    kingmaking: int = 0  # games (the first ones) whose last choices are replayed with others


class BrokenInvariant(RuntimeError):
    """A game ended in a state that breaks the rules' conservation laws or bounds."""


@dataclass
class ChunkResult:
    label: chunkfile.Label
    games: int
    failures: int
    decisions: int
    engine_seconds: float  # inside play_game: the rest of the chunk's time is the runner's
    peak_rss_bytes: int
    # table name -> Arrow IPC stream, and "failures" -> JSON lines; empty once written
    files: dict[str, bytes] = field(default_factory=dict)


def play_chunk(context: RunContext, index: int, start: int, stop: int,
               ended: Mapping[int, Overrun] | None = None) -> ChunkResult:
    """Play games ``start..stop-1`` (chunk number ``index``) of a run. ``ended`` holds the games
    of the chunk that the run's process ended from outside (a worker killed over a time limit,
    ``zsim.runner.processes``): they are recorded as failed, not played again."""
    cores.taken()  # the run plays a game on each core: a search's playouts stay in its own
    box = unpack_box(context.box_blob, context.box_digest)
    fields = {**RECORD_FIELDS, **EXPERIENCE_FIELDS, "kingmaking": kingmaking.RECORD_FIELDS}
    columns = {name: Columns(name, fields.get(name)) for name in TABLES}
    failures: list[dict[str, Any]] = []
    decisions = 0
    engine_seconds = 0.0
    # Plans first: numpy's seeding runs several times faster while it stays in the CPU caches.
    plans = [context.schedule.plan(game) for game in range(start, stop)]
    recorded = recorders.collectors(context.record)
    with limits.watching(context.limits):
        for plan in plans:
            ids = {"run_id": context.run_id, "game": plan.index}
            if ended and plan.index in ended:
                failure = killed(context, ended[plan.index])
                failures.append(failure)
                columns["games"].add([_failed_game_row(plan, failure,
                                                       ended[plan.index].seconds)], **ids)
                continue
            clock = time.perf_counter()
            _, result, experience = _play(box, context, plan, list(recorded.values()))
            seconds = time.perf_counter() - clock
            engine_seconds += seconds
            for collector in recorded.values():
                collector.finish(not isinstance(result, BaseException))
            if isinstance(result, BaseException):
                failure = _failure(context, plan, result)
                failures.append(failure)
                columns["games"].add([_failed_game_row(plan, failure, seconds)], **ids)
                continue
            decisions += result.decisions
            _add_rows(columns, ids, plan, result, seconds)
            if "kingmaking" in experience:
                experience["kingmaking"] = kingmaking.analyse(
                    box, context.options, [context.strategies[name] for name in plan.strategies],
                    plan.seed, experience["kingmaking"], result.winners)
            for name, records in experience.items():
                columns[name].add(records, lineup=plan.strategies, **ids,
                                  n_players=plan.n_players)
    # A result table without rows is left out: the merging gives its file the table's base
    # columns (most runs record no experience, and a chunk of a few games may have no rows in
    # a small table), so its empty stream is neither built nor written nor read back.
    files = {name: _ipc(table.table()) for name, table in columns.items() if table.records}
    files.update((name, _ipc(collector.table())) for name, collector in recorded.items())
    if failures:
        files["failures"] = "".join(json.dumps(f) + "\n" for f in failures).encode()
    label = chunkfile.Label(context.run_id, index, start, stop,
                            chunkfile.seeds_digest(plan.seed for plan in plans))
    return ChunkResult(label=label, games=stop - start, failures=len(failures),
                       decisions=decisions, engine_seconds=engine_seconds,
                       peak_rss_bytes=peak_rss_bytes(), files=files)


def _play(box: Box, context: RunContext, plan: GamePlan,
          recorded: list[recorders.Collector] | None = None
          ) -> tuple[Game | None, GameResult | BaseException, dict[str, list[tuple[Any, ...]]]]:
    """The game, its result or what stopped it, and its experience records (none unless the
    run records them, and none for a failed game; ``kingmaking`` holds the answers given, for
    ``zsim.experience.kingmaking.analyse``); a game that ends with an invariant broken fails
    too, since its tables would count what cannot exist. ``recorded``: collectors of extra
    tables, attached to the game before it plays."""
    seated = [context.strategies[name] for name in plan.strategies]
    game = None
    try:
        game = Game(box, seated, plan.seed, context.options)
        for collector in recorded or ():
            collector.attach(game, plan)
        recorder = (ExperienceRecorder(game, context.trajectories,
                                       estimator=_estimator(game, context.trajectories))
                    .listen(game) if context.trajectories != "off" else None)
        log = AnswerLog() if plan.index < context.kingmaking else None
        if log is not None:
            game.listen(log, ("decision",))
        limits.begin(game, plan.strategies, plan.index)
        try:
            result = game.play()
        finally:
            limits.end()
            for strategy in seated:  # an isolated strategy's game ends in its process too
                if isinstance(strategy, Isolated):
                    strategy.game_over()
        broken = violations(game.state, game.t)
        if broken:
            raise BrokenInvariant(f"game seed {plan.seed} ended with broken invariants: "
                                  f"{'; '.join(broken)}")
        records = recorder.finish(game, result) if recorder is not None else {}
    # whatever a game raises fails that game (a bot calling exit(), raising KeyboardInterrupt
    # or GeneratorExit, one over its time limit), except the runner's own stop
    except BaseException as error:
        if stop.is_stop(error):
            raise
        return game, error, {}
    if log is not None:
        records["kingmaking"] = log.answers  # replayed once the game's time is taken
    return game, result, records


def _estimator(game: Game, mode: str) -> PositionEstimator | None:
    """The value model's win probabilities after every turn in ``value`` mode, where a model
    is shipped for the game's player count (``zsim.experience.valuewin``)."""
    if mode != "value":
        return None
    from zsim.experience import valuewin  # the model is read only by runs that use it

    return valuewin.estimator(game)


_SHIPPED: dict[str, RunContext] = {}  # the last run context a Dask worker unpickled


def play_shipped(blob: bytes, index: int, start: int, stop: int) -> tuple[str, Any]:
    """``play_chunk`` on a Dask worker, from the run's context pickled by value (a worker
    unpickles it once per run): ("done", the chunk) or ("error", what went wrong, as text,
    so that nothing of a failure is unpickled in the run's process)."""
    try:
        key = hashlib.sha256(blob).hexdigest()
        context = _SHIPPED.get(key)
        if context is None:
            import cloudpickle  # the lineup may hold classes defined anywhere

            context = cloudpickle.loads(blob)
            _SHIPPED.clear()
            _SHIPPED[key] = context
        return "done", play_chunk(context, index, start, stop)
    except BaseException as error:
        return "error", f"{type(error).__name__}: {described(error)}"


def play_to_disk(context: RunContext, out: Path, index: int, start: int, stop: int,
                 ended: Mapping[int, Overrun] | None = None) -> ChunkResult:
    """``play_chunk`` in a worker that shares the run's disk: it writes the chunk file itself
    and sends back only the counts, so no chunk's bytes have to cross between processes."""
    return to_disk(out, played(context, index, start, stop, ended))


def played(context: RunContext, index: int, start: int, stop: int,
           ended: Mapping[int, Overrun] | None = None) -> ChunkResult:
    """``play_chunk``, given ``ended`` only when the run's process ended a game of the chunk."""
    return (play_chunk(context, index, start, stop, ended) if ended else
            play_chunk(context, index, start, stop))


def to_disk(out: Path, chunk: ChunkResult) -> ChunkResult:
    """Write the chunk file; what is left to send back is the counts."""
    chunkfile.write(out, chunk.label, chunk.files)
    return replace(chunk, files={})


def _add_rows(columns: dict[str, Columns], ids: dict[str, Any], plan: GamePlan,
              result: GameResult, seconds: float) -> None:
    """A finished game's rows; player and game rows carry its setup, so that a player row can
    be analysed alone."""
    names = plan.strategies
    players = result.player_rows()
    for row in players:
        row["strategy"] = names[row["seat"]]  # the lineup's name, not the bot's own
    columns["players"].add(players, **ids, **result.setup)
    totals = sorted((s["vp_total"] for s in result.scores), reverse=True)
    columns["games"].add([{
        "seed": plan.seed, "n_players": plan.n_players, "strategies": ",".join(names),
        "failed": False, "winners": ",".join(map(str, result.winners)),
        "winner_strategies": ",".join(names[s] for s in result.winners),
        "n_winners": len(result.winners), "vp_best": totals[0],
        "vp_margin": totals[0] - totals[1], "decisions": result.decisions,
        "duration_s": seconds,
    }], **ids, **result.setup)
    for table in RECORD_FIELDS:
        columns[table].add(getattr(result, table), lineup=names, **ids,
                           n_players=plan.n_players)


def _failed_game_row(plan: GamePlan, failure: dict[str, Any], seconds: float) -> dict[str, Any]:
    return {"seed": plan.seed, "n_players": plan.n_players, "strategies": ",".join(plan.strategies),
            "failed": True, "error": failure["error"],
            "failed_strategy": failure["strategy"], "failed_seat": failure["seat"],
            "failed_decision": failure["decision"], "duration_s": seconds}


def _failure(context: RunContext, plan: GamePlan, error: BaseException) -> dict[str, Any]:
    """The failure record: which game, who was being asked what, and the traceback."""
    seat, decision = blame(error)
    text = f"{type(error).__name__}: {described(error)}"
    return {
        "run_id": context.run_id, "game": plan.index, "seed": plan.seed,
        "n_players": plan.n_players, "strategies": list(plan.strategies),
        "strategy": plan.strategies[seat] if seat is not None else None,
        "seat": seat, "decision": decision, "error": text,
        "traceback": _traceback(error),
    }


def described(error: BaseException, limit: int = 2000) -> str:
    """``str(error)``, cut to ``limit`` characters, or what it is when that fails: a strategy's
    exception may recurse or raise in its ``__str__``, and its game's failure must still be
    recorded, naming it."""
    name = type(error).__name__
    return safe_text(error, str, limit, f"(a {name} whose message cannot be read)",
                     f"(a {name} whose message is not text)")


def _traceback(error: BaseException) -> str:
    try:
        return "".join(traceback.format_exception(error))
    except BaseException:  # the exception's own code failed
        return "".join(traceback.format_tb(error.__traceback__)) + described(error)


def killed(context: RunContext, overrun: Overrun) -> dict[str, Any]:
    """The failure record of a game that the run's process ended from outside, or whose
    worker died while a strategy of it was answering."""
    plan = context.schedule.plan(overrun.game)
    return {
        "run_id": context.run_id, "game": plan.index, "seed": plan.seed,
        "n_players": plan.n_players, "strategies": list(plan.strategies),
        "strategy": plan.strategies[overrun.seat] if overrun.seat is not None else None,
        "seat": overrun.seat, "decision": overrun.kind,
        "error": f"{overrun.cause}: {overrun.reason}",
        "traceback": (f"none: the process that played the game "
                      f"{'was killed' if overrun.cause == TimeLimitExceeded.__name__ else 'died'}"),
    }


def _ipc(table: pa.Table) -> bytes:
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(table)
    return sink.getvalue().to_pybytes()


def peak_rss_bytes() -> int:
    """This process's peak resident set size.

    On Linux it is VmHWM, the high-water mark of this program's own memory: ru_maxrss would
    also count the parent's memory at the moment a worker was forked before it exec'd.
    Elsewhere ru_maxrss (KiB on Linux, bytes on macOS).
    """
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024
