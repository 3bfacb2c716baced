"""Terracotta soldiers on the Mausoleum: tile conditions, placement and the grid's lines."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from zsim.rules import queries
from zsim.rules.common import add_vp, ask_until_stop, count
from zsim.state import NO_ONE, PlayerState, WallSection

if TYPE_CHECKING:
    from zsim.decisions import Table


def usable_slots(g: Table) -> int:
    """How many slots of each tile this player count uses (the '3+' slot needs 3 players)."""
    return g.t.mausoleum_slots[g.state.n]


def condition_met(g: Table, p: PlayerState, spot_index: int) -> bool:
    spot = g.state.mausoleum[spot_index]
    return CONDITIONS[spot.condition](g, p, spot.where)


# Each tile condition, asked about the region or Wall site (``where``) its spot binds.


def _master_alchemist(g: Table, p: PlayerState, where: int) -> bool:
    return p.master_taken


def _palace(g: Table, p: PlayerState, where: int) -> bool:
    return g.state.palace_count[where][p.seat] > 0


def _governor(g: Table, p: PlayerState, where: int) -> bool:
    return g.state.governor_count[where][p.seat] > 0


def _full(g: Table, p: PlayerState, where: int) -> bool:
    return len(p.tableau[where]) >= g.rules.region_card_limit


def _council(g: Table, p: PlayerState, where: int) -> bool:
    return all(p.officials[where])


def _workforce(g: Table, p: PlayerState, where: int) -> bool:
    return p.workers[where] >= g.rules.workforce_workers


# The Wall conditions are plain loops, not any()/all() over generators (SIM110): they are asked
# for every free spot after every turn and reward (the loops: 5% fewer instructions in random play).


def _both_sections(g: Table, p: PlayerState, where: int) -> bool:
    seat = p.seat
    for w in g.state.walls:  # noqa: SIM110
        if w.site == where and seat not in w.slots:
            return False
    return True


def _high_wall(g: Table, p: PlayerState, where: int) -> bool:
    seat = p.seat
    for w in g.state.walls:
        if w.site == where and seat in w.slots and _highest_taken_by(w, seat):
            return True
    return False


def _first_builder(g: Table, p: PlayerState, where: int) -> bool:
    seat = p.seat
    for w in g.state.walls:  # noqa: SIM110
        if w.first_builder == seat and w.site == where:
            return True
    return False


def _highest_taken_by(section: WallSection, seat: int) -> bool:
    tiers = section.tiers
    top = max(tiers)
    return seat in [h for h, tier in zip(section.slots, tiers, strict=True) if tier == top]


CONDITIONS: dict[str, Callable[[Table, PlayerState, int], bool]] = {
    "master_alchemist": _master_alchemist, "palace": _palace, "governor": _governor,
    "full": _full, "council": _council, "workforce": _workforce,
    "both_sections": _both_sections, "high_wall": _high_wall, "first_builder": _first_builder,
}


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
            if CONDITIONS[spots[i].condition](g, p, spots[i].where)]


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
