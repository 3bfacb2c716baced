"""Which estimator a heuristic question is weighed with: a turn's, kept for the questions that
follow it in the same turn, or a fresh one.

A turn is weighed with a fresh ``Estimator``; the questions that follow it in the same turn (the
Court action's sub-choices, abilities, soldiers) reuse it, after a ``refresh`` of the
fast-moving state unless the bot noted that nothing changed since its previous question
(``UNCHANGED``). A turn, Phase 3 or setup question starts afresh. The heuristic's class
(``zsim.strategies.heuristic``) is plain Python; this bookkeeping runs at every one of its
questions, so it is compiled with the estimates.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from zsim.strategies.estimates.cards import Estimator
from zsim.strategies.estimates.facts import statics

if TYPE_CHECKING:
    from zsim.strategies.estimates.weights import Weights
    from zsim.view import PlayerView

# Keys of the bot's entries in the view's memory.
TURN: Final = "heuristic.turn"  # (round, estimator) of the seat's last turn
CURRENT: Final = "heuristic.current"  # the estimator of the question under way, once made
UNCHANGED: Final = "heuristic.unchanged"  # the kind of the next question, if nothing changes first
STATICS: Final = "heuristic.statics"  # this game's flat-rate values for this bot's weights
# The kinds of question weighed with a new estimator.
FRESH: Final = frozenset({"turn", "start_tile", "reward", "unlock", "discard_token",
                          "lisi_soldier"})


def begin(view: PlayerView, kind: str) -> None:
    """Before a question of ``kind``: keep the turn's estimator for it (refreshed unless
    nothing changed), or drop it so that ``current`` makes a new one."""
    memo = view.memo
    turn = memo.get(TURN)
    if kind in FRESH or turn is None or turn[0] != view.round:
        memo.pop(TURN, None)
        memo[CURRENT] = None
    else:
        est = turn[1]
        if memo.pop(UNCHANGED, None) != kind:
            est.refresh()
        memo[CURRENT] = est


def current(view: PlayerView, w: Weights) -> Estimator:
    """The question's estimator (see ``begin``), made on first use."""
    memo = view.memo
    est = memo.get(CURRENT)
    if est is None:
        st = memo.get(STATICS)
        if st is None:
            st = memo[STATICS] = statics(view.tables, w)
        est = memo[CURRENT] = Estimator(view, w, st)
    return est
