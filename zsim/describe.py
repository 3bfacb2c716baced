"""A decision's question and its options in plain words, for whoever shows them to a person:
the human seat at the terminal, ``zsim play --ask``, the game viewer, the browser app.

Each option is worded by what it is (``zsim.kinds``): a named tuple by its type, a word by its
meaning, a scalar by its kind's domain (a region's name, a card with its ability...). A new
option type or domain gets its wording here; ``tests/test_kinds.py`` requires one for every
type and domain of the registry.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from zsim.components.schema import COURT_ACTIONS
from zsim.kinds import (
    ACCEPT,
    AREA,
    DOMAINS,
    KINDS,
    PASS,
    SENTINELS,
    SOLDIER,
    STOP,
    Activation,
    AlchemistCard,
    Court,
    Discard,
    ElixirCard,
    Move,
    OfficialMove,
    Recruit,
    Unify,
    WallSlot,
    WorkerMove,
)
from zsim.rules.common import OFFICIAL_NAMES, REGION_NAMES, SUIT_NAMES

if TYPE_CHECKING:
    from zsim.decisions import Decision
    from zsim.view import PlayerView

WORDS = {STOP: "stop", PASS: "pass", ACCEPT: "accept the reward",
         AREA: "the Governor area (no bonus)", SOLDIER: "unlock a Terracotta Soldier"}


def card_text(view: PlayerView, card: int) -> str:
    """A card's name, the Court action that triggers it (an Emperor tile's, if it carries one)
    and its ability."""
    t = view.tables
    trigger = COURT_ACTIONS[view.me.emperor.get(card, t.card_trigger[card])]
    ability = t.card_ability[card]
    return f"{t.card_name[card]} [{trigger}: {ability.text if ability else '-'}]"


def question(view: PlayerView, decision: Decision) -> str:
    """The question, with what it is about when the context says (a reward, an effect, a
    region)."""
    context = decision.context
    extra = ""
    if "reward" in context:
        extra = f" ({view.tables.box.abilities[context['reward']].text})"
    elif "effect" in context:
        extra = f" (for: {context['effect'].replace('_', ' ')})"
    elif "region" in context:
        extra = f" (in {REGION_NAMES[context['region']]})"
    kind = KINDS.get(decision.kind)
    return (kind.question if kind is not None else f"{decision.kind}: choose") + extra


def describe(view: PlayerView, decision: Decision, option: Any) -> str:
    """One option of a decision in words."""
    if isinstance(option, str):
        return WORDS.get(option, option)
    typed = TYPES.get(type(option))
    if typed is not None:
        return typed(view, option)
    kind = KINDS.get(decision.kind)
    scalar = SCALARS.get(kind.scalar) if kind is not None else None
    if scalar is None:
        return repr(option)
    return scalar(view, decision, option)


# --- the named tuples --------------------------------------------------------------------------


def _unify(view: PlayerView, o: Unify) -> str:
    return f"tuck {card_text(view, o.card)} in {REGION_NAMES[o.region]}"


def _court(view: PlayerView, o: Court) -> str:
    return f"Court: {COURT_ACTIONS[o.action]:<9} playing {card_text(view, o.card)}"


def _discard(view: PlayerView, o: Discard) -> str:
    return f"lay {card_text(view, o.card)} at Court without an action"


def _recruit(view: PlayerView, o: Recruit) -> str:
    return f"{OFFICIAL_NAMES[o.official]} in {REGION_NAMES[o.region]}"


def _wall(view: PlayerView, o: WallSlot) -> str:
    section = view.walls[o.section]
    tile = view.tables.box.wall_tiles[section.wall_tile]
    return (f"section {o.section + 1} (site {section.site + 1}, {tile.id}), slot {o.slot + 1}: "
            f"costs {section.tiers[o.slot]} Worker(s)")


def _activation(view: PlayerView, o: Activation) -> str:
    return f"activate {card_text(view, o.card)}"


def _official_move(view: PlayerView, o: Move | OfficialMove) -> str:
    return (f"move {OFFICIAL_NAMES[o.official]} from {REGION_NAMES[o.source]} to "
            f"{REGION_NAMES[o.target]}")


def _worker_move(view: PlayerView, o: WorkerMove) -> str:
    return f"move a Worker from {REGION_NAMES[o.source]} to {REGION_NAMES[o.target]}"


def _placement(view: PlayerView, o: ElixirCard | AlchemistCard) -> str:
    """An Alchemist card placed in a region (by an Elixir symbol or an effect)."""
    return f"place {card_text(view, o.card)} in {REGION_NAMES[o.region]}"


TYPES: dict[type, Callable[[PlayerView, Any], str]] = {
    Unify: _unify, Court: _court, Discard: _discard, Recruit: _recruit, WallSlot: _wall,
    ElixirCard: _placement, Activation: _activation, Move: _official_move,
    OfficialMove: _official_move, WorkerMove: _worker_move, AlchemistCard: _placement,
}


# --- the scalar domains ------------------------------------------------------------------------


def _governor_slot(view: PlayerView, decision: Decision, slot: int) -> str:
    box = view.tables.box
    tile = view.board.governor_slots[decision.context["region"]][slot]
    ability = box.governor_tiles[tile[0]].ability
    return f"bonus slot {slot + 1}: " + (box.abilities[ability].text if ability else "blank")


def _spot(view: PlayerView, decision: Decision, index: int) -> str:
    spot = view.mausoleum[index]
    return f"Mausoleum spot {index + 1}: {spot.binding} ({spot.condition})"


def _alternative(view: PlayerView, decision: Decision, index: int) -> str:
    """One alternative of a two-sided ability, from its effect steps."""
    context, box = decision.context, view.tables.box
    if "card" in context:
        ability = view.tables.card_ability[context["card"]]
    elif "reward" in context:
        ability = box.abilities[context["reward"]]
    elif "ability" in context:
        ability = box.abilities[context["ability"]]
    else:
        tile = next(s for s in box.starting_tiles if s.id == context.get("starting_tile"))
        ability = box.abilities[tile.ability]
    assert ability is not None  # every card has one
    steps = ability.options[index]
    return "; ".join(" ".join(f"{v}" for k, v in step.model_dump().items()
                              if v not in (None, False) and k != "assumed")
                     for step in steps)


def _tokens(view: PlayerView, decision: Decision, codes: tuple[int, ...]) -> str:
    return "pay " + ", ".join(
        f"large {SUIT_NAMES[c - 3]}" if c >= 3 else SUIT_NAMES[c] for c in codes)


def _tile_text(tiles: str) -> Callable[[PlayerView, Decision, int], str]:
    """A tile of the box (``tiles``: which list) by its ability."""

    def text(view: PlayerView, decision: Decision, index: int) -> str:
        box = view.tables.box
        return box.abilities[getattr(box, tiles)[index].ability].text

    return text


SCALARS: dict[str, Callable[[PlayerView, Decision, Any], str]] = {
    "card": lambda view, decision, card: card_text(view, card),
    "region": lambda view, decision, region: REGION_NAMES[region],
    "suit": lambda view, decision, suit: SUIT_NAMES[suit],
    "official": lambda view, decision, official: OFFICIAL_NAMES[official],
    "starting_tile": _tile_text("starting_tiles"),
    "palace_tile": _tile_text("palace_tiles"),
    "governor_slot": _governor_slot,
    "spot": _spot,
    "alternative": _alternative,
    "workers": lambda view, decision, regions: "Workers from " + ", ".join(
        REGION_NAMES[r] for r in regions),
    "tokens": _tokens,
}


# --- the registry as a table, for docs/strategies.md -------------------------------------------


def kinds_markdown() -> str:
    """The decision kinds (``zsim.kinds.KINDS``) and the domains of their options as Markdown
    tables: the section of docs/strategies.md that ``tests/test_kinds.py`` holds to it."""
    lines = ["| kind | options | what it decides |", "| --- | --- | --- |"]
    for kind in KINDS.values():
        forms = [f"`{t.__name__}({', '.join(t._fields)})`" for t in kind.types]  # type: ignore[attr-defined]
        if kind.scalar:
            forms.append(f"a {kind.scalar} (below)")
        forms += [f'`"{word}"`' for word in kind.words]
        lines.append(f"| `{kind.name}` | {' or '.join(forms)} | {kind.meaning} |")
    lines += ["", "| domain | values |", "| --- | --- |"]
    lines += [f"| {name} | {text} |" for name, text in DOMAINS.items()]
    lines += ["", "| word | meaning |", "| --- | --- |"]
    lines += [f'| `"{word}"` | {meaning} |' for word, meaning in SENTINELS.items()]
    return "\n".join(lines) + "\n"
