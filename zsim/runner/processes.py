"""The worker processes that play a run's chunks on this machine, watched by the run's process,
which plays no game itself.

A strategy is code the runner does not control: it may catch every exception, replace signal
handlers, or sit in C code that holds the interpreter's lock. Whatever it does, it does in a
worker process, so the run's process is always free to act: to stop at Ctrl-C or SIGTERM
within moments (it kills the workers, which no strategy can refuse), and to end a game that a
strategy keeps going over its time limit (``zsim.runner.limits``): it kills that worker, starts
another in its place, and plays the chunk again from its first game, with that one recorded as
failed, naming the strategy and the decision (``worker.play_chunk``'s ``ended``). The chunk's
other games are played again rather than kept: a chunk is written whole or not at all, and each
game is a function of its seed, so they come out the same.

On Linux the workers are forks of the run's process: they start in milliseconds with
everything already loaded, the lineup included, and each worker's garbage collector leaves the
inherited objects alone (``gc.freeze``), so their memory stays shared. Elsewhere they start
fresh (``spawn``) and get the run's context pickled once. Either way a worker holds the chunk
it plays and the next one, and writes its chunk files itself, sending back only counts; once no
more chunks are left than workers, a worker holds only the chunk it plays, so that the last
chunks go to whichever worker is free first.

A worker that dies while a strategy of its game is answering (the strategy called
``os._exit``, killed its process, or, isolated, killed the worker that started it) is replaced
the same way, that game recorded as failed naming the strategy and how the worker died: the
worker notes each strategy call of its game as it starts (``zsim.runner.limits.died``). A
worker that dies outside any strategy call (the kernel's out-of-memory killer between games, a
crash of the runner's own code, a ``kill``) stops the run (``WorkerLost``): the run's directory
is left resumable. A worker ends when the
run's process does, however it ends (``zsim.runner.lifeline``).
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import json
import multiprocessing
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
from collections import deque
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import TYPE_CHECKING, Any

from zsim import consult
from zsim.runner import lifeline, limits

if TYPE_CHECKING:
    from multiprocessing.process import BaseProcess

    from zsim.runner.worker import ChunkResult, RunContext

# fork: a worker starts with the run's process's memory, at no cost; elsewhere it is unsafe
# (macOS) or missing (Windows).
START_METHOD = "fork" if sys.platform == "linux" else "spawn"
IN_FLIGHT = 2  # chunks a worker holds: the one it plays and the next
TICK_SECONDS = 0.2  # how often the beats are read while the time limits are on
STOP_SECONDS = 10.0  # how long a worker may take to exit at the end of a run before it is killed

Chunk = tuple[int, int, int]  # index, first game, end
Task = tuple[int, int, int, dict[int, limits.Overrun]]  # a chunk, and its games ended already


class WorkerLost(RuntimeError):
    """A worker process died of something other than the runner's own kill."""


def play(context: RunContext, out: Path, pending: list[Chunk], workers: int
         ) -> Iterator[ChunkResult]:
    """Play ``pending`` on ``workers`` processes; each chunk's counts once it is on disk, in the
    order they finish. Ctrl-C, SIGTERM or an error kills every worker at once."""
    crew = _Crew(context, out, workers)
    try:
        yield from crew.play(pending)
    except BaseException:
        crew.stop(kill=True)
        raise
    crew.stop(kill=False)


@dataclass
class _Worker:
    slot: int
    process: BaseProcess
    conn: Connection  # this side of its pipe
    tasks: deque[Task] = field(default_factory=deque)  # sent and not done; [0] plays


class _Crew:
    """The workers of one run, and the chunks left to hand them."""

    def __init__(self, context: RunContext, out: Path, size: int) -> None:
        self._mp: Any = multiprocessing.get_context(START_METHOD)  # typeshed: no Process
        self._context, self._out, self._size = context, out, size
        self._limits = context.limits
        self._payload: Any = context if START_METHOD == "fork" else _pickled(context)
        self._beats = self._mp.RawArray(limits.Beat, size)
        self._queue: deque[Task] = deque()
        self._crew: list[_Worker] = []
        # the isolated strategies' scratch directories, removed with the crew
        self._scratch = tempfile.mkdtemp(prefix="zsim-run-")
        self._done: list[ChunkResult] = []

    def play(self, pending: list[Chunk]) -> Iterator[ChunkResult]:
        self._queue.extend((index, start, stop, {}) for index, start, stop in pending)
        self._crew = [self._start(slot) for slot in range(min(self._size, len(pending)))]
        while self._queue or any(w.tasks for w in self._crew):
            self._hand_out()
            self._collect()
            self._end_overruns()
            while self._done:
                yield self._done.pop(0)

    def _start(self, slot: int) -> _Worker:
        self._beats[slot].game = -1
        here, there = self._mp.Pipe()
        process = self._mp.Process(target=_serve, name=f"zsim-worker-{slot}", args=(
            self._payload, self._out, there, self._beats, slot, os.getpid(), self._scratch))
        process.start()
        there.close()
        return _Worker(slot, process, here)

    def _hand_out(self) -> None:
        """Give each worker a chunk, then a second one while more chunks are left than
        workers (a lone worker always gets its second: there is no one to share with, and it
        plays that one while it writes the one before)."""
        for held in range(IN_FLIGHT):
            for worker in self._crew:
                if not self._queue or (held and len(self._crew) > 1 and
                                       len(self._queue) <= len(self._crew)):
                    return
                if len(worker.tasks) == held:
                    task = self._queue.popleft()
                    worker.tasks.append(task)
                    # if it died, its sentinel says so at the next wait
                    with contextlib.suppress(OSError):
                        worker.conn.send(task)

    def _collect(self) -> None:
        """Wait for a worker's message or death (a tick at most, while limits are on)."""
        busy = [w for w in self._crew if w.tasks]
        waiting: dict[Any, _Worker] = {w.conn: w for w in busy}
        waiting.update((w.process.sentinel, w) for w in busy)
        timeout = TICK_SECONDS if self._limits.any else None
        for ready in wait(list(waiting), timeout=timeout):
            worker = waiting[ready]
            self._read(worker)
            if ready is worker.process.sentinel and worker.tasks:
                self._lost(worker)

    def _lost(self, worker: _Worker) -> None:
        """A worker died holding chunks: if a strategy of its game was answering, that game
        fails naming it, and another worker plays the chunks again; otherwise the run stops."""
        how = _how(worker.process)
        over = limits.died(self._beats[worker.slot], how, time.monotonic(), self._names)
        if over is None or not self._playing(worker, over.game):
            raise WorkerLost(f"a worker process died ({how})")
        self._replace(worker, over)

    def _read(self, worker: _Worker) -> None:
        """Take in every message the worker has sent; raise the error it sent, if any. A
        message is JSON text, never a pickle: the worker runs strategies' code, and nothing it
        sends may run code here (an exception's ``__reduce__`` would, unpickled)."""
        while True:
            try:
                if not worker.conn.poll():
                    return
                message = worker.conn.recv_bytes(MAX_MESSAGE)
            except (EOFError, OSError):
                return  # it died mid-message: its sentinel says so
            what, value = _decoded(message)
            if what == "error":
                raise _error(value)
            worker.tasks.popleft()
            self._done.append(_chunk(value))

    def _end_overruns(self) -> None:
        """Kill each worker whose game is over a hard time limit, and start another."""
        if not self._limits.any:
            return
        now = time.monotonic()
        for worker in list(self._crew):
            beat = self._beats[worker.slot]
            if not self._playing(worker, beat.game):
                continue
            over = limits.overrun(beat, self._limits, now, self._names)
            if over is None:
                continue
            self._read(worker)  # a chunk it finished meanwhile is kept
            self._replace(worker, over)

    @staticmethod
    def _playing(worker: _Worker, game: int) -> bool:
        """Whether ``game`` is of a chunk the worker holds: the first, or the second while the
        first is written."""
        return any(start <= game < stop for _, start, stop, _ in worker.tasks)

    def _replace(self, worker: _Worker, over: limits.Overrun) -> None:
        """Kill the worker (if it still lives) with whatever it started, start another in its
        place, and queue every chunk it held to be played again, ``over``'s game recorded as
        ended (a chunk it was writing may be on disk or not: it is written whole again)."""
        _kill(worker)
        again = [(index, start, stop, {**ended, over.game: over} if start <= over.game < stop
                  else ended) for index, start, stop, ended in worker.tasks]
        worker.tasks.clear()
        self._queue.extendleft(reversed(again))
        self._crew[self._crew.index(worker)] = self._start(worker.slot)

    def _names(self, game: int) -> tuple[str, ...]:
        return self._context.schedule.plan(game).strategies

    def stop(self, kill: bool) -> None:
        """End the workers: at once with ``kill``, else by asking and waiting (so that their
        CPU time is counted as this process's children's)."""
        for worker in self._crew:
            if kill:
                _kill(worker, wait=False)
            else:
                with contextlib.suppress(OSError):
                    worker.conn.send(None)
        deadline = time.monotonic() + STOP_SECONDS
        for worker in self._crew:
            worker.process.join(max(0.0, deadline - time.monotonic()))
            if worker.process.exitcode is None:
                _kill(worker)
            worker.conn.close()
        self._crew = []
        shutil.rmtree(self._scratch, ignore_errors=True)


def _kill(worker: _Worker, wait: bool = True) -> None:
    """SIGKILL the worker and whatever it started (its process group)."""
    try:
        os.killpg(worker.process.pid, signal.SIGKILL)  # type: ignore[arg-type]
    except (ProcessLookupError, PermissionError):
        worker.process.kill()
    if wait:
        worker.process.join()


def _how(process: BaseProcess) -> str:
    process.join(1)
    code = process.exitcode
    if code is None:
        return "still running"
    if code < 0:
        return f"killed by {signal.Signals(-code).name}"
    if code == consult.DESCRIPTOR_CLOSED:
        return "the strategy closed the worker's connection to the run"
    return f"exit code {code}"


def _pickled(context: RunContext) -> bytes:
    import cloudpickle  # the lineup may hold classes defined anywhere

    return cloudpickle.dumps(context)


def _serve(payload: Any, out: Path, conn: Connection, beats: Any, slot: int,
           parent: int, scratch: str) -> None:
    """A worker: play the chunks sent until told to stop (``None``).

    A chunk's file is written by a thread of the worker while the worker plays its next
    chunk: the wait for the disk (most of a write's time: the file and its directory are
    flushed) then costs the run nothing. The thread reports the chunk once it is on disk, so
    what the run counts as done is on disk; one chunk is written at a time, so the reports come
    in the order of the chunks; and after a failed write the worker writes nothing more.
    """
    os.setpgid(0, 0)  # its own group: the runner kills it with all it started
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the run's: it kills the workers
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    lifeline.watch(parent)
    gc.freeze()  # the collector would write into every inherited object's page
    import cloudpickle

    from zsim.runner import isolate, worker

    context = cloudpickle.loads(payload) if isinstance(payload, bytes) else payload
    isolate.hide(str(out))  # out of an isolated strategy's sight
    isolate.scratch_in(scratch)
    limits.publish(beats[slot])
    sending = threading.Lock()  # the writing thread reports, this one sends errors
    consult.guard_descriptor(conn.fileno())  # a strategy that closes it is named

    def send(message: tuple[str, Any]) -> None:
        with sending:
            conn.send_bytes(json.dumps(message).encode())

    def write(chunk: ChunkResult) -> bool:
        try:
            done = worker.to_disk(out, chunk)
        except BaseException as error:
            send(("error", _error_text(error)))
            return False
        send(("done", _chunk_text(done)))
        return True

    writing: Future[bool] | None = None
    # leaving the block waits for the chunk being written
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="zsim-chunk-writer") as writer:
        while True:
            try:
                task = conn.recv()
            except (EOFError, OSError):
                return
            if task is None:
                return
            try:
                chunk = worker.played(context, *task)
            except BaseException as error:  # to be raised in the run's process, which then stops
                # (killing this one) once the chunk played before is on disk and reported
                if writing is None or writing.result():
                    send(("error", _error_text(error)))
                return  # a chunk already sent would be played for nothing, and played again later
            if writing is not None and not writing.result():
                return  # the last write failed, and the run's process stops on its error
            writing = writer.submit(write, chunk)


class WorkerError(RuntimeError):
    """An error of a worker's own code, sent as text (type and message)."""


MAX_MESSAGE = 1 << 20  # bytes of one message from a worker: its counts are a few hundred


def _error_text(error: BaseException) -> dict[str, Any]:
    """What the run's process needs of an error: its type and message, and for an OSError (a
    full disk) its number and file, to say what to do."""
    from zsim.runner.worker import described

    text: dict[str, Any] = {"type": type(error).__name__, "message": described(error)}
    if isinstance(error, OSError) and type(error.errno) is int:
        text.update(errno=error.errno, strerror=str(error.strerror or ""),
                    filename=None if error.filename is None else str(error.filename))
    return text


def _error(text: Any) -> BaseException:
    """The error a worker sent, rebuilt from its text: an OSError as one (the run's process
    says what to do about a full disk), anything else as a WorkerError."""
    if not isinstance(text, dict):
        return WorkerError(f"a worker sent an unreadable error: {str(text)[:200]}")
    if type(text.get("errno")) is int:
        return OSError(text["errno"], str(text.get("strerror") or ""), text.get("filename"))
    if text.get("type") == "KeyboardInterrupt":
        # the worker's own code stopped, outside every game (a strategy's stop fails its game
        # in the worker, zsim.runner.stop): the run stops as at Ctrl-C, resumable
        return KeyboardInterrupt()
    return WorkerError(f"{text.get('type')}: {text.get('message')}")


def _chunk_text(chunk: ChunkResult) -> dict[str, Any]:
    """A written chunk's counts, as JSON (its files are on disk, not sent)."""
    return {"label": dataclasses.asdict(chunk.label), "games": chunk.games,
            "failures": chunk.failures, "decisions": chunk.decisions,
            "engine_seconds": chunk.engine_seconds, "peak_rss_bytes": chunk.peak_rss_bytes}


def _chunk(text: Any) -> ChunkResult:
    from zsim.runner.chunkfile import Label
    from zsim.runner.worker import ChunkResult

    try:
        label = Label(**{key: text["label"][key] for key in ("run_id", "index", "start", "stop",
                                                                "seeds")})
        return ChunkResult(label=label, **{key: text[key] for key in (
            "games", "failures", "decisions", "engine_seconds", "peak_rss_bytes")})
    except (KeyError, TypeError) as error:
        raise WorkerError(f"a worker sent an unreadable result ({error!r})") from None


def _decoded(message: bytes) -> tuple[str, Any]:
    try:
        what, value = json.loads(message)
    except (ValueError, TypeError):
        raise WorkerError(f"a worker sent an unreadable message ({len(message)} bytes)") from None
    return str(what), value
