"""Terracotta soldiers on the Mausoleum: one record per tile condition, placement and the
grid's lines."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, get_args

from zsim.components.schema import MausoleumTile
from zsim.rules import queries
from zsim.rules.common import add_vp, ask_until_stop, count
from zsim.rules.valuer import FAR, Valuer
from zsim.state import NO_ONE, PlayerState, WallSection

if TYPE_CHECKING:
    from zsim.decisions import Table


def condition_met(g: Table, p: PlayerState, spot_index: int) -> bool:
    spot = g.state.mausoleum[spot_index]
    return CONDITIONS[spot.condition].met(g, p, spot.where)


# --- one record per tile condition ------------------------------------------------------------
#
# Each record says whether a player meets the condition in the region or at the Wall site its
# spot binds (``where``), for the engine, and how many of the seat's actions it still needs, for
# the bots' estimates (``zsim.rules.valuer``). ``CONDITIONS`` names each by the name the YAML
# uses; a condition of the schema without a record stops the import.


class Condition:
    """The record of one Mausoleum tile condition."""

    def met(self, g: Table, p: PlayerState, where: int) -> bool:
        raise NotImplementedError

    def distance(self, est: Valuer, where: int) -> int:
        """Actions the bot's seat still needs to meet the condition (0: met; ``FAR``: out of
        reach)."""
        raise NotImplementedError


class MasterAlchemist(Condition):
    """The Ship on or past the Master Alchemist space (ruling 10b): whether a Master Alchemist
    card was left to take there does not matter."""

    def met(self, g: Table, p: PlayerState, where: int) -> bool:
        return p.ship >= g.t.box.board.elixir.master_alchemist_space

    def distance(self, est: Valuer, where: int) -> int:
        p = est.p
        space = est.tables.box.board.elixir.master_alchemist_space
        if p.ship >= space:
            return 0
        return -(-(space - p.ship) // est.rules.elixir_steps)


class Palace(Condition):
    def met(self, g: Table, p: PlayerState, where: int) -> bool:
        return g.state.palace_count[where][p.seat] > 0

    def distance(self, est: Valuer, where: int) -> int:
        return 0 if est.board.palace_count[where][est.seat] else est.pal_dist[where]


class Governor(Condition):
    def met(self, g: Table, p: PlayerState, where: int) -> bool:
        return g.state.governor_count[where][p.seat] > 0

    def distance(self, est: Valuer, where: int) -> int:
        if est.board.governor_count[where][est.seat]:
            return 0
        return est.missing[where] + 1 if est.p.governors else FAR


class Full(Condition):
    def met(self, g: Table, p: PlayerState, where: int) -> bool:
        return len(p.tableau[where]) >= g.rules.region_card_limit

    def distance(self, est: Valuer, where: int) -> int:
        return max(0, est.limit - len(est.p.tableau[where]))


class Council(Condition):
    def met(self, g: Table, p: PlayerState, where: int) -> bool:
        return all(p.officials[where])

    def distance(self, est: Valuer, where: int) -> int:
        return est.missing[where]


class Workforce(Condition):
    def met(self, g: Table, p: PlayerState, where: int) -> bool:
        return p.workers[where] >= g.rules.workforce_workers

    def distance(self, est: Valuer, where: int) -> int:
        need = est.rules.workforce_workers - est.p.workers[where]
        if need <= 0:
            return 0
        return -(-need // est.rules.hire_workers) + (0 if est.hire_ok[where] else 1)


# The Wall conditions are plain loops, not any()/all() over generators (SIM110): they are asked
# for every free spot after every turn and reward (the loops: 5% fewer instructions in random play).


class BothSections(Condition):
    def met(self, g: Table, p: PlayerState, where: int) -> bool:
        seat = p.seat
        for w in g.state.walls:  # noqa: SIM110
            if w.site == where and seat not in w.slots:
                return False
        return True

    def distance(self, est: Valuer, where: int) -> int:
        p, walls, seat = est.p, est.board.walls, est.seat
        missing = 0
        for index in est.site_sections().get(where, ()):
            slots = walls[index].slots
            if seat not in slots:
                if NO_ONE not in slots or not p.walls:
                    return FAR
                missing += 1
        return missing


class HighWall(Condition):
    def met(self, g: Table, p: PlayerState, where: int) -> bool:
        seat = p.seat
        for w in g.state.walls:
            if w.site == where and seat in w.slots and _highest_taken_by(w, seat):
                return True
        return False

    def distance(self, est: Valuer, where: int) -> int:
        p, walls, seat, have = est.p, est.board.walls, est.seat, est.worker_regions
        best = FAR
        for index in est.site_sections().get(where, ()):
            section = walls[index]
            slots, tiers = section.slots, section.tiers
            top = max(tiers)
            for i in range(len(slots)):
                if tiers[i] != top:
                    continue
                if slots[i] == seat:
                    return 0
                if slots[i] == NO_ONE and p.walls and seat not in slots:
                    best = min(best, 1 + max(0, top - have))
        return best


class FirstBuilder(Condition):
    def met(self, g: Table, p: PlayerState, where: int) -> bool:
        seat = p.seat
        for w in g.state.walls:  # noqa: SIM110
            if w.first_builder == seat and w.site == where:
                return True
        return False

    def distance(self, est: Valuer, where: int) -> int:
        p, walls, seat, have = est.p, est.board.walls, est.seat, est.worker_regions
        best = FAR
        for index in est.site_sections().get(where, ()):
            section = walls[index]
            if section.first_builder == seat:
                return 0
            slots = section.slots
            if p.walls and slots.count(NO_ONE) == len(slots):
                best = min(best, 1 + max(0, min(section.tiers) - have))
        return best


def _highest_taken_by(section: WallSection, seat: int) -> bool:
    tiers = section.tiers
    top = max(tiers)
    return seat in [h for h, tier in zip(section.slots, tiers, strict=True) if tier == top]


CONDITIONS: Final[dict[str, Condition]] = {
    "master_alchemist": MasterAlchemist(), "palace": Palace(), "governor": Governor(),
    "full": Full(), "council": Council(), "workforce": Workforce(),
    "both_sections": BothSections(), "high_wall": HighWall(), "first_builder": FirstBuilder(),
}


def conditions_problems(records: dict[str, Condition]) -> list[str]:
    """What keeps ``records`` from being every condition of the schema, each with its rule and
    its bot distance."""
    named = set(get_args(MausoleumTile.model_fields["condition"].annotation))
    problems = [f"Mausoleum condition {c!r} has no record" for c in sorted(named - set(records))]
    problems += [f"record {c!r} is no Mausoleum condition of the schema"
                 for c in sorted(set(records) - named)]
    for name, record in sorted(records.items()):
        for method in ("met", "distance"):
            if getattr(type(record), method) is getattr(Condition, method):
                problems.append(f"condition {name!r} does not say its {method}")
    return problems


if conditions_problems(CONDITIONS):  # checked at import: a missing record fails at once
    raise ImportError("; ".join(conditions_problems(CONDITIONS)))


def free_spots(g: Table, p: PlayerState) -> list[int]:
    """Spots with an open usable slot and none of this player's soldiers (condition ignored)."""
    return queries.free_spots(g.t, g.state, p)


def eligible_spots(g: Table, p: PlayerState) -> list[int]:
    """The free spots whose condition the player meets, while a soldier waits at the entrance
    (``condition_met`` inlined: asked after every turn and reward)."""
    if not p.entrance:
        return []
    spots = g.state.mausoleum
    return [i for i in queries.free_spots(g.t, g.state, p)
            if CONDITIONS[spots[i].condition].met(g, p, spots[i].where)]


def place_soldier(g: Table, p: PlayerState, spot_index: int) -> None:
    """An unlocked soldier takes the topmost open slot and scores its value at once."""
    spot = g.state.mausoleum[spot_index]
    slot = spot.slots.index(NO_ONE)
    spot.slots[slot] = p.seat
    p.entrance -= 1
    value = g.t.box.board.mausoleum.slot_values[slot]
    add_vp(g, p, "vp_mausoleum", value)
    count(p, "n_soldiers_placed")
    if g.narrating:
        tile = g.t.box.mausoleum_tiles[spot.tile]
        g.say(f"  places a soldier on the {spot.binding} Mausoleum tile ({tile.condition}), "
              f"+{value} VP")


def place_soldiers(g: Table, p: PlayerState) -> None:
    """Offer the player to place unlocked soldiers on tiles whose condition they meet."""
    ask_until_stop(g, p.seat, "soldier", lambda: eligible_spots(g, p),
                   lambda spot: place_soldier(g, p, spot))


def lines(g: Table, seat: int) -> int:
    """Rows and columns of the 3x3 grid in which every spot holds one of this player's soldiers."""
    grid = [seat in spot.slots for spot in g.state.mausoleum]
    size = len(g.t.box.board.mausoleum.grid)
    rows = sum(all(grid[r * size + c] for c in range(size)) for r in range(size))
    cols = sum(all(grid[r * size + c] for r in range(size)) for c in range(size))
    return rows + cols
