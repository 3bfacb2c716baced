"""Lookup tables compiled once per box, so the per-decision path indexes tuples, not models."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Final

from zsim.components import Box
from zsim.components.schema import COURT_ACTIONS, OFFICIALS, REGIONS, SUITS, Ability, Rules
from zsim.kinds import (
    ABILITY,
    COURT,
    DISCARD,
    UNIFY,
    Activation,
    Court,
    Discard,
    Unify,
)

ALCHEMIST: Final = 3  # the card type of Alchemist and Master Alchemist cards, after the three suits
CARD_TYPES: Final = (*SUITS, "alchemist")
ACTION_INDEX: Final = {name: i for i, name in enumerate(COURT_ACTIONS)}
REGION_INDEX: Final = {name: i for i, name in enumerate(REGIONS)}
ALL_REGIONS: Final = tuple(range(len(REGIONS)))  # the regions by index
SUIT_INDEX: Final = {name: i for i, name in enumerate(SUITS)}
OFFICIAL_INDEX: Final = {name: i for i, name in enumerate(OFFICIALS)}
# Court actions whose abilities need a lower number than the card below; the others need higher.
LOWER_ACTIONS: Final = frozenset(ACTION_INDEX[a] for a in ("recruit", "elixir", "governor"))
ADJACENT: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(j for j in (i - 1, i + 1) if 0 <= j < len(REGIONS)) for i in range(len(REGIONS))
)


@dataclass(frozen=True)
class Tables:
    """Per-card facts by card id, and the abilities and numbers the rules read."""

    box: Box
    card_type: tuple[int, ...]  # by card id: 0..2 suit, 3 alchemist; index 0 unused
    card_trigger: tuple[int, ...]
    card_ability: tuple[Ability | None, ...]
    card_ability_id: tuple[str, ...]
    card_name: tuple[str, ...]
    alchemist_sets: tuple[tuple[int, ...], ...]
    master_cards: tuple[int, ...]
    mausoleum_slots: tuple[int, ...]  # by player count: slots of each Mausoleum tile in use
    elixir_end: int  # the last space of the Elixir route
    # by space of the route: how many Elixir symbols it carries (a space listed twice in
    # ``elixir_spaces`` carries two, and reaching or passing it resolves the symbol twice)
    elixir_symbols: tuple[int, ...]
    # The options naming a card, made once per box and offered by the rules from here (a
    # lookup is cheaper than a new tuple): [card][region], [card][action] or [card].
    unify_options: tuple[tuple[Unify, ...], ...]
    court_options: tuple[tuple[Court, ...], ...]
    discard_options: tuple[Discard, ...]
    activations: tuple[Activation, ...]

    @property
    def rules(self) -> Rules:
        return self.box.board.rules


@cache
def compile_tables(box: Box) -> Tables:
    """The tables of ``box``, made once per box in a process."""
    return build_tables(box)


def elixir_symbols(box: Box) -> tuple[int, ...]:
    """The number of Elixir symbols on each space of the route (ruling 9a: a space listed
    twice carries a double symbol)."""
    route = box.board.elixir
    return tuple(route.elixir_spaces.count(space) for space in range(len(route.vp)))


def build_tables(box: Box) -> Tables:
    """Number every card: Unification cards keep their printed number, Alchemists follow."""
    top = max(c.number for c in box.cards)
    card_type: list[int] = [0] * (top + 1)
    trigger: list[int] = [0] * (top + 1)
    ability: list[Ability | None] = [None] * (top + 1)
    ability_id: list[str] = [""] * (top + 1)
    name: list[str] = [""] * (top + 1)
    for card in box.cards:
        card_type[card.number] = SUIT_INDEX[card.suit]
        trigger[card.number] = ACTION_INDEX[card.trigger]
        ability[card.number] = box.abilities[card.ability]
        ability_id[card.number] = card.ability
        name[card.number] = f"{card.suit.capitalize()} {card.number}"
    sets: dict[int, list[int]] = {}
    for alchemist in box.alchemist_cards:
        sets.setdefault(alchemist.set, []).append(len(card_type))
        card_type.append(ALCHEMIST)
        trigger.append(ACTION_INDEX[alchemist.trigger])
        ability.append(box.abilities[alchemist.ability])
        ability_id.append(alchemist.ability)
        name.append(f"Alchemist {alchemist.id}")
    masters = []
    for master in box.master_alchemists:
        masters.append(len(card_type))
        card_type.append(ALCHEMIST)
        trigger.append(ACTION_INDEX[master.trigger])
        ability.append(box.abilities[master.ability])
        ability_id.append(master.ability)
        name.append(f"Master Alchemist {master.id}")
    cards = range(len(card_type))
    return Tables(
        box=box,
        card_type=tuple(card_type),
        card_trigger=tuple(trigger),
        card_ability=tuple(ability),
        card_ability_id=tuple(ability_id),
        card_name=tuple(name),
        alchemist_sets=tuple(tuple(sets[k]) for k in sorted(sets)),
        master_cards=tuple(masters),
        mausoleum_slots=tuple(
            sum(1 for need in box.board.mausoleum.min_players_for_slot if n >= need)
            for n in range(5)),
        elixir_end=len(box.board.elixir.vp) - 1,
        elixir_symbols=elixir_symbols(box),
        unify_options=tuple(tuple(Unify(UNIFY, c, r) for r in range(len(REGIONS)))
                            for c in cards),
        court_options=tuple(tuple(Court(COURT, c, a) for a in range(len(COURT_ACTIONS)))
                            for c in cards),
        discard_options=tuple(Discard(DISCARD, c) for c in cards),
        activations=tuple(Activation(ABILITY, c) for c in cards),
    )
