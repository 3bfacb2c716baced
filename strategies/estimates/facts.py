"""What the estimates read of a box, computed once per box (and per weighting).

``Facts`` are the per-box constants every decision reads. ``Statics`` are flat-rate values of
abilities that will fire later or elsewhere, far from today's state (a card being tucked, a
reward or a Governor bonus inside a goal's value): ``static_value`` prices their steps by
typical end-of-game counts, once per box and weighting. ``discounts`` is the table of the
patience discount by distance.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from zsim.rules.effects import EFFECTS
from zsim.rules.tables import ALCHEMIST, SUIT_INDEX
from zsim.strategies.estimates.weights import FAR, Weights

if TYPE_CHECKING:
    from zsim.rules.tables import Tables


@dataclass(frozen=True)
class Facts:
    """Per-box constants the estimates read on every decision."""

    card_type: tuple[int, ...]
    card_trigger: tuple[int, ...]
    card_steps: tuple[tuple[tuple[Any, ...], ...], ...]  # card -> alternatives -> steps
    elixir_vp: tuple[int, ...]
    elixir_end: int
    elixir_spaces: tuple[int, ...]
    master_space: int
    slot_values: tuple[int, ...]
    lines: tuple[tuple[int, ...], ...]  # spot indices of each row and column of the grid
    lines_of: tuple[tuple[tuple[int, ...], ...], ...]  # per spot: the other two of each line
    # The numbers of the rules the estimates read, copied from the box's ``Rules`` (a pydantic
    # model, slow to read in the compiled build) into plain fields.
    rounds: int
    cards_per_suit_per_round: int
    unrest_cap: int
    region_card_limit: int
    hire_workers: int
    hire_unrest: int
    palace_workers_here: int
    palace_workers_elsewhere: int
    palace_vp: int
    elixir_steps: int
    large_token_value: int
    unlock_cost: int
    workforce_workers: int
    mausoleum_line_vp: int
    small_token_keep: int
    tokens_per_slot: tuple[int, ...]
    unrest_per_slot: tuple[int, ...]
    extra_soldier_vp: tuple[int, ...]
    governor_majority_vp: tuple[int, ...]  # by player count (0 where the rules give none)
    # The box's tiles the estimates read every turn, as plain tuples (their pydantic models are
    # slow to read in the compiled build): each Governor tile kind's ability (None: blank), and
    # per Unification board, (suit index, reward ability by round) of each of its aspects.
    governor_ability: tuple[str | None, ...]
    reward_aspects: tuple[tuple[tuple[int, tuple[str, ...]], ...], ...]


_FACTS: dict[int, tuple[Tables, Facts]] = {}


def facts(tables: Tables) -> Facts:
    """The ``Facts`` of a compiled box (cached; tables are compiled once per box)."""
    hit = _FACTS.get(id(tables))
    if hit is not None and hit[0] is tables:
        return hit[1]
    box = tables.box
    size = len(box.board.mausoleum.grid)
    rows = tuple(tuple(r * size + c for c in range(size)) for r in range(size))
    cols = tuple(tuple(r * size + c for r in range(size)) for c in range(size))
    lines = rows + cols
    route = box.board.elixir
    rules = tables.rules
    result = Facts(
        card_type=tables.card_type,
        card_trigger=tables.card_trigger,
        card_steps=tuple(a.options if a is not None else () for a in tables.card_ability),
        elixir_vp=tuple(route.vp),
        elixir_end=tables.elixir_end,
        elixir_spaces=tuple(route.elixir_spaces),
        master_space=route.master_alchemist_space,
        slot_values=tuple(box.board.mausoleum.slot_values),
        lines=lines,
        lines_of=tuple(tuple(tuple(k for k in line if k != j) for line in lines if j in line)
                       for j in range(size * size)),
        rounds=rules.rounds,
        cards_per_suit_per_round=rules.cards_per_suit_per_round,
        unrest_cap=rules.unrest_cap,
        region_card_limit=rules.region_card_limit,
        hire_workers=rules.hire_workers,
        hire_unrest=rules.hire_unrest,
        palace_workers_here=rules.palace_workers_here,
        palace_workers_elsewhere=rules.palace_workers_elsewhere,
        palace_vp=rules.palace_vp,
        elixir_steps=rules.elixir_steps,
        large_token_value=rules.large_token_value,
        unlock_cost=rules.unlock_cost,
        workforce_workers=rules.workforce_workers,
        mausoleum_line_vp=rules.mausoleum_line_vp,
        small_token_keep=rules.small_token_keep,
        tokens_per_slot=tuple(rules.tokens_per_slot),
        unrest_per_slot=tuple(rules.unrest_per_slot),
        extra_soldier_vp=tuple(rules.extra_soldier_vp),
        governor_majority_vp=tuple(rules.governor_majority_vp.get(n, 0)  # type: ignore[call-overload]
                                   for n in range(5)),
        governor_ability=tuple(tile.ability for tile in box.governor_tiles),
        reward_aspects=tuple(tuple((SUIT_INDEX[a.aspect], tuple(a.rewards)) for a in board.aspects)
                             for board in box.unification_boards),
    )
    _FACTS[id(tables)] = (tables, result)
    return result


def static_value(steps: tuple, slot: int, w: Weights) -> float:
    """A flat-rate value of effect steps, for abilities that will resolve later or elsewhere
    (each kind's record in ``zsim.rules.effects`` gives its rate)."""
    v = 0.0
    for e in steps:
        v += EFFECTS[e.effect].flat(w, e, slot)
    return v


@dataclass(frozen=True)
class Statics:
    """Flat-rate values of every card (by slot) and every named ability, for one weighting."""

    card: tuple[tuple[float, float, float], ...]
    ability: dict[str, float]


_STATICS: dict[tuple, tuple[Tables, Statics]] = {}


def statics(tables: Tables, w: Weights) -> Statics:
    key = (id(tables), w.key)
    hit = _STATICS.get(key)
    if hit is not None and hit[0] is tables:
        return hit[1]
    cards = tuple(
        tuple(max((static_value(alt, slot, w) for alt in a.options), default=0.0)
              if a is not None else 0.0 for slot in range(3))
        for a in tables.card_ability)
    ability = {name: max(static_value(alt, 0, w) for alt in a.options)
               for name, a in tables.box.abilities.items()}
    result = Statics(card=cards, ability=ability)  # type: ignore[arg-type]
    _STATICS[key] = (tables, result)
    return result


def per_card_gain(e: Any, card_type: int) -> int:
    """VP one more card of ``card_type`` in its region adds to a ``vp_per_cards`` step."""
    if e.effect != "vp_per_cards" or e.scope != "here":
        return 0
    if e.suit == "any" or (e.suit == "alchemist" and card_type == ALCHEMIST) or (
            e.suit in SUIT_INDEX and SUIT_INDEX[e.suit] == card_type):
        return e.per
    return 0


_DISC: dict[tuple[float, int], list[float]] = {}


def discounts(patience: float, turns: int) -> list[float]:
    """``patience ** d`` for d = 0..FAR, zero beyond the turns left and from FAR on.

    The zeros run on to ``2 * FAR`` so that a distance plus a few steps indexes the list
    directly: no distance the estimates form reaches that far.
    """
    key = (patience, turns)
    hit = _DISC.get(key)
    if hit is None:
        hit = _DISC[key] = [patience ** d if d <= turns else 0.0 for d in range(FAR)] + [
            0.0] * (FAR + 1)
    return hit
