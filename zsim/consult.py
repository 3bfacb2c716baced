"""The call of a seat's strategy, in a frame of its own.

``Game.ask`` calls a strategy only through ``consult``, and this module is never compiled
(``setup.py``): whichever build of the engine runs, a thread's stack or a traceback shows a
plain Python frame of ``consult`` while a strategy answers, with the game and the decision in
its locals. The runner's time limits and failure records look for that frame
(``zsim.runner.limits``, ``zsim.runner.worker``); a compiled ``Game.ask`` has no frame of its
own to look for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from zsim.decisions import Decision, Player


def consult(game: object, strategy: Player, view: Any, decision: Decision) -> Any:
    """The strategy's answer to ``decision`` in ``game``."""
    return strategy.choose(view, decision)
