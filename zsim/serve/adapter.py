"""What the playtest app reads of the engine's decisions, in one place.

The app shows a question and its options in plain words, marks on the board where each option
acts, and saves answers as plain JSON. All three read the engine's decision options, typed per
kind (``zsim.kinds.KINDS``: named tuples, ints and words), and their words
(``zsim.describe``). Keeping every such read here means that a change of the options' shape is
made in this module alone.
"""

from __future__ import annotations

from typing import Any

from zsim.components.schema import COURT_ACTIONS
from zsim.decisions import Decision
from zsim.describe import describe, question
from zsim.kinds import Court, Discard, Unify
from zsim.rules.common import REGION_NAMES
from zsim.view import PlayerView

# the decision kinds whose answer the other players learn only later: the Starting tiles are
# chosen at the same time, then shown (the engine asks them in turn, and tells each choice)
SECRET_KINDS = frozenset({"start_tile"})
# the label the engine's narration gives a seat answered from outside (``Game.name``), and the
# one the app shows for it
OUTSIDE, HUMAN = "(outside)", "(human)"


def question_words(view: PlayerView, decision: Decision) -> str:
    """The question asked, in words, as the seat asked reads it."""
    return question(view, decision)


def option_words(view: PlayerView, decision: Decision) -> list[str]:
    """Every option of the decision in words, in the engine's order."""
    return [describe(view, decision, option) for option in decision.options]


def picks(decision: Decision) -> list[dict[str, Any]] | None:
    """A turn's options in two steps, for the page's move picker: each option's card, and
    what it does with it in a word or two (the region it is tucked in, the Court action, or
    "at Court, no action"); None for a question that is not a choice of a card and a use."""
    found: list[dict[str, Any]] = []
    for option in decision.options:
        if isinstance(option, Unify):
            found.append({"card": option.card, "use": "unify",
                          "label": REGION_NAMES[option.region]})
        elif isinstance(option, Court):
            found.append({"card": option.card, "use": "court",
                          "label": COURT_ACTIONS[option.action].capitalize()})
        elif isinstance(option, Discard):
            found.append({"card": option.card, "use": "discard", "label": "No action"})
        else:
            return None
    return found or None


def human_label(text: str) -> str:
    """A narration line with the seats answered from outside named as the humans they are."""
    return text.replace(OUTSIDE, HUMAN)


def option_json(option: Any) -> Any:
    """An option as plain JSON (tuples become lists), to save an answer in a file."""
    if isinstance(option, tuple):
        return [option_json(part) for part in option]
    if isinstance(option, (int, str)):
        return option
    raise TypeError(f"an option of type {type(option).__name__} has no JSON form: {option!r}")


def find_option(options: list[Any], saved: Any) -> Any | None:
    """The offered option whose JSON form is ``saved``, or None when none is."""
    for option in options:
        if option_json(option) == saved:
            return option
    return None


# --- where an option acts --------------------------------------------------------------------
# A target is plain data naming one thing the board drawing (zsim/viewer/board.js) draws; the
# game page maps each to the drawn element and frames it while the option is pointed at.


def _hand(seat: int, card: int) -> dict[str, Any]:
    return {"on": "hand", "seat": seat, "card": card}


def _tableau(seat: int, region: int) -> dict[str, Any]:
    return {"on": "tableau", "seat": seat, "region": region}


def _tableau_card(seat: int, card: int) -> dict[str, Any]:
    return {"on": "tableau_card", "seat": seat, "card": card}


def _region(region: int) -> dict[str, Any]:
    return {"on": "region", "region": region}


COURT = {"on": "court"}
OWN_REGION = frozenset({"recruit", "hire", "palace_worker", "region", "reset_unrest"})
BOARD_REGION = frozenset({"palace", "governor"})
MOVES = frozenset({"move_official", "move_worker"})


def targets(decision: Decision, option: Any) -> list[dict[str, Any]]:
    """What on the board ``option`` acts on (nothing for an option that names no place)."""
    kind, seat, context = decision.kind, decision.seat, decision.context
    if isinstance(option, str):
        if option == "area" and "region" in context:
            return [_region(context["region"])]
        return []
    if kind == "turn":
        verb, card = option[0], option[1]
        return [_hand(seat, card), _tableau(seat, option[2]) if verb == "unify" else COURT]
    if kind in OWN_REGION:
        region = option[1] if kind == "recruit" else option
        return [_tableau(seat, region)]
    if kind in BOARD_REGION:
        return [_region(option)]
    if kind == "palace_tile" and "region" in context:
        return [_region(context["region"])]
    if kind == "governor_slot" and "region" in context:
        return [{"on": "governor_slot", "region": context["region"], "slot": option}]
    if kind == "wall":
        return [{"on": "wall", "section": option[0], "slot": option[1]}]
    if kind == "wall_workers":
        return [_tableau(seat, region) for region in option]
    if kind == "emperor":
        return [_tableau_card(seat, option)]
    if kind in ("elixir", "place_alchemist"):
        return [_tableau(seat, option[-1])]
    if kind in ("activate", "next_ability"):
        if option[0] == "ability":
            return [_tableau_card(seat, option[1])]
        return [_tableau(seat, option[2]), _tableau(seat, option[3])]
    if kind in MOVES:
        return [_tableau(seat, option[-2]), _tableau(seat, option[-1])]
    if kind in ("soldier", "lisi_soldier"):
        return [{"on": "spot", "spot": option}]
    return []
