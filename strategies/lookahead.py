"""One-ply lookahead: turn options tried on forks, and valued by the heuristic after them.

At its turn the bot plays each of the ``width`` options the heuristic likes best (0: every
option) on a fork of the game dealt from its view, the rest of that turn and the other
players' turns answered by the heuristic, up to its own next turn question, where the position
is valued (``zsim.strategies.search.standing``: margin if the game ended now plus the heuristic's
value of its best option then). Every option is tried on the same ``samples`` deals (the same
redeal of the hidden cards and the same later chances), so the options are compared on equal
terms and the luck of a deal cancels out. Every other question goes to the heuristic it
extends (the ``greedy`` weights unless given others). It is deterministic given the game seed:
the deals come from the view's RNG.

Trying only the heuristic's best few is stronger, not merely cheaper: valued one ply ahead,
an option the heuristic rates poorly (a move whose worth shows only later) can look best by
the noise of one deal."""

from __future__ import annotations

import random
from typing import Any

from zsim.decisions import Decision
from zsim.strategies.heuristic import HeuristicStrategy, nothing_to_weigh
from zsim.strategies.search import Driver, check_types, play_out, preferred
from zsim.view import PlayerView


class LookaheadStrategy(HeuristicStrategy):
    name = "lookahead"
    description = ("tries the heuristic's best turn options on forks, valuing each at its next "
                   "turn with the heuristic (parameters: samples, width, and heuristic weights)")
    forks = True  # the engine keeps the snapshots a fork needs

    def __init__(self, samples: int = 2, width: int = 6, **weights: float) -> None:
        check_types(LookaheadStrategy.__init__, locals())
        if samples < 1:
            raise ValueError(f"samples={samples}: expected at least 1")
        if width < 0:
            raise ValueError(f"width={width}: expected 0 (every option) or more")
        super().__init__(**weights)
        self.samples, self.width = int(samples), int(width)

    def choose_turn(self, view: PlayerView, decision: Decision) -> Any:
        if nothing_to_weigh(decision):
            return super().choose_turn(view, decision)
        seeds = [view.rng.getrandbits(64) for _ in range(self.samples)]
        judge = HeuristicStrategy(**self.params)
        candidates = preferred(judge, view, decision, self.width)
        best, top = candidates[0], -float("inf")
        for option in candidates:
            def pick(v: PlayerView, d: Decision, turns: int, option: Any = option) -> Any:
                return option if turns == 0 and v.seat == view.seat else None
            total = sum(play_out(view, random.Random(seed),
                                 Driver(view.seat, pick, judge, judge, horizon=1))
                        for seed in seeds)
            if total > top:
                best, top = option, total
        return best
