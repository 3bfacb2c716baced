"""Checks across the files of a box, run once every file is valid on its own: Li Si's cards,
ability references and what each place an ability sits in lacks, enough components for every
player count, one Mausoleum tile per spot, one reward per round."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from zsim.components.files import (
    PLAYER_COUNTS,
    AbilitiesFile,
    AlchemistsFile,
    BoardsFile,
    CardsFile,
    MausoleumFile,
    TilesFile,
)
from zsim.components.reading import KeyPath, Source
from zsim.components.schema import SUITS, Ability, Board, GainTokens, Solo, VpPerRegion


@dataclass(frozen=True)
class Parts:
    """The validated files, each with its source for messages."""

    sources: dict[str, Source]
    board: Board
    abilities: AbilitiesFile
    cards: CardsFile
    alchemists: AlchemistsFile
    tiles: TilesFile
    boards: BoardsFile
    mausoleum: MausoleumFile
    solo: Solo


# Where an ability is used, and what that place lacks: a region ("here"), a colour of its own
# ("own" tokens) or a slot in a region (slot-scaled VP).
_CONTEXTS = {
    "unification_card": ("a Unification card", frozenset()),
    "alchemist_card": ("an Alchemist card", frozenset({"own"})),
    "governor_tile": ("a Governor tile", frozenset({"own", "slot"})),
    "palace_tile": ("a Palace tile", frozenset({"own", "slot"})),
    "starting_tile": ("a Starting tile", frozenset({"here", "own", "slot"})),
    "reward": ("a Unification reward", frozenset({"here", "own", "slot"})),
}
_LACKS = {
    "here": "acts on its own region ('here'), but {what} sits in no region",
    "own": "takes tokens of its 'own' colour, but {what} has no colour",
    "slot": "scores by card slot, but {what} has no slot",
}


def cross_checks(parts: Parts) -> list[str]:
    return [
        *_solo_problems(parts),
        *_reference_problems(parts),
        *_supply_problems(parts),
        *_mausoleum_tile_problems(parts),
        *_emperor_section_problems(parts),
        *_round_problems(parts),
    ]


def _solo_problems(parts: Parts) -> list[str]:
    """Li Si cards must name existing action and scoring cards; numbers must be unique."""
    source, solo = parts.sources["solo.yaml"], parts.solo
    numbers = [card.number for card in solo.action_cards]
    faces = {card.id for card in solo.scoring_cards}
    problems = [
        source.problem(("action_cards",), f"action card number {n} is given twice")
        for n, times in Counter(numbers).items() if times > 1
    ]
    for i, card in enumerate(solo.lisi_cards):
        for j, number in enumerate(card.actions):
            if number not in numbers:
                problems.append(source.problem(("lisi_cards", i, "actions", j),
                                               f"no action card number {number}"))
        for key in ("scoring_top", "scoring_bottom"):
            if getattr(card, key) not in faces:
                problems.append(source.problem(("lisi_cards", i, key),
                                               f"no scoring card {getattr(card, key)!r}"))
    read = Counter(c.condition for c in solo.conditions)
    problems += [source.problem(("conditions",), f"condition {c!r} is read {times} times")
                 for c, times in read.items() if times > 1]
    chosen, sets = solo.alchemists.set, len({a.set for a in parts.alchemists.alchemist_cards})
    if chosen != "colour" and not 1 <= chosen <= sets:
        problems.append(source.problem(("alchemists", "set"),
                                       f"no Alchemist set {chosen} (sets 1-{sets})"))
    return problems


def _references(parts: Parts) -> Iterator[tuple[str, KeyPath, str, str]]:
    """Every ability id named outside abilities.yaml: (file, path, id, context)."""
    for i, card in enumerate(parts.cards.cards):
        yield "cards.yaml", ("cards", i, "ability"), card.ability, "unification_card"
    for field in ("alchemist_cards", "master_alchemists"):
        for i, alch in enumerate(getattr(parts.alchemists, field)):
            yield "alchemists.yaml", (field, i, "ability"), alch.ability, "alchemist_card"
    for i, gov in enumerate(parts.tiles.governor_tiles):
        if gov.ability is not None:
            yield "tiles.yaml", ("governor_tiles", i, "ability"), gov.ability, "governor_tile"
    for i, palace in enumerate(parts.tiles.palace_tiles):
        yield "tiles.yaml", ("palace_tiles", i, "ability"), palace.ability, "palace_tile"
    for i, start in enumerate(parts.tiles.starting_tiles):
        yield "tiles.yaml", ("starting_tiles", i, "ability"), start.ability, "starting_tile"
    for b, board in enumerate(parts.boards.boards):
        for a, aspect in enumerate(board.aspects):
            for r, reward in enumerate(aspect.rewards):
                path = ("boards", b, "aspects", a, "rewards", r)
                yield "unification_boards.yaml", path, reward, "reward"


def _reference_problems(parts: Parts) -> list[str]:
    abilities = parts.abilities.abilities
    problems = []
    for file, path, ability_id, context in _references(parts):
        source = parts.sources[file]
        ability = abilities.get(ability_id)
        if ability is None:
            problems.append(
                source.problem(path, f"ability {ability_id!r} is not defined in abilities.yaml")
            )
            continue
        what, lacks = _CONTEXTS[context]
        for feature in sorted(_features(ability) & lacks):
            text = _LACKS[feature].format(what=what)
            problems.append(source.problem(path, f"ability {ability_id!r} {text}"))
    return problems


def _features(ability: Ability) -> set[str]:
    """Which context-dependent notions an ability relies on."""
    found = set()
    for step in (step for option in ability.options for step in option):
        if "here" in step.model_dump().values():
            found.add("here")
        if isinstance(step, GainTokens) and step.color == "own":
            found.add("own")
        if isinstance(step, VpPerRegion):
            found.add("slot")
    return found


def _supply_problems(parts: Parts) -> list[str]:
    """The box holds enough of each component for the largest player count the rules allow."""
    problems = []
    for file, path, what, have, need_by_players in _supply_needs(parts):
        players, need = max(need_by_players.items(), key=lambda item: (item[1], item[0]))
        if have < need:
            problems.append(parts.sources[file].problem(
                path, f"{have} {what} in the box, but {players} players need {need}"
            ))
    return problems


def _supply_needs(parts: Parts) -> Iterator[tuple[str, KeyPath, str, int, dict[int, int]]]:
    """(file, path, what, how many the box holds, how many each player count needs)."""
    rules, board, tiles = parts.board.rules, parts.board, parts.tiles
    each = {n: n for n in PLAYER_COUNTS}
    draws = rules.rounds * rules.cards_per_suit_per_round
    suits = Counter(card.suit for card in parts.cards.cards)
    for suit in SUITS:
        need = {n: draws * n for n in PLAYER_COUNTS}
        yield "cards.yaml", ("cards",), f"{suit} cards", suits[suit], need
    sets = len({card.set for card in parts.alchemists.alchemist_cards})
    yield "alchemists.yaml", ("alchemist_cards",), "Alchemist sets", sets, each
    masters = len(parts.alchemists.master_alchemists)
    yield "alchemists.yaml", ("master_alchemists",), "Master Alchemist cards", masters, each
    yield "tiles.yaml", ("emperor_tiles",), "Emperor tiles", len(tiles.emperor_tiles), dict(
        rules.emperor_tiles
    )
    sections = {n: board.wall.sites * board.wall.sections_per_site for n in PLAYER_COUNTS}
    yield "tiles.yaml", ("wall_tiles",), "Wall tiles", len(tiles.wall_tiles), sections
    blanks = sum(t.copies for t in tiles.governor_tiles if t.ability is None)
    bonuses = sum(t.copies for t in tiles.governor_tiles if t.ability is not None)
    yield "tiles.yaml", ("governor_tiles",), "blank Governor tiles", blanks, dict(
        rules.governor_blank_tiles
    )
    yield "tiles.yaml", ("governor_tiles",), "Governor tiles with a bonus", bonuses, dict(
        rules.governor_tiles_with_bonus
    )
    palaces = sum(t.copies for t in tiles.palace_tiles)
    spaces = {n: len(board.regions) * k for n, k in rules.palace_spaces.items()}
    yield "tiles.yaml", ("palace_tiles",), "Palace tiles", palaces, spaces
    starting = sum(t.copies for t in tiles.starting_tiles)
    dealt = {n: rules.starting_tiles_dealt * n for n in PLAYER_COUNTS}
    yield "tiles.yaml", ("starting_tiles",), "Starting tiles", starting, dealt


def _mausoleum_tile_problems(parts: Parts) -> list[str]:
    """One tile per grid spot of each kind: regions, Wall sites and the Elixir route."""
    board = parts.board
    spots = Counter(
        "region" if spot in board.regions else "elixir" if spot == "elixir" else "wall"
        for row in board.mausoleum.grid
        for spot in row
    )
    tiles = Counter(tile.kind for tile in parts.mausoleum.tiles)
    source = parts.sources["mausoleum.yaml"]
    return [
        source.problem(("tiles",), f"{tiles[kind]} {kind} tiles for {spots[kind]} {kind} spots")
        for kind in ("region", "wall", "elixir")
        if tiles[kind] != spots[kind]
    ]


def _emperor_section_problems(parts: Parts) -> list[str]:
    """The Emperor tiles' backs: one tile per Wall section, each naming a section that exists
    (setup lays each tile on the section its back names)."""
    wall = parts.board.wall
    sections = wall.sites * wall.sections_per_site
    source = parts.sources["tiles.yaml"]
    tiles = parts.tiles.emperor_tiles
    problems = [source.problem(("emperor_tiles", i, "section"),
                               f"section {tile.section} is not a Wall section (1-{sections})")
                for i, tile in enumerate(tiles) if tile.section > sections]
    for section, times in sorted(Counter(t.section for t in tiles).items()):
        if times > 1:
            problems.append(source.problem(("emperor_tiles",),
                                           f"{times} Emperor tiles name section {section}"))
    if len(tiles) != sections:
        problems.append(source.problem(("emperor_tiles",), f"{len(tiles)} Emperor tiles for "
                                       f"{sections} Wall sections (one per section)"))
    return problems


def _round_problems(parts: Parts) -> list[str]:
    rounds = parts.board.rules.rounds
    source = parts.sources["unification_boards.yaml"]
    return [
        source.problem(
            ("boards", b, "aspects", a, "rewards"),
            f"{len(aspect.rewards)} rewards, but the game has {rounds} rounds",
        )
        for b, board in enumerate(parts.boards.boards)
        for a, aspect in enumerate(board.aspects)
        if len(aspect.rewards) != rounds
    ]
