"""What one seat may see of a game's step record: the rule behind every page the app sends.

The live game keeps the whole step record, as the game viewer does (``zsim.viewer.record``):
every snapshot holds every hand, and every decision every option offered and the bot's value of
each. A page gets only what its seat may see: the public table, its own hand, the backs of the
other hands (cards per suit, as ``PlayerView.hand_backs`` shows them), the size of the decks
(already a count in the record), and of every decision only the answer chosen (which the table
then shows anyway), never the options a bot had nor its values. The seed stays hidden until the
game is over: with it and the lineup, the whole deck order can be recomputed.

``seat`` None is the public view: every hand shows its backs (hot-seat play shows the bots'
moves so, while the device passes from one player to the next).
"""

from __future__ import annotations

from typing import Any

from zsim.components.schema import SUITS
from zsim.serve.adapter import SECRET_KINDS, human_label

PUBLIC_STEP = ("kind", "round", "turn", "seat", "by", "decision")
SECRET = "(chosen in secret: shown once every player has chosen)"


def suits_of(meta: dict[str, Any]) -> dict[int, int]:
    """Card -> suit index, for the Unification cards of the game's catalogue."""
    return {int(card): SUITS.index(info["type"]) for card, info in meta["cards"].items()
            if info["type"] in SUITS}


def seat_table(snapshot: dict[str, Any], seat: int | None,
               suits: dict[int, int]) -> dict[str, Any]:
    """A table snapshot as ``seat`` sees it: the other hands as backs by suit."""
    players = []
    for other, board in enumerate(snapshot["players"]):
        if other == seat:
            players.append(board)
            continue
        backs = [0] * len(SUITS)
        for card in board["hand"]:
            backs[suits[card]] += 1
        players.append({**board, "hand": None, "hand_backs": backs})
    return {**snapshot, "players": players}


def seat_step(step: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """A step of the record without what ``seat`` may not see: its words, and of a decision
    the answer chosen, in words (unless the others see it only later: a Starting tile)."""
    shown = {key: step[key] for key in PUBLIC_STEP if key in step}
    shown["text"] = human_label(step["text"])
    if step["kind"] == "decision":
        secret = step["decision"] in SECRET_KINDS and step["by"] != seat
        shown["chosen"] = SECRET if secret else human_label(step["options"][step["chosen"]])
    if step["kind"] == "final":
        shown["scores"] = step["scores"]
    return shown


def seat_steps(steps: list[dict[str, Any]], seat: int | None,
               suits: dict[int, int]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Steps (each with its snapshot under ``snapshot``) as ``seat`` sees them, and their
    tables: a step's ``state`` indexes the tables, each stored once for consecutive steps
    that share it."""
    shown: list[dict[str, Any]] = []
    tables: list[dict[str, Any]] = []
    for step in steps:
        table = seat_table(step["snapshot"], seat, suits)
        if not tables or tables[-1] != table:
            tables.append(table)
        shown.append({**seat_step(step, seat), "state": len(tables) - 1})
    return shown, tables


def seat_mark(mark: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """A human answer that can be taken back, as ``seat`` may read it (another player's
    Starting tile stays unnamed)."""
    if mark["kind"] in SECRET_KINDS and mark["seat"] != seat:
        return {**mark, "text": f"a Starting tile {SECRET}"}
    return mark


def public_meta(meta: dict[str, Any], over: bool) -> dict[str, Any]:
    """The game's meta data as the page gets it: the seed and the result once it is over."""
    players = [{**p, "strategy": "human" if p["strategy"] == "outside" else p["strategy"]}
               for p in meta["players"]]
    return {**meta, "players": players, "seed": meta["seed"] if over else None,
            "result": meta.get("result") if over else None}
