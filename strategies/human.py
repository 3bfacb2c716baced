"""A human seat for ``zsim play``: shows the table and the legal options, reads a choice.

Each decision prints what happened since the last one (when the game is narrated), the question
and its numbered options; the player answers with a number. ``?`` shows the whole table (every
player's public board and your hand), ``q`` leaves the game. Anything else is refused and the
question asked again, so a mistyped answer never reaches the engine.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from zsim.components.schema import COLOURS, COURT_ACTIONS
from zsim.decisions import KINDS, Decision
from zsim.rules.pieces import OFFICIAL_NAMES, REGION_NAMES, SUIT_NAMES
from zsim.strategies.base import Strategy
from zsim.view import PlayerView

TYPE_NAMES = (*SUIT_NAMES, "Alchemist")


class HumanStrategy(Strategy):
    name = "human"
    description = "you, at the terminal: shows each decision's options and reads your choice"

    def choose(self, view: PlayerView, decision: Decision) -> Any:
        self._news(view)
        if decision.kind == "turn":
            click.echo(situation(view, full=False))
        options = decision.options
        click.echo(f"\n{question(view, decision)}")
        for i, option in enumerate(options, 1):
            click.echo(f"  {i:>3}) {describe(view, decision, option)}")
        while True:
            click.echo(f"Your choice (1-{len(options)}, ? for the table, q to quit): ", nl=False)
            line = sys.stdin.readline()
            if not line:
                click.echo()
                raise click.Abort
            answer = line.strip().lower()
            if answer in ("q", "quit"):
                raise click.Abort
            if answer == "?":
                click.echo(situation(view, full=True))
                continue
            if answer.isdigit() and 1 <= int(answer) <= len(options):
                return options[int(answer) - 1]
            click.echo(f"'{line.strip()}' is not an option: answer with a number from 1 to "
                       f"{len(options)}.")

    @staticmethod
    def _news(view: PlayerView) -> None:
        """Print the narration lines that appeared since this seat last decided."""
        log = view.log
        seen = view.memo.get("human_seen", 0)
        for line in log[seen:]:
            click.echo(line)
        view.memo["human_seen"] = len(log)


# --- what the player reads -----------------------------------------------------------------


def card_text(view: PlayerView, card: int) -> str:
    t = view.tables
    trigger = COURT_ACTIONS[view.me.emperor.get(card, t.card_trigger[card])]
    ability = t.card_ability[card]
    return f"{t.card_name[card]} [{trigger}: {ability.text if ability else '-'}]"


def board_lines(view: PlayerView, seat: int) -> list[str]:
    p = view.players[seat]
    t = view.tables
    lines = [f"{COLOURS[p.colour]} ({'you' if seat == view.seat else 'rival'}): "
             f"{p.vp_in_game} VP, Ship {p.ship}, soldiers {p.soldiers} locked / "
             f"{p.entrance} at the entrance, tokens W{p.tokens[0]} C{p.tokens[1]} L{p.tokens[2]}"
             + (f" + large {p.large}" if any(p.large) else "")
             + f", left: {p.governors} Governors, {p.palaces} Palaces, {p.walls} Walls"]
    for r, name in enumerate(REGION_NAMES):
        cards = ", ".join(t.card_name[c] for c in p.tableau[r]) or "-"
        a, ar, g = p.officials[r]
        lines.append(f"    {name:<5} Unrest {p.unrest[r]}  Officials Al{a} Ar{ar} Ge{g}  "
                     f"Workers {p.workers[r]}  Cards: {cards}")
    if seat != view.seat:
        backs = view.hand_backs(seat)
        lines.append(f"    hand: {backs[0]} Writing, {backs[1]} Currency, {backs[2]} Laws")
    return lines


def situation(view: PlayerView, full: bool) -> str:
    """The table as this seat sees it: own board and hand (``full``: every board)."""
    board = view.board
    top = view.court_top
    lines = [f"=== Round {view.round} - you are {COLOURS[view.me.colour]} - Court top: "
             f"{view.tables.card_name[top] if top else 'empty (the next card activates freely)'}"
             " ==="]
    seats = range(view.n_players) if full else [view.seat]
    for seat in seats:
        lines.extend(board_lines(view, seat))
    if full:
        lines.append("Governors by region: " + ", ".join(
            f"{REGION_NAMES[r]} {board.governor_count[r]}" for r in range(5)))
        lines.append("Palaces by region:   " + ", ".join(
            f"{REGION_NAMES[r]} {board.palace_count[r]}" for r in range(5)))
    lines.append("Your hand: " + "; ".join(card_text(view, c) for c in view.hand))
    return "\n".join(lines)


QUESTIONS = {
    "start_tile": "Which Starting tile do you keep?",
    "turn": "Your turn: which card, and what for?",
    "recruit": "Which Official do you recruit, and where?",
    "hire": "Where do you hire 2 Workers?",
    "palace": "Where do you build the Palace?",
    "palace_worker": "Which region pays the third Worker?",
    "palace_tile": "Which Palace tile do you take?",
    "large_token": "Which large Unification token do you take?",
    "governor": "Where do you install the Governor?",
    "governor_slot": "Which Governor space?",
    "wall": "Where do you build the Wall?",
    "wall_workers": "Which regions pay the Workers?",
    "emperor": "Which card gets the Emperor tile?",
    "elixir": "The Elixir symbol: which reward?",
    "master": "Which Master Alchemist card do you take?",
    "activate": "After your action: activate, move an Official, or pass?",
    "next_ability": "Activate another card?",
    "ability_option": "Which side of the ability?",
    "bonus": "Which side of the Governor bonus?",
    "region": "Which region?",
    "official": "Which Official?",
    "token": "Which Unification token?",
    "move_official": "Move an Official?",
    "move_worker": "Move a Worker?",
    "reset_unrest": "Reset the Unrest of which region?",
    "place_alchemist": "Place an Alchemist card?",
    "soldier": "Place a Terracotta Soldier?",
    "lisi_soldier": "Li Si meets more Mausoleum conditions than he has soldiers waiting: "
                    "which tile does he validate?",
    "reward": "Take this Unification reward?",
    "unlock": "Unlock a Terracotta Soldier with tokens?",
    "discard_token": "Which small token do you give back?",
}


def question(view: PlayerView, decision: Decision) -> str:
    context = decision.context
    extra = ""
    if "reward" in context:
        extra = f" ({view.tables.box.abilities[context['reward']].text})"
    elif "effect" in context:
        extra = f" (for: {context['effect'].replace('_', ' ')})"
    elif "region" in context:
        extra = f" (in {REGION_NAMES[context['region']]})"
    kind = decision.kind
    return QUESTIONS.get(kind, f"{kind}: {KINDS.get(kind, 'choose')}") + extra


def describe(view: PlayerView, decision: Decision, option: Any) -> str:
    """One option in words."""
    kind, box = decision.kind, view.tables.box
    if isinstance(option, str):
        return {"soldier": "unlock a Terracotta Soldier", "area": "the Governor area (no bonus)",
                "pass": "pass", "stop": "stop", "done": "done",
                "accept": "accept the reward", }.get(option, option)
    if kind == "turn":
        if option[0] == "unify":
            return f"tuck {card_text(view, option[1])} in {REGION_NAMES[option[2]]}"
        if option[0] == "court":
            return f"Court: {COURT_ACTIONS[option[2]]:<9} playing {card_text(view, option[1])}"
        return f"lay {card_text(view, option[1])} at Court without an action"
    if kind == "start_tile":
        return box.abilities[box.starting_tiles[option].ability].text
    if kind in ("recruit", "move_official") and isinstance(option, tuple):
        if kind == "recruit":
            return f"{OFFICIAL_NAMES[option[0]]} in {REGION_NAMES[option[1]]}"
        return (f"move an {OFFICIAL_NAMES[option[0]]} from {REGION_NAMES[option[1]]} to "
                f"{REGION_NAMES[option[2]]}")
    if kind in ("hire", "palace", "palace_worker", "governor", "region", "reset_unrest"):
        return REGION_NAMES[option]
    if kind in ("large_token", "token", "discard_token"):
        return SUIT_NAMES[option]
    if kind == "official":
        return OFFICIAL_NAMES[option]
    if kind == "palace_tile":
        return box.abilities[box.palace_tiles[option].ability].text
    if kind == "governor_slot":
        slot = view.board.governor_slots[decision.context["region"]][option]
        ability = box.governor_tiles[slot[0]].ability
        return f"bonus slot {option + 1}: " + (box.abilities[ability].text if ability else "blank")
    if kind == "wall":
        section = view.walls[option[0]]
        tile = box.wall_tiles[section.wall_tile]
        return (f"section {option[0] + 1} (site {section.site + 1}, {tile.id}), slot "
                f"{option[1] + 1}: costs {section.tiers[option[1]]} Worker(s)")
    if kind == "wall_workers":
        return "Workers from " + ", ".join(REGION_NAMES[r] for r in option)
    if kind in ("emperor", "master"):
        return card_text(view, option)
    if kind == "elixir":
        return f"place {card_text(view, option[1])} in {REGION_NAMES[option[2]]}"
    if kind == "place_alchemist":
        return f"place {card_text(view, option[0])} in {REGION_NAMES[option[1]]}"
    if kind in ("activate", "next_ability"):
        if option[0] == "ability":
            return f"activate {card_text(view, option[1])}"
        return (f"move an {OFFICIAL_NAMES[option[1]]} from {REGION_NAMES[option[2]]} to "
                f"{REGION_NAMES[option[3]]}")
    if kind in ("ability_option", "bonus"):
        return _alternative(view, decision, option)
    if kind == "move_worker":
        return f"move a Worker from {REGION_NAMES[option[0]]} to {REGION_NAMES[option[1]]}"
    if kind in ("soldier", "lisi_soldier"):
        spot = view.mausoleum[option]
        return f"Mausoleum spot {option + 1}: {spot.binding} ({spot.condition})"
    if kind == "unlock":
        return "pay " + ", ".join(
            f"large {SUIT_NAMES[c - 3]}" if c >= 3 else SUIT_NAMES[c] for c in option)
    return repr(option)


def _alternative(view: PlayerView, decision: Decision, index: int) -> str:
    """One alternative of a two-way ability, from its effect steps."""
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
    steps = ability.options[index]
    return "; ".join(" ".join(f"{v}" for k, v in step.model_dump().items()
                              if v not in (None, False) and k != "assumed")
                     for step in steps)
