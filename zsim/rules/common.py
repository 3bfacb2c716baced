"""The lowest-level helpers of the rules: names for narration, VP and counter bookkeeping.

A leaf module (it imports no other rules module), so every rules module can use it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from zsim.components.schema import COURT_ACTIONS
from zsim.state import PlayerState

if TYPE_CHECKING:
    from zsim.decisions import Table

REGION_NAMES = ("Chu", "Wei", "Zhao", "Qi", "Yan")
SUIT_NAMES = ("Writing", "Currency", "Laws")
OFFICIAL_NAMES = ("an Alchemist", "an Architect", "a General")
# The activity counters of a tucked card, by suit, and of a Court action, by action.
CARD_COUNTERS = tuple(f"n_cards_{name.lower()}" for name in SUIT_NAMES)
COURT_COUNTERS = tuple(f"n_court_{action}" for action in COURT_ACTIONS)


def add_vp(g: Table, p: PlayerState, category: str, amount: int) -> None:
    if amount:
        p.vp[category] = p.vp.get(category, 0) + amount


def count(p: PlayerState, column: str, amount: int = 1) -> None:
    """Add to one of the player's activity counters. Each is named by its column in the
    players table (``n_*``), so that a game's counters become its rows without renaming."""
    p.stats[column] = p.stats.get(column, 0) + amount


def gain_small_tokens(g: Table, p: PlayerState, suit: int, amount: int) -> int:
    """Take up to ``amount`` small tokens of a suit; the supply may run short (even to 0)."""
    supply = g.state.supply
    taken = min(amount, supply[suit])
    supply[suit] -= taken
    p.tokens[suit] += taken
    return taken
