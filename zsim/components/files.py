"""The shape of each file of a component box: which file holds which components, as pydantic
models of the whole file (``zsim.components.schema`` has the models of the components)."""

from __future__ import annotations

from pydantic import BaseModel

from zsim.components.schema import (
    Ability,
    AlchemistCard,
    Assumable,
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

PLAYER_COUNTS = (2, 3, 4)


class AbilitiesFile(Assumable):
    abilities: dict[str, Ability]


class CardsFile(Assumable):
    cards: tuple[UnificationCard, ...]


class AlchemistsFile(Assumable):
    alchemist_cards: tuple[AlchemistCard, ...]
    master_alchemists: tuple[MasterAlchemistCard, ...]


class TilesFile(Assumable):
    emperor_tiles: tuple[EmperorTile, ...]
    wall_tiles: tuple[WallTile, ...]
    governor_tiles: tuple[GovernorTile, ...]
    palace_tiles: tuple[PalaceTile, ...]
    starting_tiles: tuple[StartingTile, ...]


class BoardsFile(Assumable):
    boards: tuple[UnificationBoard, ...]


class MausoleumFile(Assumable):
    tiles: tuple[MausoleumTile, ...]


FILES: dict[str, type[BaseModel]] = {
    "board.yaml": Board,
    "abilities.yaml": AbilitiesFile,
    "cards.yaml": CardsFile,
    "alchemists.yaml": AlchemistsFile,
    "tiles.yaml": TilesFile,
    "unification_boards.yaml": BoardsFile,
    "mausoleum.yaml": MausoleumFile,
    "solo.yaml": Solo,
}
