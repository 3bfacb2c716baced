"""Time limits on strategies: one decision, and one whole game.

A strategy that blocks (waits on a socket, sleeps, loops) would otherwise hold its chunk, and
the run, forever. The limits cost the games nothing: no clock is read around a strategy call.
Instead a watchdog thread, one per process that plays, wakes a few times per limit and looks
at what the playing thread is doing (``sys._current_frames``): the game it plays, and whether
that thread is inside a strategy call (the frame of ``zsim.consult.consult``) and at which
decision (the game's decision count). A decision seen in progress for the decision limit, or
a game playing for the game limit, is stopped by raising ``TimeLimitExceeded`` in the playing
thread, which fails that game like any strategy error, naming the strategy and the decision;
the chunk goes on with its next game.

In the main thread of a process (``zsim run`` itself, and loky's workers) the watchdog sends the
process SIGALRM, whose handler raises the exception: a signal also wakes a thread blocked in a
system call (``time.sleep``, a socket read). Any other thread (a Dask worker's) gets the
exception asynchronously, at its next Python instruction, so there a call blocked inside the
system is stopped only once it returns. Code that never comes back to Python bytecode (a loop in
a C extension) cannot be stopped at all.

The watchdog samples every quarter of the shortest limit, so a decision is stopped after between
1 and 1.25 times its limit.
"""

from __future__ import annotations

import ctypes
import signal
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from types import FrameType
from typing import TYPE_CHECKING, Any

from zsim.consult import consult
from zsim.game import Game

if TYPE_CHECKING:
    from zsim.decisions import Decision

DEFAULT_DECISION_SECONDS = 10.0
DEFAULT_GAME_SECONDS = 300.0
_SAMPLES_PER_LIMIT = 4


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


class TimeLimitExceeded(BaseException):
    """A strategy took longer than its decision's limit, or a game longer than its own.

    A ``BaseException``, as ``KeyboardInterrupt`` is, so that a strategy's own
    ``except Exception`` cannot swallow it and carry on."""

    def __init__(self, reason: str | None = None) -> None:
        super().__init__(reason or _WATCHDOG.reason)


def asking(frame: FrameType | None) -> tuple[Game, Decision] | None:
    """The game and decision of the innermost strategy call on a thread's stack, if any."""
    while frame is not None:
        if frame.f_code is consult.__code__:
            game, decision = frame.f_locals.get("game"), frame.f_locals.get("decision")
            return (game, decision) if decision is not None else None
        frame = frame.f_back
    return None


class _Watchdog:
    """Watches the game one thread plays at a time in this process (a chunk plays its games one
    after another)."""

    def __init__(self) -> None:
        self._lock = threading.RLock()  # the alarm handler takes it in the thread it interrupts
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self._game: Game | None = None
        self._ident = 0
        self._limits = TimeLimits()
        self._names: Sequence[str] = ()
        self._started = 0.0
        self._seen: tuple[int, int] | None = None  # (game, decision count) seen in a decision
        self._seen_at = 0.0
        self._target: tuple[Game, int | None] | None = None  # what the next alarm stops
        self.reason = "time limit exceeded"

    @contextmanager
    def playing(self, game: Game, limits: TimeLimits, names: Sequence[str]) -> Iterator[None]:
        """Watch ``game`` while it is played in this thread; ``names`` are its strategies by
        seat, for the messages."""
        if not limits.any:
            yield
            return
        main = threading.current_thread() is threading.main_thread()
        previous = signal.signal(signal.SIGALRM, self._on_alarm) if main else None
        with self._lock:
            self._game, self._ident, self._limits = game, threading.get_ident(), limits
            self._names = names
            self._started, self._seen, self._target = time.monotonic(), None, None
            self._main = main
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
            if main:
                signal.signal(signal.SIGALRM, previous)

    def _watch(self) -> None:
        while True:
            with self._lock:
                game, period = self._game, self._limits.period if self._game else None
            if game is None or period is None:
                self._wake.wait()
                self._wake.clear()
                continue
            time.sleep(period)
            with self._lock:
                if self._game is game:
                    self._check(game)

    def _check(self, game: Game) -> None:
        """Stop the game if it or its current decision is over its limit (lock held)."""
        now, limits = time.monotonic(), self._limits
        current = asking(sys._current_frames().get(self._ident))
        seen = (id(game), game.decisions) if current is not None else None
        if seen != self._seen:
            self._seen, self._seen_at = seen, now
        if current is not None and limits.decision and now - self._seen_at >= limits.decision:
            _, decision = current
            self._stop(game, game.decisions, (
                f"strategy {self._names[decision.seat]!r} (seat {decision.seat}) took "
                f"more than {limits.decision:g} s over a {decision.kind!r} decision "
                f"(the decision time limit)"))
        elif limits.game and now - self._started >= limits.game:
            doing = "" if current is None else (
                f", while strategy {self._names[current[1].seat]!r} "
                f"(seat {current[1].seat}) was deciding {current[1].kind!r}")
            self._stop(game, None, f"the game took more than {limits.game:g} s (the game time "
                                   f"limit){doing}")

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
playing = _WATCHDOG.playing
