"""Solo mode: Li Si, an automaton that plays from a 9-card action deck.

Li Si never makes a decision: his action cards decide, in priority order, and where the rules
leave a draw to chance (his Alchemist card, his Master Alchemist card) the game's RNG decides.
The one choice the rules give to his opponent, which tiles he validates when he qualifies for
more than he has soldiers waiting, is asked of the opponent's strategy (``lisi_soldier``).
He sits in a 2-player game as an ordinary seat whose pieces live in an ordinary PlayerState
(his Officials stay in his supply and his Unrest stays at 0: he uses neither).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from zsim.components.schema import LiSiAction, ScoringCard
from zsim.rules import effects, mausoleum, pieces
from zsim.rules.common import (
    REGION_NAMES,
    SUIT_NAMES,
    count,
    gain_small_tokens,
)
from zsim.rules.tables import REGION_INDEX, SUIT_INDEX
from zsim.state import NO_ONE, LiSi, PlayerState

if TYPE_CHECKING:
    from zsim.decisions import Table


@dataclass
class LiSiSeat:
    """Engine data, in a seat's place: "Li Si plays here, at this level". He is never asked a
    decision; the engine plays his turns from his action deck."""

    level: int
    name: str = ""  # for the result tables; lisi-LEVEL by default

    description = "the solo-mode automaton at a difficulty level (1-4)"

    def __post_init__(self) -> None:
        self.name = self.name or f"lisi-{self.level}"


# --- setup and the round ----------------------------------------------------------------------


def setup(g: Table, seat: int, level: int) -> None:
    """Prepare Li Si from his card: action deck, turn-order place, Ship, unlocked soldiers."""
    cards = {c.level: c for c in g.t.box.solo.lisi_cards}
    if level not in cards:
        raise ValueError(f"no Li Si card for level {level}; levels: {sorted(cards)}")
    card = cards[level]
    state = g.state
    lisi = LiSi(seat, card)
    g.rng.shuffle(lisi.deck)
    state.lisi = lisi
    p = state.players[seat]
    chosen = g.t.box.solo.alchemists.set
    if chosen != "colour":  # a set of its own instead of his colour's (ruling 27f)
        p.alchemist_supply = list(g.t.alchemist_sets[chosen - 1])
    p.ship = card.ship
    moved = min(card.unlocked_soldiers, p.soldiers)
    p.soldiers -= moved
    p.entrance += moved
    human = [s for s in range(state.n) if s != seat]
    state.turn_order = [seat, *human] if card.turn_position == 1 else [*human, seat]


def end_round(g: Table) -> None:
    """His unused Unification cards leave the game; his discard pile is shuffled back in."""
    state = g.state
    lisi = state.lisi
    state.discard.extend(state.hands[lisi.seat])
    state.hands[lisi.seat].clear()
    lisi.deck.extend(lisi.discard)
    lisi.discard.clear()
    g.rng.shuffle(lisi.deck)


def action_card(g: Table, number: int) -> LiSiAction:
    return next(c for c in g.t.box.solo.action_cards if c.number == number)


def take_turn(g: Table) -> None:
    """Draw the top action card, carry it out, then validate Mausoleum tiles."""
    lisi = g.state.lisi
    p = g.state.players[lisi.seat]
    if not lisi.deck:  # more one-time cards gone than turns left: reuse the discard pile
        lisi.deck, lisi.discard = lisi.discard, []
        g.rng.shuffle(lisi.deck)
    if not lisi.deck:
        return
    number = lisi.deck.pop()
    card = action_card(g, number)
    if g.narrating:
        g.say(f"{g.name(p)} reveals action card {number} ({card.kind}, {card.use})")
    ACTIONS[card.kind](g, p, card)
    (lisi.removed if card.use == "one_time" else lisi.discard).append(number)
    count(p, f"n_lisi_{card.kind}")
    validate(g, p)


# --- the five action kinds ----------------------------------------------------------------------


def unification(g: Table, p: PlayerState, card: LiSiAction) -> None:
    """Tuck the top card of his Unification deck from Chu towards this round's region; with no
    room there, the card goes to the Court for one token of each colour."""
    state, rules = g.state, g.rules
    deck = state.hands[p.seat]
    if not deck:
        return
    number = deck.pop()
    room = [r for r in range(min(state.round, 5))
            if len(p.tableau[r]) < rules.region_card_limit]
    if room:  # he takes no Unrest
        got = pieces.tuck_card(g, p, number, room[0], unrest=False)
        if g.narrating:
            g.say(f"  tucks {g.t.card_name[number]} in {REGION_NAMES[room[0]]}: "
                  f"+{got} {SUIT_NAMES[g.t.card_type[number]]} token(s)")
    else:
        state.court.append(number)
        state.court_free = False
        for suit in range(3):
            gain_small_tokens(g, p, suit, 1)
        if g.narrating:
            g.say(f"  lays {g.t.card_name[number]} at Court for one token of each colour")


def elixir(g: Table, p: PlayerState, card: LiSiAction) -> None:
    """Move the Ship; each Elixir symbol unlocks a soldier or places a random Alchemist card in
    this round's region (a card first while there is room, when a soldier already waits).

    A double symbol resolves twice, one symbol after the other, so with room for one card he
    places the card first and then unlocks a soldier (the solo rules' clarification); with
    every soldier unlocked already, a symbol that would unlock one gives nothing."""
    master = g.t.box.board.elixir.master_alchemist_space
    symbols = g.t.elixir_symbols
    start = p.ship
    p.ship = min(g.t.elixir_end, start + card.steps)
    if g.narrating:
        g.say(f"  moves the Ship {start} -> {p.ship}")
    unlock_only = p.entrance == 0
    region = min(g.state.round, 5) - 1
    for space in range(start + 1, p.ship + 1):
        if space == master and not p.master_taken and g.state.master_available:
            pieces.gain_master(g, p, g.rng.choice(g.state.master_available))
        for _ in range(symbols[space]):
            room = len(p.tableau[region]) < g.rules.region_card_limit
            if unlock_only or not p.alchemist_supply or not room:
                pieces.unlock_soldiers(g, p, 1)
            else:
                pieces.place_alchemist_card(g, p, g.rng.choice(p.alchemist_supply), region)


def governor(g: Table, p: PlayerState, card: LiSiAction) -> None:
    """One or two Governors in the first listed region whose Mausoleum tile lacks his soldier;
    he never takes the bonus of the slot he occupies."""
    regions = [REGION_INDEX[r] for r in card.regions]
    target = _first_open_region(g, p, regions)
    if target is None and card.fallback == "majority":
        target = next((r for r in regions if not _holds_majority(g, p, r)), None)
    if target is None:
        return
    state = g.state
    slots = state.governor_slots[target]
    free = [i for i, (_, holder) in enumerate(slots) if holder == NO_ONE]
    if card.pattern == "two_bonus_right":
        wanted, chosen = 2, list(reversed(free))[:2]
    elif card.pattern == "first_bonus_left":
        wanted, chosen = 1, free[:1]
    else:
        wanted, chosen = 1, []
    placed = min(wanted, p.governors)
    for k in range(placed):
        if k < len(chosen):
            pieces.take_governor_slot(g, p, target, chosen[k])
        pieces.place_governor(g, p, target)
    if g.narrating:
        g.say(f"  installs {placed} Governor(s) in {REGION_NAMES[target]}")


def palace(g: Table, p: PlayerState, card: LiSiAction) -> None:
    """A Palace in the first listed region whose Mausoleum tile lacks his soldier: 6 VP, a large
    token in the card's order, and the region's Palace tile kept for the end when called for."""
    if not p.palaces:
        return
    regions = [REGION_INDEX[r] for r in card.regions]
    target = _first_open_region(g, p, regions)
    if target is None and card.fallback == "first_region":
        target = regions[0]
    if target is None:
        return
    state = g.state
    pieces.place_palace(g, p, target)
    suit = next((s for s in (SUIT_INDEX[t] for t in card.tokens) if state.large_on_board[s]),
                None)
    if suit is not None:
        pieces.take_large_token(g, p, suit)
    if card.take_tile and state.palace_tiles[target]:
        kind = state.palace_tiles[target].pop(0)
        state.lisi.palace_tiles.append((target, kind))
        g.emit("tile", {"seat": p.seat, "kind": "palace", "index": kind, "region": target})


def wall(g: Table, p: PlayerState, card: LiSiAction) -> None:
    """A Wall at the first listed site whose Mausoleum tile lacks his soldier, in the section the
    arrow points to (the other one if he is there already)."""
    if not p.walls:
        return
    state = g.state
    open_sites = [s - 1 for s in card.sites if not _has_soldier_on(g, p, f"site{s}")]
    order = [0, 1] if card.arrow == "left" else [1, 0]
    per_site = g.t.box.board.wall.sections_per_site
    choices = [site * per_site + k for site in open_sites for k in order]
    if not open_sites and card.fallback == "last_section":
        choices = list(range(len(state.walls)))[::-1]
    for s in choices:
        section = state.walls[s]
        if p.seat in section.slots or NO_ONE not in section.slots:
            continue
        slots = range(len(section.slots))
        ordered = reversed(slots) if card.pattern == "right_emperor" else slots
        slot = next(i for i in ordered if section.slots[i] == NO_ONE)
        pieces.place_wall(g, p, s, slot)
        if card.pattern != "left" and section.emperor_tile != NO_ONE:
            g.emit("tile", {"seat": p.seat, "kind": "emperor", "index": section.emperor_tile,
                            "section": s})
            section.emperor_tile = NO_ONE  # taken out of play
            count(p, "n_emperor_tiles")
        return


ACTIONS: Final = {
    "unification": unification,
    "elixir": elixir,
    "governor": governor,
    "palace": palace,
    "wall": wall,
}


# --- Mausoleum ----------------------------------------------------------------------------------


def _has_soldier_on(g: Table, p: PlayerState, binding: str) -> bool:
    return any(spot.binding == binding and p.seat in spot.slots for spot in g.state.mausoleum)


def _first_open_region(g: Table, p: PlayerState, regions: list[int]) -> int | None:
    return next((r for r in regions if not _has_soldier_on(g, p, REGION_NAMES[r].lower())),
                None)


def _holds_majority(g: Table, p: PlayerState, region: int) -> bool:
    counts = g.state.governor_count[region]
    return counts[p.seat] > max(c for s, c in enumerate(counts) if s != p.seat)


def condition_met(g: Table, p: PlayerState, spot_index: int) -> bool:
    """Whether Li Si meets a spot's condition: the players' own conditions, except those the
    box reads another way for him (``solo.conditions``, ruling 27e: the tiles that count
    Officials or Workers, which he never has, he meets with a Governor or a Palace there)."""
    spot = g.state.mausoleum[spot_index]
    condition = spot.condition
    for reading in g.t.box.solo.conditions:
        if reading.condition == condition:
            condition = reading.met_as
            break
    return mausoleum.CONDITIONS[condition].met(g, p, spot.where)


def validate(g: Table, p: PlayerState) -> None:
    """Place a waiting soldier on every tile whose condition he meets (``condition_met``).
    With more such tiles than soldiers waiting, his opponent chooses which tiles he validates,
    one soldier at a time."""
    spots = [spot for spot in mausoleum.free_spots(g, p) if condition_met(g, p, spot)]
    opponent = next(s for s in range(g.state.n) if s != p.seat)
    while p.entrance and spots:
        if len(spots) <= p.entrance:
            spot = spots[0]
        else:
            spot = g.ask(opponent, "lisi_soldier", spots[:],
                         {"seat": p.seat, "soldiers": p.entrance})
        spots.remove(spot)
        mausoleum.place_soldier(g, p, spot)


# --- Phase 3 ------------------------------------------------------------------------------------


def spend_leftover_tokens(g: Table, p: PlayerState) -> None:
    """With 3+ tokens left (a large one counts as one), unlock as many soldiers as possible:
    large tokens first, then small tokens of the colour he holds most."""
    rules, state = g.rules, g.state
    while p.soldiers and sum(p.tokens) + sum(p.large) >= rules.unlock_cost:
        for _ in range(rules.unlock_cost):
            large = next((s for s in range(3) if p.large[s]), None)
            if large is not None:
                p.large[large] -= 1
                state.large_on_board[large] += 1
            else:
                suit = max(range(3), key=lambda s: p.tokens[s])
                p.tokens[suit] -= 1
                state.supply[suit] += 1
        pieces.unlock_soldiers(g, p, 1)
        count(p, "n_soldiers_bought")
    validate(g, p)


def discard_extra_tokens(g: Table, p: PlayerState) -> None:
    """Over the limit, he returns small tokens of the colour he holds most."""
    while sum(p.tokens) > g.rules.small_token_keep:
        suit = max(range(3), key=lambda s: p.tokens[s])
        p.tokens[suit] -= 1
        g.state.supply[suit] += 1


# --- end-game scoring ---------------------------------------------------------------------------


def scoring_lines(g: Table) -> tuple[ScoringCard, ScoringCard | None, ScoringCard | None]:
    """(Wall card, Governor-line card, Elixir-line card): the top card counts whole, the bottom
    card only for its last line."""
    faces = {c.id: c for c in g.t.box.solo.scoring_cards}
    card = g.state.lisi.card
    top, bottom = faces[card.scoring_top], faces[card.scoring_bottom]
    governor_line = next((c for c in (top, bottom) if c.governor), None)
    elixir_line = next((c for c in (top, bottom) if c.elixir_bonus is not None), None)
    return top, governor_line, elixir_line


def palace_tile_vp(g: Table, p: PlayerState) -> int:
    """The Palace tiles on his board score their VP (Unrest costs do not apply to him)."""
    total = 0
    for region, kind in g.state.lisi.palace_tiles:
        ability = g.t.box.abilities[g.t.box.palace_tiles[kind].ability]
        ctx = effects.Context(region, 0, NO_ONE, "vp_palace_tiles")
        total += effects.steps_vp(g, p, ability.options[0], ctx)
    return total
