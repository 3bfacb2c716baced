"""The lowest-level helpers of the rules: names for narration, VP and counter bookkeeping, and
the one loop of a question asked again until the player stops.

A leaf module (it imports no other rules module), so every rules module can use it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from zsim.components.schema import COURT_ACTIONS
from zsim.kinds import STOP
from zsim.state import PlayerState

if TYPE_CHECKING:
    from zsim.decisions import Table

REGION_NAMES: Final = ("Chu", "Wei", "Zhao", "Qi", "Yan")
SUIT_NAMES: Final = ("Writing", "Currency", "Laws")
OFFICIAL_NAMES: Final = ("an Alchemist", "an Architect", "a General")
# The activity counters of a tucked card, by suit, and of a Court action, by action.
CARD_COUNTERS: Final = tuple(f"n_cards_{name.lower()}" for name in SUIT_NAMES)
COURT_COUNTERS: Final = tuple(f"n_court_{action}" for action in COURT_ACTIONS)


def add_vp(g: Table, p: PlayerState, category: str, amount: int) -> None:
    """Score VP during the game, and tell it (the ``vp`` event: the end-of-game audit adds the
    told VP up again, so VP that reach the score sheet any other way fail the game)."""
    if amount:
        p.vp[category] = p.vp.get(category, 0) + amount
        g.emit("vp", {"seat": p.seat, "category": category, "vp": amount})


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


def ask_until_stop(g: Table, seat: int, kind: str, offer: Callable[[], list],
                   act: Callable[[Any], None], times: int = -1, stoppable: bool = True) -> int:
    """Ask ``seat`` the ``kind`` question again and again, acting on each answer: the options
    are what ``offer()`` returns then, plus ``STOP`` (unless not ``stoppable``: an effect the
    player must carry out in full). The asking ends when nothing is offered, when the player
    answers ``STOP``, or after ``times`` answers (-1: no limit). Returns the answers acted on.

    Every repeated question of the rules (move Officials, move Workers, reset Unrest, place
    Alchemist cards, activate the next card, place soldiers, unlock soldiers) is this loop, so
    they all end the same way, with the same word."""
    done = 0
    while done != times:
        options = offer()
        if not options:
            break
        if stoppable:
            options.append(STOP)
        choice = g.ask(seat, kind, options)
        if choice == STOP:
            break
        act(choice)
        done += 1
    return done
