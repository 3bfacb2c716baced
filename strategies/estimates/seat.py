"""The seat an estimate is made for: what it reads of the view once per decision, and the small
facts of its own pieces that every other estimate builds on (how far a Palace is, what Unrest
costs, which cards it holds).

The estimator is a chain of classes, one module per concern, each building on the ones before
it (``zsim.strategies.estimates`` lists them in order). Each keeps its own tables, built on
first use: ``start`` clears the slow ones (kept for the rest of the turn), ``refresh`` the
fast-moving ones (dropped after each of the player's own moves).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from zsim.rules.valuer import Valuer
from zsim.strategies.estimates.facts import Facts, Statics, discounts, facts
from zsim.strategies.estimates.weights import (
    ACTIVATIONS_PER_ROUND,
    ARCHITECT,
    FAR,
    GENERAL,
    GOVERNOR,
    PALACE,
    REGIONS,
    UNREST_LEVEL,
    WALL,
    Weights,
)

if TYPE_CHECKING:
    from zsim.view import PlayerView


# Keys of per-game tables in the view's memory (``Seat.memo``), each entry under its table's
# offset plus an integer naming the state it was computed from (a tableau's region sizes...):
# one integer costs less than a (name, number) tuple per lookup, and the entries stay in the
# memory's top level, which a fork of the view copies (a nested table would be shared with it).
TYPES_KEY: Final = 1 << 40
TILES_KEY: Final = 2 << 40
TILE_GAIN_KEY: Final = 3 << 40


class Seat(Valuer):
    """One seat's standing, read from its view for one decision (and kept, after a
    ``refresh``, for the rest of that turn)."""

    __slots__ = ("_activations", "_types", "cap", "disc", "f", "frac", "hire_cap", "memo", "n",
                 "n_hire_ok", "round_left", "st", "total_workers", "turns", "view", "w")

    # and those of ``Valuer``: p, board, seat, tables, rules, limit, missing, pal_dist, hire_ok,
    # worker_regions
    view: PlayerView
    w: Weights
    st: Statics
    f: Facts
    n: int
    turns: int
    frac: float
    round_left: float
    disc: list[float]
    cap: int
    hire_cap: int  # the highest Unrest a region may have for a hire there
    memo: dict
    n_hire_ok: int
    total_workers: int
    _types: tuple | None
    _activations: list[float] | None

    def __init__(self, view: PlayerView, w: Weights, st: Statics) -> None:
        self.view, self.w, self.st = view, w, st
        self.p = p = view.me
        self.board = board = view.board
        self.tables = tables = view.tables
        self.f = f = facts(tables)
        self.rules = tables.rules
        self.seat = p.seat
        self.n = board.n
        per_round = 3 * f.cards_per_suit_per_round
        self.turns = turns = view.turns_left
        self.frac = turns / (f.rounds * per_round)
        self.round_left = len(view.hand) / per_round  # share of this round still to play
        self.disc = discounts(w.patience, turns)
        self.cap = f.unrest_cap
        self.hire_cap = f.unrest_cap - f.hire_unrest
        self.limit = f.region_card_limit
        self.memo = view.memo
        self.start()
        self.refresh()

    def start(self) -> None:
        """Clear the slow tables (Mausoleum spots, Walls, goal values): once per estimator."""

    def refresh(self) -> None:
        """Re-read the fast-moving state (Officials, Workers, Unrest, cards, supplies) and drop
        everything computed from it, keeping the slow tables. Used within one turn, where only
        this player's own moves happen. The view's table is made anew for each decision (a copy,
        or for the built-in heuristic the table itself), so this decision's is read."""
        self.p = p = self.view.me
        self.board = self.view.board
        officials, unrest = p.officials, p.unrest
        self.missing = [(not o[0]) + (not o[1]) + (not o[2]) for o in officials]
        # ``queries.hire_regions``, read from the box's numbers copied into ``Facts`` (the
        # rules' pydantic model is slow to read compiled) and without its list
        hire_ok = self.hire_ok = [False, False, False, False, False]
        hire_cap, n_hire = self.hire_cap, 0
        for r in REGIONS:
            if officials[r][GENERAL] and unrest[r] <= hire_cap:
                hire_ok[r] = True
                n_hire += 1
        self.n_hire_ok = n_hire
        total = 0
        for k in p.workers:
            total += k
        self.total_workers = total
        self.worker_regions = 5 - p.workers.count(0)
        if p.palaces:
            workers = p.workers
            self.pal_dist = [self.palace_steps(r, officials[r][ARCHITECT] > 0,
                                               officials[r][GENERAL] > 0, workers[r],
                                               total - workers[r]) for r in REGIONS]
        else:
            self.pal_dist = [FAR] * 5
        self._types = None
        self._activations = None

    def activations(self, trigger: int) -> float:
        """Expected future activations of a tableau card with this trigger."""
        return (self._activations or self._activations_table())[trigger]

    def _activations_table(self) -> list[float]:
        p = self.p
        base = ACTIVATIONS_PER_ROUND * self.frac * self.f.rounds
        dead = {PALACE: not p.palaces, GOVERNOR: not p.governors, WALL: not p.walls}
        table = self._activations = [0.0 if dead.get(a) else base for a in range(6)]
        return table

    def palace_dist(self, r: int, architect: bool | None = None, general: bool | None = None,
                    here: int | None = None, elsewhere: int | None = None) -> int:
        """Actions a Palace in region ``r`` still needs; the keyword arguments ask what if."""
        p = self.p
        if not p.palaces:
            return FAR
        offs = p.officials[r]
        return self.palace_steps(
            r, offs[ARCHITECT] > 0 if architect is None else architect,
            offs[GENERAL] > 0 if general is None else general,
            p.workers[r] if here is None else here,
            self.total_workers - p.workers[r] if elsewhere is None else elsewhere)

    def palace_steps(self, r: int, architect: bool, general: bool, here: int,
                     elsewhere: int) -> int:
        """``palace_dist`` with every circumstance given (and a Palace left in stock): the
        plain-integer form that ``refresh`` calls for each region."""
        p, f = self.p, self.f
        d = 1 if architect else 2
        if here < f.palace_workers_here:
            if p.unrest[r] > self.cap - f.hire_unrest:
                d += 3
            else:
                d += 1 if general else 2
        if elsewhere < f.palace_workers_elsewhere:
            d += 1 if self.n_hire_ok - self.hire_ok[r] > 0 else 2
        return d

    def type_counts(self) -> tuple[list[list[int]], list[int]]:
        """Tableau cards by region and type, and totals by type (per game memo: a tableau only
        grows, so its region sizes name it)."""
        if self._types is None:
            tableau = self.p.tableau
            size = 0
            for cards in tableau:
                size = size * 100 + len(cards)
            memo, key = self.memo, TYPES_KEY + size
            hit = memo.get(key)
            if hit is None:
                card_type = self.f.card_type
                counts = []
                for cards in tableau:
                    row = [0, 0, 0, 0]
                    for c in cards:
                        row[card_type[c]] += 1
                    counts.append(row)
                hit = memo[key] = (counts, [sum(row[t] for row in counts) for t in range(4)])
            self._types = hit
        return self._types

    def site_sections(self) -> dict[int, list[int]]:
        """The indices of the Wall sections of each site (per game memo: sections never move;
        the sections themselves are read from this decision's table)."""
        sites = self.memo.get("sites")
        if sites is None:
            sites = self.memo["sites"] = {}
            for index, section in enumerate(self.board.walls):
                sites.setdefault(section.site, []).append(index)
        return sites

    # --- Unrest ----------------------------------------------------------------------------

    def block_value(self, r: int) -> float:
        """What reaching the Unrest cap in region ``r`` blocks: its cards, hiring there."""
        p = self.p
        v = self.w.abilities * 1.2 * len(p.tableau[r]) * self.frac
        if p.officials[r][GENERAL]:
            v += self.frac
        return v

    def unrest_cost(self, r: int, k: int) -> float:
        """Raising Unrest in region ``r`` by ``k`` (never past the cap: the engine forbids it)."""
        if k <= 0:
            return 0.0
        u = self.p.unrest[r]
        cap = self.cap
        new = min(u + k, cap)
        v = self.w.unrest * (UNREST_LEVEL[min(new, 3)] - UNREST_LEVEL[min(u, 3)])
        if new >= cap > u:
            v += self.block_value(r)
        return v

    def unrest_relief(self, r: int, k: int) -> float:
        """Lowering Unrest in region ``r`` by ``k``."""
        u = self.p.unrest[r]
        new = max(0, u - k)
        if new == u:
            return 0.0
        v = self.w.unrest * (UNREST_LEVEL[min(u, 3)] - UNREST_LEVEL[min(new, 3)])
        if u >= self.cap > new:
            v += self.block_value(r)
        return v
