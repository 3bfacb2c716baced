"""One Phase 2 turn: play a card as a Unification action or to the Court, then activate, move
an Official or pass, then place soldiers."""

from __future__ import annotations

from typing import TYPE_CHECKING

from zsim.components.schema import COURT_ACTIONS
from zsim.rules import effects, mausoleum, pieces
from zsim.rules.common import (
    COURT_COUNTERS,
    OFFICIAL_NAMES,
    REGION_NAMES,
    SUIT_NAMES,
    count,
)
from zsim.rules.tables import ACTION_INDEX, LOWER_ACTIONS
from zsim.state import NO_ONE, PlayerState

if TYPE_CHECKING:
    from zsim.decisions import Table

RECRUIT, HIRE, ELIXIR, PALACE, GOVERNOR, WALL = (ACTION_INDEX[a] for a in COURT_ACTIONS)


# --- what can be done ---------------------------------------------------------------------


def unify_regions(g: Table, p: PlayerState) -> list[int]:
    """Regions that can take one more card without breaking the card limit or the Unrest cap."""
    rules = g.rules
    cap, limit, extra = rules.unrest_cap, rules.region_card_limit, rules.unrest_per_slot
    return [
        r for r in range(5)
        if len(p.tableau[r]) < limit and p.unrest[r] + extra[len(p.tableau[r])] <= cap
    ]


def hire_regions(g: Table, p: PlayerState) -> list[int]:
    cap = g.rules.unrest_cap - g.rules.hire_unrest
    return [r for r in range(5) if p.officials[r][2] and p.unrest[r] <= cap]


def palace_regions(g: Table, p: PlayerState) -> list[int]:
    if not p.palaces:
        return []
    here, elsewhere = g.rules.palace_workers_here, g.rules.palace_workers_elsewhere
    workers = p.workers
    total = sum(workers)
    return [
        r for r in range(5)
        if p.officials[r][1] and workers[r] >= here and total - workers[r] >= elsewhere
    ]


def governor_regions(p: PlayerState) -> list[int]:
    if not p.governors:
        return []
    return [r for r in range(5) if all(p.officials[r])]


def court_actions(g: Table, p: PlayerState) -> list[int]:
    """The Court actions this player can perform in full right now."""
    actions = []
    if sum(p.official_supply):
        actions.append(RECRUIT)
    if hire_regions(g, p):
        actions.append(HIRE)
    if not pieces.ship_at_end(g, p):
        actions.append(ELIXIR)
    if palace_regions(g, p):
        actions.append(PALACE)
    if governor_regions(p):
        actions.append(GOVERNOR)
    if next(pieces.wall_slots(g, p, free=False), None):
        actions.append(WALL)
    return actions


def turn_options(g: Table, p: PlayerState) -> list:
    hand = g.state.hands[p.seat]
    regions = unify_regions(g, p)
    actions = court_actions(g, p)
    if not regions and not actions:
        return [("discard", c) for c in hand]
    options: list = []
    append = options.append
    for c in hand:
        for r in regions:
            append(("unify", c, r))
        for a in actions:
            append(("court", c, a))
    return options


# --- doing it -------------------------------------------------------------------------------


def play_turn(g: Table, p: PlayerState) -> None:
    choice = g.ask(p.seat, "turn", turn_options(g, p))
    card = choice[1]
    g.state.hands[p.seat].remove(card)
    if choice[0] == "unify":
        unify(g, p, card, choice[2])
    else:
        court_card(g, p, card, choice[2] if choice[0] == "court" else NO_ONE)
    mausoleum.place_soldiers(g, p)


def unify(g: Table, p: PlayerState, card: int, region: int) -> None:
    """Tuck the card in a region: tokens of its suit by slot, Unrest for the 2nd and 3rd card."""
    got = pieces.tuck_card(g, p, card, region)
    if g.narrating:
        g.say(f"{g.name(p)} tucks {g.t.card_name[card]} in {REGION_NAMES[region]} "
              f"(slot {len(p.tableau[region])}): +{got} "
              f"{SUIT_NAMES[g.t.card_type[card]]} token(s), Unrest {p.unrest[region]}")


def court_card(g: Table, p: PlayerState, card: int, action: int) -> None:
    """Put the card on the Court pile, perform the action, then activate / move / pass."""
    state = g.state
    below = state.court[-1] if state.court else NO_ONE
    free = state.court_free
    state.court.append(card)
    state.court_free = False
    if action == NO_ONE:
        if g.narrating:
            g.say(f"{g.name(p)} can use {g.t.card_name[card]} for nothing and lays it at Court")
        after_action(g, p, NO_ONE, False)
        return
    if g.narrating:
        g.say(f"{g.name(p)} plays {g.t.card_name[card]} at Court: {COURT_ACTIONS[action]}")
    count(p, COURT_COUNTERS[action])
    PERFORM[action](g, p)
    if free:
        in_step = True
    elif action in LOWER_ACTIONS:
        in_step = card < below
    else:
        in_step = card > below
    after_action(g, p, action, in_step)


def perform_recruit(g: Table, p: PlayerState) -> None:
    options = [(t, r) for t in range(3) if p.official_supply[t] for r in range(5)]
    t, r = g.ask(p.seat, "recruit", options)
    p.official_supply[t] -= 1
    p.officials[r][t] += 1
    if g.narrating:
        g.say(f"  recruits {OFFICIAL_NAMES[t]} in {REGION_NAMES[r]}")


def perform_hire(g: Table, p: PlayerState) -> None:
    r = g.ask(p.seat, "hire", hire_regions(g, p))
    p.workers[r] += g.rules.hire_workers
    p.unrest[r] += g.rules.hire_unrest
    if g.narrating:
        g.say(f"  hires {g.rules.hire_workers} Workers in {REGION_NAMES[r]}, "
              f"Unrest {p.unrest[r]}")


def perform_elixir(g: Table, p: PlayerState) -> None:
    pieces.move_ship(g, p, g.rules.elixir_steps)


def perform_palace(g: Table, p: PlayerState) -> None:
    rules = g.rules
    r = g.ask(p.seat, "palace", palace_regions(g, p))
    p.workers[r] -= rules.palace_workers_here
    for _ in range(rules.palace_workers_elsewhere):
        payer = g.ask(p.seat, "palace_worker", [i for i in range(5) if i != r and p.workers[i]])
        p.workers[payer] -= 1
    effects.build_palace(g, p, r, large_token=True)


def perform_governor(g: Table, p: PlayerState) -> None:
    r = g.ask(p.seat, "governor", governor_regions(p))
    for t in range(3):
        p.officials[r][t] -= 1
        p.official_supply[t] += 1
    effects.install_governor(g, p, r)


def perform_wall(g: Table, p: PlayerState) -> None:
    section, slot = g.ask(p.seat, "wall", pieces.wall_slot_options(g, p, free=False))
    cost = g.state.walls[section].tiers[slot]
    payment = g.ask(p.seat, "wall_workers", pieces.wall_payments(p, cost))
    for r in payment:
        p.workers[r] -= 1
    pieces.build_wall(g, p, section, slot)


PERFORM = (perform_recruit, perform_hire, perform_elixir, perform_palace, perform_governor,
           perform_wall)


# --- after the action ---------------------------------------------------------------------


def triggered_abilities(g: Table, p: PlayerState, action: int, used: set[int]) -> list:
    """('ability', card) for each tableau card this action triggers that can resolve now."""
    t, cap = g.t, g.rules.unrest_cap
    options = []
    for r in range(5):
        if p.unrest[r] >= cap:
            continue
        for slot, card in enumerate(p.tableau[r]):
            if card in used or p.emperor.get(card, t.card_trigger[card]) != action:
                continue
            ctx = effects.Context(r, slot, t.card_type[card], "vp_cards")
            if effects.feasible_options(g, p, t.card_ability[card], ctx, full=False):
                options.append(("ability", card))
    return options


def after_action(g: Table, p: PlayerState, action: int, in_step: bool) -> None:
    """Activate triggered abilities one at a time in any order, or move one Official, or pass."""
    used: set[int] = set()
    abilities = triggered_abilities(g, p, action, used) if in_step else []
    options: list = abilities + [("move", *m) for m in pieces.official_moves(p)]
    options.append("pass")
    choice = g.ask(p.seat, "activate", options)
    if choice == "pass":
        return
    if choice[0] == "move":
        pieces.move_official(g, p, choice[1:])
        return
    while True:
        card = choice[1]
        used.add(card)
        activate(g, p, card)
        options = triggered_abilities(g, p, action, used)
        if not options:
            return
        options.append("stop")
        choice = g.ask(p.seat, "next_ability", options)
        if choice == "stop":
            return


def card_location(p: PlayerState, card: int) -> tuple[int, int]:
    for r, cards in enumerate(p.tableau):
        if card in cards:
            return r, cards.index(card)
    raise ValueError(f"card {card} is not in the tableau")


def activate(g: Table, p: PlayerState, card: int) -> None:
    t = g.t
    region, slot = card_location(p, card)
    ability = t.card_ability[card]
    ctx = effects.Context(region, slot, t.card_type[card], "vp_cards")
    options = effects.feasible_options(g, p, ability, ctx, full=False)
    pick = g.ask(p.seat, "ability_option", options, {"card": card})
    count(p, "n_abilities_activated")
    if g.narrating:
        g.say(f"  activates {t.card_name[card]}: {ability.text}")
    before = p.vp_in_game
    effects.resolve_steps(g, p, ability.options[pick], ctx)
    g.emit("ability", {"seat": p.seat, "card": card, "option": pick,
                       "vp": p.vp_in_game - before})
