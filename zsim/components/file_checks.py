"""Checks that need one file alone, once it matches its schema: unique ids, card numbering,
Alchemist sets, and the board's own tables agreeing with each other for every player count."""

from __future__ import annotations

from collections import Counter
from typing import Any

from pydantic import BaseModel

from zsim.components.files import PLAYER_COUNTS, AlchemistsFile, CardsFile
from zsim.components.reading import KeyPath, Source, format_path
from zsim.components.schema import COLOURS, SUITS, AlchemistCard, Board, UnificationCard


def file_checks(source: Source, model: BaseModel) -> list[str]:
    """Checks that need only this file: unique ids, and the file's own consistency."""
    problems = _duplicate_ids(source, model)
    if isinstance(model, Board):
        problems += _board_problems(source, model)
    elif isinstance(model, CardsFile):
        problems += _card_number_problems(source, model.cards)
    elif isinstance(model, AlchemistsFile):
        problems += _alchemist_set_problems(source, model.alchemist_cards)
    return problems


def _duplicate_ids(source: Source, model: BaseModel) -> list[str]:
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
                first = format_path(seen[item_id])
                problems.append(
                    source.problem((field, index, "id"), f"{item_id!r} is also used at {first}")
                )
            else:
                seen[item_id] = (field, index, "id")
    return problems


def _card_number_problems(source: Source, cards: tuple[UnificationCard, ...]) -> list[str]:
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


def _alchemist_set_problems(source: Source, cards: tuple[AlchemistCard, ...]) -> list[str]:
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


def _board_problems(source: Source, board: Board) -> list[str]:
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
# small one (tokens are counted in its units). A Hire brings, the Elixir action moves and an
# unlock costs at least one: the players' estimates divide by these (a 0 failed every game).
_RULE_MINIMUMS = {
    "hire_workers": 1, "hire_unrest": 0, "palace_workers_here": 0,
    "palace_workers_elsewhere": 0, "elixir_steps": 1, "small_token_keep": 0,
    "large_token_value": 1, "unlock_cost": 1, "officials_per_type": 0, "governors": 0,
    "palaces": 0, "walls": 0, "soldiers": 0, "soldiers_unlocked_at_start": 0,
    "starting_tiles_dealt": 1, "small_tokens": 0, "palace_spaces": 0,
    "governor_bonus_slots": 0, "governor_tiles_with_bonus": 0, "governor_blank_tiles": 0,
    "emperor_tiles": 0, "tokens_per_slot": 0, "unrest_per_slot": 0,
}


def _rule_bound_problems(source: Source, rules: Any) -> list[str]:
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


def _player_count_tables(source: Source, board: Board) -> list[str]:
    tables: dict[KeyPath, dict[int, Any]] = {("wall", "tiers"): dict(board.wall.tiers)}
    for field, value in board.rules:
        if isinstance(value, dict) and field != "assumed":
            tables[("rules", field)] = dict(value)
    return [
        source.problem(path, f"needs a value for {n} players")
        for path, table in tables.items()
        for n in PLAYER_COUNTS
        if n not in table
    ]


def _wall_problems(source: Source, board: Board) -> list[str]:
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


def _elixir_problems(source: Source, board: Board) -> list[str]:
    last = len(board.elixir.vp) - 1
    spaces = {"elixir_spaces": board.elixir.elixir_spaces,
              "master_alchemist_space": (board.elixir.master_alchemist_space,)}
    return [
        source.problem(("elixir", key), f"space {space} is not on the route (1-{last})")
        for key, values in spaces.items()
        for space in values
        if not 0 < space <= last
    ]


def _mausoleum_grid_problems(source: Source, board: Board) -> list[str]:
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
