"""What an option is worth, in end-game VP, as a seated player can estimate it.

The heuristic bots value every option of every decision with an ``Estimator`` built from the
player's view (and nothing else) for that decision or turn.

The model: VP scored at once count in full. Everything else is *progress towards goals* (a
Palace in a region, a Governor in a region, a Wall on a section, a soldier on a Mausoleum spot):
each goal has a value (the VP it will bring) and a distance (how many of this player's actions it
still needs: recruits, hires, Searches...). A goal is worth ``value * patience ** distance``
while the player has that many turns left, so a recruit or a hire is worth the distance it takes
off the goals it serves. End-game categories that grow with the state (Governor majorities, Walls
by their tile, Alchemist cards x Ship value, rows and columns of the Mausoleum, spare soldiers,
Unification rewards) are estimated from the current standing and how much of the game is left.
Abilities that will fire later, far from today's state (a card being tucked, a reward or Governor
bonus inside a goal's value), get flat-rate values (``static_value``), computed once per box.

Each estimate is multiplied by the weight of its category (``WEIGHTS``), so one model gives
differently minded bots. Tables are computed in bulk, lazily, at most once per decision: options
are valued by small deltas, never by copying the state.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from zsim.rules import queries
from zsim.rules.tables import ALCHEMIST, REGION_INDEX, SUIT_INDEX
from zsim.state import NO_ONE

if TYPE_CHECKING:
    from zsim.rules.tables import Tables
    from zsim.view import PlayerView

ALCHEMIST_OFFICIAL, ARCHITECT, GENERAL = 0, 1, 2
OFFICIAL_KEYS = ("alchemist", "architect", "general")  # Wall tiles counting each Official type
RECRUIT, HIRE, ELIXIR, PALACE, GOVERNOR, WALL = range(6)
REGIONS = (0, 1, 2, 3, 4)
FAR = 15  # a distance at which a goal is worth nothing
UNREST_LEVEL = (0.0, 0.5, 1.4, 3.0)  # cost of sitting at each Unrest level, before the weight
ACTIVATIONS_PER_ROUND = 0.9  # how often a tableau card fires per round left, on average
SEARCH_SHARE = 0.15  # share of the turns left a plan-neutral player spends Searching
FUTURE_ALCHEMISTS = 0.9  # share of the Alchemist cards still in reach that get placed
WORKER_SPARE = 0.3  # a Worker's worth beyond the goals modelled (later Walls, moves), per frac
OFFICIAL_SPARE = 0.2  # the same for an Official

# The weights of the heuristic, each the multiplier of one category of estimated VP.
WEIGHTS: dict[str, str] = {
    "vp": "VP scored at once by card abilities, bonuses and rewards",
    "palaces": "Palaces: their VP, their tiles and the steps towards them",
    "majority": "Governor majorities",
    "governor_bonus": "Governor tile bonuses",
    "walls": "Walls, by the VP their tile will pay at the end",
    "elixir": "Alchemist cards x Ship value",
    "mausoleum": "soldiers on Mausoleum tiles and their rows and columns",
    "soldiers": "spare soldiers at the Mausoleum entrance",
    "rewards": "chance of winning this round's Unification rewards x their value",
    "turn_order": "an early place in the turn order",
    "abilities": "future activations of tableau cards",
    "unrest": "the cost of Unrest",
}


class Weights:
    """Float attributes, one per ``WEIGHTS`` key, plus ``patience`` (the per-action discount of
    goals still some actions away) and ``resources`` (derived: Officials and Workers serve
    Palaces, Governors and Walls alike). The attributes are declared so that the compiled build
    can store them as plain doubles (a test holds them equal to ``WEIGHTS``)."""

    key: tuple[float, ...]
    patience: float
    resources: float
    vp: float
    palaces: float
    majority: float
    governor_bonus: float
    walls: float
    elixir: float
    mausoleum: float
    soldiers: float
    rewards: float
    turn_order: float
    abilities: float
    unrest: float

    def __init__(self, values: dict[str, float]) -> None:
        for key in ("patience", *WEIGHTS):
            setattr(self, key, float(values[key]))
        self.resources = (self.palaces + self.majority + self.walls) / 3
        self.key = tuple(float(values[k]) for k in ("patience", *WEIGHTS))


# --- per-box constants -----------------------------------------------------------------------


@dataclass(frozen=True)
class Facts:
    """Per-box constants the estimates read on every decision."""

    card_type: tuple[int, ...]
    card_trigger: tuple[int, ...]
    card_steps: tuple[tuple[tuple[Any, ...], ...], ...]  # card -> alternatives -> steps
    elixir_vp: tuple[int, ...]
    elixir_end: int
    elixir_spaces: tuple[int, ...]
    master_space: int
    slot_values: tuple[int, ...]
    lines: tuple[tuple[int, ...], ...]  # spot indices of each row and column of the grid
    lines_of: tuple[tuple[tuple[int, ...], ...], ...]  # per spot: the other two of each line


_FACTS: dict[int, tuple[Tables, Facts]] = {}


def facts(tables: Tables) -> Facts:
    """The ``Facts`` of a compiled box (cached; tables are compiled once per box)."""
    hit = _FACTS.get(id(tables))
    if hit is not None and hit[0] is tables:
        return hit[1]
    box = tables.box
    size = len(box.board.mausoleum.grid)
    rows = tuple(tuple(r * size + c for c in range(size)) for r in range(size))
    cols = tuple(tuple(r * size + c for r in range(size)) for c in range(size))
    lines = rows + cols
    route = box.board.elixir
    result = Facts(
        card_type=tables.card_type,
        card_trigger=tables.card_trigger,
        card_steps=tuple(a.options if a is not None else () for a in tables.card_ability),
        elixir_vp=tuple(route.vp),
        elixir_end=tables.elixir_end,
        elixir_spaces=tuple(route.elixir_spaces),
        master_space=route.master_alchemist_space,
        slot_values=tuple(box.board.mausoleum.slot_values),
        lines=lines,
        lines_of=tuple(tuple(tuple(k for k in line if k != j) for line in lines if j in line)
                       for j in range(size * size)),
    )
    _FACTS[id(tables)] = (tables, result)
    return result


# Typical end-of-game counts, for scoring steps valued without today's state.
TYPICAL_TABLEAU = {"writing": 3.0, "currency": 3.0, "laws": 3.0, "alchemist": 2.0, "any": 9.0}
TYPICAL_HERE = {"writing": 1.0, "currency": 1.0, "laws": 1.0, "alchemist": 1.0, "any": 2.5}
TYPICAL_PIECES = {"governor": 3.0, "palace": 2.5, "wall": 2.5, "mausoleum_soldier": 3.0}
TYPICAL_REGIONS = 2.5


def static_value(steps: tuple, slot: int, w: Weights) -> float:
    """A flat-rate value of effect steps, for abilities that will resolve later or elsewhere."""
    v = 0.0
    for e in steps:
        k = e.effect
        if k == "vp_per_cards":
            typical = TYPICAL_HERE if e.scope == "here" else TYPICAL_TABLEAU
            v += w.vp * e.per * typical[e.suit]
        elif k == "vp_per_pieces":
            v += w.vp * e.per * TYPICAL_PIECES[e.piece]
        elif k == "vp_per_region":
            v += w.vp * e.per[slot] * TYPICAL_REGIONS
        elif k == "vp_round":
            v += w.vp * 3.0
        elif k == "raise_unrest":
            v -= w.unrest * 1.0 * e.amount
        elif k == "reduce_unrest":
            v += w.unrest * 0.6 * e.amount * e.regions
        elif k == "reset_unrest":
            v += w.unrest * 1.0 * e.regions
        elif k == "ship":
            v += w.elixir * 0.9 * e.steps
        elif k == "gain_tokens":
            v += w.rewards * 0.8 * e.count
        elif k == "unlock_soldiers":
            v += w.mausoleum * 3.0 * e.count
        elif k == "recruit":
            v += w.resources * 1.2 * e.count
        elif k == "hire":
            v += w.resources * 0.8 * e.count
        elif k in ("move_officials", "move_workers"):
            v += w.resources * 0.4 * min(e.count, 2)
        elif k == "place_alchemist_cards":
            v += w.elixir * 4.0 * e.count
        elif k == "place_soldier_free":
            v += w.mausoleum * 6.0
        elif k == "install_governor_free":
            v += w.majority * 6.0 + w.governor_bonus * 2.0
        elif k == "build_palace_free":
            v += w.palaces * 9.0
        elif k == "build_wall_free":
            v += w.walls * 6.0
    return v


@dataclass(frozen=True)
class Statics:
    """Flat-rate values of every card (by slot) and every named ability, for one weighting."""

    card: tuple[tuple[float, float, float], ...]
    ability: dict[str, float]


_STATICS: dict[tuple, tuple[Tables, Statics]] = {}


def statics(tables: Tables, w: Weights) -> Statics:
    key = (id(tables), w.key)
    hit = _STATICS.get(key)
    if hit is not None and hit[0] is tables:
        return hit[1]
    cards = tuple(
        tuple(max((static_value(alt, slot, w) for alt in a.options), default=0.0)
              if a is not None else 0.0 for slot in range(3))
        for a in tables.card_ability)
    ability = {name: max(static_value(alt, 0, w) for alt in a.options)
               for name, a in tables.box.abilities.items()}
    result = Statics(card=cards, ability=ability)  # type: ignore[arg-type]
    _STATICS[key] = (tables, result)
    return result


def per_card_gain(e: Any, card_type: int) -> int:
    """VP one more card of ``card_type`` in its region adds to a ``vp_per_cards`` step."""
    if e.effect != "vp_per_cards" or e.scope != "here":
        return 0
    if e.suit == "any" or (e.suit == "alchemist" and card_type == ALCHEMIST) or (
            e.suit in SUIT_INDEX and SUIT_INDEX[e.suit] == card_type):
        return e.per
    return 0


_DISC: dict[tuple[float, int], list[float]] = {}


def discounts(patience: float, turns: int) -> list[float]:
    """``patience ** d`` for d = 0..FAR, zero beyond the turns left and from FAR on.

    The zeros run on to ``2 * FAR`` so that a distance plus a few steps indexes the list
    directly: no distance the estimates form reaches that far.
    """
    key = (patience, turns)
    hit = _DISC.get(key)
    if hit is None:
        hit = _DISC[key] = [patience ** d if d <= turns else 0.0 for d in range(FAR)] + [
            0.0] * (FAR + 1)
    return hit


# --- the estimator ---------------------------------------------------------------------------


class Estimator:
    """Estimates for one seat, built for one decision (the heuristic shares it with the rest of
    that turn after a ``refresh``). Every table is built on first use."""

    __slots__ = (
        "_activations", "_best_tile", "_card_values", "_gov_goals", "_official",
        "_official_loss", "_palace_goals", "_pay", "_phi", "_race", "_section_bonus",
        "_soldier", "_spots", "_tokens", "_triggered", "_types", "_vp_proj", "_walls",
        "_worker_gains", "_worker_losses", "board", "cap", "disc", "f", "frac", "hire_ok",
        "limit", "memo", "missing", "n", "n_hire_ok", "open_spots", "p", "pal_dist",
        "round_left", "rules", "seat", "spot_gap", "st", "tables", "total_workers", "turns",
        "view", "w", "worker_regions",
    )

    def __init__(self, view: PlayerView, w: Weights, st: Statics) -> None:
        self.view, self.w, self.st = view, w, st
        self.p = p = view.me
        self.board = board = view.board
        self.tables = tables = view.tables
        self.f = facts(tables)
        self.rules = rules = tables.rules
        self.seat = p.seat
        self.n = board.n
        per_round = 3 * rules.cards_per_suit_per_round
        self.turns = turns = view.turns_left
        self.frac = turns / (rules.rounds * per_round)
        self.round_left = len(view.hand) / per_round  # share of this round still to play
        self.disc = discounts(w.patience, turns)
        self.cap = rules.unrest_cap
        self.limit = rules.region_card_limit
        self.memo = view.memo
        self._spots: list | None = None
        self.open_spots: dict[tuple[str, int], tuple[float, int]] = {}
        self.spot_gap = 0
        self._palace_goals: list[float] | None = None
        self._gov_goals: list[float] | None = None
        self._walls: tuple | None = None
        self._phi: dict[int, float] = {}  # from the Walls table alone: kept by ``refresh``
        self.refresh()

    def refresh(self) -> None:
        """Re-read the fast-moving state (Officials, Workers, Unrest, cards, supplies) and drop
        everything computed from it, keeping the slow tables (Mausoleum spots, Walls, goal
        values). Used within one turn, where only this player's own moves happen. The view's
        table is a copy made for each decision, so this decision's copy is read."""
        self.p = p = self.view.me
        self.board = self.view.board
        rules = self.rules
        self.missing = [(not o[0]) + (not o[1]) + (not o[2]) for o in p.officials]
        hire = queries.hire_regions(rules, p)
        self.hire_ok = [r in hire for r in REGIONS]
        self.n_hire_ok = sum(self.hire_ok)
        self.total_workers = sum(p.workers)
        self.worker_regions = 5 - p.workers.count(0)
        if p.palaces:
            dist = self.palace_dist
            self.pal_dist = [dist(0), dist(1), dist(2), dist(3), dist(4)]
        else:
            self.pal_dist = [FAR] * 5
        self._types: tuple | None = None
        self._best_tile: list[float | None] = [None] * 5
        self._pay: dict[tuple[int, int], float] = {}
        self._worker_gains: dict[tuple[int, int], float] = {}
        self._worker_losses: dict[tuple[int, int, bool], float] = {}
        self._section_bonus: dict[int, float] = {}
        self._official: list | None = None
        self._official_loss: dict[tuple[int, int, bool], float] = {}
        self._race: list | None = None
        self._soldier: float | None = None
        self._vp_proj: float | None = None
        self._card_values: dict[int, float] = {}
        self._activations: list[float] | None = None
        self._triggered: list[list[tuple[int, int]]] | None = None
        self._tokens: dict[tuple[int, int], float] = {}

    # --- helpers -------------------------------------------------------------------------

    def activations(self, trigger: int) -> float:
        """Expected future activations of a tableau card with this trigger."""
        return (self._activations or self._activations_table())[trigger]

    def _activations_table(self) -> list[float]:
        p = self.p
        base = ACTIVATIONS_PER_ROUND * self.frac * self.rules.rounds
        dead = {PALACE: not p.palaces, GOVERNOR: not p.governors, WALL: not p.walls}
        table = self._activations = [0.0 if dead.get(a) else base for a in range(6)]
        return table

    def palace_dist(self, r: int, architect: bool | None = None, general: bool | None = None,
                    here: int | None = None, elsewhere: int | None = None) -> int:
        """Actions a Palace in region ``r`` still needs; the keyword arguments ask what if."""
        p, rules = self.p, self.rules
        if not p.palaces:
            return FAR
        offs = p.officials[r]
        if architect is None:
            architect = offs[ARCHITECT] > 0
        if general is None:
            general = offs[GENERAL] > 0
        if here is None:
            here = p.workers[r]
        if elsewhere is None:
            elsewhere = self.total_workers - p.workers[r]
        d = 1 if architect else 2
        if here < rules.palace_workers_here:
            if p.unrest[r] > self.cap - rules.hire_unrest:
                d += 3
            else:
                d += 1 if general else 2
        if elsewhere < rules.palace_workers_elsewhere:
            d += 1 if self.n_hire_ok - self.hire_ok[r] > 0 else 2
        return d

    def type_counts(self) -> tuple[list[list[int]], list[int]]:
        """Tableau cards by region and type, and totals by type (per game memo: a tableau only
        grows, so its region sizes name it)."""
        if self._types is None:
            tableau = self.p.tableau
            key = ("types", *map(len, tableau))
            hit = self.memo.get(key)
            if hit is None:
                card_type = self.f.card_type
                counts = []
                for cards in tableau:
                    row = [0, 0, 0, 0]
                    for c in cards:
                        row[card_type[c]] += 1
                    counts.append(row)
                hit = self.memo[key] = (counts, [sum(row[t] for row in counts) for t in range(4)])
            self._types = hit
        return self._types

    # --- Palace tiles (per game memo: a region's tiles only go, its cards only come) -----------

    def tile_vp(self, r: int) -> list:
        """(VP, Unrest it costs, steps) of each Palace tile left in region ``r``, today."""
        p, board = self.p, self.board
        key = ("tiles", r, len(p.tableau[r]), len(board.palace_tiles[r]))
        hit = self.memo.get(key)
        if hit is None:
            box = self.tables.box
            hit = []
            for kind in dict.fromkeys(board.palace_tiles[r]):
                steps = box.abilities[box.palace_tiles[kind].ability].options[0]
                vp = sum(self.view.effect_vp(e, r) for e in steps)
                unrest = sum(e.amount for e in steps if e.effect == "raise_unrest")
                hit.append((vp, unrest, steps))
            self.memo[key] = hit
        return hit

    def best_tile(self, r: int) -> float:
        """The best Palace tile a Palace in ``r`` would take now, net of its Unrest."""
        best = self._best_tile[r]
        if best is None:
            rules, p = self.rules, self.p
            best = 0.0
            for vp, k, steps in self.tile_vp(r):
                if queries.costs_payable(rules, p, steps, r):
                    v = self.w.palaces * vp - (self.unrest_cost(r, k) if k else 0.0)
                    if v > best:
                        best = v
            self._best_tile[r] = best
        return best

    # --- goals ---------------------------------------------------------------------------

    def palace_goals(self) -> list[float]:
        """Per region, what one more Palace there would bring (0 with no Palace left)."""
        if self._palace_goals is None:
            p, w, board, seat = self.p, self.w, self.board, self.seat
            goals = [0.0] * 5
            if p.palaces:
                base = w.palaces * self.rules.palace_vp + w.rewards * 1.5
                regions_rate = self.wall_rate("regions_with_palace")
                counts = board.palace_count
                for r in REGIONS:
                    v = base + self.best_tile(r)
                    if not counts[r][seat]:
                        v += regions_rate + self.spot_ready("palace", r)
                    goals[r] = v
            self._palace_goals = goals
        return self._palace_goals

    def gov_goals(self) -> list[float]:
        """Per region, what one more Governor there would bring (0 with no Governor left)."""
        if self._gov_goals is None:
            p, w, board, seat = self.p, self.w, self.board, self.seat
            goals = [0.0] * 5
            if p.governors:
                tiles = self.tables.box.governor_tiles
                ability = self.st.ability
                for r in REGIONS:
                    bonus = 0.0
                    for kind, holder in board.governor_slots[r]:
                        name = tiles[kind].ability
                        if holder == NO_ONE and name is not None and ability[name] > bonus:
                            bonus = ability[name]
                    v = (w.majority * self.majority_gain(r) + w.governor_bonus * bonus
                         + self.unrest_relief(r, p.unrest[r]))
                    if not board.governor_count[r][seat]:
                        v += self.spot_ready("governor", r)
                    goals[r] = v
            self._gov_goals = goals
        return self._gov_goals

    def majority_gain(self, r: int, extra: int = 1) -> float:
        """Expected majority VP gained in region ``r`` by ``extra`` more Governors."""
        counts = self.board.governor_count[r]
        seat = self.seat
        mine = counts[seat]
        top, tied = 0, 0
        for s, c in enumerate(counts):
            if s != seat:
                if c > top:
                    top, tied = c, 1
                elif c == top:
                    tied += 1
        prize = self.rules.governor_majority_vp[self.n]
        return prize * (self._share(mine + extra, top, tied) - self._share(mine, top, tied))

    def _share(self, mine: int, top: int, tied: int) -> float:
        """Expected share of a region's majority prize: certain at the end, smooth before."""
        if mine == 0:
            return 0.0
        lead = mine - top
        if lead == 0:
            return 1 / (1 + tied)
        k = 0.7 + 2.5 * (1 - self.frac)
        if lead > 0:
            return 1 - 0.5 * math.exp(-k * lead)
        return 0.5 * math.exp(k * lead)

    # --- the Mausoleum ---------------------------------------------------------------------

    def spots(self) -> list:
        """[worth of a soldier there now (0: taken or full), distance, mine, full worth (slot +
        rows and columns)] per spot."""
        if self._spots is not None:
            return self._spots
        p, board, seat, f = self.p, self.board, self.seat, self.f
        values = f.slot_values
        worth, dist, mine = [], [], []
        spot_dist = self._spot_dist
        free = queries.free_spots(self.tables, board, p)
        for j, spot in enumerate(board.mausoleum):
            slots = spot.slots
            if seat in slots:
                worth.append(0)
                mine.append(True)
                dist.append(0)
                continue
            mine.append(False)
            if j in free:
                worth.append(values[slots.index(NO_ONE)])
                dist.append(spot_dist(spot.condition, spot.where))
            else:
                worth.append(0)
                dist.append(0)
        gap = self.spot_gap = 0 if p.entrance else 1
        disc = self.disc
        chance = [1.0 if mine[j] else (disc[dist[j] + gap] if worth[j] else 0.0)
                  for j in range(len(worth))]
        line_vp = self.rules.mausoleum_line_vp
        wm = self.w.mausoleum
        full = [0.0] * len(worth)
        open_spots = {}
        usable_soldiers = p.entrance or p.soldiers
        for j, spot in enumerate(board.mausoleum):
            value = worth[j]
            if value:
                lines = 0.0
                for a, b in f.lines_of[j]:
                    lines += chance[a] * chance[b]
                full[j] = wm * (value + line_vp * lines)
                if usable_soldiers:
                    open_spots[spot.condition, spot.where] = (full[j], dist[j])
        self.open_spots = open_spots
        self._spots = [worth, dist, mine, full]
        return self._spots

    def _spot_dist(self, condition: str, where: int) -> int:
        """Actions this player still needs to meet a spot's condition (0: met)."""
        p, board, seat = self.p, self.board, self.seat
        if condition == "palace":
            return 0 if board.palace_count[where][seat] else self.pal_dist[where]
        if condition == "governor":
            if board.governor_count[where][seat]:
                return 0
            return self.missing[where] + 1 if p.governors else FAR
        if condition == "full":
            return max(0, self.limit - len(p.tableau[where]))
        if condition == "council":
            return self.missing[where]
        if condition == "workforce":
            need = self.rules.workforce_workers - p.workers[where]
            if need <= 0:
                return 0
            return -(-need // self.rules.hire_workers) + (0 if self.hire_ok[where] else 1)
        if condition == "master_alchemist":
            if p.master_taken:
                return 0
            if p.ship >= self.f.master_space or not board.master_available:
                return FAR
            return -(-(self.f.master_space - p.ship) // self.rules.elixir_steps)
        have = self.worker_regions
        best, missing_sections = FAR, 0
        walls = board.walls
        for index in self.site_sections().get(where, ()):
            section = walls[index]
            slots, tiers = section.slots, section.tiers
            if condition == "first_builder":
                if section.first_builder == seat:
                    return 0
                if p.walls and slots.count(NO_ONE) == len(slots):
                    best = min(best, 1 + max(0, min(tiers) - have))
                continue
            top = max(tiers)
            if condition == "high_wall":
                for h, t in zip(slots, tiers, strict=True):
                    if t == top and h == seat:
                        return 0
                    if t == top and h == NO_ONE and p.walls and seat not in slots:
                        best = min(best, 1 + max(0, top - have))
            elif seat not in slots:  # both_sections
                if NO_ONE not in slots or not p.walls:
                    return FAR
                missing_sections += 1
        if condition == "both_sections":
            return missing_sections
        return best

    def site_sections(self) -> dict[int, list[int]]:
        """The indices of the Wall sections of each site (per game memo: sections never move;
        the sections themselves are read from this decision's table)."""
        sites = self.memo.get("sites")
        if sites is None:
            sites = self.memo["sites"] = {}
            for index, section in enumerate(self.board.walls):
                sites.setdefault(section.site, []).append(index)
        return sites

    def spot_progress(self, condition: str, where: int, before: int, after: int) -> float:
        """Value of bringing a spot's condition from ``before`` to ``after`` actions away."""
        if self._spots is None:
            self.spots()
        hit = self.open_spots.get((condition, where))
        if hit is None or before == after:
            return 0.0
        disc, gap = self.disc, self.spot_gap
        return hit[0] * (disc[after + gap] - disc[before + gap])

    def spot_ready(self, condition: str, where: int) -> float:
        """Value of meeting a spot's condition now (from its current distance)."""
        if self._spots is None:
            self.spots()
        hit = self.open_spots.get((condition, where))
        if hit is None or not hit[1]:
            return 0.0
        disc, gap = self.disc, self.spot_gap
        return hit[0] * (disc[gap] - disc[hit[1] + gap])

    def spare_loss(self) -> float:
        """Spare-soldier VP lost by taking one soldier off the entrance."""
        e = self.p.entrance
        table = self.rules.extra_soldier_vp
        top = len(table) - 1
        return self.w.soldiers * (table[min(e, top)] - table[min(max(e - 1, 0), top)])

    def spot_place(self, j: int) -> float:
        """Placing an unlocked soldier on spot ``j`` now."""
        return self.spots()[3][j] - self.spare_loss()

    def soldier_value(self) -> float:
        """One more unlocked soldier at the entrance."""
        if self._soldier is None:
            _, dist, _, full = self.spots()
            disc = self.disc
            best = 0.0
            for j, value in enumerate(full):
                if value:
                    v = value * disc[dist[j]]
                    if v > best:
                        best = v
            e = self.p.entrance
            table = self.rules.extra_soldier_vp
            top = len(table) - 1
            spare = self.w.soldiers * (table[min(e + 1, top)] - table[min(e, top)])
            self._soldier = max(best, spare)
        return self._soldier

    # --- Walls -----------------------------------------------------------------------------

    def walls(self) -> tuple:
        """(VP gained per +1 of each counted thing, open slots per section as
        [(slot, tier, expected VP)], or None where we cannot build: a Wall of ours there, no
        Wall left, no slot open; ``queries.wall_slots`` with no Workers paid)."""
        if self._walls is not None:
            return self._walls
        memo = self.memo
        sections = memo.get("walls")
        if sections is None:
            tiles = self.tables.box.wall_tiles
            sections = []
            for section in self.board.walls:
                tile = tiles[section.wall_tile]
                scoring = tile.a if section.wall_face == "a" else tile.b
                key = queries.wall_key(scoring)
                sections.append((key, tuple(scoring.values), 3 if key == "quadruplets" else 5))
            memo["walls"] = sections
        seat, p, disc = self.seat, self.p, self.disc
        counts = queries.wall_counts(self.tables, self.board, p)
        open_by: dict[int, list[int]] = {}
        for s, i in queries.wall_slots(self.board, p, free=True):
            open_by.setdefault(s, []).append(i)
        rates: dict[str, float] = {}
        open_slots: list = []
        have = self.worker_regions
        growth = 0.35 * self.frac
        ww = self.w.walls
        for s, ((key, values, most), section) in enumerate(
                zip(sections, self.board.walls, strict=True)):
            slots, tiers = section.slots, section.tiers
            if seat in slots:
                rates[key] = rates.get(key, 0.0) + values[tiers[slots.index(seat)] - 1]
                open_slots.append(None)
                continue
            buildable = open_by.get(s)
            if buildable is None:
                open_slots.append(None)
                continue
            count = counts[key]
            expect = ww * (count + growth * (most - count if most > count else 0))
            best_rate = 0.0
            found = []
            for i in buildable:
                t = tiers[i]
                value = values[t - 1]
                found.append((i, t, value * expect))
                rate = value * disc[1 + t - have if t > have else 1]
                if rate > best_rate:
                    best_rate = rate
            rates[key] = rates.get(key, 0.0) + best_rate
            open_slots.append(found)
        self._walls = ({k: v * ww for k, v in rates.items()}, open_slots)
        return self._walls

    def wall_rate(self, key: str) -> float:
        """VP our Walls (built, or in reach) gain when what tile ``key`` counts grows by one."""
        return (self._walls or self.walls())[0].get(key, 0.0)

    def wall_phi(self, reach: int) -> float:
        """Potential of the Walls we could still build with Workers in ``reach`` regions."""
        hit = self._phi.get(reach)
        if hit is None:
            disc = self.disc
            hit = 0.0
            for found in self.walls()[1]:
                if found:
                    top = -math.inf
                    for _, t, vp in found:
                        v = vp * disc[1 + t - reach if t > reach else 1]
                        if v > top:
                            top = v
                    hit += top
            self._phi[reach] = hit
        return hit

    def wall_value(self, s: int, slot: int, free: bool) -> float:
        """Building a Wall on section ``s``, slot ``slot`` (``free``: no Workers paid)."""
        section = self.board.walls[s]
        tier = section.tiers[slot]
        found = self.walls()[1][s]
        v = next((vp for i, _, vp in found if i == slot), 0.0) if found else 0.0
        v += self.section_bonus(s)
        if tier == max(section.tiers):
            v += self.spot_ready("high_wall", section.site)
        if not free:
            v -= self.pay_cost(tier)
        return v

    def section_bonus(self, s: int) -> float:
        """What the first Wall of ours on section ``s`` brings besides its own VP: the Emperor
        tile if we open the section, and the Mausoleum spots of its site."""
        hit = self._section_bonus.get(s)
        if hit is None:
            section = self.board.walls[s]
            site, seat = section.site, self.seat
            hit = 0.0
            if section.slots.count(NO_ONE) == len(section.slots):
                if section.emperor_tile != NO_ONE and any(self.p.tableau):
                    hit += self.w.abilities * 2.0 * self.frac
                hit += self.spot_ready("first_builder", site)
            for other in self.board.walls:
                if other is not section and other.site == site and seat in other.slots:
                    hit += self.spot_ready("both_sections", site)
            self._section_bonus[s] = hit
        return hit

    def pay_cost(self, workers: int, exclude: int = -1) -> float:
        """Cheapest loss of ``workers`` Workers taken from as many different regions."""
        key = (workers, exclude)
        hit = self._pay.get(key)
        if hit is None:
            wk = self.p.workers
            losses = sorted(self.worker_loss(r, 1) for r in REGIONS if r != exclude and wk[r])
            hit = self._pay[key] = sum(losses[:workers])
        return hit

    def best_wall(self) -> float:
        """The best Wall a Court action can build now (``queries.wall_slots``), net of the
        Workers paid."""
        walls, found_by = self.board.walls, self.walls()[1]
        best = -math.inf
        for s, i in queries.wall_slots(self.board, self.p, free=False):
            section = walls[s]
            t = section.tiers[i]
            vp = next(vp for j, _, vp in found_by[s] if j == i)
            v = vp + self.section_bonus(s) - self.pay_cost(t)
            if t == max(section.tiers):
                v += self.spot_ready("high_wall", section.site)
            if v > best:
                best = v
        return best

    # --- Officials, Workers, Unrest --------------------------------------------------------

    def official_value(self, t: int, r: int) -> float:
        """One more Official of type ``t`` in region ``r``."""
        table = self._official
        if table is None:
            table = self._official = self._official_table()
        return table[t][r]

    def best_official(self, types: Iterable[int]) -> float:
        """The best ``official_value`` over these Official types and all regions."""
        table = self._official
        if table is None:
            table = self._official = self._official_table()
        return max(max(table[t]) for t in types)

    def _official_table(self) -> list[list[float]]:
        p, w, disc, rules = self.p, self.w, self.disc, self.rules
        palace_goal, gov_goal = self.palace_goals(), self.gov_goals()
        if self._spots is None:
            self.spots()
        spots = self.open_spots
        later = disc[self.spot_gap:]  # discounts for a spot, one turn later without a soldier
        spare = OFFICIAL_SPARE * self.frac
        table = [[spare] * 5 for _ in range(3)]
        seat, board, limit = self.seat, self.board, self.limit
        workforce, hire_cap = rules.workforce_workers, self.cap - rules.hire_unrest
        officials, workers, unrest, tableau = p.officials, p.workers, p.unrest, p.tableau
        alchemist_room = bool(queries.elixir_card_regions(rules, p))
        rates = (self._walls or self.walls())[0]
        type_rates = [rates.get(key, 0.0) for key in OFFICIAL_KEYS]
        missing, pal_dist = self.missing, self.pal_dist
        for r in REGIONS:
            m = missing[r]
            if not m:
                continue
            offs = officials[r]
            shared = spare + gov_goal[r] * (disc[m] - disc[m + 1])
            hit = spots.get(("council", r))
            if hit:
                shared += hit[0] * (later[m - 1] - later[m])
            if not board.governor_count[r][seat]:
                hit = spots.get(("governor", r))
                if hit:
                    shared += hit[0] * (later[m] - later[m + 1])
            before = pal_dist[r]
            step = palace_goal[r] * (disc[before - 1] - disc[before]) if before < FAR else 0.0
            hit = None if board.palace_count[r][seat] else spots.get(("palace", r))
            if hit and before < FAR:
                step += hit[0] * (later[before - 1] - later[before])
            short = workers[r] < rules.palace_workers_here and unrest[r] <= hire_cap
            if not offs[ALCHEMIST_OFFICIAL]:
                v = shared + type_rates[ALCHEMIST_OFFICIAL]
                if p.alchemist_supply and not alchemist_room and len(tableau[r]) < limit:
                    v += w.elixir * 0.5 * self.vp_projection() * w.patience
                table[ALCHEMIST_OFFICIAL][r] = v
            if not offs[ARCHITECT]:
                table[ARCHITECT][r] = shared + type_rates[ARCHITECT] + step
            if not offs[GENERAL]:
                v = shared + type_rates[GENERAL]
                if short:
                    v += step
                if not self.n_hire_ok and unrest[r] <= hire_cap:
                    v += max(0.0, self.worker_value(r, rules.hire_workers)) * w.patience
                if workers[r] < workforce:
                    need = -(-(workforce - workers[r]) // rules.hire_workers)
                    hit = spots.get(("workforce", r))
                    if hit:
                        v += hit[0] * (later[need] - later[need + 1])
                table[GENERAL][r] = v
        return table

    def official_loss(self, t: int, r: int, exclude_governor: bool = False) -> float:
        """Taking one Official of type ``t`` out of region ``r``."""
        key = (t, r, exclude_governor)
        hit = self._official_loss.get(key)
        if hit is None:
            hit = self._official_loss[key] = self._official_drop(t, r, exclude_governor)
        return hit

    def _official_drop(self, t: int, r: int, exclude_governor: bool) -> float:
        p, disc = self.p, self.disc
        v = OFFICIAL_SPARE * self.frac
        if p.officials[r][t] != 1:
            return v
        m = self.missing[r]
        if not exclude_governor:
            v += self.gov_goals()[r] * (disc[m + 1] - disc[m + 2])
        v += self.wall_rate(OFFICIAL_KEYS[t])
        if m == 0:
            v -= self.spot_progress("council", r, 0, 1)
        if t != ALCHEMIST_OFFICIAL:
            before = self.pal_dist[r]
            after = self.palace_dist(r, architect=False) if t == ARCHITECT else \
                self.palace_dist(r, general=False)
            v += self.palace_goals()[r] * (disc[before] - disc[after])
        return v

    def worker_value(self, r: int, k: int) -> float:
        """``k`` more Workers in region ``r``."""
        key = (r, k)
        hit = self._worker_gains.get(key)
        if hit is None:
            hit = self._worker_gains[key] = self._worker_gain(r, k)
        return hit

    def _worker_gain(self, r: int, k: int) -> float:
        p, rules, disc = self.p, self.rules, self.disc
        wr = p.workers[r]
        v = WORKER_SPARE * k * self.frac
        palace_goal = self.palace_goals()
        here = rules.palace_workers_here
        if wr < here <= wr + k:
            after = self.palace_dist(r, here=wr + k)
            v += palace_goal[r] * (disc[after] - disc[self.pal_dist[r]])
        if self.total_workers == 0:
            v += max(palace_goal[i] * (disc[self.palace_dist(i, elsewhere=k)]
                                       - disc[self.pal_dist[i]])
                     for i in REGIONS if i != r)
        if not wr:
            have = self.worker_regions
            v += self.wall_phi(have + 1) - self.wall_phi(have) + self.wall_rate(
                "regions_with_workers")
        need = rules.workforce_workers
        if wr < need <= wr + k:
            v += self.spot_ready("workforce", r)
        return v

    def worker_loss(self, r: int, k: int, exclude_palace: bool = False) -> float:
        """Taking ``k`` Workers out of region ``r``."""
        key = (r, k, exclude_palace)
        hit = self._worker_losses.get(key)
        if hit is None:
            hit = self._worker_losses[key] = self._worker_drop(r, k, exclude_palace)
        return hit

    def _worker_drop(self, r: int, k: int, exclude_palace: bool) -> float:
        p, rules, disc = self.p, self.rules, self.disc
        wr = p.workers[r]
        v = WORKER_SPARE * k * self.frac
        if not exclude_palace and wr >= rules.palace_workers_here > wr - k:
            after = self.palace_dist(r, here=wr - k)
            v += self.palace_goals()[r] * (disc[self.pal_dist[r]]
                                           - disc[after])
        if wr <= k:
            have = self.worker_regions
            v += self.wall_phi(have) - self.wall_phi(have - 1) + self.wall_rate(
                "regions_with_workers")
        need = rules.workforce_workers
        if wr >= need > wr - k:
            v -= self.spot_progress("workforce", r, 0, 1)
        return v

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

    # --- Unification tokens and rewards -----------------------------------------------------

    def race(self) -> list[tuple[float, int, int, float]]:
        """Per suit: (reward value, my token value, best rival's, tie-break edge)."""
        if self._race is None:
            board, p, seat = self.board, self.p, self.seat
            box = self.tables.box
            large = self.rules.large_token_value
            aspects = box.unification_boards[board.reward_board].aspects
            rnd = min(max(board.round, 1), self.rules.rounds)
            order = board.turn_order
            me_first = order.index(seat)
            ability = self.st.ability
            race: list = [None, None, None]
            for aspect in aspects:
                s = SUIT_INDEX[aspect.aspect]
                value = self.w.rewards * ability[aspect.rewards[rnd - 1]]
                mine = p.tokens[s] + large * p.large[s]
                best, edge = 0, 0.4
                for q in board.players:
                    if q.seat != seat:
                        theirs = q.tokens[s] + large * q.large[s]
                        if theirs > best:
                            best = theirs
                        if theirs == mine and order.index(q.seat) < me_first:
                            edge = -0.4
                race[s] = (value, mine, best, edge)
            self._race = race
        return self._race

    def win_chance(self, s: int, value: int) -> float:
        """Chance that a token value of ``value`` in suit ``s`` wins this round's reward."""
        if value <= 0:
            return 0.0
        _, _, best, edge = (self._race or self.race())[s]
        tau = 0.5 + 2.0 * self.round_left
        return 1 / (1 + math.exp(-(value - best + edge) / tau))

    def token_gain(self, s: int, k: int) -> float:
        """``k`` more small tokens of suit ``s``."""
        if k <= 0:
            return 0.0
        hit = self._tokens.get((s, k))
        if hit is None:
            reward, mine, _, _ = (self._race or self.race())[s]
            hit = reward * (self.win_chance(s, mine + k) - self.win_chance(s, mine))
            hit = self._tokens[s, k] = hit + k * self.token_carry()
        return hit

    def token_carry(self) -> float:
        """A token's worth beyond this round's race: later races and unlocking soldiers."""
        carry = 0.25 * self.w.rewards * self.frac
        if self.p.soldiers:
            carry += self.soldier_value() / (2 * self.rules.unlock_cost)
        return carry

    def best_token(self, k: int) -> float:
        return max(self.token_gain(s, k) for s in range(3))

    # --- the Elixir route ------------------------------------------------------------------

    def vp_projection(self) -> float:
        """Ship VP we expect to reach by the end, if the plan's share of Searches goes on."""
        if self._vp_proj is None:
            f, p = self.f, self.p
            searches = self.turns * SEARCH_SHARE * self.w.elixir
            reach = min(f.elixir_end, p.ship + int(self.rules.elixir_steps * searches))
            self._vp_proj = float(f.elixir_vp[reach])
        return self._vp_proj

    def ship_value(self, steps: int) -> float:
        """Advancing the Ship ``steps`` spaces, Elixir symbols and Master Alchemist included."""
        f, p, w = self.f, self.p, self.w
        s = p.ship
        s2 = min(f.elixir_end, s + steps)
        if s2 == s:
            return 0.0
        pending = len(p.alchemist_supply) + (0 if p.master_taken else 1)
        ahead = sum(1 for x in f.elixir_spaces if x > s)
        cards = self.type_counts()[1][ALCHEMIST] + FUTURE_ALCHEMISTS * min(
            pending, ahead) * self.frac
        v = w.elixir * cards * (f.elixir_vp[s2] - f.elixir_vp[s])
        symbols = sum(1 for x in f.elixir_spaces if s < x <= s2)
        if symbols:
            reward = self.soldier_value() if p.soldiers else 0.0
            if p.alchemist_supply and queries.elixir_card_regions(self.rules, p):
                reward = max(reward, w.elixir * self.vp_projection() + 1.0)
            v += symbols * reward
        master = f.master_space
        if s < master and not p.master_taken:
            if s2 >= master and self.board.master_available:
                v += w.elixir * self.vp_projection() * 0.8 + 2.0
            per = self.rules.elixir_steps
            before = -(-(master - s) // per)
            after = 0 if s2 >= master else -(-(master - s2) // per)
            v += self.spot_progress("master_alchemist", 0, before, after)
        return v

    # --- cards -----------------------------------------------------------------------------

    def tuck_base(self, r: int, suit: int) -> float:
        """Tucking any card of ``suit`` in region ``r``: tokens, Unrest, what it adds to tiles."""
        rules = self.rules
        slot = len(self.p.tableau[r])
        tokens = min(rules.tokens_per_slot[slot], self.board.supply[suit])
        return (self.token_gain(suit, tokens) - self.unrest_cost(r, rules.unrest_per_slot[slot])
                + self.composition(r, suit))

    def future_card(self, card: int, slot: int) -> float:
        """A card's ability at a flat rate, times the activations it can expect from now on."""
        return (self.w.abilities * self.activations(self.f.card_trigger[card])
                * self.st.card[card][slot])

    def composition(self, r: int, card_type: int) -> float:
        """What one more card of ``card_type`` in region ``r`` adds to tiles that count cards."""
        p = self.p
        counts, totals = self.type_counts()
        row = counts[r]
        filled = len(p.tableau[r])
        v = self.spot_progress("full", r, self.limit - filled, self.limit - filled - 1)
        if row[card_type] == 1 and max(row) < 2:
            v += self.wall_rate("regions_with_pair")
        low = min(totals)
        if totals[card_type] == low and totals.count(low) == 1:
            v += self.wall_rate("quadruplets")
        if p.palaces:
            gain = self.tile_gain(r)[card_type]
            if gain:
                v += self.w.palaces * gain * self.disc[self.pal_dist[r]]
        return v

    def tile_gain(self, r: int) -> list[int]:
        """Per card type, the most VP one more such card adds to a Palace tile left in ``r``."""
        key = ("tile_gain", r, len(self.board.palace_tiles[r]))
        hit = self.memo.get(key)
        if hit is None:
            hit = self.memo[key] = [
                max((sum(per_card_gain(e, t) for e in steps) for _, _, steps in self.tile_vp(r)),
                    default=0)
                for t in range(4)]
        return hit

    def alchemist_card_value(self, card: int, r: int) -> float:
        """Putting an Alchemist card from our supply into region ``r``."""
        slot = len(self.p.tableau[r])
        return (self.w.elixir * self.vp_projection() + self.composition(r, ALCHEMIST)
                + self.future_card(card, slot))

    def alchemist_home(self) -> int:
        """The region an Alchemist card would most likely go to: room, and Alchemists there."""
        p, counts = self.p, self.type_counts()[0]
        return max(REGIONS, key=lambda r: (len(p.tableau[r]) < self.limit,
                                           p.officials[r][ALCHEMIST_OFFICIAL],
                                           counts[r][ALCHEMIST]))

    def triggered(self) -> list[list[tuple[int, int]]]:
        """Per Court action, (region, card) of the tableau cards it would activate
        (``queries.triggered_cards``). Cards whose Unrest costs do not fit are listed too;
        ``card_value`` prices them out."""
        if self._triggered is None:
            self._triggered = queries.triggered_cards(self.tables, self.rules, self.p)
        return self._triggered

    def fired_value(self, action: int) -> float:
        """What activating every card ``action`` triggers is worth now (each only if it pays)."""
        total = 0.0
        for _, card in self.triggered()[action]:
            v = self.card_value(card)
            if v > 0:
                total += v
        return total

    def card_value(self, card: int) -> float:
        """Activating a tableau card's ability now (its best alternative)."""
        hit = self._card_values.get(card)
        if hit is None:
            region, slot = -1, 0
            for r, cards in enumerate(self.p.tableau):
                if card in cards:
                    region, slot = r, cards.index(card)
                    break
            hit = self._card_values[card] = self.alternatives_value(
                self.f.card_steps[card], region, slot, self.f.card_type[card])
        return hit

    # --- abilities: the value of resolving effect steps now ---------------------------------

    def alternatives_value(self, alternatives: tuple, here: int, slot: int, suit: int) -> float:
        """The best alternative whose Unrest costs fit (none fits: a large negative)."""
        rules, p = self.rules, self.p
        best = -1e9
        for steps in alternatives:
            if queries.costs_payable(rules, p, steps, here):
                v = self.steps_value(steps, here, slot, suit)
                if v > best:
                    best = v
        return best

    def steps_value(self, steps: tuple, here: int, slot: int, suit: int) -> float:
        """Resolving these steps now, in this state."""
        total = 0.0
        for e in steps:
            total += self.step_value(e, here, slot, suit)
        return total

    def step_value(self, e: Any, here: int, slot: int, suit: int) -> float:
        kind, w, p = e.effect, self.w, self.p
        if kind.startswith("vp_"):
            return w.vp * self.view.effect_vp(e, here, slot, suit)
        if kind == "raise_unrest":
            return -self.unrest_cost(here if e.where == "here" else REGION_INDEX[e.where],
                                     e.amount)
        if kind == "reduce_unrest":
            if e.where == "here":
                return self.unrest_relief(here, e.amount)
            reliefs = sorted((self.unrest_relief(r, e.amount) for r in REGIONS), reverse=True)
            return sum(reliefs[:e.regions])
        if kind == "reset_unrest":
            reliefs = sorted((self.unrest_relief(r, p.unrest[r]) for r in REGIONS), reverse=True)
            return sum(reliefs[:e.regions])
        if kind == "gain_tokens":
            if e.color == "any":
                return self.best_token(1) * e.count
            s = suit if e.color == "own" else SUIT_INDEX[e.color]
            return self.token_gain(s, min(e.count, self.board.supply[s])) if s >= 0 else 0.0
        if kind == "unlock_soldiers":
            return min(e.count, p.soldiers) * self.soldier_value()
        if kind == "move_officials":
            return 0.6 * self.best_official_move() * min(e.count, 2)
        if kind == "move_workers":
            return 0.6 * self.best_worker_move() * min(e.count, 2)
        if kind == "recruit":
            return self.recruit_value(e, here)
        if kind == "hire":
            regions = REGIONS if e.where == "any" else (
                here if e.where == "here" else REGION_INDEX[e.where],)
            return max(self.worker_value(r, e.count) for r in regions if r >= 0)
        if kind == "ship":
            return self.ship_value(e.steps)
        if kind == "place_alchemist_cards":
            n = min(e.count, len(p.alchemist_supply))
            return n * (w.elixir * self.vp_projection() + 1.0)
        if kind == "place_soldier_free":
            return max(self.spots()[3], default=0.0)
        if kind == "install_governor_free":
            if not p.governors:
                return 0.0
            where = REGIONS if e.regions == "any" else tuple(REGION_INDEX[r] for r in e.regions)
            return max(self.governor_value(r, free=True) for r in where)
        if kind == "build_palace_free":
            if not p.palaces:
                return 0.0
            return max(self.palace_value(r, free=True, large=e.large_token) for r in REGIONS)
        if kind == "build_wall_free":
            return max((self.wall_value(s, i, free=True)
                        for s, i in queries.wall_slots(self.board, p, free=True)), default=0.0)
        return 0.0

    def recruit_value(self, e: Any, here: int) -> float:
        supply = self.p.official_supply
        kinds = range(3) if e.official == "any" else (OFFICIAL_KEYS.index(e.official),)
        types = [t for t in kinds if supply[t]]
        if not types:
            return 0.0
        n = min(e.count, sum(supply[t] for t in types))
        regions = REGIONS if e.where == "any" else (
            here if e.where == "here" else REGION_INDEX[e.where],)
        best = max(self.official_value(t, r) for t in types for r in regions if r >= 0)
        return best * (1 + 0.5 * (n - 1))

    def best_official_move(self) -> float:
        p = self.p
        best = 0.0
        for r in REGIONS:
            offs = p.officials[r]
            for t in range(3):
                if offs[t]:
                    loss = self.official_loss(t, r)
                    for to in (r - 1, r + 1):
                        if 0 <= to < 5:
                            best = max(best, self.official_value(t, to) - loss)
        return best

    def best_worker_move(self) -> float:
        p = self.p
        best = 0.0
        for r in REGIONS:
            if p.workers[r]:
                loss = self.worker_loss(r, 1)
                for to in (r - 1, r + 1):
                    if 0 <= to < 5:
                        best = max(best, self.worker_value(to, 1) - loss)
        return best

    # --- building --------------------------------------------------------------------------

    def palace_value(self, r: int, free: bool, large: bool = True) -> float:
        """Building a Palace in region ``r`` (``free``: no Architect or Workers needed)."""
        w, rules = self.w, self.rules
        v = w.palaces * rules.palace_vp + self.best_tile(r)
        if not self.board.palace_count[r][self.seat]:
            v += self.wall_rate("regions_with_palace") + self.spot_ready("palace", r)
        on_board = self.board.large_on_board
        if large and any(on_board):
            carry = 2 * self.token_carry()
            v += max(self.token_gain(s, rules.large_token_value) - carry
                     for s in range(3) if on_board[s])
        if not free:
            v -= self.worker_loss(r, rules.palace_workers_here, exclude_palace=True)
            v -= self.pay_cost(rules.palace_workers_elsewhere, exclude=r)
        return v

    def governor_value(self, r: int, free: bool) -> float:
        """Installing a Governor in region ``r`` (``free``: no Officials spent)."""
        v = self.gov_goals()[r]
        if not free:
            v -= sum(self.official_loss(t, r, exclude_governor=True) for t in range(3))
        return v
