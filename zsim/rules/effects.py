"""One record per effect kind (``EFFECTS``), the small function that resolves each, and the
resolver that runs an ability's steps.

Two ways of checking whether an alternative may be chosen:
- card abilities and bonuses (``full=False``) resolve as far as they can; only their Unrest costs
  must fit under the cap, and an alternative that moves the Ship needs a Ship short of the last
  space;
- Unification rewards (``full=True``) must, besides, be performable in full, step by step.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, ClassVar, Final, get_args

from pydantic import BaseModel

from zsim.components import schema
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
from zsim.rules.tables import (
    ADJACENT,
    ALCHEMIST,
    ALL_REGIONS,
    OFFICIAL_INDEX,
    REGION_INDEX,
    SUIT_INDEX,
)
from zsim.rules.valuer import Rates, Valuer
from zsim.state import NO_ONE, PlayerState

if TYPE_CHECKING:
    from zsim.decisions import Table


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
    return [i for i in options if performable(g, p, ability.options[i], ctx)]


def resolve_steps(g: Table, p: PlayerState, steps: tuple, ctx: Context) -> None:
    for e in steps:
        EFFECTS[e.effect].resolve(g, p, e, ctx)


# --- full-performance checks (Unification rewards) ----------------------------------------


def performable(g: Table, p: PlayerState, steps: tuple, ctx: Context) -> bool:
    """Can every step be carried out in full where ``ctx`` sits (its card's suit for 'own'
    tokens)? Soldiers unlocked by an earlier step count; an "up to" step can always be, with
    fewer or none."""
    unlocked = 0
    for e in steps:
        kind = EFFECTS[e.effect]
        if not kind.performable(g, p, e, unlocked, ctx):
            return False
        unlocked += kind.unlocks(e)
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
    """Up to ``e.count`` Workers each move once, to a region next to their own: a Worker moved
    by this effect is not offered again (``arrived`` counts them by region; Workers are alike,
    so a region offers those it held before)."""
    arrived = [0, 0, 0, 0, 0]

    def move(option: Any) -> None:
        p.workers[option.source] -= 1
        p.workers[option.target] += 1
        arrived[option.target] += 1

    ask_until_stop(g, p.seat, "move_worker", lambda: [
        WORKER_MOVES[r][to] for r in ALL_REGIONS if p.workers[r] > arrived[r]
        for to in ADJACENT[r]], move, e.count)


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
    return EFFECTS[e.effect].vp(g, p, e, ctx)


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


# --- one record per effect kind ----------------------------------------------------------------
#
# Each record is everything the engine and the bots know of one kind: its schema model (the
# parameters a YAML step gives it: ``zsim.components.schema``), how it resolves, what it scores,
# whether it can be performed in full, and how a bot values it, now (``worth``, through the
# bots' estimator, ``zsim.rules.valuer``) and at a flat rate, for an ability that will resolve
# later or elsewhere (``flat``). ``EFFECTS`` names each by its model's ``effect`` value, the name
# the YAML uses; a kind of the schema without a record stops the import.


class EffectKind:
    """The record of one effect kind. ``resolve``, ``worth`` and ``flat`` must be given; a kind
    scores nothing, can always be performed in full and unlocks no soldier unless it says so."""

    model: ClassVar[type[BaseModel]]

    def resolve(self, g: Table, p: PlayerState, e: Any, ctx: Context) -> None:
        raise NotImplementedError

    def vp(self, g: Table, p: PlayerState, e: Any, ctx: Context) -> int:
        """The VP the step scores if it resolves now (``effect_vp``)."""
        return 0

    def performable(self, g: Table, p: PlayerState, e: Any, unlocked: int,
                    ctx: Context) -> bool:
        """Can the step be carried out in full (``unlocked``: soldiers the steps before it
        put at the entrance)? An "up to" step always can, with fewer or none."""
        return True

    def unlocks(self, e: Any) -> int:
        """Soldiers the step puts at the entrance, for the steps after it."""
        return 0

    def worth(self, est: Valuer, e: Any, here: int, slot: int, suit: int) -> float:
        """What resolving the step now is worth to the bot's seat, in weighted VP."""
        raise NotImplementedError

    def flat(self, w: Rates, e: Any, slot: int) -> float:
        """A flat-rate value of the step, without today's state, for the bot's weights."""
        raise NotImplementedError


def _where(e: Any, here: int) -> tuple[int, ...]:
    """The regions a step acting on ``e.where`` may act on (none: 'here' with no region)."""
    if e.where == "any":
        return ALL_REGIONS
    region = here if e.where == "here" else REGION_INDEX[e.where]
    return (region,) if region >= 0 else ()


def _best_of(values: list[float]) -> float:
    best = -math.inf
    for v in values:
        if v > best:
            best = v
    return best


def _largest(values: list[float], k: int) -> float:
    """The sum of the ``k`` largest values."""
    values.sort(reverse=True)
    total = 0.0
    for v in values[:k]:
        total += v
    return total


class Recruit(EffectKind):
    model = schema.Recruit

    def resolve(self, g: Table, p: PlayerState, e: Any, ctx: Context) -> None:
        recruit(g, p, e, ctx)

    def performable(self, g: Table, p: PlayerState, e: Any, unlocked: int,
                    ctx: Context) -> bool:
        supply = p.official_supply
        have = sum(supply) if e.official == "any" else supply[OFFICIAL_INDEX[e.official]]
        return have >= e.count

    def worth(self, est: Valuer, e: Any, here: int, slot: int, suit: int) -> float:
        supply = est.p.official_supply
        kinds = (0, 1, 2) if e.official == "any" else (OFFICIAL_INDEX[e.official],)
        types = [t for t in kinds if supply[t]]
        if not types:
            return 0.0
        n = min(e.count, sum([supply[t] for t in types]))
        best = _best_of([est.official_value(t, r) for t in types for r in _where(e, here)])
        return best * (1 + 0.5 * (n - 1))

    def flat(self, w: Rates, e: Any, slot: int) -> float:
        return w.resources * 1.2 * e.count


class Hire(EffectKind):
    model = schema.Hire

    def resolve(self, g: Table, p: PlayerState, e: Any, ctx: Context) -> None:
        hire(g, p, e, ctx)

    def worth(self, est: Valuer, e: Any, here: int, slot: int, suit: int) -> float:
        return _best_of([est.worker_value(r, e.count) for r in _where(e, here)])

    def flat(self, w: Rates, e: Any, slot: int) -> float:
        return w.resources * 0.8 * e.count


class RaiseUnrest(EffectKind):
    model = schema.RaiseUnrest

    def resolve(self, g: Table, p: PlayerState, e: Any, ctx: Context) -> None:
        raise_unrest(g, p, e, ctx)

    def worth(self, est: Valuer, e: Any, here: int, slot: int, suit: int) -> float:
        return -est.unrest_cost(here if e.where == "here" else REGION_INDEX[e.where], e.amount)

    def flat(self, w: Rates, e: Any, slot: int) -> float:
        return -(w.unrest * 1.0 * e.amount)


class ReduceUnrest(EffectKind):
    model = schema.ReduceUnrest

    def resolve(self, g: Table, p: PlayerState, e: Any, ctx: Context) -> None:
        reduce_unrest(g, p, e, ctx)

    def performable(self, g: Table, p: PlayerState, e: Any, unlocked: int,
                    ctx: Context) -> bool:
        return e.where != "any" or sum([1 for u in p.unrest if u]) >= e.regions

    def worth(self, est: Valuer, e: Any, here: int, slot: int, suit: int) -> float:
        if e.where == "here":
            return est.unrest_relief(here, e.amount)
        return _largest([est.unrest_relief(r, e.amount) for r in ALL_REGIONS], e.regions)

    def flat(self, w: Rates, e: Any, slot: int) -> float:
        return w.unrest * 0.6 * e.amount * e.regions


class ResetUnrest(EffectKind):
    model = schema.ResetUnrest

    def resolve(self, g: Table, p: PlayerState, e: Any, ctx: Context) -> None:
        reset_unrest(g, p, e, ctx)

    def worth(self, est: Valuer, e: Any, here: int, slot: int, suit: int) -> float:
        unrest = est.p.unrest
        return _largest([est.unrest_relief(r, unrest[r]) for r in ALL_REGIONS], e.regions)

    def flat(self, w: Rates, e: Any, slot: int) -> float:
        return w.unrest * 1.0 * e.regions


class Ship(EffectKind):
    model = schema.Ship

    def resolve(self, g: Table, p: PlayerState, e: Any, ctx: Context) -> None:
        ship(g, p, e, ctx)

    def worth(self, est: Valuer, e: Any, here: int, slot: int, suit: int) -> float:
        return est.ship_value(e.steps)

    def flat(self, w: Rates, e: Any, slot: int) -> float:
        return w.elixir * 0.9 * e.steps


class MoveOfficials(EffectKind):
    model = schema.MoveOfficials

    def resolve(self, g: Table, p: PlayerState, e: Any, ctx: Context) -> None:
        move_officials(g, p, e, ctx)

    def worth(self, est: Valuer, e: Any, here: int, slot: int, suit: int) -> float:
        return 0.6 * est.best_official_move() * min(e.count, 2)

    def flat(self, w: Rates, e: Any, slot: int) -> float:
        return w.resources * 0.4 * min(e.count, 2)


class MoveWorkers(EffectKind):
    model = schema.MoveWorkers

    def resolve(self, g: Table, p: PlayerState, e: Any, ctx: Context) -> None:
        move_workers(g, p, e, ctx)

    def worth(self, est: Valuer, e: Any, here: int, slot: int, suit: int) -> float:
        return 0.6 * est.best_worker_move() * min(e.count, 2)

    def flat(self, w: Rates, e: Any, slot: int) -> float:
        return w.resources * 0.4 * min(e.count, 2)


class GainTokens(EffectKind):
    model = schema.GainTokens

    def resolve(self, g: Table, p: PlayerState, e: Any, ctx: Context) -> None:
        gain_tokens(g, p, e, ctx)

    def performable(self, g: Table, p: PlayerState, e: Any, unlocked: int,
                    ctx: Context) -> bool:
        supply = g.state.supply
        if e.color == "any":
            return sum(supply) >= e.count
        suit = ctx.suit if e.color == "own" else SUIT_INDEX[e.color]
        return suit >= 0 and supply[suit] >= e.count

    def worth(self, est: Valuer, e: Any, here: int, slot: int, suit: int) -> float:
        if e.color == "any":
            return est.best_token(1) * e.count
        s = suit if e.color == "own" else SUIT_INDEX[e.color]
        return est.token_gain(s, min(e.count, est.board.supply[s])) if s >= 0 else 0.0

    def flat(self, w: Rates, e: Any, slot: int) -> float:
        return w.rewards * 0.8 * e.count


# Typical end-of-game counts, for scoring steps valued at a flat rate.
TYPICAL_TABLEAU: Final = {"writing": 3.0, "currency": 3.0, "laws": 3.0, "alchemist": 2.0,
                          "any": 9.0}
TYPICAL_HERE: Final = {"writing": 1.0, "currency": 1.0, "laws": 1.0, "alchemist": 1.0, "any": 2.5}
TYPICAL_PIECES: Final = {"governor": 3.0, "palace": 2.5, "wall": 2.5, "mausoleum_soldier": 3.0}
TYPICAL_REGIONS: Final = 2.5


class Scoring(EffectKind):
    """The scoring kinds: each scores its ``vp`` into the context's category at once."""

    def resolve(self, g: Table, p: PlayerState, e: Any, ctx: Context) -> None:
        score(g, p, e, ctx)

    def worth(self, est: Valuer, e: Any, here: int, slot: int, suit: int) -> float:
        return est.scored(e, here, slot, suit)


class VpPerCards(Scoring):
    model = schema.VpPerCards

    def vp(self, g: Table, p: PlayerState, e: Any, ctx: Context) -> int:
        cards = p.tableau[ctx.here] if e.scope == "here" else p.tableau_cards()
        if e.suit == "any":
            return len(cards) * e.per
        wanted = ALCHEMIST if e.suit == "alchemist" else SUIT_INDEX[e.suit]
        card_type = g.t.card_type
        return sum([1 for c in cards if card_type[c] == wanted]) * e.per

    def flat(self, w: Rates, e: Any, slot: int) -> float:
        typical = TYPICAL_HERE if e.scope == "here" else TYPICAL_TABLEAU
        return w.vp * e.per * typical[e.suit]


class VpPerPieces(Scoring):
    model = schema.VpPerPieces

    def vp(self, g: Table, p: PlayerState, e: Any, ctx: Context) -> int:
        return pieces_on_board(g, p, e.piece) * e.per

    def flat(self, w: Rates, e: Any, slot: int) -> float:
        return w.vp * e.per * TYPICAL_PIECES[e.piece]


class VpPerRegion(Scoring):
    model = schema.VpPerRegion

    def vp(self, g: Table, p: PlayerState, e: Any, ctx: Context) -> int:
        n = sum([1 for r in ALL_REGIONS if region_meets(g, p, r, e.condition)])
        return n * e.per[ctx.slot]

    def flat(self, w: Rates, e: Any, slot: int) -> float:
        return w.vp * e.per[slot] * TYPICAL_REGIONS


class VpRound(Scoring):
    model = schema.VpRound

    def vp(self, g: Table, p: PlayerState, e: Any, ctx: Context) -> int:
        return g.state.round

    def flat(self, w: Rates, e: Any, slot: int) -> float:
        return w.vp * 3.0


class UnlockSoldiers(EffectKind):
    model = schema.UnlockSoldiers

    def resolve(self, g: Table, p: PlayerState, e: Any, ctx: Context) -> None:
        unlock_soldiers(g, p, e, ctx)

    def performable(self, g: Table, p: PlayerState, e: Any, unlocked: int,
                    ctx: Context) -> bool:
        return p.soldiers >= e.count

    def unlocks(self, e: Any) -> int:
        return e.count

    def worth(self, est: Valuer, e: Any, here: int, slot: int, suit: int) -> float:
        return min(e.count, est.p.soldiers) * est.soldier_value()

    def flat(self, w: Rates, e: Any, slot: int) -> float:
        return w.mausoleum * 3.0 * e.count


class PlaceAlchemistCards(EffectKind):
    model = schema.PlaceAlchemistCards

    def resolve(self, g: Table, p: PlayerState, e: Any, ctx: Context) -> None:
        place_alchemist_cards(g, p, e, ctx)

    def performable(self, g: Table, p: PlayerState, e: Any, unlocked: int,
                    ctx: Context) -> bool:
        return e.up_to or (len(p.alchemist_supply) >= e.count
                           and bool(_alchemist_regions(g, p, e.where)))

    def worth(self, est: Valuer, e: Any, here: int, slot: int, suit: int) -> float:
        return est.alchemist_cards_value(min(e.count, len(est.p.alchemist_supply)))

    def flat(self, w: Rates, e: Any, slot: int) -> float:
        return w.elixir * 4.0 * e.count


class PlaceSoldierFree(EffectKind):
    model = schema.PlaceSoldierFree

    def resolve(self, g: Table, p: PlayerState, e: Any, ctx: Context) -> None:
        place_soldier_free(g, p, e, ctx)

    def performable(self, g: Table, p: PlayerState, e: Any, unlocked: int,
                    ctx: Context) -> bool:
        return p.entrance + unlocked >= 1 and bool(mausoleum.free_spots(g, p))

    def worth(self, est: Valuer, e: Any, here: int, slot: int, suit: int) -> float:
        return est.best_spot()

    def flat(self, w: Rates, e: Any, slot: int) -> float:
        return w.mausoleum * 6.0


class InstallGovernorFree(EffectKind):
    model = schema.InstallGovernorFree

    def resolve(self, g: Table, p: PlayerState, e: Any, ctx: Context) -> None:
        install_governor_free(g, p, e, ctx)

    def performable(self, g: Table, p: PlayerState, e: Any, unlocked: int,
                    ctx: Context) -> bool:
        return p.governors > 0

    def worth(self, est: Valuer, e: Any, here: int, slot: int, suit: int) -> float:
        if not est.p.governors:
            return 0.0
        where = ALL_REGIONS if e.regions == "any" else tuple(REGION_INDEX[r] for r in e.regions)
        return _best_of([est.governor_value(r, free=True) for r in where])

    def flat(self, w: Rates, e: Any, slot: int) -> float:
        return w.majority * 6.0 + w.governor_bonus * 2.0


class BuildPalaceFree(EffectKind):
    model = schema.BuildPalaceFree

    def resolve(self, g: Table, p: PlayerState, e: Any, ctx: Context) -> None:
        build_palace_free(g, p, e, ctx)

    def performable(self, g: Table, p: PlayerState, e: Any, unlocked: int,
                    ctx: Context) -> bool:
        return p.palaces > 0

    def worth(self, est: Valuer, e: Any, here: int, slot: int, suit: int) -> float:
        if not est.p.palaces:
            return 0.0
        return _best_of([est.palace_value(r, free=True, large=e.large_token)
                         for r in ALL_REGIONS])

    def flat(self, w: Rates, e: Any, slot: int) -> float:
        return w.palaces * 9.0


class BuildWallFree(EffectKind):
    model = schema.BuildWallFree

    def resolve(self, g: Table, p: PlayerState, e: Any, ctx: Context) -> None:
        build_wall_free(g, p, e, ctx)

    def performable(self, g: Table, p: PlayerState, e: Any, unlocked: int,
                    ctx: Context) -> bool:
        return bool(queries.wall_slots(g.state, p, free=True, first=True))

    def worth(self, est: Valuer, e: Any, here: int, slot: int, suit: int) -> float:
        slots = queries.wall_slots(est.board, est.p, free=True)
        return _best_of([est.wall_value(s, i, free=True) for s, i in slots]) if slots else 0.0

    def flat(self, w: Rates, e: Any, slot: int) -> float:
        return w.walls * 6.0


def kind_name(model: type[BaseModel]) -> str:
    """The ``effect`` value an effect model accepts: the name of its kind in the YAML."""
    return str(get_args(model.model_fields["effect"].annotation)[0])


EFFECTS: Final[dict[str, EffectKind]] = {kind_name(kind.model): kind for kind in (
    Recruit(), Hire(), RaiseUnrest(), ReduceUnrest(), ResetUnrest(), Ship(), MoveOfficials(),
    MoveWorkers(), GainTokens(), VpPerCards(), VpPerPieces(), VpPerRegion(), VpRound(),
    UnlockSoldiers(), PlaceAlchemistCards(), PlaceSoldierFree(), InstallGovernorFree(),
    BuildPalaceFree(), BuildWallFree(),
)}


def registry_problems(records: dict[str, EffectKind]) -> list[str]:
    """What keeps ``records`` from being the whole registry: a kind of the schema without a
    record or one without a schema model, and a record that does not say how it resolves or
    how a bot values it."""
    kinds = {kind_name(model) for model in schema.EFFECT_MODELS}
    problems = [f"effect kind {name!r} has no record" for name in sorted(kinds - set(records))]
    problems += [f"record {name!r} has no schema model" for name in sorted(set(records) - kinds)]
    for name, record in sorted(records.items()):
        for method in ("resolve", "worth", "flat"):
            if getattr(type(record), method) is getattr(EffectKind, method):
                problems.append(f"record {name!r} does not say its {method}")
    return problems


if registry_problems(EFFECTS):  # checked at import: a missing record fails every game at once
    raise ImportError("; ".join(registry_problems(EFFECTS)))
