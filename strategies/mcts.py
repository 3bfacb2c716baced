"""Information-set Monte Carlo tree search at the turn question (single-observer ISMCTS).

Each iteration deals a fresh determinisation from the seat's view (``view.fork``: the cards it
cannot see redealt at random) and walks one tree down it: a node is a turn question of some
seat, its children the options tried there. In a deal, only the options legal in that deal
compete (another player's redealt hand offers other cards), by UCB1 counted over the deals in
which each was available. Options join a node in the heuristic's order of preference: at the
root each of the ``width`` kept is tried once before any is tried twice; below it one at first
and more as the node is visited (progressive widening), so that the other players answer as the
heuristic would until the budget can tell their options apart. Below the tree a fast policy
plays on (``rollout``: the heuristic, ``distilled``, ``basic`` or ``random``) to the horizon,
the seat's ``horizon``-th later turn (0: the end of the game), where the position is valued
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

``root='halving'`` spends the budget differently: no tree, but deals shared by every candidate
at the root (each candidate tried on the same redeal and the same later chances, so that the
luck of a deal cancels out of their comparison) and sequential halving (each round gives the
candidates still in an equal share of the budget on the deals so far and drops the worse half,
so the budget goes to the options that are close). It spends at most ``iterations`` playouts,
except that every candidate is tried once: a round that the playouts left cannot give to every
candidate still in is not begun, and the best on the deals so far is chosen (with ``width`` 8,
12 iterations play 8 + 4 playouts, 14 play 8 + 4 + 2). ``prior`` adds the judge's value of each
option (in VP, times ``prior``; see ``judge`` below) to the mean it is judged by.
``kinds`` names the questions searched besides ``turn`` (``all``: the Starting tile, the
rewards, the Elixir, the Palace and Governor tiles, the Master Alchemist and the soldiers'
tokens); those are always searched by halving, a flat question with few options. ``leaf='model'``
values a fork at its horizon with a learned value model (``zsim.learn.model``; ``model``: its
file, by default the one shipped for the game's player count) instead of the heuristic's
``standing``, so that short playouts can stand in for long ones.

``last`` > 0 searches only the seat's last ``last`` turns (the questions asked while it has at
most that many cards still to play, its hand and the draws of the rounds to come), and answers
the earlier ones with the judge's favourite, at the judge's cost. At the end of a game a
search is cheap (its playouts are short) and, as measured, worth much: a playout to the end
replaces the heuristic's guess of what an option brings later with the score, when little or
nothing comes later (docs/strategies.md, "A search of the last turns only").

``judge`` is the bot whose values do the heuristic's part in the search: the order in which
options join a node, the root's ``width`` kept, the halving root's first order and ``prior``,
and the value of the best option at a horizon. ``judge='distilled'`` is the heuristic on the
learned weights and move bonuses of ``zsim.strategies.distilled`` (the player count's shipped
scorer, with this bot's weights for the questions it does not score); ``rollout='distilled'``
plays the playouts with it. Both cost what the heuristic does.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Any

from zsim.decisions import Decision
from zsim.strategies.base import METHODS
from zsim.strategies.heuristic import HeuristicStrategy, nothing_to_weigh
from zsim.strategies.rootpool import play_deal
from zsim.strategies.search import (
    Driver,
    Evaluate,
    check_judge,
    check_model,
    check_policy,
    check_search_players,
    check_types,
    judge_of,
    play_out,
    policy,
    preferred,
)
from zsim.view import PlayerView

ROOTS = ("ucb", "halving")
LEAVES = ("standing", "model")
# the questions besides ``turn`` that ``kinds='all'`` searches: those whose answer shapes the
# game (the heuristic answers the sub-questions of a Court action at once, as before)
SEARCHABLE = ("start_tile", "reward", "elixir", "palace_tile", "governor_slot", "master",
              "unlock", "emperor")


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
                   "rollout heuristic|distilled|basic|random, judge heuristic|distilled, "
                   "horizon, width, exploration, root ucb|halving, prior, kinds, leaf "
                   "standing|model, model, last, jobs, and heuristic weights)")
    forks = True  # the engine keeps the snapshots a fork needs

    def __init__(self, iterations: int = 12, seconds: float = 0.0, rollout: str = "heuristic",
                 horizon: int = 0, width: int = 8, exploration: float = 3.0,
                 root: str = "ucb", prior: float = 0.0, kinds: str = "turn",
                 leaf: str = "standing", model: str = "", judge: str = "heuristic",
                 last: int = 0, jobs: int = 1, **weights: float) -> None:
        check_types(MctsStrategy.__init__, locals())
        check_policy(rollout)
        check_judge(judge)
        if iterations < 1:
            raise ValueError(f"iterations={iterations}: expected at least 1")
        if min(seconds, horizon, width, exploration, prior, last) < 0:
            raise ValueError("seconds, horizon, width, exploration, prior and last must not be "
                             "negative")
        if root not in ROOTS:
            raise ValueError(f"root {root!r}: expected one of {', '.join(ROOTS)}")
        if leaf not in LEAVES:
            raise ValueError(f"leaf {leaf!r}: expected one of {', '.join(LEAVES)}")
        if seconds and root != "ucb":
            raise ValueError("seconds: a budget in seconds works with root='ucb' only")
        if leaf == "model" and not horizon:
            raise ValueError("leaf='model' values a fork at its horizon: give horizon >= 1")
        if jobs < 1:
            raise ValueError(f"jobs={jobs}: expected at least 1")
        if jobs > 1 and (root != "halving" or leaf != "standing"):
            raise ValueError("jobs: the playouts of a search are shared among processes with "
                             "root='halving' and leaf='standing' only")
        check_model(model)
        super().__init__(**weights)
        self.iterations, self.seconds = int(iterations), float(seconds)
        self.rollout, self.horizon, self.width = rollout, int(horizon), int(width)
        self.exploration, self.root, self.prior = float(exploration), root, float(prior)
        self.kinds = searched_kinds(kinds)
        self.leaf, self.model, self.judge, self.last = leaf, model, judge, int(last)
        self.jobs = int(jobs)

    def check_players(self, n_players: int) -> None:
        """Refuse a player count this search has no scorer or value model for, before a run
        plays any game."""
        check_search_players(self.judge, self.rollout, self.model, self.leaf, n_players)

    def search(self, view: PlayerView, decision: Decision) -> Any:
        """The searched answer to a question of ``kinds`` (the heuristic's own bookkeeping of
        the turn's estimates has run: the question comes through ``choose``)."""
        if decision.kind == "turn" and nothing_to_weigh(decision):
            return HeuristicStrategy.choose_turn(self, view, decision)
        judge = self._judge()
        if self.last and view.turns_left > self.last:  # too early in the game to search
            return preferred(judge, view, decision, 1)[0]
        if decision.kind == "turn" and self.root == "ucb":
            return self._tree(view, decision, judge)
        return self._halving(view, decision, judge, judge.option_values(view, decision))

    def _judge(self) -> HeuristicStrategy:
        """The judge, built at the first search and kept: it holds no state of a game (what it
        notes of one lives in the view's memo), and building ``distilled`` at every question
        cost a sixth of the CPU of a game of ``last=1``."""
        judge = self.__dict__.get("_judged")
        if judge is None:
            judge = self.__dict__["_judged"] = judge_of(self.judge, self.params)
        return judge

    def __getstate__(self) -> dict[str, Any]:
        state = super().__getstate__()
        state.pop("_judged", None)  # built again on arrival, at the first search
        return state

    def _fast(self, judge: HeuristicStrategy) -> Any:
        return judge if self.rollout == self.judge else policy(self.rollout, self.params)

    def _evaluate(self, view: PlayerView) -> Evaluate | None:
        """The leaf evaluation: None for the heuristic's standing, else the model's."""
        if self.leaf == "standing":
            return None
        from zsim.learn.model import leaf_value  # numpy only, loaded once per process

        return leaf_value(self.model, view)

    # --- the flat root: common deals and sequential halving -------------------------------

    def _halving(self, view: PlayerView, decision: Decision, judge: HeuristicStrategy,
                 values: list[float | None]) -> Any:
        """Sequential halving over the root's candidates, every candidate on the same deals."""
        order = sorted(range(len(decision.options)), key=lambda i: -(values[i] or 0.0))
        alive = [decision.options[i] for i in order[:self.width or None]]
        prior = {decision.options[i]: (values[i] or 0.0) * self.prior for i in order}
        rng = random.Random(view.rng.getrandbits(64))
        if len(alive) == 1:
            return alive[0]
        fast, evaluate = self._fast(judge), self._evaluate(view)
        rounds = max(1, math.ceil(math.log2(len(alive))))
        totals = dict.fromkeys(alive, 0.0)
        deals = spent = 0

        def driver(option: Any) -> Driver:
            return Driver(view.seat, _leave, fast, judge, self.horizon, evaluate, first=option)

        for done in range(rounds):
            left = self.iterations - spent
            share = max(left, 0) // ((rounds - done) * len(alive))
            if not share:  # fewer playouts left than the rounds would split evenly
                if spent and left < len(alive):
                    break  # the budget is spent: the best on the deals so far
                share = 1  # every candidate is tried once, and a round begun is played whole
            for seed in [rng.getrandbits(64) for _ in range(share)]:
                worths = play_deal(view, seed, alive, driver, self.jobs, play_out)
                for option, worth in zip(alive, worths, strict=True):
                    totals[option] += worth
                    spent += 1
            deals += share
            keep = math.ceil(len(alive) / 2) if done < rounds - 1 else 1
            # a stable sort: among equals the heuristic's favourite stays ahead
            alive = sorted(alive, key=lambda o: -(totals[o] / deals + prior[o]))[:keep]
        return alive[0]

    # --- the tree at the turn question --------------------------------------------------------

    def _tree(self, view: PlayerView, decision: Decision, judge: HeuristicStrategy) -> Any:
        candidates = preferred(judge, view, decision, self.width)
        fast, evaluate = self._fast(judge), self._evaluate(view)
        rng = random.Random(view.rng.getrandbits(64))
        root = Node()
        deadline = time.perf_counter() + self.seconds if self.seconds else None
        done = 0
        while done < self.iterations if deadline is None else time.perf_counter() < deadline:
            self._iterate(view, root, candidates, rng, judge, fast, evaluate)
            done += 1
        return max(candidates, key=lambda o: root.children[o].visits
                   if o in root.children else -1)

    def _iterate(self, view: PlayerView, root: Node, candidates: list, rng: random.Random,
                 judge: HeuristicStrategy, fast: Any, evaluate: Evaluate | None) -> None:
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

        driver = Driver(seat, pick, fast, judge, self.horizon, evaluate)
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


def _searching(kind: str) -> Callable[[MctsStrategy, PlayerView, Decision], Any]:
    """The answer to a ``kind`` question: searched when the bot searches that kind, the
    heuristic's otherwise."""
    heuristic = getattr(HeuristicStrategy, METHODS[kind])

    def answer(self: MctsStrategy, view: PlayerView, decision: Decision) -> Any:
        if kind in self.kinds:
            return self.search(view, decision)
        return heuristic(self, view, decision)

    answer.__doc__ = f"The {kind!r} question: searched if ``kinds`` names it."
    return answer


for _kind in ("turn", *SEARCHABLE):
    setattr(MctsStrategy, METHODS[_kind], _searching(_kind))


def _leave(view: PlayerView, decision: Decision, turns: int) -> None:
    """Below a flat root every question goes to the playout policy."""
    return None


def searched_kinds(kinds: str) -> frozenset[str]:
    """The questions a search answers: ``turn`` and those named (comma-separated; ``all``:
    every kind of ``SEARCHABLE``)."""
    names = {k.strip() for k in kinds.split(",") if k.strip()}
    if "all" in names:
        names = (names - {"all"}) | set(SEARCHABLE)
    unknown = sorted(names - {"turn", *SEARCHABLE})
    if unknown:
        raise ValueError(f"kinds: {unknown[0]!r} is not searched; expected turn, all, or some "
                         f"of {', '.join(SEARCHABLE)}")
    return frozenset(names | {"turn"})
