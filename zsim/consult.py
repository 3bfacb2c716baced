"""The call of a seat's strategy, in a frame of its own.

``Game.ask`` calls a strategy only through ``consult``, and this module is never compiled
(``setup.py``): whichever build of the engine runs, a thread's stack or a traceback shows a
plain Python frame of ``consult`` while a strategy answers, with the game and the decision in
its locals. The runner's time limits and failure records, and ``zsim play``'s message for a
failed game, look for that frame (``zsim.runner.limits``, ``blame``); a compiled ``Game.ask``
has no frame of its own to look for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from zsim.decisions import IllegalChoice
from zsim.invariants import ScoreAuditError

if TYPE_CHECKING:
    from types import TracebackType

    from zsim.decisions import Decision, Player


def consult(game: object, strategy: Player, view: Any, decision: Decision) -> Any:
    """The strategy's answer to ``decision`` in ``game``."""
    return strategy.choose(view, decision)


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
            decision = frame.f_locals.get("decision")
            if decision is not None:
                return decision.seat, decision.kind
        tb = tb.tb_next
    if isinstance(error, IllegalChoice):
        return error.decision.seat, error.decision.kind
    if isinstance(error, ScoreAuditError):  # the seat that gained what it never scored
        return error.seat, None
    return None, None
