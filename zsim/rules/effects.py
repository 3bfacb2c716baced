"""One small function per effect kind, plus the resolver that runs an ability's steps.

Two ways of checking whether an alternative may be chosen:
- card abilities and bonuses (``full=False``) resolve as far as they can; only their Unrest costs
  must fit under the cap, and an alternative that moves the Ship needs a Ship short of the last
  space;
- Unification rewards (``full=True``) must, besides, be performable in full, step by step.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from zsim.components.schema import Ability
from zsim.kinds import AREA, WORKER_MOVES, WallSlot
from zsim.rules import mausoleum, pieces, queries
from zsim.rules.common import (
    OFFICIAL_NAMES,
    REGION_NAMES,
    SUIT_NAMES,
    add_vp,
    ask_until_stop,
    gain_small_tokens,
)
from zsim.rules.tables import ADJACENT, ALCHEMIST, OFFICIAL_INDEX, REGION_INDEX, SUIT_INDEX
from zsim.state import NO_ONE, PlayerState

if TYPE_CHECKING:
    from zsim.decisions import Table

ALL_REGIONS = (0, 1, 2, 3, 4)


class Context:
    """Where an ability sits: its region ('here'), its card's slot (0..2), its card's suit (for
    'own' tokens) and the VP category its points go to."""

    __slots__ = ("category", "here", "slot", "suit")

    def __init__(self, here: int, slot: int, suit: int, category: str) -> None:
        self.here = here
        self.slot = slot
        self.suit = suit
        self.category = category


def _region(where: str, ctx: Context) -> int:
    return ctx.here if where == "here" else REGION_INDEX[where]


def feasible_options(g: Table, p: PlayerState, ability: Ability, ctx: Context,
                     full: bool) -> list[int]:
    """Indices of the ability's alternatives that may be chosen now (``queries.feasible_options``
    and, for ``full``, performable in full)."""
    options = queries.feasible_options(g.t, g.rules, p, ability, ctx.here)
    if not full:
        return options
    return [i for i in options if performable(g, p, ability.options[i])]


def resolve_steps(g: Table, p: PlayerState, steps: tuple, ctx: Context) -> None:
    for e in steps:
        EFFECTS[e.effect](g, p, e, ctx)


# --- full-performance checks (Unification rewards) ----------------------------------------


def performable(g: Table, p: PlayerState, steps: tuple) -> bool:
    """Can every step be carried out in full? Soldiers unlocked by an earlier step count; an
    "up to" step can always be, with fewer or none."""
    unlocked = 0
    for e in steps:
        kind = e.effect
        if kind == "recruit":
            have = sum(p.official_supply) if e.official == "any" else (
                p.official_supply[OFFICIAL_INDEX[e.official]])
            if have < e.count:
                return False
        elif kind == "unlock_soldiers":
            if p.soldiers < e.count:
                return False
            unlocked += e.count
        elif kind == "place_soldier_free":
            if p.entrance + unlocked < 1 or not mausoleum.free_spots(g, p):
                return False
        elif kind == "place_alchemist_cards" and not e.up_to:
            if len(p.alchemist_supply) < e.count or not _alchemist_regions(g, p, e.where):
                return False
        elif kind == "install_governor_free":
            if not p.governors:
                return False
        elif kind == "build_palace_free":
            if not p.palaces:
                return False
        elif kind == "build_wall_free":
            if not queries.wall_slots(g.state, p, free=True, first=True):
                return False
        elif kind == "gain_tokens":
            supply = g.state.supply
            have = sum(supply) if e.color in ("any", "own") else supply[SUIT_INDEX[e.color]]
            if have < e.count:
                return False
        elif (kind == "reduce_unrest" and e.where == "any"
              and sum(1 for u in p.unrest if u) < e.regions):
            return False
    return True


def _alchemist_regions(g: Table, p: PlayerState, where: str) -> tuple[int, ...]:
    candidates: tuple[int, ...]
    if where == "any":
        candidates = ALL_REGIONS
    elif where == "alchemist_official":
        candidates = tuple(r for r in ALL_REGIONS if p.officials[r][0])
    else:
        candidates = (REGION_INDEX[where],)
    return queries.with_room(g.rules, p, candidates)


# --- the effects ----------------------------------------------------------------------------


def recruit(g: Table, p: PlayerState, e: Any, ctx: Context) -> None:
    supply = p.official_supply
    fixed = NO_ONE if e.official == "any" else OFFICIAL_INDEX[e.official]
    if not (supply[fixed] if fixed != NO_ONE else sum(supply)):
        return
    if e.where == "any":
        region = g.ask(p.seat, "region", list(ALL_REGIONS),
                       {"effect": "recruit", "official": e.official, "count": e.count})
    else:
        region = _region(e.where, ctx)
    for _ in range(e.count):
        if fixed == NO_ONE:
            types = [t for t in range(3) if supply[t]]
            if not types:
                break
            t = g.ask(p.seat, "official", types, {"region": region})
        else:
            if not supply[fixed]:
                break
            t = fixed
        supply[t] -= 1
        p.officials[region][t] += 1
        if g.narrating:
            g.say(f"  recruits {OFFICIAL_NAMES[t]} in {REGION_NAMES[region]}")


def hire(g: Table, p: PlayerState, e: Any, ctx: Context) -> None:
    if e.where == "any":
        region = g.ask(p.seat, "region", list(ALL_REGIONS), {"effect": "hire", "count": e.count})
    else:
        region = _region(e.where, ctx)
    p.workers[region] += e.count
    if g.narrating:
        g.say(f"  hires {e.count} Worker(s) in {REGION_NAMES[region]}")


def raise_unrest(g: Table, p: PlayerState, e: Any, ctx: Context) -> None:
    region = _region(e.where, ctx)
    p.unrest[region] += e.amount
    if g.narrating:
        g.say(f"  Unrest in {REGION_NAMES[region]} rises to {p.unrest[region]}")


def reduce_unrest(g: Table, p: PlayerState, e: Any, ctx: Context) -> None:
    if e.where == "here":
        p.unrest[ctx.here] = max(0, p.unrest[ctx.here] - e.amount)
        return
    chosen: list[int] = []
    for _ in range(e.regions):
        options = [r for r in ALL_REGIONS if p.unrest[r] and r not in chosen]
        if not options:
            return
        region = g.ask(p.seat, "region", options, {"effect": "reduce_unrest"})
        chosen.append(region)
        p.unrest[region] = max(0, p.unrest[region] - e.amount)
        if g.narrating:
            g.say(f"  calms {REGION_NAMES[region]} to Unrest {p.unrest[region]}")


def reset_unrest(g: Table, p: PlayerState, e: Any, ctx: Context) -> None:
    def reset(region: int) -> None:
        p.unrest[region] = 0

    ask_until_stop(g, p.seat, "reset_unrest", lambda: [r for r in ALL_REGIONS if p.unrest[r]],
                   reset, e.regions)


def ship(g: Table, p: PlayerState, e: Any, ctx: Context) -> None:
    pieces.move_ship(g, p, e.steps)


def move_officials(g: Table, p: PlayerState, e: Any, ctx: Context) -> None:
    ask_until_stop(g, p.seat, "move_official", lambda: queries.official_moves(p),
                   lambda move: pieces.move_official(g, p, *move), e.count)


def move_workers(g: Table, p: PlayerState, e: Any, ctx: Context) -> None:
    def move(option: Any) -> None:
        p.workers[option.source] -= 1
        p.workers[option.target] += 1

    ask_until_stop(g, p.seat, "move_worker", lambda: [
        WORKER_MOVES[r][to] for r in ALL_REGIONS if p.workers[r] for to in ADJACENT[r]],
        move, e.count)


def gain_tokens(g: Table, p: PlayerState, e: Any, ctx: Context) -> None:
    supply = g.state.supply
    for _ in range(e.count):
        if e.color == "any":
            suits = [s for s in range(3) if supply[s]]
            if not suits:
                return
            suit = g.ask(p.seat, "token", suits)
        else:
            suit = ctx.suit if e.color == "own" else SUIT_INDEX[e.color]
        if gain_small_tokens(g, p, suit, 1) and g.narrating:
            g.say(f"  gains a {SUIT_NAMES[suit]} token")


def score(g: Table, p: PlayerState, e: Any, ctx: Context) -> None:
    """Every scoring effect: its current VP value goes to the context's category."""
    vp = effect_vp(g, p, e, ctx)
    add_vp(g, p, ctx.category, vp)
    if g.narrating:
        g.say(f"  scores {vp} VP")


def effect_vp(g: Table, p: PlayerState, e: Any, ctx: Context) -> int:
    """The VP a scoring effect is worth right now (0 for effects that score nothing)."""
    kind = e.effect
    if kind == "vp_per_cards":
        cards = p.tableau[ctx.here] if e.scope == "here" else p.tableau_cards()
        if e.suit == "any":
            return len(cards) * e.per
        wanted = ALCHEMIST if e.suit == "alchemist" else SUIT_INDEX[e.suit]
        card_type = g.t.card_type
        return sum(1 for c in cards if card_type[c] == wanted) * e.per
    if kind == "vp_per_pieces":
        return pieces_on_board(g, p, e.piece) * e.per
    if kind == "vp_per_region":
        n = sum(1 for r in ALL_REGIONS if region_meets(g, p, r, e.condition))
        return n * e.per[ctx.slot]
    if kind == "vp_round":
        return g.state.round
    return 0


def steps_vp(g: Table, p: PlayerState, steps: tuple, ctx: Context) -> int:
    return sum(effect_vp(g, p, e, ctx) for e in steps)


def pieces_on_board(g: Table, p: PlayerState, piece: str) -> int:
    seat, state = p.seat, g.state
    if piece == "governor":
        return sum(row[seat] for row in state.governor_count)
    if piece == "palace":
        return sum(row[seat] for row in state.palace_count)
    if piece == "wall":
        return sum(section.slots.count(seat) for section in state.walls)
    return sum(spot.slots.count(seat) for spot in state.mausoleum)


def region_meets(g: Table, p: PlayerState, r: int, condition: str) -> bool:
    if condition == "palace":
        return g.state.palace_count[r][p.seat] > 0
    if condition == "governor":
        return g.state.governor_count[r][p.seat] > 0
    if condition == "calm":
        return p.unrest[r] == 0
    if condition == "officials_ge_unrest":
        return sum(p.officials[r]) >= p.unrest[r]
    wanted = ALCHEMIST if condition == "alchemist" else SUIT_INDEX[condition]
    card_type = g.t.card_type
    return any(card_type[c] == wanted for c in p.tableau[r])


def unlock_soldiers(g: Table, p: PlayerState, e: Any, ctx: Context) -> None:
    pieces.unlock_soldiers(g, p, e.count)


def place_alchemist_cards(g: Table, p: PlayerState, e: Any, ctx: Context) -> None:
    ask_until_stop(g, p.seat, "place_alchemist",
                   lambda: pieces.alchemist_card_options(p, _alchemist_regions(g, p, e.where)),
                   lambda choice: pieces.place_alchemist_card(g, p, choice.card, choice.region),
                   e.count, stoppable=e.up_to)


def place_soldier_free(g: Table, p: PlayerState, e: Any, ctx: Context) -> None:
    spots = mausoleum.free_spots(g, p)
    if p.entrance and spots:
        mausoleum.place_soldier(g, p, g.ask(p.seat, "soldier", spots, {"free": True}))


def install_governor_free(g: Table, p: PlayerState, e: Any, ctx: Context) -> None:
    if not p.governors:
        return
    regions = ALL_REGIONS if e.regions == "any" else tuple(REGION_INDEX[r] for r in e.regions)
    region = g.ask(p.seat, "governor", list(regions), {"free": True})
    install_governor(g, p, region)


def build_palace_free(g: Table, p: PlayerState, e: Any, ctx: Context) -> None:
    if not p.palaces:
        return
    region = g.ask(p.seat, "palace", list(ALL_REGIONS), {"free": True})
    build_palace(g, p, region, e.large_token)


def build_wall_free(g: Table, p: PlayerState, e: Any, ctx: Context) -> None:
    options = [WallSlot(s, i) for s, i in queries.wall_slots(g.state, p, free=True)]
    if options:
        choice = g.ask(p.seat, "wall", options, {"free": True})
        pieces.build_wall(g, p, choice.section, choice.slot)


EFFECTS: dict[str, Callable[[Table, PlayerState, Any, Context], None]] = {
    "recruit": recruit,
    "hire": hire,
    "raise_unrest": raise_unrest,
    "reduce_unrest": reduce_unrest,
    "reset_unrest": reset_unrest,
    "ship": ship,
    "move_officials": move_officials,
    "move_workers": move_workers,
    "gain_tokens": gain_tokens,
    "vp_per_cards": score,
    "vp_per_pieces": score,
    "vp_per_region": score,
    "vp_round": score,
    "unlock_soldiers": unlock_soldiers,
    "place_alchemist_cards": place_alchemist_cards,
    "place_soldier_free": place_soldier_free,
    "install_governor_free": install_governor_free,
    "build_palace_free": build_palace_free,
    "build_wall_free": build_wall_free,
}


# --- verbs that place a piece and resolve the ability of the tile it takes ------------------


def palace_tile_options(g: Table, p: PlayerState, region: int) -> list[int]:
    """Palace tile kinds in the region that the player may take (a tile's Unrest cost must fit)."""
    abilities = g.t.box.abilities
    tiles = g.t.box.palace_tiles
    return [
        kind for kind in dict.fromkeys(g.state.palace_tiles[region])
        if queries.costs_payable(g.rules, p, abilities[tiles[kind].ability].options[0], region)
    ]


def build_palace(g: Table, p: PlayerState, region: int, large_token: bool) -> None:
    """Place a Palace, score base VP, take a Palace tile (scored at once) and a large token."""
    pieces.place_palace(g, p, region)
    state = g.state
    tiles = palace_tile_options(g, p, region)
    if tiles:
        kind = g.ask(p.seat, "palace_tile", tiles, {"region": region})
        state.palace_tiles[region].remove(kind)
        g.emit("tile", {"seat": p.seat, "kind": "palace", "index": kind, "region": region})
        tile = g.t.box.palace_tiles[kind]
        if g.narrating:
            g.say(f"  takes Palace tile {tile.id}")
        steps = g.t.box.abilities[tile.ability].options[0]
        resolve_steps(g, p, steps, Context(region, 0, NO_ONE, "vp_palace_tiles"))
    if large_token:
        suits = [s for s in range(3) if state.large_on_board[s]]
        if suits:
            pieces.take_large_token(g, p, g.ask(p.seat, "large_token", suits))


def install_governor(g: Table, p: PlayerState, region: int) -> None:
    """Place a Governor (bonus slot or plain area), receive the slot's bonus, then calm the
    region. A player who wants no bonus chooses the area."""
    pieces.place_governor(g, p, region)
    slots = g.state.governor_slots[region]
    options: list = [i for i, (_, holder) in enumerate(slots) if holder == NO_ONE]
    options.append(AREA)
    choice = g.ask(p.seat, "governor_slot", options, {"region": region})
    if g.narrating:
        where = "the Governor area" if choice == AREA else f"bonus slot {choice + 1}"
        g.say(f"  installs a Governor in {REGION_NAMES[region]} ({where})")
    if choice != AREA:
        pieces.take_governor_slot(g, p, region, choice)
        ability_id = g.t.box.governor_tiles[slots[choice][0]].ability
        if ability_id is not None:
            governor_bonus(g, p, region, ability_id)
    p.unrest[region] = 0


def governor_bonus(g: Table, p: PlayerState, region: int, ability_id: str) -> None:
    """A bonus space's bonus is not optional: the owner picks a side that may be chosen now
    (the other one when, say, the Ship can move no more) and it resolves as far as it can."""
    ability = g.t.box.abilities[ability_id]
    ctx = Context(region, 0, NO_ONE, "vp_governor_tiles")
    picks = feasible_options(g, p, ability, ctx, full=False)
    if not picks:
        return
    pick = g.ask(p.seat, "bonus", picks, {"ability": ability_id})
    if g.narrating:
        g.say(f"  Governor bonus: {ability.text}")
    resolve_steps(g, p, ability.options[pick], ctx)
