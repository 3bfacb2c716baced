"""The frozen, validated box that the engine reads; nothing in it changes during a game."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from zsim.components.schema import (
    Ability,
    AlchemistCard,
    Board,
    EmperorTile,
    GovernorTile,
    MasterAlchemistCard,
    MausoleumTile,
    PalaceTile,
    Solo,
    StartingTile,
    UnificationBoard,
    UnificationCard,
    WallTile,
)


@dataclass(frozen=True, eq=False)
class Box:
    """All components of one game box, as loaded from a ``configs/components`` directory.

    Compared and hashed by identity, so compiled lookup tables can be cached per box.
    """

    source: Path
    board: Board
    abilities: Mapping[str, Ability]
    cards: tuple[UnificationCard, ...]  # sorted by number
    alchemist_cards: tuple[AlchemistCard, ...]
    master_alchemists: tuple[MasterAlchemistCard, ...]
    emperor_tiles: tuple[EmperorTile, ...]
    wall_tiles: tuple[WallTile, ...]
    governor_tiles: tuple[GovernorTile, ...]  # one entry per kind, with its number of copies
    palace_tiles: tuple[PalaceTile, ...]
    starting_tiles: tuple[StartingTile, ...]
    unification_boards: tuple[UnificationBoard, ...]
    mausoleum_tiles: tuple[MausoleumTile, ...]
    solo: Solo  # Li Si's cards, for the solo mode
    # The (key path, value) overrides applied to the files in ``source`` (a variant such as
    # ``rules.palace_vp=8``): a position or a saved game names them, so that it plays on under
    # the same box (zsim.position).
    overrides: tuple[tuple[str, Any], ...] = ()
