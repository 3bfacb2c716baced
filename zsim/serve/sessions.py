"""The games the server holds: each one's answers, its mirror of the step record, its worker
process, and its file.

A game's truth is its ``Replay`` (setup and answers), written to ``FOLDER/ID.json`` after every
change, so a game survives a page reload, a worker stopped for a hanging bot, and a restart of
the server. Its worker (``zsim.serve.worker``) is a cache: started when the game is used, built
from the replay, stopped when it must be (a bot overran, undo, too many workers at once).

Every method here blocks (it waits on a worker): the web app calls them from a thread. Each game
has a lock, so its requests are taken one at a time.
"""

from __future__ import annotations

import json
import multiprocessing
import re
import secrets
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from multiprocessing import forkserver
from pathlib import Path
from typing import TYPE_CHECKING, Any

from zsim.serve import worker
from zsim.serve.replay import Replay, ReplayError, Setup, load
from zsim.serve.seatview import public_meta, seat_mark, seat_steps, seat_table, suits_of

if TYPE_CHECKING:
    from multiprocessing.context import ForkServerContext, SpawnContext

GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,40}")
SETUP_SECONDS = 120.0  # setting a game up and playing its saved answers, no bot thinking


class Refused(ValueError):
    """A request the game cannot take; ``status`` is the HTTP status to answer with."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


class Overrun(Exception):
    """The worker said nothing for longer than allowed (a bot thinking, or the setup)."""

    def __init__(self, thinking: tuple[Any, ...] | None, seconds: float) -> None:
        self.thinking = thinking
        self.seconds = seconds
        if thinking is not None:
            seat, bot, kind = thinking
            what = f"the bot {bot!r} (seat {seat}) took more than {seconds:g} s over a {kind!r} "\
                   "decision"
        else:
            what = f"the game's process did not answer within {seconds:g} s"
        super().__init__(what)


class WorkerGone(Exception):
    """The worker process ended without an answer: while a bot thought (``thinking``: the bot
    ended it, with ``os._exit`` say), or otherwise (killed from outside, or crashed)."""

    def __init__(self, message: str, thinking: tuple[Any, ...] | None = None) -> None:
        self.thinking = thinking
        if thinking is not None:
            seat, bot, kind = thinking
            message = f"the bot {bot!r} (seat {seat}) ended the game's process over a {kind!r} "\
                      "decision"
        super().__init__(message)


class Worker:
    """One game's process and the pipe to it (see ``zsim.serve.worker``)."""

    def __init__(self, context: SpawnContext | ForkServerContext, replay: Replay) -> None:
        self.conn, child = context.Pipe()
        self.process = context.Process(target=worker.main, args=(child, replay.to_json()),
                                       daemon=True, name="zsim-serve-game")
        self.process.start()
        child.close()
        self.thinking: tuple[Any, ...] | None = None

    def call(self, message: tuple[str, Any] | None, seconds: float,
             quiet_seconds: float) -> tuple[str, Any]:
        """Send ``message`` (None: only wait for the first answer) and return the answer.
        ``seconds`` is how long a bot may think once it said so, ``quiet_seconds`` how long
        the worker may be silent otherwise; past either the process is ended (``Overrun``)."""
        if message is not None:
            try:
                self.conn.send(message)
            except (OSError, ValueError):
                self.stop()
                raise WorkerGone("the game's process is gone") from None
        deadline = time.monotonic() + quiet_seconds
        while True:
            left = deadline - time.monotonic()
            try:
                ready = left > 0 and self.conn.poll(left)
                if ready:  # JSON text: nothing the game's process sends is unpickled here
                    kind, *data = json.loads(self.conn.recv_bytes())
            except (EOFError, OSError, ValueError, TypeError):
                self.stop()
                raise WorkerGone("the game's process ended without an answer",
                                 self.thinking) from None
            if not ready:
                self.stop()
                raise Overrun(self.thinking, seconds if self.thinking else quiet_seconds)
            if kind == "thinking":
                self.thinking = tuple(data)
                deadline = time.monotonic() + seconds
                continue
            self.thinking = None
            return kind, data[0]

    @property
    def alive(self) -> bool:
        return self.process.is_alive()

    def stop(self) -> None:
        """End the process (at once: a bot may be inside anything) and close the pipe."""
        if self.process.is_alive():
            self.process.kill()
        self.process.join(5)
        self.conn.close()


@dataclass
class Session:
    """One game: its replay (the truth), what its worker last told, and its worker."""

    id: str
    replay: Replay
    path: Path
    meta: dict[str, Any] | None = None
    steps: list[dict[str, Any]] = field(default_factory=list)  # the whole record, mirrored
    table: dict[str, Any] | None = None  # the table now, every hand in it
    question: dict[str, Any] | None = None  # the human question pending
    marks: list[dict[str, Any]] = field(default_factory=list)  # human answers, to undo to
    epoch: int = 0  # how many times the game was taken back: a page of an older one reloads
    resume: int | None = None  # a failed game's human question pending when it stopped
    worker: Worker | None = None
    used: float = 0.0
    viewer_page: str | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def status(self) -> str:
        return self.replay.status

    def mirror(self, update: dict[str, Any], fresh: bool) -> None:
        """Take in a worker's update (``LiveGame.update``); ``fresh``: its steps start anew."""
        if update["meta"] is not None:
            self.meta = update["meta"]
        self.steps = update["steps"] if fresh else self.steps + update["steps"]
        self.table = update["table"]
        self.question = update["question"]
        self.marks = update["marks"]
        replay = self.replay
        replay.answers = [tuple(a) for a in update["answers"]]
        replay.failure = update["failure"]
        replay.status = "failed" if update["failure"] else "over" if update["over"] else \
            "playing"

    # --- what a page gets ----------------------------------------------------------------------

    def payload(self, after: int = 0, epoch: int | None = None) -> dict[str, Any]:
        """The game as the page may see it, with the steps from ``after`` on (all of them for a
        page of an earlier epoch); see ``zsim.serve.seatview`` for what is left out."""
        assert self.meta is not None and self.table is not None
        if epoch != self.epoch or not 0 <= after <= len(self.steps):
            after = 0
        humans = self.replay.setup.humans()
        question = self.question
        alone = humans[0] if len(humans) == 1 else None
        viewer = question["seat"] if question is not None else alone
        suits = suits_of(self.meta)
        steps, tables = seat_steps(self.steps[after:], alone, suits)
        over = self.status == "over"
        return {
            "id": self.id,
            "epoch": self.epoch,
            "status": self.status,
            "failure": self.replay.failure,
            "meta": public_meta(self.meta, over) if after == 0 or over else None,
            "from": after,
            "next": len(self.steps),
            "steps": steps,
            "tables": tables,
            "table": seat_table(self.table, viewer, suits),
            "viewer": viewer,
            "humans": humans,
            "question": question,
            "undo": [seat_mark(point, viewer) for point in self.undo_points()],
            "seats": list(self.replay.setup.seats),
            "variants": list(self.replay.setup.variants),
        }

    def undo_points(self) -> list[dict[str, Any]]:
        """The human answers that can be taken back (newest first); after a failure, also the
        question that was pending when the game stopped."""
        points = [dict(mark) for mark in reversed(self.marks)]
        if self.status == "failed" and self.resume is not None:
            points.insert(0, {"number": self.resume, "seat": None, "kind": None, "round": None,
                              "text": "the question asked when the game stopped"})
        return points


class Sessions:
    """Every game of the server, in memory and in ``folder``; see the module docstring."""

    def __init__(self, folder: Path, bot_seconds: float = 30.0, max_workers: int = 8) -> None:
        self.folder = folder
        self.bot_seconds = bot_seconds
        self.max_workers = max_workers
        self.games: dict[str, Session] = {}
        self._lock = threading.Lock()
        # A worker forks from a process that imported the engine and the bots once (where
        # there is no fork, as on Windows, each worker starts afresh and imports them itself).
        self.forking = "forkserver" in multiprocessing.get_all_start_methods()
        self.context = (multiprocessing.get_context("forkserver") if self.forking
                        else multiprocessing.get_context("spawn"))
        if self.forking:
            self.context.set_forkserver_preload(["zsim.serve.worker"])

    def warm(self) -> None:
        """Start the process the workers fork from (it imports the engine and the bots), so
        that the first game does not wait for it."""
        if self.forking:
            forkserver.ensure_running()

    # --- finding games -------------------------------------------------------------------------

    def new(self, setup: Setup) -> Session:
        """Set up a new game (the worker resolves the bots, variants and box: ``Refused``
        with the resolver's message when one is wrong)."""
        try:
            setup = setup.expanded()
        except (ValueError, OSError) as error:
            raise Refused(str(error)) from None
        self.folder.mkdir(parents=True, exist_ok=True)
        game_id = secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
        session = Session(game_id, Replay(setup), self.folder / f"{game_id}.json")
        with session.lock:
            self._start(session)
        with self._lock:
            self.games[game_id] = session
        return session

    def get(self, game_id: str) -> Session:
        """A game by its id, from memory or from its file."""
        if not GAME_ID.fullmatch(game_id):
            raise Refused(f"{game_id!r} is not a game id", 404)
        with self._lock:
            session = self.games.get(game_id)
            if session is None:
                path = self.folder / f"{game_id}.json"
                if not path.is_file():
                    raise Refused(f"no game {game_id!r} (no file {path})", 404)
                try:
                    replay = load(path)
                except ReplayError as error:
                    raise Refused(str(error), 409) from None
                session = self.games[game_id] = Session(game_id, replay, path)
        return session

    def saved(self) -> Iterator[tuple[str, Replay]]:
        """The games in the folder, newest first (those that cannot be read are left out)."""
        if not self.folder.is_dir():
            return
        paths = sorted(self.folder.glob("*.json"), key=lambda p: p.stat().st_mtime,
                       reverse=True)
        for path in paths:
            try:
                yield path.stem, load(path)
            except ReplayError:
                continue

    # --- using a game (each with the game's lock held) --------------------------------------

    def ready(self, session: Session) -> Session:
        """The game with its mirror filled (its worker started when need be)."""
        with session.lock:
            if session.meta is None:
                self._start(session)
            session.used = time.monotonic()
        return session

    def answer(self, session: Session, number: int, index: int) -> None:
        with session.lock:
            self._call(session, ("answer", (number, index)))

    def hint(self, session: Session, bot: str) -> dict[str, Any]:
        with session.lock:
            try:
                return self._call(session, ("hint", bot), failing=False)
            except (Overrun, WorkerGone) as error:  # the bot's doing: the game stays
                raise Refused(f"{error}: no hint", 422) from None

    def position(self, session: Session) -> str:
        """The game as it stands, as the text ``zsim play --from`` reads (every hand in it)."""
        with session.lock:
            return str(self._call(session, ("position", None), failing=False))

    def undo(self, session: Session, number: int) -> None:
        """Take the game back to the human question numbered ``number``: a new worker plays the
        answers given before it."""
        with session.lock:
            if number not in {point["number"] for point in session.undo_points()}:
                raise Refused(f"question {number} is not a human decision of this game that "
                              "can be taken back", 409)
            self._retire(session)
            replay = session.replay
            replay.answers = replay.answers[:number]
            replay.status, replay.failure = "playing", None
            session.resume = None
            session.epoch += 1
            session.viewer_page = None
            self._start(session)

    def close(self) -> None:
        """Stop every worker (the games stay in their files)."""
        with self._lock:
            sessions = list(self.games.values())
        for session in sessions:
            self._retire(session)

    # --- the workers ---------------------------------------------------------------------------

    def _start(self, session: Session) -> None:
        """A worker for the game, built from its replay; its first update fills the mirror."""
        self._make_room(session)
        session.worker = Worker(self.context, session.replay)
        try:
            kind, data = session.worker.call(None, self.bot_seconds,
                                             max(SETUP_SECONDS, self.bot_seconds))
        except (Overrun, WorkerGone) as error:
            if session.status == "failed":  # even showing it as it stopped failed
                raise Refused(f"the game cannot be shown: {error}", 503) from None
            self._fail(session, f"{error}: the game is stopped here. Undo to play on from "
                                "an earlier decision")
            self._start(session)  # shown as it stopped: no bot is asked again
            return
        if kind != "ok":
            self._retire(session)
            raise Refused(data)
        failure = session.replay.failure if session.status == "failed" else None
        session.mirror(data, fresh=True)
        if failure is not None:  # shown as it stopped (the worker asked no bot again)
            session.replay.status, session.replay.failure = "failed", failure
            if session.question is not None:  # it stopped while a bot answered this
                session.resume = session.question["number"]
            session.question = None
        if session.status != "playing":
            self._retire(session)  # nothing more to ask it
        session.used = time.monotonic()
        self._save(session)

    def _call(self, session: Session, message: tuple[str, Any], failing: bool = True) -> Any:
        """Send a command to the game's worker (started first if need be) and return its data;
        an ``ok`` update is mirrored and saved. A bot that overruns, or ends the game's process,
        ends the game (``failing``) with a message naming it."""
        if session.worker is None or not session.worker.alive:
            if session.status != "playing":
                raise Refused(f"the game is {session.status}: no question to answer", 409)
            self._start(session)
        assert session.worker is not None
        session.used = time.monotonic()
        try:
            kind, data = session.worker.call(message, self.bot_seconds, SETUP_SECONDS)
        except (Overrun, WorkerGone) as error:
            session.worker = None
            if isinstance(error, WorkerGone) and error.thinking is None:  # no bot to blame
                raise Refused(f"{error}; try again (the game is built again from its answers)",
                              503) from None
            if not failing:
                raise
            # a bot that overran, or ended the process, would do it again: the game stops
            self._fail(session, f"{error}: the game is stopped here. Undo to play on from "
                                "an earlier decision")
            return None
        if kind == "refused":
            text, status = data
            raise Refused(text, status)
        if kind == "error":
            session.worker = None
            raise Refused(data, 500)
        if message[0] == "answer":
            session.mirror(data, fresh=False)
            self._save(session)
            if session.status != "playing":
                self._retire(session)  # over, or a bot failed: nothing more to ask it
        return data

    def _fail(self, session: Session, message: str) -> None:
        replay = session.replay
        replay.status, replay.failure = "failed", message
        if session.question is not None:  # a bot overran after this was answered
            session.resume = session.question["number"]
        session.question = None
        self._retire(session)
        self._save(session)

    def _retire(self, session: Session) -> None:
        if session.worker is not None:
            session.worker.stop()
            session.worker = None

    def _make_room(self, session: Session) -> None:
        """Stop the least recently used idle workers beyond ``max_workers`` (their games are
        built again from their files when used)."""
        with self._lock:
            running = [s for s in self.games.values()
                       if s.worker is not None and s is not session]
        running.sort(key=lambda s: s.used)
        while len(running) >= self.max_workers:
            idle = running.pop(0)
            if idle.lock.acquire(blocking=False):
                try:
                    self._retire(idle)
                    idle.meta = None  # its mirror is filled again by its next worker
                finally:
                    idle.lock.release()

    def _save(self, session: Session) -> None:
        session.replay.save(session.path)
