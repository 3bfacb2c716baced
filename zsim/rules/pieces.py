"""Small verbs that move pieces; shared by Court actions, card effects and rewards.

Each verb assumes its preconditions were checked by whoever offered the option, and asks the
player only the sub-choices the verb itself owns (which tile, which slot, which card).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from zsim.kinds import CARD, SOLDIER, AlchemistCard, ElixirCard
from zsim.rules import queries
from zsim.rules.common import (
    CARD_COUNTERS,
    OFFICIAL_NAMES,
    REGION_NAMES,
    SUIT_NAMES,
    add_vp,
    count,
    gain_small_tokens,
)
from zsim.rules.tables import ACTION_INDEX, ALCHEMIST
from zsim.state import NO_ONE, PlayerState

if TYPE_CHECKING:
    from zsim.decisions import Table

# --- the tableau ---------------------------------------------------------------------------


def tuck_card(g: Table, p: PlayerState, card: int, region: int, unrest: bool = True) -> int:
    """Tuck a Unification card under a region: the tokens of its suit its slot gives (and, for
    a player, the slot's Unrest); the tokens taken (the supply may run short)."""
    rules = g.rules
    slot = len(p.tableau[region])
    p.tableau[region].append(card)
    if unrest:
        p.unrest[region] += rules.unrest_per_slot[slot]
    suit = g.t.card_type[card]
    got = gain_small_tokens(g, p, suit, rules.tokens_per_slot[slot])
    count(p, CARD_COUNTERS[suit])
    return got


# --- the Elixir route ---------------------------------------------------------------------


def move_ship(g: Table, p: PlayerState, steps: int) -> None:
    """Advance the Ship; the Master Alchemist space and every Elixir symbol passed pay out, a
    double symbol twice (ruling 9a).

    On a space with both symbols the Master Alchemist card is taken first, so it can be placed
    by that very Elixir reward.
    """
    master = g.t.box.board.elixir.master_alchemist_space
    symbols = g.t.elixir_symbols
    start = p.ship
    p.ship = min(g.t.elixir_end, start + steps)
    if g.narrating:
        g.say(f"  moves the Ship {start} -> {p.ship}")
    for space in range(start + 1, p.ship + 1):
        if space == master:
            take_master_alchemist(g, p)
        for _ in range(symbols[space]):
            elixir_reward(g, p)


def take_master_alchemist(g: Table, p: PlayerState) -> None:
    available = g.state.master_available
    if p.master_taken or not available:
        return
    gain_master(g, p, g.ask(p.seat, "master", available[:]))


def gain_master(g: Table, p: PlayerState, card: int) -> None:
    """The player takes this Master Alchemist card into their supply (once a game)."""
    g.state.master_available.remove(card)
    p.alchemist_supply.append(card)
    p.master_taken = True
    if g.narrating:
        g.say(f"  takes {g.t.card_name[card]}")


def alchemist_card_options(p: PlayerState, regions: tuple[int, ...]) -> list[AlchemistCard]:
    """Every (card, region) pair for placing a supply Alchemist card in one of ``regions``
    (regions already filtered for room by the caller)."""
    return [AlchemistCard(c, r) for r in regions for c in p.alchemist_supply]


def place_alchemist_card(g: Table, p: PlayerState, card: int, region: int) -> None:
    """An Alchemist card goes into the tableau with no tokens and no Unrest."""
    p.alchemist_supply.remove(card)
    p.tableau[region].append(card)
    count(p, "n_alchemist_cards_placed")
    if g.narrating:
        g.say(f"  places {g.t.card_name[card]} in {REGION_NAMES[region]}")


def elixir_reward(g: Table, p: PlayerState) -> None:
    """At an Elixir symbol: unlock a soldier or place an Alchemist card where an Alchemist is."""
    options: list = [SOLDIER] if p.soldiers else []
    regions = queries.elixir_card_regions(g.rules, p)
    options += [ElixirCard(CARD, c, r) for r in regions for c in p.alchemist_supply]
    if not options:
        return
    choice = g.ask(p.seat, "elixir", options)
    if choice == SOLDIER:
        unlock_soldiers(g, p, 1)
    else:
        place_alchemist_card(g, p, choice.card, choice.region)


def unlock_soldiers(g: Table, p: PlayerState, amount: int) -> int:
    moved = min(amount, p.soldiers)
    p.soldiers -= moved
    p.entrance += moved
    if moved and g.narrating:
        g.say(f"  unlocks {moved} Terracotta Soldier(s)")
    return moved


# --- Palaces and Governors (the verbs that also resolve a tile's ability are in effects) ----


def place_palace(g: Table, p: PlayerState, region: int) -> None:
    """A Palace from the player's supply into the region, and its VP."""
    p.palaces -= 1
    g.state.palace_count[region][p.seat] += 1
    count(p, "n_palaces")
    add_vp(g, p, "vp_palaces", g.rules.palace_vp)
    if g.narrating:
        g.say(f"  builds a Palace in {REGION_NAMES[region]} (+{g.rules.palace_vp} VP)")


def take_large_token(g: Table, p: PlayerState, suit: int) -> None:
    g.state.large_on_board[suit] -= 1
    p.large[suit] += 1
    if g.narrating:
        g.say(f"  takes the large {SUIT_NAMES[suit]} token")


def place_governor(g: Table, p: PlayerState, region: int) -> None:
    """A Governor from the player's supply into the region (its slot is taken apart)."""
    p.governors -= 1
    g.state.governor_count[region][p.seat] += 1
    count(p, "n_governors")


def take_governor_slot(g: Table, p: PlayerState, region: int, slot: int) -> None:
    """The player's Governor covers a bonus slot of the region (and takes its tile)."""
    slots = g.state.governor_slots[region]
    slots[slot][1] = p.seat
    g.emit("tile", {"seat": p.seat, "kind": "governor", "index": slots[slot][0],
                    "region": region})


# --- Walls --------------------------------------------------------------------------------


def place_wall(g: Table, p: PlayerState, section_index: int, slot: int) -> bool:
    """A Wall from the player's supply into a slot; True when it is the section's first (its
    builder is then the section's first builder)."""
    section = g.state.walls[section_index]
    first = all(h == NO_ONE for h in section.slots)
    section.slots[slot] = p.seat
    p.walls -= 1
    count(p, "n_walls")
    if first:
        section.first_builder = p.seat
    if g.narrating:
        g.say(f"  builds a Wall in section {section_index + 1}, slot {slot + 1} "
              f"(tier {section.tiers[slot]})")
    return first


def build_wall(g: Table, p: PlayerState, section_index: int, slot: int) -> None:
    """Place a Wall; the section's first builder, once they have played a Unification action,
    attaches its Emperor tile to a tableau card (an Alchemist card may receive it)."""
    if not place_wall(g, p, section_index, slot):
        return
    section = g.state.walls[section_index]
    if section.emperor_tile == NO_ONE:
        return
    cards = p.tableau_cards()
    targets = [c for c in cards if c not in p.emperor]
    if not targets or not played_unification(g, cards):
        return  # the tile stays on the section, unclaimed for good
    action = g.t.box.emperor_tiles[section.emperor_tile].action
    card = g.ask(p.seat, "emperor", targets, {"action": action, "section": section_index})
    p.emperor[card] = ACTION_INDEX[action]
    g.emit("tile", {"seat": p.seat, "kind": "emperor",
                    "index": section.emperor_tile, "section": section_index})
    section.emperor_tile = NO_ONE
    count(p, "n_emperor_tiles")
    if g.narrating:
        g.say(f"  puts the Emperor tile ({action}) on {g.t.card_name[card]}")


def played_unification(g: Table, cards: list[int]) -> bool:
    """Has a Unification action been played? Only that action tucks a Unification card, so one
    in the tableau says so; Alchemist cards placed there do not."""
    card_type = g.t.card_type
    return any(card_type[c] != ALCHEMIST for c in cards)


# --- officials and workers ----------------------------------------------------------------


def move_official(g: Table, p: PlayerState, t: int, r: int, to: int) -> None:
    """An Official of type ``t`` steps from region ``r`` to region ``to``."""
    p.officials[r][t] -= 1
    p.officials[to][t] += 1
    if g.narrating:
        g.say(f"  moves {OFFICIAL_NAMES[t]} {REGION_NAMES[r]} -> {REGION_NAMES[to]}")


def card_type_counts(g: Table, cards: list[int]) -> list[int]:
    """Cards by type: Writing, Currency, Laws, Alchemist."""
    counts = [0, 0, 0, 0]
    card_type = g.t.card_type
    for c in cards:
        counts[card_type[c]] += 1
    return counts
