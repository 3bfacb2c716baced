"""Information-set Monte Carlo tree search at the turn question (single-observer ISMCTS).

Each iteration deals a fresh determinisation from the seat's view (``view.fork``: the cards it
cannot see redealt at random) and walks one tree down it: a node is a turn question of some
seat, its children the options tried there. In a deal, only the options legal in that deal
compete (another player's redealt hand offers other cards), by UCB1 counted over the deals in
which each was available. Options join a node in the heuristic's order of preference: at the
root each of the ``width`` kept is tried once before any is tried twice; below it one at first
and more as the node is visited (progressive widening), so that the other players answer as the
heuristic would until the budget can tell their options apart. Below the tree a fast policy
plays on (``rollout``: the heuristic, ``basic`` or ``random``) to the horizon, the seat's
``horizon``-th later turn (0: the end of the game), where the position is valued
(``zsim.strategies.search.standing``: margin if the game ended now plus the heuristic's value of the
seat's best option then). The seat's own nodes maximise that value, the other players' nodes
minimise it (a paranoid search: in a game of more than two, the others are taken to play
against the searching seat). The root keeps the ``width`` options the heuristic likes best (0:
all of them), and the most visited is chosen.

Every other question is answered by the heuristic it extends (``greedy``'s weights unless given
others). With ``iterations`` (the default) it is deterministic given the game seed: deals,
tie-breaks and the policy's draws come from the view's RNG. ``seconds`` > 0 searches for that long
instead, however many iterations that is, so its games depend on the machine's speed and load
and are not reproducible.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from zsim.decisions import Decision
from zsim.strategies.heuristic import HeuristicStrategy, nothing_to_weigh
from zsim.strategies.search import Driver, check_policy, play_out, policy, preferred
from zsim.view import PlayerView


def _widening(visits: int) -> int:
    """How many options of a node below the root may be tried after ``visits`` walks through
    it (progressive widening): one, the heuristic's favourite, then one more as the visits
    reach 3, 8, 15... A node is never widened to options the tiny budget could not compare."""
    return int(math.sqrt(visits + 1))


class Node:
    """A turn question in the tree: its options tried, and what came of them."""

    __slots__ = ("available", "children", "mine", "total", "visits")

    def __init__(self) -> None:
        self.mine = True  # the searching seat's question (maximise) or another's (minimise)
        self.children: dict[Any, Node] = {}
        self.visits = 0
        self.total = 0.0  # the searching seat's standing summed over the visits
        self.available = 0  # deals in which this node's option was legal, once tried


class MctsStrategy(HeuristicStrategy):
    name = "mcts"
    description = ("information-set MCTS at the turn question (parameters: iterations, seconds, "
                   "rollout heuristic|basic|random, horizon, width, exploration, and heuristic "
                   "weights)")
    forks = True  # the engine keeps the snapshots a fork needs

    def __init__(self, iterations: int = 12, seconds: float = 0.0, rollout: str = "heuristic",
                 horizon: int = 0, width: int = 8, exploration: float = 3.0,
                 **weights: float) -> None:
        check_policy(rollout)
        if iterations < 1:
            raise ValueError(f"iterations={iterations}: expected at least 1")
        if seconds < 0 or horizon < 0 or width < 0 or exploration < 0:
            raise ValueError("seconds, horizon, width and exploration must not be negative")
        super().__init__(**weights)
        self.iterations, self.seconds = int(iterations), float(seconds)
        self.rollout, self.horizon, self.width = rollout, int(horizon), int(width)
        self.exploration = float(exploration)

    def choose_turn(self, view: PlayerView, decision: Decision) -> Any:
        if nothing_to_weigh(decision):
            return super().choose_turn(view, decision)
        judge = HeuristicStrategy(**self.params)
        candidates = preferred(judge, view, decision, self.width)
        fast = judge if self.rollout == "heuristic" else policy(self.rollout, self.params)
        rng = random.Random(view.rng.getrandbits(64))
        root = Node()
        deadline = time.perf_counter() + self.seconds if self.seconds else None
        done = 0
        while done < self.iterations if deadline is None else time.perf_counter() < deadline:
            self._iterate(view, root, candidates, rng, judge, fast)
            done += 1
        return max(candidates, key=lambda o: root.children[o].visits
                   if o in root.children else -1)

    def _iterate(self, view: PlayerView, root: Node, candidates: list, rng: random.Random,
                 judge: HeuristicStrategy, fast: Any) -> None:
        """One deal, one walk down the tree, one node added, a playout, and its value backed up
        the path."""
        path = [root]
        expanding = [True]  # still in the tree: no node added yet in this walk
        seat = view.seat

        def pick(v: PlayerView, d: Decision, turns: int) -> Any:
            if not expanding[0]:
                return None  # below the tree: the policy plays
            node = path[-1]
            node.mine = v.seat == seat
            legal = candidates if node is root else d.options
            tried = [o for o in legal if o in node.children]
            for o in tried:
                node.children[o].available += 1
            if len(tried) < (len(legal) if node is root else
                             min(len(legal), _widening(node.visits))):
                order = candidates if node is root else preferred(judge, v, d, 0)
                option = next(o for o in order if o not in node.children)
                child = node.children[option] = Node()
                child.available = 1
                expanding[0] = False
            else:
                option = self._select(node, tried)
                child = node.children[option]
            path.append(child)
            return option

        driver = Driver(seat, pick, fast, judge, self.horizon)
        value = play_out(view, random.Random(rng.getrandbits(64)), driver)
        for node in path:
            node.visits += 1
            node.total += value

    def _select(self, node: Node, legal: list) -> Any:
        """UCB1 among the options legal in this deal, by the mover's side of the value."""
        c = self.exploration
        sign = 1.0 if node.mine else -1.0

        def ucb(option: Any) -> float:
            child = node.children[option]
            return sign * child.total / child.visits + c * math.sqrt(
                math.log(max(child.available, 1)) / child.visits)

        return max(legal, key=ucb)
