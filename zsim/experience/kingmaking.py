"""Kingmaking, found with the forward model: did a player who could no longer win decide who
won?

A game is replayed from its seed with the answers it was given (``Game.answer``). At each of the
last ``last`` turn questions of every player who did not win, the game is forked once per option
of that question (``Game.fork``): each fork takes that option and is played to the end by the
run's own strategies. The player **could no longer win** at that question when it wins in none
of the forks, whatever it chooses; its choice is **kingmaking** when the forks do not all end
with the same winners. A game has kingmaking when one such choice does.

The replay asks the strategies each question again (and checks that they answer as in the game),
so that their random numbers stand where they stood in the game; each fork starts them with an
empty per-game memory (``PlayerView.memo``: what a bot cached there belongs to the replay's
table, not the fork's). The fork of the answer actually given therefore usually ends as the game
did, though not always; ``kept_winners`` records how it ended, and the comparison is always
between forks played alike.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from zsim.game import Game
from zsim.rules.lisi import LiSiSeat

if TYPE_CHECKING:
    from zsim.components import Box
    from zsim.decisions import Player
    from zsim.options import GameOptions

LAST = 3  # turn questions examined per player who did not win, counted from the end
RECORD_FIELDS = ("seat", "round", "from_end", "options", "kept_winners", "outcomes",
                 "could_win", "kingmaker")


class AnswerLog:
    """Listens to a game's ``decision`` events and keeps (seat, kind, answer) of each."""

    def __init__(self) -> None:
        self.answers: list[tuple[int, str, Any]] = []

    def event(self, game: Any, kind: str, data: dict[str, Any]) -> None:
        decision = data["decision"]
        self.answers.append((decision.seat, decision.kind, data["answer"]))


def candidates(answers: list[tuple[int, str, Any]], losers: set[int],
               last: int = LAST) -> dict[int, int]:
    """The answers to examine, by index: each loser's last ``last`` turn questions, mapped to
    their place counted from the end (1 = its last)."""
    found: dict[int, int] = {}
    seen = dict.fromkeys(losers, 0)
    for index in range(len(answers) - 1, -1, -1):
        seat, kind, _ = answers[index]
        if kind == "turn" and seat in seen and seen[seat] < last:
            seen[seat] += 1
            found[index] = seen[seat]
    return found


def analyse(box: Box, options: GameOptions, strategies: list[Player | LiSiSeat], seed: int,
            answers: list[tuple[int, str, Any]], winners: list[int],
            last: int = LAST) -> list[tuple[Any, ...]]:
    """One record (``RECORD_FIELDS``) per examined question of the game played with these
    ``strategies`` from ``seed`` and given ``answers`` (seat, kind, answer, in order)."""
    seats: list[Player | LiSiSeat | None] = [
        s if isinstance(s, LiSiSeat) else None for s in strategies]
    players: list[Player | None] = [None if isinstance(s, LiSiSeat) else s for s in strategies]
    game = Game(box, seats, seed, options)
    losers = {seat for seat in range(len(strategies)) if seat not in winners
              and seats[seat] is None}
    examined = candidates(answers, losers, last)
    records = []
    for index, (seat, kind, answer) in enumerate(answers):
        decision = game.pending()
        if decision is None or (decision.seat, decision.kind) != (seat, kind):
            raise RuntimeError(f"kingmaking replay of game seed {seed}: answer {index} was "
                               f"given to seat {seat}'s {kind!r} question, the replay asks "
                               f"{decision!r}")
        mover = players[seat]
        if mover is not None and mover.choose(game.views[seat], decision) != answer:
            raise RuntimeError(f"kingmaking replay of game seed {seed}: seat {seat} answers "
                               f"question {index} otherwise than in the game")
        if index in examined:
            outcomes = {}
            for option in decision.options:
                fork = game.fork()
                for view in fork.views:
                    view.memo.clear()
                fork.answer(option)
                outcomes[_key(option)] = tuple(fork.play(players).winners)
            kept = outcomes[_key(answer)]
            distinct = set(outcomes.values())
            could_win = any(seat in won for won in distinct)
            records.append((seat, game.state.round, examined[index], len(decision.options),
                            ",".join(map(str, kept)), len(distinct), could_win,
                            not could_win and len(distinct) > 1))
        game.answer(answer)
    return records


def _key(option: Any) -> Any:
    """An option as a dictionary key (options are ints, strings and tuples of them)."""
    return option if not isinstance(option, list) else tuple(option)
