"""One ply on a learned value model: the heuristic's few favourite turns tried on a fork, the
position after each valued, the best played.

At a turn question (by default; ``kinds``), the bot deals ``samples`` forks of the game from its
own view (``view.fork``: the cards it cannot see redealt at random, so it never sees a hidden
card), and on each applies each of the heuristic's ``width`` favourite options (the same deals
for every option) and plays on until the move is complete: the questions that follow it for the
same seat (the Court action's sub-questions, the abilities it fires) are answered by the
heuristic, and the fork stops at the next question of another seat or the next turn question.
Valued any earlier, an option whose worth comes in its sub-questions (recruiting, then choosing
whom) would be valued before it paid anything back. Its own view of the fork there is encoded
(``zsim.learn.features.inputs``: its observation and the end-game scores as they stand) and
valued by the model (``zsim.learn.model``), all the options of a deal in one batch; a fork that
reaches the end of the game counts its final result instead. The best mean wins; among equals,
the heuristic's favourite. ``target`` says what is maximised: the expected final ``margin`` in
VP (the default) or the chance to ``win``.

Why so narrow, by measurement (docs/strategies.md): the model is fitted on the heuristics'
games, so it values what goes with winning there, not what a resource is worth when spent. Asked
every question, the bot refused rewards and stopped unlocking (paying tokens, which winners of
those games hold many of, looks like a loss) and lost every game to ``greedy``; asked the turns
only but among every option, it chose by the model's errors among dozens of options. Among the
heuristic's three favourite turns, where the heuristic is unsure (its favourites are usually
within a VP or two of each other), the model's judgement adds to it.

``kinds``: ``turn`` (the default), ``every`` (every question of every kind), or as for ``mcts``
(``all``, or some kinds by name, comma-separated); the others are answered by the heuristic
(the one it extends, ``greedy``'s weights unless given others). ``width`` 0 tries every option.
Deterministic given the game seed: the deals come from the view's RNG.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from zsim.decisions import Decision
from zsim.rules import scoring
from zsim.strategies.base import Strategy
from zsim.strategies.heuristic import HeuristicStrategy
from zsim.strategies.mcts import searched_kinds
from zsim.strategies.search import (
    check_model,
    check_model_players,
    check_types,
    margin,
    preferred,
)
from zsim.view import PlayerView

TARGETS = ("margin", "win")


class ValueStrategy(HeuristicStrategy):
    name = "value"
    description = ("one ply on the learned value model: the heuristic's few favourite turns "
                   "tried on a fork and valued (parameters: model, samples, width, kinds, "
                   "target margin|win, and heuristic weights)")
    forks = True  # the engine keeps the snapshots a fork needs

    def __init__(self, model: str = "", samples: int = 1, width: int = 3,
                 target: str = "margin", kinds: str = "turn", **weights: float) -> None:
        check_types(ValueStrategy.__init__, locals())
        if samples < 1:
            raise ValueError(f"samples={samples}: expected at least 1")
        if width < 0:
            raise ValueError(f"width={width}: expected 0 (every option) or more")
        if target not in TARGETS:
            raise ValueError(f"target {target!r}: expected one of {', '.join(TARGETS)}")
        check_model(model)
        valued = None if kinds == "every" else searched_kinds(kinds)
        super().__init__(**weights)
        self.model, self.samples, self.width = str(model), int(samples), int(width)
        self.target, self.kinds, self.valued = target, kinds, valued

    def check_players(self, n_players: int) -> None:
        """Refuse a player count this bot has no value model for, before a run plays any game
        (``ModelError``, one line naming the file)."""
        check_model_players(self.model, n_players)

    def choose(self, view: PlayerView, decision: Decision) -> Any:
        if self.valued is not None and decision.kind not in self.valued:
            return super().choose(view, decision)
        from zsim.learn.features import inputs
        from zsim.learn.model import view_model

        model = view_model(self.model, view)
        judge = HeuristicStrategy(**self.params)
        options = preferred(judge, view, decision, self.width) if self.width else \
            decision.options
        if len(options) == 1:  # nothing to compare: no deal
            return options[0]
        column = 0 if self.target == "margin" else 1
        seat = view.seat
        totals = np.zeros(len(options))
        for _ in range(self.samples):
            deal = view.fork(random.Random(view.rng.getrandbits(64)))
            rows, where, ended = [], [], np.zeros(len(options))
            for i, option in enumerate(options):
                fork = deal.fork()
                fork.views[seat].memo.clear()  # the heuristic's estimates are the real game's
                try:
                    fork.play([_Move(seat, option, judge)] * view.n_players)
                except _Done:
                    rows.append(inputs(fork, fork.views[seat]))
                    where.append(i)
                    continue
                ended[i] = self._final(fork, seat)  # the game is over: its result, not a guess
            if rows:
                ended[where] = model.predict(np.stack(rows))[:, column]
            totals += ended
        return options[int(np.argmax(totals))]

    def _final(self, fork: Any, seat: int) -> float:
        totals = [s["vp_total"] for s in scoring.final_scores(fork)]
        if self.target == "margin":
            return margin(totals, seat)
        best = max(totals)
        return (totals[seat] == best) / totals.count(best)


class _Done(Exception):
    """The move tried is complete: the fork stops here to be valued."""


class _Move(Strategy):
    """Every seat of a fork: answers the fork's first question with the option tried, the same
    seat's questions that follow with the heuristic, and stops the fork at the next question of
    another seat or the next turn question."""

    name = "value move"

    def __init__(self, seat: int, option: Any, judge: HeuristicStrategy) -> None:
        self.seat, self.option, self.judge, self.first = seat, option, judge, True

    def choose(self, view: PlayerView, decision: Decision) -> Any:
        if self.first:
            self.first = False
            return self.option
        if decision.seat != self.seat or decision.kind == "turn":
            raise _Done
        return self.judge.choose(view, decision)
