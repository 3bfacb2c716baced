"""The call of a seat's strategy, in a frame of its own.

``Game.ask`` calls a strategy only through ``consult``, and this module is never compiled
(``setup.py``): whichever build of the engine runs, a thread's stack or a traceback shows a
plain Python frame of ``consult`` while a strategy answers, with the game and the decision in
its locals. The runner's time limits and failure records, and ``zsim play``'s message for a
failed game, look for that frame (``zsim.runner.limits``, ``blame``); a compiled ``Game.ask``
has no frame of its own to look for.

A stack cannot be looked at once its process is dead, though: a strategy that ends the process
playing its game (``os._exit``, a signal to itself, or an isolated bot killing the worker that
started it) leaves nothing to find. So a worker process of a run has each strategy call of the
game it plays noted as it starts and ends (``watch``), in memory that the run's process reads
when a worker dies (``zsim.runner.limits.died``). The note is three writes to that memory, a
few hundred nanoseconds per decision; outside a run's worker nothing is noted.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any

from zsim.decisions import IllegalChoice
from zsim.invariants import ScoreAuditError
from zsim.kinds import KINDS

if TYPE_CHECKING:
    from types import FrameType, TracebackType

    from zsim.decisions import Decision, Player

# The game whose strategy calls are noted, and the record noted in: ``calling``, the seat
# answering (-1: none), and ``calling_kind``, the kind of its decision (ASCII, 39 bytes at
# most). A search bot's forks call strategies too; those calls are not the game's, and are not
# noted.
_watched: object = None
_note: Any = None
_KIND_BYTES = {name: name.encode()[:39] for name in KINDS}  # encoded once, not at each call
_CHECKED: dict[type, bool] = {}  # strategy class -> whether its calls are checked (_checked)
_OWN = ("zsim.strategies.", "zsim.runner.isolate")  # where zsim's own bots are defined
_guarded: tuple[int, int, int] | None = None  # (descriptor, device, inode): see guard_descriptor
DESCRIPTOR_CLOSED = 86  # the exit code of a worker whose strategy closed its pipe to the run


def guard_descriptor(fd: int) -> None:
    """Check after each noted strategy call that file descriptor ``fd`` (a run's worker's pipe
    to the run's process) is still the one it was: a strategy that closes it, or closes every
    descriptor of its process, ends the worker (exit code ``DESCRIPTOR_CLOSED``) while its call
    is still noted, so that it is named, not the worker."""
    global _guarded
    stat = os.fstat(fd)
    _guarded = (fd, stat.st_dev, stat.st_ino)


def _intact(guarded: tuple[int, int, int]) -> bool:
    fd, dev, ino = guarded
    try:
        stat = os.fstat(fd)
    except OSError:
        return False
    return (stat.st_dev, stat.st_ino) == (dev, ino)


def watch(game: object, note: Any) -> None:
    """Note each strategy call of ``game`` in ``note`` from now on (None: stop)."""
    global _watched, _note
    _watched, _note = (game, note) if note is not None else (None, None)


def consult(game: Any, strategy: Player, view: Any, decision: Decision) -> Any:
    """The strategy's answer to ``decision`` in ``game``.

    ``decision`` is the strategy's own copy, which it may write into (``decision.seat = 1``):
    the seat and kind asked are taken from it into locals of this frame before the call, and
    blame (``blame``, the watchdog's ``asking``, the note) reads those, never the copy.

    No VP can be scored while a strategy thinks: the score sheets are copied before the call of
    a strategy that is not one of zsim's own (``_checked``) and compared after it, and VP written
    meanwhile, on any sheet, with the ledger of scored VP or without, fail the game at this
    decision naming this strategy (``ScoreAuditError``)."""
    seat, kind = decision.seat, decision.kind
    checked = _checked(type(strategy))
    sheet = _sheet(game) if checked else None
    note = _note
    if note is None or game is not _watched:
        answer = strategy.choose(view, decision)
    else:
        note.calling_kind = _KIND_BYTES.get(kind) or str(kind).encode()[:39]
        note.calling = seat
        try:
            answer = strategy.choose(view, decision)
        finally:
            if checked and _guarded is not None and not _intact(_guarded):
                # the worker cannot report to the run any more: it ends with the call still
                # noted, and the run's process fails the game naming this strategy
                os._exit(DESCRIPTOR_CLOSED)
            note.calling = -1
    if sheet is not None and [p.vp for p in game.state.players] != sheet:
        raise ScoreAuditError(_changed(game, sheet, f"{strategy.name!r} (seat {seat})", kind),
                              seat)
    return answer


def _checked(cls: type) -> bool:
    """Whether the calls of a strategy of class ``cls`` have the score sheets compared around
    them: every class but zsim's own bots (``zsim.strategies``, and the stand-in of an isolated
    one, which plays in another process), which write nothing of the game and so spare their
    games the copies (a few microseconds a decision)."""
    checked = _CHECKED.get(cls)
    if checked is None:
        module = getattr(cls, "__module__", "") or ""
        home = sys.modules.get(module) if module.startswith(_OWN) else None
        checked = _CHECKED[cls] = not (home is not None and
                                       getattr(home, cls.__qualname__, None) is cls)
    return checked


def _sheet(game: Any) -> list[dict[str, int]] | None:
    """Copies of the game's score sheets as they stand (kept in the frame of ``consult``, out
    of a strategy's cheap reach); None in a fork a search plays (``_public``: the searcher's own
    game, where nothing is the real game's), which is not checked."""
    if game._public:
        return None
    return [p.vp.copy() for p in game.state.players]


def _changed(game: Any, before: list[dict[str, int]], who: str, kind: str) -> str:
    """What changed on the score sheets while strategy ``who`` answered: no VP can be scored
    while a strategy thinks, so that strategy wrote them."""
    told = []
    for other, (was_vp, now_vp) in enumerate(zip(before, _sheet(game) or (), strict=False)):
        for category in sorted(set(was_vp) | set(now_vp)):
            moved = now_vp.get(category, 0) - was_vp.get(category, 0)
            if moved:
                told.append(f"seat {other} {moved:+d} VP in {category}")
    return (f"the score sheet of game seed {game.seed} changed while strategy {who} was "
            f"deciding {kind!r} ({'; '.join(told) or 'its entries'}): no VP are scored while a "
            f"strategy thinks, so that strategy wrote into the game")


def asked_in(frame: FrameType) -> tuple[int, str] | None:
    """The seat and kind a frame of ``consult`` asked, as the engine asked them (taken before
    the strategy was called), or None when the frame has not taken them yet."""
    seat, kind = frame.f_locals.get("seat"), frame.f_locals.get("kind")
    if type(seat) is not int or type(kind) is not str:
        return None
    return seat, kind


def blame(error: BaseException) -> tuple[int | None, str | None]:
    """The seat and decision kind at fault, or (None, None) when the engine itself failed.

    An illegal answer says so itself. Otherwise the exception is a strategy's when it came out
    of the strategy call (``consult``, a Python frame in either build of the engine). The
    outermost such call is the game's own; deeper ones are forks a search bot played inside its
    call, whose seats are not the game's.
    """
    tb: TracebackType | None = error.__traceback__
    while tb is not None:
        frame = tb.tb_frame
        if frame.f_code is consult.__code__:
            asked = asked_in(frame)
            if asked is not None:
                return asked
        tb = tb.tb_next
    if isinstance(error, IllegalChoice):
        return error.decision.seat, error.decision.kind
    if isinstance(error, ScoreAuditError):  # the seat that gained what it never scored
        return error.seat, None
    return None, None
