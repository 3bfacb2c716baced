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

from zsim.components.schema import COLOURS
from zsim.decisions import Decision
from zsim.describe import card_text, describe, question
from zsim.rules.common import REGION_NAMES
from zsim.strategies.base import Strategy
from zsim.view import PlayerView


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
