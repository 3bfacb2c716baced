"""The questions that follow a turn (a Court action's sub-choices, abilities, soldiers, rewards):
what each option is worth, and the best of them.

Each function gives the value of every option of one kind of question, in the order offered;
``best`` picks the highest, breaking exact ties with the seat's RNG. The heuristic's class
(``zsim.strategies.heuristic``) stays plain Python and calls them, so that all the weighing runs
compiled.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Final

from zsim.kinds import ACCEPT, PASS, STOP
from zsim.rules.tables import ACTION_INDEX
from zsim.state import NO_ONE

if TYPE_CHECKING:
    from zsim.strategies.estimates.cards import Estimator
    from zsim.view import PlayerView

VALUES: Final = "heuristic.values"  # while ``option_values`` asks: each option's value, by option
SURE_ABILITY: Final = 3.0  # an ability worth this much beats any single move: skip weighing moves


def best(view: PlayerView, options: list, values: list[float]) -> Any:
    """The option of highest value; exact ties are broken with the seat's RNG."""
    top, tied = -math.inf, []
    shown = view.memo.get(VALUES)
    for i in range(len(options)):
        option, v = options[i], values[i]
        if shown is not None:
            shown[option] = v
        if v > top:
            top, tied = v, [option]
        elif v == top:
            tied.append(option)
    return tied[0] if len(tied) == 1 else tied[view.rng.randrange(len(tied))]


# --- Court actions and what they lead to ------------------------------------------------------


def recruit(est: Estimator, options: list) -> list[float]:
    return [est.official_value(o[0], o[1]) for o in options]


def hire(est: Estimator, options: list) -> list[float]:
    f = est.f
    return [est.worker_value(r, f.hire_workers) - est.unrest_cost(r, f.hire_unrest)
            for r in options]


def palace(est: Estimator, options: list, free: bool) -> list[float]:
    return [est.palace_value(r, free) for r in options]


def palace_worker(est: Estimator, options: list) -> list[float]:
    return [-est.worker_loss(r, 1) for r in options]


def palace_tile(view: PlayerView, est: Estimator, options: list, region: int) -> list[float]:
    box = view.tables.box
    return [est.steps_value(box.abilities[box.palace_tiles[kind].ability].options[0], region,
                            0, -1) for kind in options]


def large_token(est: Estimator, options: list) -> list[float]:
    large = est.f.large_token_value
    return [est.token_gain(s, large) for s in options]


def governor(est: Estimator, options: list, free: bool) -> list[float]:
    return [est.governor_value(r, free) for r in options]


def governor_slot(view: PlayerView, est: Estimator, options: list, region: int) -> list[float]:
    box = view.tables.box
    slots = view.board.governor_slots[region]
    values = []
    for option in options:
        v = 0.0
        if option != "area":
            ability = box.governor_tiles[slots[option][0]].ability
            if ability is not None:  # a blank slot is worth what the area is
                bonus = est.alternatives_value(box.abilities[ability].options, region, 0, -1)
                v = est.w.governor_bonus * max(bonus, 0.0) + 0.5  # and denies it to the others
        values.append(v)
    return values


def bonus(view: PlayerView, est: Estimator, options: list, ability_id: str) -> list[float]:
    ability = view.tables.box.abilities[ability_id]
    return [est.steps_value(ability.options[o], -1, 0, -1) for o in options]


def wall(est: Estimator, options: list, free: bool) -> list[float]:
    return [est.wall_value(o[0], o[1], free) for o in options]


def wall_workers(est: Estimator, options: list) -> list[float]:
    values = []
    for regions in options:
        loss = 0.0
        for r in regions:
            loss += est.worker_loss(r, 1)
        values.append(-loss)
    return values


def emperor(view: PlayerView, est: Estimator, options: list) -> list[float]:
    """Where to put the Emperor tile just taken: a card's future firings, at its flat rate."""
    action = emperor_action(view)
    trigger = view.tables.card_trigger
    slots = {c: i for cards in view.me.tableau for i, c in enumerate(cards)}
    emperor = view.me.emperor
    values = []
    for card in options:
        old = emperor.get(card, trigger[card])
        if old == action:
            values.append(-1.0)
        else:
            gain = est.activations(action) - 0.8 * est.activations(old)
            values.append(est.st.card[card][slots[card]] * gain)
    return values


def emperor_action(view: PlayerView) -> int:
    """The action of the Emperor tile being placed: the one on a section we just opened."""
    tiles = view.tables.box.emperor_tiles
    for section in view.walls:
        if section.first_builder == view.seat and section.emperor_tile != NO_ONE:
            return ACTION_INDEX[tiles[section.emperor_tile].action]
    return -1


def elixir(est: Estimator, options: list) -> list[float]:
    return [est.soldier_value() if o == "soldier" else est.alchemist_card_value(o[1], o[2])
            for o in options]


def master(view: PlayerView, est: Estimator, options: list) -> list[float]:
    slot = min(len(view.me.tableau[est.alchemist_home()]), 2)
    return [est.future_card(card, slot) for card in options]


# --- activating abilities ---------------------------------------------------------------------


def activations(est: Estimator, options: list) -> tuple[list, list[float]]:
    """The options worth weighing (moves are left out when an ability is sure to beat them)
    and their values."""
    abilities = [o for o in options if isinstance(o, tuple) and o[0] == "ability"]
    top = 0.0
    for o in abilities:
        v = est.card_value(o[1])
        if v > top:
            top = v
    if top > SURE_ABILITY:
        options = [*abilities, PASS]  # no single move of an Official is worth that much
    values = []
    for option in options:
        if not isinstance(option, tuple):
            values.append(0.0)
        elif option[0] == "ability":
            values.append(est.card_value(option[1]))
        else:
            _, t, r, to = option
            values.append(est.official_value(t, to) - est.official_loss(t, r))
    return options, values


def ability_option(view: PlayerView, est: Estimator, options: list,
                   context: dict) -> list[float]:
    box = view.tables.box
    here, slot, suit = -1, 0, -1
    if "card" in context:
        card = context["card"]
        ability = view.tables.card_ability[card]
        suit = view.tables.card_type[card]
        for r, cards in enumerate(view.me.tableau):
            if card in cards:
                here, slot = r, cards.index(card)
    elif "reward" in context:
        ability = box.abilities[context["reward"]]
        suit = context.get("suit", -1)
    else:
        tile = next(t for t in box.starting_tiles if t.id == context.get("starting_tile"))
        ability, here = box.abilities[tile.ability], 0
    assert ability is not None  # every card has one
    return [est.steps_value(ability.options[i], here, slot, suit) for i in options]


# --- sub-choices of effects -------------------------------------------------------------------


def region(view: PlayerView, est: Estimator, options: list, effect: Any) -> list[float]:
    if effect == "recruit":
        supply = view.me.official_supply
        values = []
        for r in options:
            v = 0.0
            first = True
            for t in range(3):
                if supply[t]:
                    value = est.official_value(t, r)
                    if first or value > v:
                        v, first = value, False
            values.append(v)
        return values
    if effect == "hire":
        return [est.worker_value(r, 1) for r in options]
    return [est.unrest_relief(r, 1) for r in options]


def official(est: Estimator, options: list, region: int) -> list[float]:
    return [est.official_value(t, region) for t in options]


def token(est: Estimator, options: list) -> list[float]:
    return [est.token_gain(s, 1) for s in options]


def move_official(est: Estimator, options: list) -> list[float]:
    return [0.0 if o == STOP else est.official_value(o[0], o[2]) - est.official_loss(o[0], o[1])
            for o in options]


def move_worker(est: Estimator, options: list) -> list[float]:
    return [0.0 if o == STOP else est.worker_value(o[1], 1) - est.worker_loss(o[0], 1)
            for o in options]


def reset_unrest(view: PlayerView, est: Estimator, options: list) -> list[float]:
    unrest = view.me.unrest
    return [0.0 if r == STOP else est.unrest_relief(r, unrest[r]) + 0.01 * unrest[r]
            for r in options]


def place_alchemist(est: Estimator, options: list) -> list[float]:
    return [0.0 if o == STOP else est.alchemist_card_value(o[0], o[1]) for o in options]


# --- the Mausoleum and Phase 3 ----------------------------------------------------------------


def soldier(est: Estimator, options: list) -> list[float]:
    return [0.0 if o == STOP else est.spot_place(o) for o in options]


def next_round_token(est: Estimator) -> float:
    """A small token kept into the next round (large ones go back to the board anyway)."""
    return 0.5 * est.w.rewards if est.turns else 0.0


def reward(view: PlayerView, est: Estimator, reward_id: str, suit: int) -> str:
    """Accept a Unification reward, or pass to keep the tokens and the place in turn order."""
    ability = view.tables.box.abilities[reward_id]
    gain = est.alternatives_value(ability.options, -1, 0, suit)
    spent = view.me.tokens[suit] * next_round_token(est)
    moved = est.w.turn_order * (1.0 if est.turns else 0.0)
    return ACCEPT if gain - spent - moved > 0 else PASS


def unlock(view: PlayerView, est: Estimator, options: list) -> list[float]:
    p = view.me
    surplus = max(0, sum(p.tokens) - est.f.small_token_keep)
    soldier = est.soldier_value()
    token = next_round_token(est)
    values = []
    for option in options:
        if option == STOP:
            values.append(0.0)
        else:
            smalls = 0
            for code in option:
                if code < 3:
                    smalls += 1
            values.append(soldier - max(0, smalls - surplus) * token)
    return values


def start_tile(view: PlayerView, est: Estimator, options: list) -> list[float]:
    box = view.tables.box
    return [est.alternatives_value(box.abilities[box.starting_tiles[i].ability].options,
                                   0, 0, -1) for i in options]
