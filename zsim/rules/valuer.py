"""What a bot's estimator offers the records of the rules: the values an effect kind or a
Mausoleum condition is weighed with.

Each effect kind (``zsim.rules.effects``) and each Mausoleum condition (``zsim.rules.mausoleum``)
is one record, read by the engine (how it resolves, what it scores, whether it is met) and by
the heuristic bots (what resolving it now is worth, how far a seat is from meeting it). The
records write the bots' side against this class: the bots' estimator
(``zsim.strategies.estimates``) extends it, so the rules never import a bot, and in the compiled
build every call from a record into the estimator is a native call.

The attributes are the seat's standing, read from its view once per decision; the methods are
the estimator's values, in weighted end-game VP.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, Protocol

if TYPE_CHECKING:
    from zsim.components.schema import Rules
    from zsim.rules.tables import Tables
    from zsim.state import GameState, PlayerState


FAR: Final = 15  # a distance, in actions, at which a goal is worth nothing


class Rates(Protocol):
    """The weights a flat-rate value is priced with (``zsim.strategies.estimates.Weights``)."""

    vp: float
    palaces: float
    majority: float
    governor_bonus: float
    walls: float
    elixir: float
    mausoleum: float
    rewards: float
    unrest: float
    resources: float


class Valuer:
    """The base of the bots' estimator: its attributes are set, and its methods overridden,
    there (these bodies only say that they were not)."""

    __slots__ = ("board", "hire_ok", "limit", "missing", "p", "pal_dist", "rules", "seat",
                 "tables", "worker_regions")

    p: PlayerState  # the seat's own player, as its view shows it
    board: GameState  # the table as its view shows it
    seat: int
    tables: Tables
    rules: Rules
    limit: int  # cards a region may hold
    missing: list[int]  # per region: Official types still missing there
    pal_dist: list[int]  # per region: actions a Palace there still needs
    hire_ok: list[bool]  # per region: a hire there is possible now
    worker_regions: int  # regions holding Workers

    def site_sections(self) -> dict[int, list[int]]:
        """The indices of the Wall sections of each site."""
        raise NotImplementedError

    # --- what resolving an effect now is worth ----------------------------------------------

    def scored(self, e: Any, here: int, slot: int, suit: int) -> float:
        """VP a scoring step gives now, weighted."""
        raise NotImplementedError

    def unrest_cost(self, r: int, k: int) -> float:
        raise NotImplementedError

    def unrest_relief(self, r: int, k: int) -> float:
        raise NotImplementedError

    def token_gain(self, s: int, k: int) -> float:
        raise NotImplementedError

    def best_token(self, k: int) -> float:
        raise NotImplementedError

    def soldier_value(self) -> float:
        raise NotImplementedError

    def best_spot(self) -> float:
        """A soldier placed now on the best open Mausoleum spot."""
        raise NotImplementedError

    def official_value(self, t: int, r: int) -> float:
        raise NotImplementedError

    def best_official_move(self) -> float:
        raise NotImplementedError

    def worker_value(self, r: int, k: int) -> float:
        raise NotImplementedError

    def best_worker_move(self) -> float:
        raise NotImplementedError

    def ship_value(self, steps: int) -> float:
        raise NotImplementedError

    def alchemist_cards_value(self, n: int) -> float:
        """``n`` Alchemist cards from the supply placed now."""
        raise NotImplementedError

    def palace_value(self, r: int, free: bool, large: bool = True) -> float:
        raise NotImplementedError

    def governor_value(self, r: int, free: bool) -> float:
        raise NotImplementedError

    def wall_value(self, s: int, slot: int, free: bool) -> float:
        raise NotImplementedError
