"""Time limits on strategies: one decision, and one whole game; stopped from inside the process
that plays when the strategy lets itself be stopped, ended from outside when it does not.

A strategy that blocks (waits on a socket, sleeps, loops) would otherwise hold its chunk, and
the run, forever. The limits cost the games nothing: no clock is read around a strategy call.
Instead a watchdog thread, one per process that plays, wakes a few times per limit and looks
at what the playing thread is doing (``sys._current_frames``): the game it plays, and whether
that thread is inside a strategy call (the frame of ``zsim.consult.consult``) and at which
decision (the game's decision count). A decision seen in progress for the decision limit, or
a game playing for the game limit, is stopped by raising ``TimeLimitExceeded`` in the playing
thread, which fails that game like any strategy error, naming the strategy and the decision;
the chunk goes on with its next game.

In the main thread of a process (the run's worker processes) the watchdog sends the process
SIGALRM, whose handler raises the exception: a signal also wakes a thread blocked in a system
call (``time.sleep``, a socket read). Any other thread (a Dask worker's) gets the exception
asynchronously, at its next Python instruction. The watchdog samples every quarter of the
shortest limit, so a decision is stopped after between 1 and 1.25 times its limit.

That stop is a courtesy a strategy can refuse: it can catch the exception and carry on
(``except BaseException`` in a retry loop), replace the SIGALRM handler, or sit in C code that
holds the interpreter's lock, where neither the handler nor the watchdog runs. So in a worker
process of the run the watchdog also writes what it sees into a ``Beat``, a record in memory
shared with the run's process, which reads it (``overrun``) and kills the worker once a
decision or a game is over its limit by more than a grace (``TimeLimits.hard``): half the limit
again and two seconds. A worker whose watchdog stopped writing for that long (frozen in C
code) is killed too. The run's process plays nothing itself, so no strategy can keep it from
doing so, nor from stopping at Ctrl-C (``zsim.runner.processes``).

The watchdog only samples, so a worker that dies between two looks (a strategy called
``os._exit``, or killed its process) would leave no trace of who was deciding. So each strategy
call of the game a worker plays is also noted in its ``Beat`` as it starts and ends
(``zsim.consult.watch``), whether limits are on or not; when a worker dies during a call, the
run's process fails that game naming the strategy (``died``) instead of stopping the run.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from types import FrameType
from typing import Any

from zsim.consult import asked_in, consult
from zsim.consult import watch as consult_calls
from zsim.game import Game

DEFAULT_DECISION_SECONDS = 10.0
DEFAULT_GAME_SECONDS = 300.0
_SAMPLES_PER_LIMIT = 4
# The hard limit: the limit, HARD_FACTOR - 1 of it again (beyond the watchdog's lag of a
# quarter), and HARD_GRACE_SECONDS for a stopped strategy to unwind.
HARD_FACTOR = 1.5
HARD_GRACE_SECONDS = 2.0


@dataclass(frozen=True)
class TimeLimits:
    """Seconds a strategy may take over one decision, and a game over all of it; 0 = no limit."""

    decision: float = DEFAULT_DECISION_SECONDS
    game: float = DEFAULT_GAME_SECONDS

    @property
    def period(self) -> float:
        """How often the watchdog looks."""
        return min(limit for limit in (self.decision, self.game) if limit) / _SAMPLES_PER_LIMIT

    @property
    def any(self) -> bool:
        return bool(self.decision or self.game)

    @staticmethod
    def hard(limit: float) -> float:
        """Seconds after which the run's process ends a game over ``limit`` from outside."""
        return limit * HARD_FACTOR + HARD_GRACE_SECONDS


_NO_LIMITS = TimeLimits(0, 0)


class TimeLimitExceeded(BaseException):
    """A strategy took longer than its decision's limit, or a game longer than its own.

    A ``BaseException``, as ``KeyboardInterrupt`` is, so that a strategy's own
    ``except Exception`` cannot swallow it and carry on."""

    def __init__(self, reason: str | None = None) -> None:
        super().__init__(reason or _WATCHDOG.reason)


class Beat(ctypes.Structure):
    """What the watchdog of one worker process last saw, in memory the run's process reads.

    Times are ``time.monotonic()``, one clock for every process of the machine. Fields are
    written one at a time, so a reader may see a record half updated; the run's process acts
    only on a state that has lasted seconds, by then written whole."""

    _fields_ = [
        ("game", ctypes.c_long),  # the game index being played; -1 between games
        ("started", ctypes.c_double),  # when that game started
        ("decisions", ctypes.c_long),  # its decisions so far, when the watchdog last looked
        ("seat", ctypes.c_int),  # the seat whose strategy was being asked then; -1: none
        ("kind", ctypes.c_char * 40),  # the kind of that decision
        ("since", ctypes.c_double),  # since when that same decision was seen
        ("seen", ctypes.c_double),  # when the watchdog last looked
        # written by the playing thread itself at each strategy call of the game, not sampled
        ("calling", ctypes.c_int),  # the seat whose strategy is answering now; -1: none
        ("calling_kind", ctypes.c_char * 40),  # the kind of its decision
    ]


@dataclass(frozen=True)
class Overrun:
    """A game the run's process must end from outside: who was being asked what, and why."""

    game: int
    seat: int | None
    kind: str | None
    reason: str
    seconds: float  # how long the game had been playing
    cause: str = "TimeLimitExceeded"  # the error's name in the game's failure record


def overrun(beat: Beat, limits: TimeLimits, now: float,
            names: Callable[[int], Sequence[str]]) -> Overrun | None:
    """The game of ``beat`` if it is over a hard limit at ``now``, else None; ``names`` gives a
    game's strategies by seat, for the message (asked only of a game over its limit)."""
    game = beat.game
    if game < 0 or not limits.any or not _late(beat, limits, now):
        return None
    names = names(game)
    seat = beat.seat if 0 <= beat.seat < len(names) else None
    kind = beat.kind.decode(errors="replace") if seat is not None else None
    who = f"strategy {names[seat]!r} (seat {seat})" if seat is not None else ""
    killed = "so the runner killed the process that played it"
    if seat is not None and limits.decision and now - beat.since > limits.hard(limits.decision):
        reason = (f"{who} took more than {limits.decision:g} s over a {kind!r} decision (the "
                  f"decision time limit) and did not stop when told, {killed}")
    elif limits.game and now - beat.started > limits.hard(limits.game):
        doing = f", while {who} was deciding {kind!r}" if seat is not None else ""
        reason = (f"the game took more than {limits.game:g} s (the game time limit){doing} and "
                  f"did not stop when told, {killed}")
    elif now - beat.seen > limits.hard(limits.decision or limits.game):
        doing = f" while {who} was deciding {kind!r}" if seat is not None else ""
        reason = (f"the process playing the game stopped responding for more than "
                  f"{now - beat.seen:.0f} s{doing} (stuck outside Python, over the time "
                  f"limits), {killed}")
    else:
        return None
    return Overrun(game, seat, kind, reason, now - beat.started)


def died(beat: Beat, how: str, now: float,
         names: Callable[[int], Sequence[str]]) -> Overrun | None:
    """The game to fail when the worker of ``beat`` died (``how``: its exit code or signal)
    while a strategy of it was answering, else None: a death outside any strategy call is not
    a strategy's doing."""
    game = beat.game
    if game < 0 or beat.calling < 0:
        return None
    names = names(game)
    if beat.calling >= len(names):
        return None
    seat, kind = beat.calling, beat.calling_kind.decode(errors="replace")
    reason = (f"the process playing the game died ({how}) while strategy {names[seat]!r} "
              f"(seat {seat}) was deciding {kind!r}, so the runner started another in its place")
    return Overrun(game, seat, kind, reason, now - beat.started, cause="ProcessDied")


def _late(beat: Beat, limits: TimeLimits, now: float) -> bool:
    """Whether some hard limit is passed (the cheap test ``overrun`` makes first)."""
    return ((limits.decision and beat.seat >= 0
             and now - beat.since > limits.hard(limits.decision))
            or (limits.game and now - beat.started > limits.hard(limits.game))
            or now - beat.seen > limits.hard(limits.decision or limits.game))


def asking(frame: FrameType | None) -> tuple[Game, int, str] | None:
    """The game, seat and decision kind of the innermost strategy call on a thread's stack, if
    any: the seat and kind as the engine asked them (``zsim.consult.asked_in``), never what the
    strategy's copy of the decision says."""
    while frame is not None:
        if frame.f_code is consult.__code__:
            asked = asked_in(frame)
            return (frame.f_locals.get("game"), *asked) if asked is not None else None
        frame = frame.f_back
    return None


class _Watchdog:
    """Watches the game one thread plays at a time in this process (a chunk plays its games one
    after another)."""

    def __init__(self) -> None:
        self._fresh()
        self._game: Game | None = None
        self._ident = 0
        self._main = False
        self._limits = _NO_LIMITS  # outside ``watching``
        self._names: Sequence[str] = ()
        self._started = 0.0
        self._seen: tuple[int, int] | None = None  # (game, decision count) seen in a decision
        self._seen_at = 0.0
        self._target: tuple[Game, int | None] | None = None  # what the next alarm stops
        self._handler = self._on_alarm  # one bound method, to tell it from a strategy's own
        self._beat: Beat | None = None
        self.reason = "time limit exceeded"

    def _fresh(self) -> None:
        """New lock, event and no thread: also in a forked child, which inherits none of the
        parent's threads, and its locks in whatever state they were."""
        self._lock = threading.RLock()  # the alarm handler takes it in the thread it interrupts
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None

    def publish(self, beat: Beat | None) -> None:
        """Write what the watchdog sees into ``beat`` (a worker process of a run)."""
        self._beat = beat
        if beat is not None:
            beat.game = beat.calling = -1

    @contextmanager
    def watching(self, limits: TimeLimits) -> Iterator[None]:
        """Watch the games this thread plays meanwhile (``begin`` to ``end``) under ``limits``;
        in the main thread, with the alarm handler installed (again, should a strategy of the
        last chunk have replaced it)."""
        if not limits.any:
            yield
            return
        main = threading.current_thread() is threading.main_thread()
        previous = signal.signal(signal.SIGALRM, self._handler) if main else None
        with self._lock:
            self._ident, self._limits, self._main = threading.get_ident(), limits, main
            if self._thread is None:
                self._thread = threading.Thread(target=self._watch, name="zsim-time-limits",
                                                daemon=True)
                self._thread.start()
        self._wake.set()
        try:
            yield
        finally:
            with self._lock:
                self._game = self._target = None
                self._limits, self._ident = _NO_LIMITS, 0
            if main:
                signal.signal(signal.SIGALRM, previous)

    def begin(self, game: Game, names: Sequence[str], index: int = -1) -> None:
        """Watch ``game`` (number ``index`` of its run), played in this thread inside
        ``watching``, until ``end``; ``names`` are its strategies by seat, for the messages.
        In a worker process of a run the beat shows the game, and notes its strategy calls,
        even with no limits: should the worker die in a call, the run's process blames the
        strategy (``died``). Called for every game, so it does as little as it can: a few
        assignments."""
        now = time.monotonic()
        beat = self._beat
        if beat is not None:  # a worker process of a run, whose main thread plays
            with self._lock:
                beat.started = beat.since = beat.seen = now
                beat.seat = beat.calling = -1
                beat.decisions, beat.game = 0, index
            consult_calls(game, beat)
        if self._ident != threading.get_ident():
            return
        with self._lock:
            self._game, self._names = game, names
            self._started, self._seen, self._target = now, None, None

    def end(self) -> None:
        """The game ``begin`` watches is over."""
        if self._beat is not None:
            consult_calls(None, None)
            with self._lock:
                self._beat.game = self._beat.calling = -1
        if self._ident != threading.get_ident():
            return
        with self._lock:
            self._game = self._target = None

    def _watch(self) -> None:
        """Look at the game every period while a chunk is watched; sleep otherwise."""
        while True:
            limits = self._limits
            if not limits.any:
                self._wake.wait()
                self._wake.clear()
                continue
            time.sleep(limits.period)
            with self._lock:
                if self._game is not None:
                    self._check(self._game)

    def _check(self, game: Game) -> None:
        """Stop the game if it or its current decision is over its limit (lock held)."""
        now, limits = time.monotonic(), self._limits
        current = asking(sys._current_frames().get(self._ident))
        seen = (id(game), game.decisions) if current is not None else None
        if seen != self._seen:
            self._seen, self._seen_at = seen, now
        if self._beat is not None:
            self._write(game, current, now)
        if current is not None and limits.decision and now - self._seen_at >= limits.decision:
            _, seat, kind = current
            self._stop(game, game.decisions, (
                f"strategy {self._names[seat]!r} (seat {seat}) took "
                f"more than {limits.decision:g} s over a {kind!r} decision "
                f"(the decision time limit)"))
        elif limits.game and now - self._started >= limits.game:
            doing = "" if current is None else (
                f", while strategy {self._names[current[1]]!r} "
                f"(seat {current[1]}) was deciding {current[2]!r}")
            self._stop(game, None, f"the game took more than {limits.game:g} s (the game time "
                                   f"limit){doing}")

    def _write(self, game: Game, current: tuple[Game, int, str] | None, now: float) -> None:
        beat = self._beat
        assert beat is not None
        beat.decisions = game.decisions
        if current is None:
            beat.seat = -1
        else:
            beat.kind = current[2].encode()[:39]
            beat.since, beat.seat = self._seen_at, current[1]
        beat.seen = now

    def _stop(self, game: Game, decisions: int | None, reason: str) -> None:
        self.reason, self._target = reason, (game, decisions)
        if self._main:
            signal.pthread_kill(self._ident, signal.SIGALRM)
        else:
            ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(self._ident),
                                                       ctypes.py_object(TimeLimitExceeded))

    def _on_alarm(self, signum: int, frame: Any) -> None:
        """Raise in the playing thread, unless it moved on since the watchdog looked."""
        with self._lock:
            target, self._target = self._target, None
        if target is None:
            return
        game, decisions = target
        if game is not self._game:
            return
        if decisions is not None:
            current = asking(frame)
            if current is None or current[0] is not game or game.decisions != decisions:
                return
        raise TimeLimitExceeded(self.reason)


_WATCHDOG = _Watchdog()
os.register_at_fork(after_in_child=_WATCHDOG._fresh)
watching = _WATCHDOG.watching
begin = _WATCHDOG.begin
end = _WATCHDOG.end
publish = _WATCHDOG.publish
