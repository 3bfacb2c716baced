"""Listeners that turn a game's events into its result tables and its narration.

The rules only emit events (``Table.emit``); what the result tables hold is decided here, so a
new table is a new listener, and the rules never change for it. A record is a plain tuple of
``RECORD_FIELDS[name]``: a game makes dozens, and a tuple takes a quarter of a dict's time to
make and is turned into columns by a plain zip (``zsim.runner.columns``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from zsim.components.schema import COURT_ACTIONS, REGIONS
from zsim.rules.tables import ALCHEMIST, CARD_TYPES

if TYPE_CHECKING:
    from zsim.decisions import Table

RECORD_FIELDS: Final[dict[str, tuple[str, ...]]] = {
    "walls": ("seat", "section", "tier", "vp", "tile", "face"),
    "rewards": ("round", "aspect", "seat", "reward"),
    "abilities": ("round", "seat", "card", "source", "suit", "trigger", "emperor", "ability",
                  "option", "vp"),
    "tiles": ("round", "seat", "kind", "tile", "region", "section"),
}

# The events the rules emit for the result tables, and what each carries:
#   reward   {seat, aspect, reward}: a Unification reward won
#   ability  {seat, card, option, vp}: a tableau card's ability resolved, and the VP it made
#   tile     {seat, kind, index, region, section}: a Palace, Governor, Emperor or Starting tile
#            taken (index into the box's tiles of that kind)
#   walls    {seat, walls: [(section, tier, vp)]}: a player's Walls scored at the end
#   start    {seat, tile}: the Starting tile a player kept (its id)
#   vp       {seat, category, vp}: VP scored during the game (the end-of-game audit adds them up
#            again and compares them with the score sheet: zsim.invariants.score_audit)
RESULT_EVENTS: Final = ("reward", "ability", "tile", "walls", "start", "vp")


class ResultRecorder:
    """Keeps the long tables' records of one game, the Starting tile each seat kept, and the VP
    each seat scored during the game, by category (its ledger, which the audit checks the score
    sheet against)."""

    __slots__ = ("abilities", "ledger", "rewards", "start_tiles", "tiles", "walls")

    def __init__(self, n: int) -> None:
        self.walls: list[tuple[Any, ...]] = []
        self.rewards: list[tuple[Any, ...]] = []
        self.abilities: list[tuple[Any, ...]] = []
        self.tiles: list[tuple[Any, ...]] = []
        self.start_tiles = [""] * n
        self.ledger: list[dict[str, int]] = [{} for _ in range(n)]

    def __getnewargs__(self) -> tuple[int]:
        """Unpickled through the constructor with these (compiled classes are)."""
        return (len(self.start_tiles),)

    def copy(self) -> ResultRecorder:
        other = ResultRecorder(len(self.start_tiles))
        other.walls = self.walls[:]
        other.rewards = self.rewards[:]
        other.abilities = self.abilities[:]
        other.tiles = self.tiles[:]
        other.start_tiles = self.start_tiles[:]
        other.ledger = [dict(scored) for scored in self.ledger]
        return other

    def event(self, g: Table, kind: str, data: dict[str, Any]) -> None:
        t, state = g.t, g.state
        seat = data["seat"]
        if kind == "reward":
            self.rewards.append((state.round, data["aspect"], seat, data["reward"]))
        elif kind == "ability":
            card = data["card"]
            player = state.players[seat]
            trigger = player.emperor.get(card, t.card_trigger[card])
            source = ("master" if card in t.master_cards else
                      "alchemist" if t.card_type[card] == ALCHEMIST else "card")
            self.abilities.append((
                state.round, seat, t.card_name[card], source, CARD_TYPES[t.card_type[card]],
                COURT_ACTIONS[trigger], card in player.emperor, t.card_ability_id[card],
                data["option"], data["vp"],
            ))
        elif kind == "tile":
            region, section = data.get("region"), data.get("section")
            tile = getattr(t.box, f"{data['kind']}_tiles")[data["index"]]
            self.tiles.append((state.round, seat, data["kind"], tile.id,
                               REGIONS[region] if region is not None else None, section))
        elif kind == "walls":
            box = t.box
            for section, tier, vp in data["walls"]:
                wall = state.walls[section]
                self.walls.append((seat, section, tier, vp, box.wall_tiles[wall.wall_tile].id,
                                   wall.wall_face))
        elif kind == "start":
            self.start_tiles[seat] = data["tile"]
        elif kind == "vp":
            scored = self.ledger[seat]
            category = data["category"]
            scored[category] = scored.get(category, 0) + data["vp"]


class Narration:
    """The narration lines of a game, in order (``say`` events)."""

    __slots__ = ("lines",)

    def __init__(self, lines: list[str] | None = None) -> None:
        self.lines: list[str] = lines if lines is not None else []

    def event(self, g: Table, kind: str, data: dict[str, Any]) -> None:
        self.lines.append(data["line"])
