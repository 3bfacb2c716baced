"""What is legal, what it costs, what it counts: the rules' questions as pure functions.

The engine's verbs offer their options from these functions, and the bots' estimates read the
same functions to judge those options, so each rule is written once. They take plain data (the
box's ``Tables``, the ``Rules`` numbers, a ``GameState``, a ``PlayerState``), never the running
game: a strategy calls them on the copy of the table its view hands out (``view.tables``,
``view.board``, ``view.me``), and nothing here changes what it is given.

Where an estimate needs a rule for every case at once (the cards each of the six Court actions
triggers, what every Wall tile kind counts), the bulk form is the definition, and the engine's
single case reads it.
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING, Final

from zsim.kinds import OFFICIAL_MOVES, Activation, OfficialMove
from zsim.rules.tables import ACTION_INDEX, ADJACENT, ALL_REGIONS, LOWER_ACTIONS, REGION_INDEX
from zsim.state import NO_ONE

if TYPE_CHECKING:
    from zsim.components.schema import Ability, Rules, WallScoring
    from zsim.rules.tables import Tables
    from zsim.state import GameState, PlayerState

# the Court actions by index (``COURT_ACTIONS``' order), named once for the hot paths
RECRUIT: Final = ACTION_INDEX["recruit"]
HIRE: Final = ACTION_INDEX["hire"]
ELIXIR: Final = ACTION_INDEX["elixir"]
PALACE: Final = ACTION_INDEX["palace"]
GOVERNOR: Final = ACTION_INDEX["governor"]
WALL: Final = ACTION_INDEX["wall"]


# --- a turn: Unification, the Court actions, which abilities fire ---------------------------


def unify_regions(rules: Rules, p: PlayerState) -> list[int]:
    """Regions that can take one more card without breaking the card limit or the Unrest cap."""
    cap, limit, extra = rules.unrest_cap, rules.region_card_limit, rules.unrest_per_slot
    return [
        r for r in ALL_REGIONS
        if len(p.tableau[r]) < limit and p.unrest[r] + extra[len(p.tableau[r])] <= cap
    ]


# The region queries of the Court actions take ``first=True`` for a mere "is there one?"
# (``court_actions``, every turn): they stop at the first region found.


def hire_regions(rules: Rules, p: PlayerState, first: bool = False) -> list[int]:
    """Regions with a General where the hire's Unrest still fits under the cap."""
    cap = rules.unrest_cap - rules.hire_unrest
    regions = []
    for r in ALL_REGIONS:
        if p.officials[r][2] and p.unrest[r] <= cap:
            regions.append(r)
            if first:
                break
    return regions


def palace_regions(rules: Rules, p: PlayerState, first: bool = False) -> list[int]:
    """Regions where a Palace can be built: an Architect there, enough Workers there and enough
    elsewhere (the Workers paid), and a Palace left in stock."""
    regions: list[int] = []
    if not p.palaces:
        return regions
    here, elsewhere = rules.palace_workers_here, rules.palace_workers_elsewhere
    workers = p.workers
    total = sum(workers)
    for r in ALL_REGIONS:
        if p.officials[r][1] and workers[r] >= here and total - workers[r] >= elsewhere:
            regions.append(r)
            if first:
                break
    return regions


def governor_regions(p: PlayerState, first: bool = False) -> list[int]:
    """Regions holding all three Official types, while a Governor is left in stock."""
    regions: list[int] = []
    if not p.governors:
        return regions
    for r in ALL_REGIONS:
        alchemist, architect, general = p.officials[r]
        if alchemist and architect and general:
            regions.append(r)
            if first:
                break
    return regions


def ship_at_end(t: Tables, p: PlayerState) -> bool:
    """The Ship stands on the last space: nothing may move it any more."""
    return p.ship >= t.elixir_end


def court_actions(t: Tables, rules: Rules, state: GameState, p: PlayerState) -> list[int]:
    """The Court actions this player can perform in full right now."""
    actions = []
    if sum(p.official_supply):
        actions.append(RECRUIT)
    if hire_regions(rules, p, first=True):
        actions.append(HIRE)
    if not ship_at_end(t, p):
        actions.append(ELIXIR)
    if palace_regions(rules, p, first=True):
        actions.append(PALACE)
    if governor_regions(p, first=True):
        actions.append(GOVERNOR)
    if wall_slots(state, p, free=False, first=True):
        actions.append(WALL)
    return actions


def turn_options(t: Tables, rules: Rules, state: GameState, p: PlayerState) -> list:
    """Every card of the hand with every region it may be tucked in (``Unify``) and every Court
    action it may perform (``Court``); a hand with no legal use at all is discarded, one card of
    the player's choice (``Discard``). The options are the box's own (``Tables``)."""
    hand = state.hands[p.seat]
    regions = unify_regions(rules, p)
    actions = court_actions(t, rules, state, p)
    if not regions and not actions:
        return [t.discard_options[c] for c in hand]
    options: list = []
    append = options.append
    unify, court = t.unify_options, t.court_options
    for c in hand:
        tucks = unify[c]
        for r in regions:
            append(tucks[r])
        plays = court[c]
        for a in actions:
            append(plays[a])
    return options


def court_top(state: GameState) -> int:
    """The card on top of the Court pile, ``NO_ONE`` while the pile is empty."""
    return state.court[-1] if state.court else NO_ONE


def activates(action: int, card: int, below: int, free: bool) -> bool:
    """Does a card played to the Court for ``action`` on top of card ``below`` trigger the
    tableau's abilities? The first card after the Court is cleared always does; otherwise
    Recruit, Elixir and Governor need a lower number than the card below, the others a higher
    one."""
    if free:
        return True
    return card < below if action in LOWER_ACTIONS else card > below


def triggered_cards(t: Tables, rules: Rules, p: PlayerState) -> list[list[tuple[int, int]]]:
    """Per Court action, (region, card) of each tableau card the action triggers, in tableau
    order: a card's own trigger or the action of the Emperor tile on it. Regions at the Unrest
    cap are blocked; whether an ability can resolve is ``triggered_abilities``' question."""
    trigger, cap, emperor = t.card_trigger, rules.unrest_cap, p.emperor
    by: list[list[tuple[int, int]]] = [[], [], [], [], [], []]
    for r, cards in enumerate(p.tableau):
        if p.unrest[r] < cap:
            for c in cards:
                by[emperor.get(c, trigger[c])].append((r, c))
    return by


def triggered_abilities(t: Tables, rules: Rules, p: PlayerState, action: int,
                        used: set[int]) -> list[Activation]:
    """An ``Activation`` for each tableau card this action triggers that can resolve now and
    has not resolved yet this turn."""
    abilities = t.card_ability
    options: list[Activation] = []
    for r, card in triggered_cards(t, rules, p)[action]:
        ability = abilities[card]  # every card that can be in a tableau has one
        if card not in used and ability is not None and feasible_options(t, rules, p, ability,
                                                                         r):
            options.append(t.activations[card])
    return options


# --- room for cards, soldiers on the Mausoleum -----------------------------------------------


def with_room(rules: Rules, p: PlayerState, regions: tuple[int, ...]) -> tuple[int, ...]:
    """The ``regions`` that can take one more card (Alchemist cards obey the card limit)."""
    limit = rules.region_card_limit
    return tuple(r for r in regions if len(p.tableau[r]) < limit)


def elixir_card_regions(rules: Rules, p: PlayerState) -> tuple[int, ...]:
    """Where an Elixir symbol may place an Alchemist card: regions with an Alchemist official
    and room for a card."""
    return with_room(rules, p, tuple(r for r in ALL_REGIONS if p.officials[r][0]))


def free_spots(t: Tables, state: GameState, p: PlayerState) -> list[int]:
    """Mausoleum spots where this player's next soldier may go, the player's condition aside:
    none of the player's soldiers there, and the topmost open slot (the one a soldier takes)
    usable (the third slot needs three players)."""
    usable, seat = t.mausoleum_slots[state.n], p.seat
    free = []
    for i, spot in enumerate(state.mausoleum):
        if open_slot(spot.slots, seat) < usable:
            free.append(i)
    return free


def open_slot(slots: list[int], seat: int) -> int:
    """The slot a soldier of ``seat`` would take on a spot (its topmost open one), or a number
    past any slot when the spot is full or the seat already stands there. One pass over the few
    slots, comparing plain integers (``in`` and ``index`` would each walk them again)."""
    top = 1 << 30
    for k in range(len(slots)):
        holder = slots[k]
        if holder == seat:
            return 1 << 30
        if holder == NO_ONE and k < top:
            top = k
    return top


# --- what an ability costs -------------------------------------------------------------------


HERE: Final = -2  # in ``unrest_raises``: the region the ability sits in
_RAISES: dict[int, tuple[tuple, tuple[tuple[int, int], ...]]] = {}


def unrest_raises(steps: tuple) -> tuple[tuple[int, int], ...]:
    """(region, amount) of each Unrest increase among the steps, ``HERE`` for the ability's own
    region. Kept per steps tuple (with the tuple, so that its id names it): the costs of an
    alternative are asked at every decision, and a box's abilities live as long as the box."""
    hit = _RAISES.get(id(steps))
    if hit is not None and hit[0] is steps:
        return hit[1]
    raises = tuple((HERE if e.where == "here" else REGION_INDEX[e.where], e.amount)
                   for e in steps if e.effect == "raise_unrest")
    _RAISES[id(steps)] = (steps, raises)
    return raises


def costs_payable(rules: Rules, p: PlayerState, steps: tuple, here: int) -> bool:
    """True when every Unrest increase of the steps keeps its region at or under the cap (an
    increase 'here' with no region to raise, ``here < 0``, cannot be paid)."""
    return raises_payable(rules.unrest_cap, p, unrest_raises(steps), here)


def raises_payable(cap: int, p: PlayerState, raises: tuple[tuple[int, int], ...],
                   here: int) -> bool:
    """``costs_payable`` given the steps' ``unrest_raises`` and the Unrest cap (for a caller
    that keeps them)."""
    if not raises:
        return True
    added = [0, 0, 0, 0, 0]
    for where, amount in raises:
        r = here if where == HERE else where
        if r < 0:
            return False
        added[r] += amount
        if p.unrest[r] + added[r] > cap:
            return False
    return True


def choosable(t: Tables, rules: Rules, p: PlayerState, steps: tuple, here: int) -> bool:
    """May an alternative be chosen at all? Its Unrest costs must fit, and one that moves the
    Ship is refused while the Ship stands on the last space of the route."""
    if ship_at_end(t, p) and any(e.effect == "ship" for e in steps):
        return False
    return costs_payable(rules, p, steps, here)


def feasible_options(t: Tables, rules: Rules, p: PlayerState, ability: Ability,
                     here: int) -> list[int]:
    """Indices of the alternatives of a card ability or a bonus that may be chosen now (they
    resolve as far as they can, so only ``choosable`` matters)."""
    return [i for i, steps in enumerate(ability.options) if choosable(t, rules, p, steps, here)]


# --- Walls -------------------------------------------------------------------------------------


def wall_slots(state: GameState, p: PlayerState, free: bool,
               first: bool = False) -> list[tuple[int, int]]:
    """Open (section, slot) pairs in sections without this player's Wall, while a Wall is left
    in stock; unless ``free``, only those whose tier the player can pay (one Worker per tier,
    each from a different region). ``first``: stop at the first, for a mere "is there one?"."""
    found: list[tuple[int, int]] = []
    if not p.walls:
        return found
    regions_with_workers = 5 - p.workers.count(0)
    seat = p.seat
    for s, section in enumerate(state.walls):
        slots = section.slots
        if holds(slots, seat):
            continue
        tiers = section.tiers
        for i in range(len(slots)):
            if slots[i] == NO_ONE and (free or tiers[i] <= regions_with_workers):
                found.append((s, i))
                if first:
                    return found
    return found


def holds(slots: list[int], seat: int) -> bool:
    """Does ``seat`` hold one of these slots? (``seat in slots``, comparing plain integers.)"""
    return any(holder == seat for holder in slots)  # compiled to a plain loop


def wall_payments(p: PlayerState, cost: int) -> list[tuple[int, ...]]:
    """Ways to pay ``cost`` Workers, each from a different region."""
    return list(combinations([r for r in ALL_REGIONS if p.workers[r]], cost))


def wall_key(scoring: WallScoring) -> str:
    """The ``wall_counts`` key of what a Wall tile face counts: the Official type for the
    tiles counting regions with an Official, the tile's kind otherwise."""
    return scoring.kind if scoring.official is None else scoring.official


def wall_counts(t: Tables, state: GameState, p: PlayerState) -> dict[str, int]:
    """What each kind of Wall tile counts for this player now, by ``wall_key``: regions with
    each Official type, with Workers, with a Palace, with two cards of one type, and the
    number of complete sets of the four card types."""
    seat = p.seat
    card_type = t.card_type
    alchemists = architects = generals = palaces = pairs = 0
    for o in p.officials:
        if o[0]:
            alchemists += 1
        if o[1]:
            architects += 1
        if o[2]:
            generals += 1
    for row in state.palace_count:
        if row[seat]:
            palaces += 1
    totals = [0, 0, 0, 0]
    for cards in p.tableau:
        seen = [False, False, False, False]
        pair = False
        for c in cards:
            kind = card_type[c]
            totals[kind] += 1
            if seen[kind]:
                pair = True
            seen[kind] = True
        if pair:
            pairs += 1
    sets = totals[0]
    for k in (1, 2, 3):
        if totals[k] < sets:
            sets = totals[k]
    return {
        "alchemist": alchemists, "architect": architects, "general": generals,
        "regions_with_workers": 5 - p.workers.count(0), "regions_with_palace": palaces,
        "regions_with_pair": pairs, "quadruplets": sets,
    }


# --- Officials -----------------------------------------------------------------------------------


def official_moves(p: PlayerState) -> list[OfficialMove]:
    """(type, from, to) for each Official that can step to an adjacent region."""
    return [
        OFFICIAL_MOVES[t][r][to]
        for r, offs in enumerate(p.officials)
        for t in (0, 1, 2)
        if offs[t]
        for to in ADJACENT[r]
    ]
