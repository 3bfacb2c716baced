"""Load the component box from a directory of YAML files and check it.

Designers edit these files by hand, so one run reports every problem at once, each naming the
file, the key path and the bad value (``cards.yaml: cards[17].trigger: 'hire3' is not a Court
action ...``). Checks come in three layers: YAML syntax and duplicate keys, the pydantic schema of
each file, then facts that span items or files (unique ids, card numbering, ability references,
enough components for every player count). The cross-file layer runs once every file is valid on
its own, because its messages would otherwise only echo the earlier ones.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ValidationError

from zsim.components.box import Box
from zsim.components.overrides import apply as apply_overrides
from zsim.components.schema import (
    COLOURS,
    COURT_ACTIONS,
    OFFICIALS,
    REGIONS,
    SUITS,
    Ability,
    AlchemistCard,
    Assumable,
    Board,
    EmperorTile,
    GainTokens,
    GovernorTile,
    MasterAlchemistCard,
    MausoleumTile,
    PalaceTile,
    Solo,
    StartingTile,
    UnificationBoard,
    UnificationCard,
    VpPerRegion,
    WallTile,
)
from zsim.paths import configs_dir
from zsim.yamlload import LOADER, AliasBomb, check_expansion

PLAYER_COUNTS = (2, 3, 4)
PathKey = str | int
KeyPath = tuple[PathKey, ...]


class BoxError(Exception):
    """The box could not be loaded; ``messages`` lists every problem found."""

    def __init__(self, messages: Sequence[str]) -> None:
        self.messages = list(messages)
        super().__init__("\n".join(self.messages))


# --- the shape of each file ---------------------------------------------------------------


class _AbilitiesFile(Assumable):
    abilities: dict[str, Ability]


class _CardsFile(Assumable):
    cards: tuple[UnificationCard, ...]


class _AlchemistsFile(Assumable):
    alchemist_cards: tuple[AlchemistCard, ...]
    master_alchemists: tuple[MasterAlchemistCard, ...]


class _TilesFile(Assumable):
    emperor_tiles: tuple[EmperorTile, ...]
    wall_tiles: tuple[WallTile, ...]
    governor_tiles: tuple[GovernorTile, ...]
    palace_tiles: tuple[PalaceTile, ...]
    starting_tiles: tuple[StartingTile, ...]


class _BoardsFile(Assumable):
    boards: tuple[UnificationBoard, ...]


class _MausoleumFile(Assumable):
    tiles: tuple[MausoleumTile, ...]


_FILES: dict[str, type[BaseModel]] = {
    "board.yaml": Board,
    "abilities.yaml": _AbilitiesFile,
    "cards.yaml": _CardsFile,
    "alchemists.yaml": _AlchemistsFile,
    "tiles.yaml": _TilesFile,
    "unification_boards.yaml": _BoardsFile,
    "mausoleum.yaml": _MausoleumFile,
    "solo.yaml": Solo,
}

# Closed sets of values that deserve a name in error messages.
_VALUE_NOUNS = {
    frozenset(COURT_ACTIONS): "a Court action",
    frozenset(REGIONS): "a region",
    frozenset(SUITS): "a suit",
    frozenset(OFFICIALS): "an Official type",
}


# --- public entry points ------------------------------------------------------------------


def default_box_dir() -> Path:
    """The box shipped with the package (``zsim.paths``): ``configs/components``."""
    directory = configs_dir("components")
    if directory.is_dir():
        return directory
    raise BoxError([f"no default component box: {directory} does not exist (a broken install: "
                    "reinstall zsim, or pass a components directory explicitly)"])


def load_box(path: str | Path, overrides: Sequence[tuple[str, Any]] = ()) -> Box:
    """Load and validate the box in ``path``; raise :class:`BoxError` listing all problems.

    ``overrides`` are ``(key path, value)`` pairs applied to the YAML before validation (see
    :func:`zsim.components.overrides.apply`), so a variant is checked exactly like an edited file.
    """
    box, problems = _read_box(Path(path), overrides)
    if box is None:
        raise BoxError(problems)
    return box


def check_box(path: str | Path) -> list[str]:
    """Every problem with the box in ``path``; an empty list means it loads."""
    return _read_box(Path(path))[1]


# --- reading one file ---------------------------------------------------------------------


@dataclass(frozen=True)
class _Source:
    """One parsed YAML file, with the line of every key so messages can point into it."""

    name: str
    data: dict[str, Any]
    lines: dict[tuple[str, ...], int]

    def problem(self, path: KeyPath, text: str) -> str:
        """A message naming this file, the key path and (when known) its line."""
        where = f"{_format_path(path)}: " if path else ""
        line = self._line(path)
        suffix = f" (line {line})" if line else ""
        return f"{self.name}: {where}{text}{suffix}"

    def _line(self, path: KeyPath) -> int | None:
        key = tuple(str(part) for part in path)
        while key:
            if key in self.lines:
                return self.lines[key]
            key = key[:-1]
        return None


def _format_path(path: KeyPath) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _read_yaml(path: Path) -> tuple[_Source | None, list[str]]:
    """Parse one file; report a missing file, a syntax error or a top level that is no mapping."""
    name = path.name
    if not path.is_file():
        return None, [f"{name}: file is missing from {path.parent}"]
    text = path.read_text(encoding="utf-8")
    loader = LOADER(text)
    try:  # one parse: the node tree gives the lines, and the data is built from it
        root = loader.get_single_node()
        check_expansion(root)
        data = None if root is None else loader.construct_document(root)
    except AliasBomb as exc:
        return None, [f"{name}: {exc}"]
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        at = f"line {mark.line + 1}: " if mark else ""
        return None, [f"{name}: {at}YAML syntax error: {exc.problem or exc.context}"]
    except yaml.YAMLError as exc:
        return None, [f"{name}: YAML syntax error: {exc}"]
    finally:
        loader.dispose()
    if not isinstance(data, dict):
        found = "an empty file" if data is None else f"a {type(data).__name__}"
        return None, [f"{name}: expected a mapping of keys at the top level, found {found}"]
    lines: dict[tuple[str, ...], int] = {}
    duplicates: list[tuple[KeyPath, int]] = []
    _index_lines(root, (), lines, duplicates)
    source = _Source(name, data, lines)
    problems = [
        source.problem(p, f"duplicate key (first given on line {first})") for p, first in duplicates
    ]
    return source, problems


def _index_lines(
    node: yaml.Node, path: KeyPath, lines: dict[tuple[str, ...], int],
    duplicates: list[tuple[KeyPath, int]],
) -> None:
    """Record the line of every key and list item, and every key given twice in one mapping
    (``yaml.safe_load`` would silently keep the last one)."""
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            child = (*path, str(key_node.value))
            key = tuple(str(part) for part in child)
            if key in lines:
                duplicates.append((child, lines[key]))
            else:
                lines[key] = key_node.start_mark.line + 1
            _index_lines(value_node, child, lines, duplicates)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            child = (*path, index)
            lines[tuple(str(part) for part in child)] = item.start_mark.line + 1
            _index_lines(item, child, lines, duplicates)


# --- schema validation and its messages -----------------------------------------------------


def _validate(source: _Source, model: type[BaseModel]) -> tuple[Any, list[str]]:
    """Validate one file against its model; return the model (or None) and the messages."""
    data = source.data if model is Board else _inherit_assumption(source.data)
    try:
        return model.model_validate(data), []
    except ValidationError as exc:
        return None, _messages(source, data, exc, model)


def _inherit_assumption(data: dict[str, Any]) -> dict[str, Any]:
    """A file marked ``assumed`` as a whole marks each of its items, so every assumed item can be
    counted and listed; an item may still say ``assumed: false`` or give its own reason."""
    reason = data.get("reason")
    if data.get("assumed") is not True or not reason:
        return data

    def mark(item: Any) -> Any:
        return {"assumed": True, "reason": reason, **item} if isinstance(item, dict) else item

    out = dict(data)
    for key, value in data.items():
        if isinstance(value, list):
            out[key] = [mark(item) for item in value]
        elif isinstance(value, dict):
            out[key] = {k: mark(item) for k, item in value.items()}
    return out


def _messages(
    source: _Source, data: Any, exc: ValidationError, model: type[BaseModel]
) -> list[str]:
    """Turn pydantic errors into one message per key path.

    pydantic reports a union field once per member (``where`` is a region, or ``here``, or
    ``any``), so errors at the same path are merged, and an error whose path is a prefix of a
    deeper one is dropped as the less specific of the two.
    """
    located = [(_data_path(data, error), error) for error in exc.errors()]
    paths = [path for path, _ in located]
    groups: dict[KeyPath, list[Any]] = {}
    for path, error in located:
        if not any(len(other) > len(path) and other[: len(path)] == path for other in paths):
            groups.setdefault(path, []).append(error)
    messages = []
    for path, errors in groups.items():
        text = _describe(errors)
        if len(path) == 1 and errors[0]["type"] == "extra_forbidden":
            text += f" (expected: {', '.join(model.model_fields)})"
        messages.append(source.problem(path, text))
    return messages


def _data_path(data: Any, error: Any) -> KeyPath:
    """The part of pydantic's ``loc`` that names real keys and indexes of the input: union member
    tags such as ``literal['any']`` or an effect name are skipped by walking the data itself."""
    loc = error["loc"]
    path: list[PathKey] = []
    node = data
    for position, part in enumerate(loc):
        if _holds(node, part):
            node = node[part]
        elif position == len(loc) - 1 and error["type"] == "missing":
            node = None
        else:
            continue
        path.append(part)
    return tuple(path)


def _holds(node: Any, part: PathKey) -> bool:
    if isinstance(node, dict):
        return part in node
    return isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node)


def _describe(errors: list[Any]) -> str:
    """Plain words for the errors found at one path."""
    if all(error["type"] == "literal_error" for error in errors):
        allowed = [v for error in errors for v in _split_expected(error["ctx"]["expected"])]
        return _not_one_of(errors[0]["input"], allowed)
    return "; ".join(dict.fromkeys(_describe_one(error) for error in errors))


def _split_expected(expected: str) -> list[str]:
    """pydantic writes allowed values as ``'a', 'b' or 'c'``; return ``[a, b, c]``."""
    return [part.strip("'") for part in re.split(r", | or ", expected)]


def _not_one_of(value: Any, allowed: list[str]) -> str:
    listed = ", ".join(allowed)
    noun = _VALUE_NOUNS.get(frozenset(allowed))
    if noun:
        return f"{_show(value)} is not {noun} (one of {listed})"
    return f"{_show(value)} is not one of {listed}"


def _describe_one(error: Any) -> str:
    kind, ctx = error["type"], error.get("ctx") or {}
    if kind == "missing":
        return "required key is missing"
    if kind == "extra_forbidden":
        return "unknown key"
    if kind == "union_tag_invalid":
        allowed = ", ".join(_split_expected(ctx["expected_tags"]))
        return f"{_show(ctx['tag'])} is not a known effect kind (one of {allowed})"
    if kind == "union_tag_not_found":
        return f"needs an {ctx['discriminator']} key"
    if kind == "value_error":
        return error["msg"].removeprefix("Value error, ")
    return f"{error['msg']} (got {_show(error['input'])})"


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


# --- checks within one file ---------------------------------------------------------------


def _file_checks(source: _Source, model: BaseModel) -> list[str]:
    """Checks that need only this file: unique ids, and the file's own consistency."""
    problems = _duplicate_ids(source, model)
    if isinstance(model, Board):
        problems += _board_problems(source, model)
    elif isinstance(model, _CardsFile):
        problems += _card_number_problems(source, model.cards)
    elif isinstance(model, _AlchemistsFile):
        problems += _alchemist_set_problems(source, model.alchemist_cards)
    return problems


def _duplicate_ids(source: _Source, model: BaseModel) -> list[str]:
    """An id names one component in the whole file (copies are counted by ``copies``)."""
    seen: dict[str, KeyPath] = {}
    problems = []
    for field in type(model).model_fields:
        items = getattr(model, field)
        if not isinstance(items, tuple):
            continue
        for index, item in enumerate(items):
            item_id = getattr(item, "id", None)
            if item_id is None:
                continue
            if item_id in seen:
                first = _format_path(seen[item_id])
                problems.append(
                    source.problem((field, index, "id"), f"{item_id!r} is also used at {first}")
                )
            else:
                seen[item_id] = (field, index, "id")
    return problems


def _card_number_problems(source: _Source, cards: tuple[UnificationCard, ...]) -> list[str]:
    """Numbers run 1..N with each suit on its own block, in the order writing, currency, laws;
    the block sizes come from how many cards of each suit the file holds."""
    sizes = Counter(card.suit for card in cards)
    ranges, start = {}, 1
    for suit in SUITS:
        ranges[suit] = (start, start + sizes[suit] - 1)
        start += sizes[suit]
    problems = []
    first_index: dict[int, int] = {}
    for index, card in enumerate(cards):
        low, high = ranges[card.suit]
        if card.number in first_index:
            problems.append(source.problem(
                ("cards", index, "number"),
                f"number {card.number} is also used by cards[{first_index[card.number]}]",
            ))
        elif not low <= card.number <= high:
            problems.append(source.problem(
                ("cards", index, "number"),
                f"{card.number} is outside the {card.suit} range {low}-{high}",
            ))
        first_index.setdefault(card.number, index)
    return problems


def _alchemist_set_problems(source: _Source, cards: tuple[AlchemistCard, ...]) -> list[str]:
    """One set per player colour (set k is the k-th colour's, and colours are dealt to the
    players at random), so they are numbered 1..k and all the same size."""
    sizes = Counter(card.set for card in cards)
    problems = []
    wanted = list(range(1, len(COLOURS) + 1))
    if sorted(sizes) != wanted:
        problems.append(source.problem(
            ("alchemist_cards",), f"sets must be numbered {wanted[0]}..{wanted[-1]}, one per "
            f"player colour ({', '.join(COLOURS)}), found {sorted(sizes)}"
        ))
    if len(set(sizes.values())) > 1:
        listed = ", ".join(f"set {s}: {n}" for s, n in sorted(sizes.items()))
        problems.append(
            source.problem(("alchemist_cards",), f"sets differ in size ({listed})")
        )
    return problems


def _board_problems(source: _Source, board: Board) -> list[str]:
    """The board's own tables must agree with each other and cover every player count."""
    problems = []
    if len(set(board.regions)) != len(board.regions):
        problems.append(source.problem(("regions",), "a region is listed twice"))
    problems += _player_count_tables(source, board)
    problems += _wall_problems(source, board)
    problems += _elixir_problems(source, board)
    problems += _mausoleum_grid_problems(source, board)
    problems += _rule_bound_problems(source, board.rules)
    rules = board.rules
    if not rules.region_card_limit == len(rules.tokens_per_slot) == len(rules.unrest_per_slot):
        problems.append(source.problem(
            ("rules", "region_card_limit"),
            "must equal the number of entries in tokens_per_slot and unrest_per_slot",
        ))
    for n in PLAYER_COUNTS:
        tiles = rules.governor_blank_tiles.get(n, 0) + rules.governor_tiles_with_bonus.get(n, 0)
        slots = len(board.regions) * rules.governor_bonus_slots.get(n, 0)
        if tiles != slots:
            problems.append(source.problem(
                ("rules", "governor_bonus_slots", n),
                f"{n} players lay out {tiles} Governor tiles but have {slots} bonus slots",
            ))
    return problems


# The least value of each rule that the engine counts or indexes with: a supply cannot be
# negative, a player keeps one of the Starting tiles dealt, a large token is worth at least one
# small one (tokens are counted in its units).
_RULE_MINIMUMS = {
    "hire_workers": 0, "hire_unrest": 0, "palace_workers_here": 0,
    "palace_workers_elsewhere": 0, "elixir_steps": 0, "small_token_keep": 0,
    "large_token_value": 1, "unlock_cost": 0, "officials_per_type": 0, "governors": 0,
    "palaces": 0, "walls": 0, "soldiers": 0, "soldiers_unlocked_at_start": 0,
    "starting_tiles_dealt": 1, "small_tokens": 0, "palace_spaces": 0,
    "governor_bonus_slots": 0, "governor_tiles_with_bonus": 0, "governor_blank_tiles": 0,
    "emperor_tiles": 0, "tokens_per_slot": 0, "unrest_per_slot": 0,
}


def _rule_bound_problems(source: _Source, rules: Any) -> list[str]:
    """Bounds of the rules' numbers, alone and against each other, checked after any variant:
    a value out of them would play games that index past a table or count pieces that do not
    exist, and tables that say so."""
    problems = []
    for field, least in _RULE_MINIMUMS.items():
        value = getattr(rules, field)
        items = (value.items() if isinstance(value, dict) else enumerate(value)
                 if isinstance(value, tuple) else [(None, value)])
        for key, number in items:
            if number < least:
                path = ("rules", field) if key is None else ("rules", field, key)
                problems.append(source.problem(path, f"must be at least {least}, got {number}"))
    if rules.soldiers_unlocked_at_start > rules.soldiers:
        problems.append(source.problem(
            ("rules", "soldiers"),
            f"{rules.soldiers} soldiers per player, fewer than the "
            f"{rules.soldiers_unlocked_at_start} unlocked at the start "
            f"(rules.soldiers_unlocked_at_start); it must be at least that"))
    if not rules.extra_soldier_vp:
        problems.append(source.problem(("rules", "extra_soldier_vp"),
                                       "needs at least one value (for 0 soldiers left)"))
    return problems


def _player_count_tables(source: _Source, board: Board) -> list[str]:
    tables: dict[KeyPath, dict[int, Any]] = {("wall", "tiers"): dict(board.wall.tiers)}
    for field, value in board.rules:
        if isinstance(value, dict):
            tables[("rules", field)] = dict(value)
    return [
        source.problem(path, f"needs a value for {n} players")
        for path, table in tables.items()
        for n in PLAYER_COUNTS
        if n not in table
    ]


def _wall_problems(source: _Source, board: Board) -> list[str]:
    """A section has one slot per player, and a slot's tier picks one of a Wall tile's three
    values."""
    problems = []
    for n, tiers in board.wall.tiers.items():
        path = ("wall", "tiers", n)
        if len(tiers) != n:
            problems.append(source.problem(path, f"{n} players need {n} slots, found {len(tiers)}"))
        if any(tier not in (1, 2, 3) for tier in tiers):
            problems.append(source.problem(path, "every tier is 1, 2 or 3"))
    sections = board.wall.sites * board.wall.sections_per_site
    for n, count in board.rules.emperor_tiles.items():
        if count > sections:
            problems.append(source.problem(
                ("rules", "emperor_tiles", n), f"{count} tiles for only {sections} Wall sections"
            ))
    return problems


def _elixir_problems(source: _Source, board: Board) -> list[str]:
    last = len(board.elixir.vp) - 1
    spaces = {"elixir_spaces": board.elixir.elixir_spaces,
              "master_alchemist_space": (board.elixir.master_alchemist_space,)}
    return [
        source.problem(("elixir", key), f"space {space} is not on the route (1-{last})")
        for key, values in spaces.items()
        for space in values
        if not 0 < space <= last
    ]


def _mausoleum_grid_problems(source: _Source, board: Board) -> list[str]:
    """Each region, each Wall site and the Elixir route bind exactly one spot of a rectangle."""
    grid = board.mausoleum.grid
    problems = []
    if len({len(row) for row in grid}) > 1:
        problems.append(source.problem(("mausoleum", "grid"), "rows differ in length"))
    expected = Counter(_grid_bindings(board))
    found = Counter(spot for row in grid for spot in row)
    for spot in sorted(set(expected) | set(found)):
        if found[spot] != expected[spot]:
            problems.append(source.problem(
                ("mausoleum", "grid"),
                f"{spot!r} appears {found[spot]} times, expected {expected[spot]}",
            ))
    mausoleum = board.mausoleum
    if len(mausoleum.slot_values) != len(mausoleum.min_players_for_slot):
        problems.append(source.problem(
            ("mausoleum", "min_players_for_slot"), "needs one entry per slot value"
        ))
    return problems


def _grid_bindings(board: Board) -> list[str]:
    sites = [f"site{i}" for i in range(1, board.wall.sites + 1)]
    return [*board.regions, *sites, "elixir"]


# --- checks across files ------------------------------------------------------------------


@dataclass(frozen=True)
class _Parts:
    """The validated files, each with its source for messages."""

    sources: dict[str, _Source]
    board: Board
    abilities: _AbilitiesFile
    cards: _CardsFile
    alchemists: _AlchemistsFile
    tiles: _TilesFile
    boards: _BoardsFile
    mausoleum: _MausoleumFile
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


def _cross_checks(parts: _Parts) -> list[str]:
    return [
        *_solo_problems(parts),
        *_reference_problems(parts),
        *_supply_problems(parts),
        *_mausoleum_tile_problems(parts),
        *_round_problems(parts),
    ]


def _solo_problems(parts: _Parts) -> list[str]:
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
    return problems


def _references(parts: _Parts) -> Iterator[tuple[str, KeyPath, str, str]]:
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


def _reference_problems(parts: _Parts) -> list[str]:
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


def _supply_problems(parts: _Parts) -> list[str]:
    """The box holds enough of each component for the largest player count the rules allow."""
    problems = []
    for file, path, what, have, need_by_players in _supply_needs(parts):
        players, need = max(need_by_players.items(), key=lambda item: (item[1], item[0]))
        if have < need:
            problems.append(parts.sources[file].problem(
                path, f"{have} {what} in the box, but {players} players need {need}"
            ))
    return problems


def _supply_needs(parts: _Parts) -> Iterator[tuple[str, KeyPath, str, int, dict[int, int]]]:
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


def _mausoleum_tile_problems(parts: _Parts) -> list[str]:
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


def _round_problems(parts: _Parts) -> list[str]:
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


# --- the whole box ------------------------------------------------------------------------


def _read_box(directory: Path, overrides: Sequence[tuple[str, Any]] = ()
              ) -> tuple[Box | None, list[str]]:
    """Read every file, collect every problem, and build the Box only when there are none."""
    if not directory.is_dir():
        return None, [f"{directory}: not a directory"]
    problems: list[str] = []
    sources: dict[str, _Source] = {}
    models: dict[str, Any] = {}
    documents: dict[str, dict[str, Any]] = {}
    for name in _FILES:
        source, found = _read_yaml(directory / name)
        problems += found
        if source is not None:
            documents[name] = source.data
            sources[name] = source
    problems += apply_overrides(documents, overrides)
    for name, model in _FILES.items():
        source = sources.pop(name, None)
        if source is None:
            continue
        parsed, found = _validate(source, model)
        problems += found
        if parsed is not None:
            problems += _file_checks(source, parsed)
            sources[name], models[name] = source, parsed
    if problems:
        return None, problems
    parts = _Parts(
        sources, models["board.yaml"], models["abilities.yaml"], models["cards.yaml"],
        models["alchemists.yaml"], models["tiles.yaml"], models["unification_boards.yaml"],
        models["mausoleum.yaml"], models["solo.yaml"],
    )
    problems = _cross_checks(parts)
    if problems:
        return None, problems
    return _assemble(directory, parts), []


def _assemble(directory: Path, parts: _Parts) -> Box:
    tiles = parts.tiles
    return Box(
        source=directory,
        board=parts.board,
        abilities=dict(parts.abilities.abilities),  # a plain dict: the runner pickles the Box
        cards=tuple(sorted(parts.cards.cards, key=lambda card: card.number)),
        alchemist_cards=parts.alchemists.alchemist_cards,
        master_alchemists=parts.alchemists.master_alchemists,
        emperor_tiles=tiles.emperor_tiles,
        wall_tiles=tiles.wall_tiles,
        governor_tiles=tiles.governor_tiles,
        palace_tiles=tiles.palace_tiles,
        starting_tiles=tiles.starting_tiles,
        unification_boards=parts.boards.boards,
        mausoleum_tiles=parts.mausoleum.tiles,
        solo=parts.solo,
    )
