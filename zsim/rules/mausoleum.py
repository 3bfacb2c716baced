"""Terracotta soldiers on the Mausoleum: tile conditions, placement and the grid's lines."""

from __future__ import annotations

from typing import TYPE_CHECKING

from zsim.rules.common import add_vp, count
from zsim.state import NO_ONE, PlayerState, WallSection

if TYPE_CHECKING:
    from zsim.game import Game


def usable_slots(g: Game) -> int:
    """How many slots of each tile this player count uses (the '3+' slot needs 3 players)."""
    layout = g.t.box.board.mausoleum
    return sum(1 for need in layout.min_players_for_slot if g.state.n >= need)


def condition_met(g: Game, p: PlayerState, spot_index: int) -> bool:
    spot = g.state.mausoleum[spot_index]
    condition, where, seat = spot.condition, spot.where, p.seat
    if condition == "master_alchemist":
        return p.master_taken
    if condition == "palace":
        return g.state.palace_count[where][seat] > 0
    if condition == "governor":
        return g.state.governor_count[where][seat] > 0
    if condition == "full":
        return len(p.tableau[where]) >= g.rules.region_card_limit
    if condition == "council":
        return all(p.officials[where])
    if condition == "workforce":
        return p.workers[where] >= g.rules.workforce_workers
    sections = [w for w in g.state.walls if w.site == where]
    if condition == "both_sections":
        return all(seat in w.slots for w in sections)
    if condition == "high_wall":
        return any(_highest_taken_by(w, seat) for w in sections)
    return any(w.first_builder == seat for w in sections)  # first_builder


def _highest_taken_by(section: WallSection, seat: int) -> bool:
    top = max(section.tiers)
    return any(h == seat for h, tier in zip(section.slots, section.tiers, strict=True)
               if tier == top)


def free_spots(g: Game, p: PlayerState) -> list[int]:
    """Spots with an open usable slot and none of this player's soldiers (condition ignored)."""
    n_slots = usable_slots(g)
    return [
        i for i, spot in enumerate(g.state.mausoleum)
        if p.seat not in spot.slots and NO_ONE in spot.slots[:n_slots]
    ]


def eligible_spots(g: Game, p: PlayerState) -> list[int]:
    if not p.entrance:
        return []
    return [i for i in free_spots(g, p) if condition_met(g, p, i)]


def place_soldier(g: Game, p: PlayerState, spot_index: int) -> None:
    """An unlocked soldier takes the topmost open slot and scores its value at once."""
    spot = g.state.mausoleum[spot_index]
    slot = spot.slots.index(NO_ONE)
    spot.slots[slot] = p.seat
    p.entrance -= 1
    value = g.t.box.board.mausoleum.slot_values[slot]
    add_vp(g, p, "vp_mausoleum", value)
    count(p, "soldiers_placed")
    if g.log is not None:
        tile = g.t.box.mausoleum_tiles[spot.tile]
        g.say(f"  places a soldier on the {spot.binding} Mausoleum tile ({tile.condition}), "
              f"+{value} VP")


def place_soldiers(g: Game, p: PlayerState) -> None:
    """Offer the player to place unlocked soldiers on tiles whose condition they meet."""
    while True:
        options: list = eligible_spots(g, p)
        if not options:
            return
        options.append("done")
        choice = g.ask(p.seat, "soldier", options)
        if choice == "done":
            return
        place_soldier(g, p, choice)


def lines(g: Game, seat: int) -> int:
    """Rows and columns of the 3x3 grid in which every spot holds one of this player's soldiers."""
    grid = [seat in spot.slots for spot in g.state.mausoleum]
    size = len(g.t.box.board.mausoleum.grid)
    rows = sum(all(grid[r * size + c] for c in range(size)) for r in range(size))
    cols = sum(all(grid[r * size + c] for r in range(size)) for c in range(size))
    return rows + cols
