"""Untrusted strategies in a process of their own (``zsim run --isolate``).

A strategy played in the process that plays the game shares its memory: whatever the view
promises, Python has no private data, and a bot that digs through the garbage collector, or
that eats all the memory, reaches past it. An isolated strategy plays instead in a child
process that the worker playing its games starts before its first answer, and sees only what
is sent to it, pickled, at each of its decisions:

- the table as its seat may know it: a determinised fork of the game at the question
  (``Game.fork(seat, rng)``: every card the seat cannot see redealt at random, every hand and
  deck keeping its size), without the game's seed, RNG or answers;
- the decision (its kind, options and context), a copy: what the strategy does to it changes
  nothing of the game's;
- the state of its view's RNG, sent back with the answer, so that a bot drawing from
  ``view.rng`` plays the same games isolated as not; and its ``memo`` lives in the child.

The child is a fresh interpreter, not a fork of the worker, so it holds nothing of the game
being played nor of the run's seeds; it builds the strategy again from its name (or unpickles
it), rebuilds a game standing between two segments from each table it is sent
(``Game.restore``), and asks the strategy through the seat's view of it. So the view reads
the same as in the game, except ``fork``: a search needs the game's segment to replay, which
the child has not, and is refused there (isolate no search bot).

Limits: the child's address space is capped at what it inherited plus ``memory_mib``
(``RLIMIT_AS``: a bot over it gets ``MemoryError``, or dies), and the answer must come within
the run's decision time limit; otherwise the child is killed, the game fails naming the
strategy and the decision (raised here, inside the strategy call, so the runner blames it),
and the next decision starts a fresh child. The child sends back the position of its answer
among the options as they were offered, as JSON (the worker unpickles nothing from it, since
unpickling can run code): an answer it was not offered (one it appended, say) fails the game.

What isolation does not cover: the bot's module is imported, and its class built, in the
run's processes, so code at import time runs there; isolate only bots whose file you can
read, and use it for a bot whose behaviour at play you do not trust.
"""

from __future__ import annotations

import contextlib
import ctypes
import itertools
import json
import os
import random
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, Any

from zsim.decisions import Decision
from zsim.game import Checkpoint, Game, as_offered
from zsim.records import ResultRecorder
from zsim.runner import sandbox

if TYPE_CHECKING:
    from zsim.components import Box
    from zsim.options import GameOptions
    from zsim.state import GameState
    from zsim.strategies.base import Strategy
    from zsim.view import PlayerView

_HIDDEN: list[str] = []  # directories an isolated strategy may not see (the run's)
_SCRATCH_ROOT: list[str | None] = [None]  # where scratch directories go (None: the temp dir)


def scratch_in(root: str) -> None:
    """Make the isolated processes' scratch directories in ``root`` (a run's process removes
    its root at the end, whatever became of the workers)."""
    _SCRATCH_ROOT[0] = root


def hide(path: str) -> None:
    """Cover ``path`` (the run directory) in the isolated processes started from now on, where
    they have namespaces of their own (``zsim.runner.sandbox``)."""
    if path not in _HIDDEN:
        _HIDDEN.append(path)


DEFAULT_MEMORY_MIB = 1024
START_SECONDS = 60.0  # for a fresh interpreter to import zsim and the bot, on a busy machine
PR_SET_PDEATHSIG = 1  # prctl(2)
GAME_OVER = "game over"  # the message that ends a game in the isolated process
_GAME_KEY = "zsim.isolated"  # in the game's view's memo: which game the child's memo is of
_games = itertools.count()
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


class IsolatedStrategyError(Exception):
    """An isolated strategy failed, ran out of its memory or time, or its process died."""


class Isolated:
    """Stands in the lineup for ``inner``, which answers in a child process (see above)."""

    forks = True  # the game keeps each segment's start, so that a seat's fork can be made

    def __init__(self, inner: Strategy, memory_mib: int = DEFAULT_MEMORY_MIB,
                 seconds: float = 0.0, spec: str | None = None) -> None:
        self.isolated = inner
        self.spec = spec  # how the child names it again (else it is sent pickled)
        self.name = inner.name
        self.description = getattr(inner, "description", "")
        self.memory_mib = memory_mib
        self.seconds = seconds  # the most an answer may take; 0: no limit
        self._child: subprocess.Popen[bytes] | None = None
        self._conn: Connection | None = None
        self._owner = 0  # the pid that started the child (a forked worker starts its own)
        self._box: Box | None = None
        self._scratch: str | None = None  # the child's working directory

    def __getstate__(self) -> dict[str, Any]:
        """Sent to a worker process without its child, which that worker starts anew."""
        return {**self.__dict__, "_child": None, "_conn": None, "_owner": 0, "_box": None,
                "_scratch": None}

    def choose(self, view: PlayerView, decision: Decision) -> Any:
        box = view.tables.box
        if self._child is None or self._owner != os.getpid() or self._box is not box:
            self._start(box)
        assert self._conn is not None
        # The hidden cards redealt, with a generator seeded from the view's without drawing
        # from it (a draw would change what the strategy itself draws next).
        fork = view.fork(random.Random(str(view.rng.getstate()[1])))
        game_key = view.memo.setdefault(_GAME_KEY, next(_games))  # this game's, in this process
        message = (view.seat, view.n_players, game_key, fork.state, fork.decisions,
                   fork.options, view.rng.getstate(),
                   (decision.kind, decision.seat, list(decision.options),
                    dict(decision.context)))
        try:
            self._conn.send(message)
            if not self._conn.poll(self.seconds or None):
                raise IsolatedStrategyError(
                    f"isolated strategy {self.name!r} gave no answer to a {decision.kind!r} "
                    f"decision within {self.seconds:g} s (the decision time limit); its "
                    f"process was killed")
            status, answer, rng = _reply(self._conn.recv_bytes())
        except (EOFError, OSError, ValueError) as error:
            self._stop()
            raise IsolatedStrategyError(
                f"the process of isolated strategy {self.name!r} died over a "
                f"{decision.kind!r} decision (memory limit {self.memory_mib} MiB?), or its "
                f"reply was not one: {type(error).__name__}") from None
        except BaseException:
            self._stop()  # it may still be busy with this question: never read its answer
            raise
        if status != "ok":
            raise IsolatedStrategyError(f"isolated strategy {self.name!r} failed over a "
                                        f"{decision.kind!r} decision: {answer}")
        options = decision.options
        if not (type(answer) is int and 0 <= answer < len(options)):
            raise IsolatedStrategyError(
                f"isolated strategy {self.name!r} answered {rng}, which is not among the "
                f"{len(options)} options of its {decision.kind!r} decision")
        view.rng.setstate(rng)
        return options[answer]

    def game_over(self) -> None:
        """A game it played is over: its process kills whatever the strategy started in it
        (in namespaces) and forgets the game; a process that does not answer is ended."""
        if self._conn is None or self._owner != os.getpid():
            return
        try:
            self._conn.send(GAME_OVER)
            if self._conn.poll(START_SECONDS):
                self._conn.recv_bytes()
                return
        except (EOFError, OSError):
            pass
        self._stop()

    def _start(self, box: Box) -> None:
        """A fresh interpreter (not a fork: a fork would hold the worker's memory, with the
        game being played, and the run's seeds; nor multiprocessing's spawn, which runs the
        caller's main script again), which builds the strategy again and says when it is
        ready, so that its start counts in no decision's time."""
        self._stop()
        ours, theirs = socket.socketpair()
        self._scratch = tempfile.mkdtemp(prefix="zsim-isolated-", dir=_SCRATCH_ROOT[0])
        with theirs:
            # its own session and group, no descriptor but its socket, a scratch directory,
            # and namespaces where the system allows (zsim.runner.sandbox)
            child = subprocess.Popen(
                [*sandbox.prefix(), sys.executable, "-c",
                 f"from zsim.runner.isolate import serve; "
                 f"serve({theirs.fileno()}, {list(_HIDDEN)!r}, {self._scratch!r})"],
                pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
                cwd=self._scratch)
        conn = Connection(ours.detach())
        self._child, self._conn, self._owner, self._box = child, conn, os.getpid(), box
        try:  # what it plays, pickled: from the worker to it, never the other way
            conn.send((self.spec or self.isolated, box, self.memory_mib))
            if not conn.poll(START_SECONDS):
                raise IsolatedStrategyError(f"the process of isolated strategy {self.name!r} "
                                            f"did not start within {START_SECONDS:g} s")
            status, error, _ = _reply(conn.recv_bytes())
        except (EOFError, OSError, ValueError):
            status, error = "error", "its process died as it started"
        except BaseException:
            self._stop()
            raise
        if status != "ready":
            self._stop()
            raise IsolatedStrategyError(f"isolated strategy {self.name!r} could not start in "
                                        f"its process: {error}")

    def _stop(self) -> None:
        """Kill the child with its session's process group (in namespaces, the kernel kills
        whatever else it started with it), and remove its scratch directory."""
        if self._child is not None and self._owner == os.getpid():
            with contextlib.suppress(OSError):
                os.killpg(self._child.pid, signal.SIGKILL)
            self._child.kill()
            self._child.wait(5)
        if self._conn is not None:
            self._conn.close()
        if self._scratch is not None and self._owner == os.getpid():
            shutil.rmtree(self._scratch, ignore_errors=True)
        self._child = self._conn = self._box = self._scratch = None

    def close(self) -> None:
        """End the child process (it also ends with the worker that started it)."""
        self._stop()


def serve(fd: int, hidden: list[str] | None = None, scratch: str | None = None) -> None:
    """The child, talking through the socket ``fd``: put up the walls of its namespaces (while
    it runs one thread: the kernel refuses a new user namespace to more), build the strategy it
    is sent, then answer each question sent until the socket closes (the worker that started it
    ended, or killed it)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the run's to handle
    _die_with_parent()
    conn = Connection(fd)
    walled: bool | OSError | None
    try:
        walled = sandbox.enclose(hidden or [], scratch) if scratch else None
    except OSError as error:
        walled = error
    try:
        strategy, box, memory_mib = conn.recv()
        if isinstance(walled, OSError):
            raise walled
        if isinstance(strategy, str):
            from zsim.strategies.registry import resolve
            strategy = resolve(strategy)
        _cap_memory(memory_mib)
        sandbox.limit()
    except Exception as error:
        _send(conn, "error", f"{type(error).__name__}: {error}")
        return
    _send(conn, "ready")
    games: dict[tuple[int, int], Game] = {}
    while True:
        try:
            message = conn.recv()
        except EOFError:
            return
        if message == GAME_OVER:  # what the strategy started in the game ends with it
            games.clear()
            sandbox.kill_strays()
            _send(conn, "ok")
            continue
        seat, n, game_key, state, decisions, options, rng, asked = message
        try:
            game = _table_of(games, (game_key, seat), box, n, state, decisions, options)
            view = game.views[seat]
            view.rng.setstate(rng)
            kind, asked_seat, offered, context = asked
            count = len(offered)  # what was offered, before the strategy could add any
            answer = strategy.choose(view, Decision(kind, asked_seat, offered, context))
            index = next((i for i, option in enumerate(offered[:count])
                          if as_offered(answer, [option]) is option), None)
            if index is None:
                _send(conn, "ok", -1, repr(answer)[:200])
            else:
                _send(conn, "ok", index, view.rng.getstate())
        except MemoryError:
            _send(conn, "error", f"MemoryError: over its {memory_mib} MiB")
        except Exception as error:  # the strategy's: reported, and the child goes on
            _send(conn, "error", f"{type(error).__name__}: {error}")


def _send(conn: Connection, status: str, answer: Any = None, rng: Any = None) -> None:
    """A reply as JSON: the worker never unpickles what the strategy's process sends, which
    could run code in the worker."""
    conn.send_bytes(json.dumps([status, answer, rng]).encode())


def _reply(data: bytes) -> tuple[str, Any, Any]:
    """(status, answer, RNG state) of a reply: the answer is the index of the option chosen
    (or an error's text), the RNG state a tuple again (``random.Random.setstate`` wants one);
    with answer -1, the third is what the strategy answered instead, as text."""
    status, answer, rng = json.loads(data)
    if isinstance(rng, list):
        rng = tuple(tuple(part) if isinstance(part, list) else part for part in rng)
    return str(status), answer, rng


def _die_with_parent() -> None:
    """Be killed with the worker that started this process, whatever this process is doing
    then (Linux; elsewhere the worker's process group is killed with it)."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def _table_of(games: dict[tuple[int, int], Game], key: tuple[int, int], box: Box, n: int,
              state: GameState, decisions: int, options: GameOptions) -> Game:
    """The child's game of one seat of one game, standing at the table just sent. One game
    object serves all the seat's decisions in that game, its state replaced at each, as the
    real game's changes under its view: a bot that keeps the view, or anything made from it,
    in ``view.memo`` from one decision to the next reads the new table through it."""
    game = games.get(key)
    if game is None:
        games.clear()  # a new game: the last one's goes, and its memo with it
        sandbox.kill_strays()  # and what the strategy started in it
        game = games[key] = Game.restore(box, Checkpoint(
            seed=0, options=options, state=state, rng=random.Random(0).getstate(),
            decisions=decisions, answers=[], told=0, records=ResultRecorder(n),
            narration=None, setup={}, view_rngs=[random.Random(0).getstate()] * n), [None] * n)
    else:
        game.state, game.decisions = state, decisions
    game.consults += 1  # the view makes its copy of the table afresh
    return game


def _cap_memory(memory_mib: int) -> None:
    """Cap the address space at what this process holds now plus ``memory_mib``."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            held = int(statm.read().split()[0]) * _PAGE
    except OSError:
        held = 0
    limit = held + memory_mib * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
