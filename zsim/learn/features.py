"""What a value model reads: the seat's observation, and the end-game scores as they stand.

The observation (``zsim.encode.observation``) holds the board as the seat sees it and the VP
scored so far. The end-game categories (Governor majorities, the Elixir, Mausoleum lines, Walls,
spare soldiers) are scored only at the end, from public pieces; what they would score if the
game ended now is the best single summary of a position the rules can give (the search bots'
``standing`` starts from it), and a small model cannot easily rebuild it from the board. So it
is computed by the rules themselves (``zsim.rules.scoring.final_scores``) and read beside the
observation: per player, from the observing seat's chair, each end-game category and the total
if the game ended now, and the seat's margin then, in hundreds of VP like the observation.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from zsim.rules import scoring
from zsim.rules.scoring import END_CATEGORIES

SCALE = 100.0  # VP, as the observation scales them
# The parts of the observation that name single cards (which cards a tableau and the hand hold,
# the number of the Court's top card). A model fitted on some thousand games gives each card a
# weight of its own, mostly noise; a one-ply bot comparing the positions after each option,
# which differ mostly in which card went where, then chooses by that noise (on the first shipped
# model, the cards' own weights were most of the gap between the value bot's choices and the
# heuristic's, against worse scores). A model ignores them unless fitted with ``cards=True``.
CARD_PARTS = ("tableau_cards", "hand", "court_top")


class _Quiet:
    """The game as the scoring rules see it, telling no one: scoring emits the Walls it counts
    for the result tables, and a position valued mid-game must not reach them."""

    def __init__(self, game: Any) -> None:
        self._game = game

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def emit(self, kind: str, data: dict[str, Any]) -> None:
        return None


def width(n_players: int) -> int:
    """How many values ``scores_now`` gives at this player count."""
    return n_players * (len(END_CATEGORIES) + 1) + 1


def scores_now(game: Any, seat: int) -> np.ndarray:
    """The end-game scores if the game ended now, from ``seat``'s chair (see the module
    docstring). Only public pieces are scored."""
    rows = scoring.final_scores(_Quiet(game))
    n = len(rows)
    out = np.zeros(width(n), dtype=np.float32)
    k = len(END_CATEGORIES) + 1
    totals = [row["vp_total"] for row in rows]
    for slot in range(n):
        row = rows[(seat + slot) % n]
        out[slot * k:slot * k + k - 1] = [row[c] for c in END_CATEGORIES]
        out[slot * k + k - 1] = row["vp_total"]
    out[-1] = totals[seat] - max(t for s, t in enumerate(totals) if s != seat)
    out /= SCALE
    return out


def card_columns(parts: dict[str, slice], size: int) -> np.ndarray:
    """Which entries of a model's input (an observation of ``parts``, then the scores) belong
    to the parts naming single cards (``CARD_PARTS``), any player's."""
    mask = np.zeros(size, dtype=bool)
    for name, part in parts.items():
        if name in CARD_PARTS or name.split("_", 1)[-1] in CARD_PARTS:
            mask[part] = True
    return mask


def inputs(game: Any, view: Any) -> np.ndarray:
    """A value model's input for the seat of ``view`` in ``game``: observation, then scores."""
    from zsim.encode.observation import observe

    return np.concatenate([observe(view), scores_now(game, view.seat)])
