"""One Phase 2 turn: play a card as a Unification action or to the Court, then activate, move
an Official or pass, then place soldiers."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from zsim.components.schema import COURT_ACTIONS
from zsim.kinds import COURT, MOVE, MOVES, PASS, RECRUITS, UNIFY, WallSlot
from zsim.rules import effects, mausoleum, pieces, queries
from zsim.rules.common import (
    COURT_COUNTERS,
    OFFICIAL_NAMES,
    REGION_NAMES,
    SUIT_NAMES,
    ask_until_stop,
    count,
)
from zsim.state import NO_ONE, PlayerState

if TYPE_CHECKING:
    from zsim.decisions import Table


# --- what can be done (the queries themselves are in ``zsim.rules.queries``) ---------------


def palace_regions(g: Table, p: PlayerState) -> list[int]:
    """``queries.palace_regions`` at this table (what a seat's view offers its strategy)."""
    return queries.palace_regions(g.rules, p)


# --- doing it -------------------------------------------------------------------------------


def play_turn(g: Table, p: PlayerState) -> None:
    choice = g.ask(p.seat, "turn", queries.turn_options(g.t, g.rules, g.state, p))
    card = choice.card
    g.state.hands[p.seat].remove(card)
    play = choice.play
    if play == UNIFY:
        unify(g, p, card, choice.region)
    else:
        court_card(g, p, card, choice.action if play == COURT else NO_ONE)
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
    below = queries.court_top(state)
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
    after_action(g, p, action, queries.activates(action, card, below, free))


def perform_recruit(g: Table, p: PlayerState) -> None:
    options = [RECRUITS[t][r] for t in range(3) if p.official_supply[t] for r in range(5)]
    choice = g.ask(p.seat, "recruit", options)
    t, r = choice.official, choice.region
    p.official_supply[t] -= 1
    p.officials[r][t] += 1
    if g.narrating:
        g.say(f"  recruits {OFFICIAL_NAMES[t]} in {REGION_NAMES[r]}")


def perform_hire(g: Table, p: PlayerState) -> None:
    r = g.ask(p.seat, "hire", queries.hire_regions(g.rules, p))
    p.workers[r] += g.rules.hire_workers
    p.unrest[r] += g.rules.hire_unrest
    if g.narrating:
        g.say(f"  hires {g.rules.hire_workers} Workers in {REGION_NAMES[r]}, "
              f"Unrest {p.unrest[r]}")


def perform_elixir(g: Table, p: PlayerState) -> None:
    pieces.move_ship(g, p, g.rules.elixir_steps)


def perform_palace(g: Table, p: PlayerState) -> None:
    rules = g.rules
    r = g.ask(p.seat, "palace", queries.palace_regions(rules, p))
    p.workers[r] -= rules.palace_workers_here
    for _ in range(rules.palace_workers_elsewhere):
        payer = g.ask(p.seat, "palace_worker", [i for i in range(5) if i != r and p.workers[i]])
        p.workers[payer] -= 1
    effects.build_palace(g, p, r, large_token=True)


def perform_governor(g: Table, p: PlayerState) -> None:
    r = g.ask(p.seat, "governor", queries.governor_regions(p))
    for t in range(3):
        p.officials[r][t] -= 1
        p.official_supply[t] += 1
    effects.install_governor(g, p, r)


def perform_wall(g: Table, p: PlayerState) -> None:
    choice = g.ask(p.seat, "wall", [WallSlot(s, i) for s, i in
                                     queries.wall_slots(g.state, p, free=False)])
    section, slot = choice.section, choice.slot
    cost = g.state.walls[section].tiers[slot]
    payment = g.ask(p.seat, "wall_workers", queries.wall_payments(p, cost))
    for r in payment:
        p.workers[r] -= 1
    pieces.build_wall(g, p, section, slot)


PERFORM: Final = (perform_recruit, perform_hire, perform_elixir, perform_palace, perform_governor,
           perform_wall)


# --- after the action ---------------------------------------------------------------------


def after_action(g: Table, p: PlayerState, action: int, in_step: bool) -> None:
    """Activate triggered abilities one at a time in any order, or move one Official, or pass."""
    t, rules = g.t, g.rules
    used: set[int] = set()
    options: list = queries.triggered_abilities(t, rules, p, action, used) if in_step else []
    options += [MOVES[m.official][m.source][m.target] for m in queries.official_moves(p)]
    options.append(PASS)
    choice = g.ask(p.seat, "activate", options)
    if choice == PASS:
        return
    if choice.act == MOVE:
        pieces.move_official(g, p, choice.official, choice.source, choice.target)
        return

    def activate_card(option: Any) -> None:
        used.add(option.card)
        activate(g, p, option.card)

    activate_card(choice)
    ask_until_stop(g, p.seat, "next_ability",
                   lambda: queries.triggered_abilities(t, rules, p, action, used), activate_card)


def card_location(p: PlayerState, card: int) -> tuple[int, int]:
    for r, cards in enumerate(p.tableau):
        if card in cards:
            return r, cards.index(card)
    raise ValueError(f"card {card} is not in the tableau")


def activate(g: Table, p: PlayerState, card: int) -> None:
    t = g.t
    region, slot = card_location(p, card)
    ability = t.card_ability[card]
    assert ability is not None  # every card has one: None only fills unused card numbers
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
