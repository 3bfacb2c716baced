"""What the search bots share: playing a determinised fork to a horizon, and valuing it there.

A search bot (``lookahead``, ``mcts``) tries turn options on forks of the game dealt from its
own view (``view.fork``), so it never sees a card its player cannot. A fork is played by one
``Driver`` in every seat: the engine asks it every question as it would ask a strategy (so each
seat's view of the fork is current), and it answers turn questions through the search's own
``pick`` and every other question with a policy. The search stops a fork at its horizon, its
own seat's n-th turn question, by raising ``Horizon`` out of the fork (which is then dropped),
after valuing the position there.

The value of a position for a seat (``standing``) is its margin, its VP minus the best other
player's VP if the game ended now (``zsim.rules.scoring.final_scores``), plus what the
heuristic thinks the seat's best option at that turn question is worth (the estimator's
immediate VP plus estimated end-game VP): a seat that has built up Officials, Workers or a good
hand scores its potential, not just its points so far. At the end of the game it is the final
margin.
"""

from __future__ import annotations

import inspect
import random
from collections.abc import Callable
from functools import cache, partial
from pathlib import Path
from typing import Any

from zsim.decisions import Decision
from zsim.rules import scoring
from zsim.strategies.base import Strategy
from zsim.strategies.basic import BasicStrategy
from zsim.strategies.distilled import DistilledStrategy
from zsim.strategies.heuristic import HeuristicStrategy
from zsim.strategies.random_bot import RandomStrategy
from zsim.view import PlayerView, shared_readers

Pick = Callable[[PlayerView, Decision, int], Any]  # a search's answer to a turn question
# the value of a fork's position for the searching seat, at the horizon: (fork, the seat's view
# there, the turn question it stands at) -> a margin in VP
Evaluate = Callable[[Any, PlayerView, Decision], float]
# the policies a search may play its forks with, by name (``heuristic``: the bot's own weights;
# ``distilled``: the heuristic on the learned weights of the player count's shipped scorer,
# ``zsim.strategies.distilled``, at about the heuristic's cost)
POLICIES = ("heuristic", "distilled", "basic", "random")
# the bots that may judge a search's options (order them, keep the best few, value a horizon)
JUDGES = ("heuristic", "distilled")


class Horizon(Exception):
    """Raised out of a fork at the search's horizon; ``value`` is the position's standing for
    the searching seat there."""

    def __init__(self, value: float) -> None:
        super().__init__(value)
        self.value = value


def margin(totals: list[int], seat: int) -> float:
    """A seat's VP minus the best other player's."""
    return totals[seat] - max(t for s, t in enumerate(totals) if s != seat)


def check_types(init: Callable[..., None], given: dict[str, Any]) -> None:
    """Refuse a parameter whose value is not of the type ``init`` declares for it (``int``,
    ``float`` or ``str``; call it with ``locals()`` first thing in ``init``). A spec's values
    are whatever was typed: ``iterations='a'`` or ``[1]`` failed later in a comparison with
    Python's words, ``1.5`` was silently cut to 1 while the results named 1.5, and ``True``
    played as 1. A whole float (``2.0``) is a whole number; a bool is no number."""
    for name, declared in _declared_types(init).items():
        if name in given and not _fits(given[name], declared):
            what = {int: "a whole number", float: "a number", str: "text"}[declared]
            raise ValueError(f"parameter {name!r}: expected {what}, not {given[name]!r}")


@cache
def _declared_types(init: Callable[..., None]) -> dict[str, type]:
    """The named parameters of ``init`` declared ``int``, ``float`` or ``str``."""
    named = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    return {name: p.annotation
            for name, p in inspect.signature(init, eval_str=True).parameters.items()
            if p.kind in named and p.annotation in (int, float, str)}


def _fits(value: Any, declared: type) -> bool:
    if declared is str:
        return isinstance(value, str)
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    return declared is float or isinstance(value, int) or value.is_integer()


def check_policy(name: str) -> None:
    """Refuse a policy name that is not one of ``POLICIES``."""
    if name not in POLICIES:
        raise ValueError(f"rollout {name!r}: expected one of {', '.join(POLICIES)}")


def check_judge(name: str) -> None:
    """Refuse a judge name that is not one of ``JUDGES``."""
    if name not in JUDGES:
        raise ValueError(f"judge {name!r}: expected one of {', '.join(JUDGES)}")


def check_model(path: str) -> None:
    """Refuse a value model file that cannot be read when the bot is made, before any game is
    played (``ModelError``, one line naming the file), rather than at its first question."""
    if path:
        from zsim.learn.model import load

        load(path)


def check_model_players(path: str, n_players: int) -> None:
    """Refuse a value model (``path``, or the one shipped for the count when empty) that
    does not exist for ``n_players`` or was trained for another count: ``ModelError``, one
    line naming the file, before a run plays any game (every game would fail)."""
    from zsim.learn.model import ModelError, default_path, load

    file = Path(path) if path else default_path(n_players)
    if not path and not file.is_file():
        raise ModelError(f"no value model is shipped for {n_players} players ({file}); "
                         f"train one with zsim train and pass it as model='FILE'")
    trained = load(str(file)).meta.get("n_players")
    if trained != n_players:
        raise ModelError(f"model file {file}: trained for {trained} players, not the "
                         f"{n_players} of this run")


def check_search_players(judge: str, rollout: str, model: str, leaf: str,
                         n_players: int) -> None:
    """Refuse a player count a search has no scorer (``distilled`` judging or playing out) or
    value model (``leaf='model'``) for, before a run plays any game."""
    if "distilled" in (judge, rollout):
        DistilledStrategy().check_players(n_players)
    if leaf == "model":
        check_model_players(model, n_players)


def policy(name: str, weights: dict[str, float]) -> Strategy:
    """A fork's policy by name; the heuristic and ``distilled`` play with ``weights``."""
    check_policy(name)
    if name in JUDGES:
        return judge_of(name, weights)
    return BasicStrategy() if name == "basic" else RandomStrategy()


def judge_of(name: str, weights: dict[str, float]) -> HeuristicStrategy:
    """A judge by name (``JUDGES``) with ``weights``; ``distilled`` on the player count's
    shipped scorer."""
    check_judge(name)
    return DistilledStrategy("", **weights) if name == "distilled" else \
        HeuristicStrategy(**weights)


def preferred(judge: HeuristicStrategy, view: PlayerView, decision: Decision,
              width: int) -> list:
    """The ``width`` options the judge (the heuristic, or ``distilled``) values most, best
    first (0: every option)."""
    options = decision.options
    values = judge.option_values(view, decision)
    order = sorted(range(len(options)), key=lambda i: -(values[i] or 0.0))
    return [options[i] for i in order[:width or None]]


class Driver(Strategy):
    """The strategy of every seat of a searched fork.

    Turn questions go to ``pick(view, decision, turns)`` (``turns``: how many turn questions of
    the searching seat came before this one in the fork, the searched one being the first),
    which returns an option, or ``None`` to leave the question to ``policy``; every other
    question goes to ``policy``. The searching seat's ``horizon``-th turn question after the
    searched one ends the fork with ``Horizon`` (``horizon`` 0: the fork is played to the end),
    valued there by ``evaluate`` (``standing`` unless given another).

    ``first``, when given, answers the fork's first question, whatever its kind: the option a
    search tries at its root. That question counts as the searched one, a turn question or not,
    so with ``horizon`` 1 the fork stops at the seat's next turn question.
    """

    name = "search driver"

    def __init__(self, seat: int, pick: Pick, policy: Strategy, judge: HeuristicStrategy,
                 horizon: int, evaluate: Evaluate | None = None, first: Any = None) -> None:
        self.seat, self.pick, self.policy, self.judge = seat, pick, policy, judge
        self.horizon = horizon
        self.evaluate: Evaluate = evaluate or partial(standing, judge=judge)
        self.first, self.trying = first, first is not None
        self.turns = 0  # the searching seat's turn questions seen so far in the fork
        self.game: Any = None  # the fork it plays, which the search owns
        # The fork's seats are shown its table itself, not copies, when the bots answering
        # there only read it (``zsim.view.shared_readers``; ``pick`` and ``evaluate``, the
        # search's own, only read too): the fork is the search's own game, so this concerns
        # no one else, and spares the playouts a copy of the table at every question.
        self.reads_only = type(policy) in shared_readers() and type(judge) in shared_readers()

    def choose(self, view: PlayerView, decision: Decision) -> Any:
        if self.trying:  # the root question, answered with the option tried
            self.trying, self.turns = False, 1
            return self.first
        if decision.kind == "turn":
            turns = self.turns
            if view.seat == self.seat:
                if self.horizon and turns == self.horizon:
                    raise Horizon(self.evaluate(self.game, view, decision))
                self.turns += 1
            choice = self.pick(view, decision, turns)
            if choice is not None:
                return choice
        return self.policy.choose(view, decision)


def play_out(view: PlayerView, rng: random.Random, driver: Driver) -> float:
    """Play a fork of the game at ``view``'s turn question, dealt with ``rng``, with ``driver``
    in every seat, and return the searching seat's standing at the horizon (or the end)."""
    fork = driver.game = view.fork(rng)
    try:
        result = fork.play([driver] * view.n_players)
    except Horizon as stop:
        return stop.value
    return margin([s["vp_total"] for s in result.scores], view.seat)


def standing(fork: Any, view: PlayerView, decision: Decision, *,
             judge: HeuristicStrategy) -> float:
    """The seat's margin if the fork ended now, plus the heuristic's value of its best option
    at this turn question of the fork (see the module docstring)."""
    totals = [s["vp_total"] for s in scoring.final_scores(fork)]
    values = [v for v in judge.option_values(view, decision) if v is not None]
    return margin(totals, view.seat) + max(values, default=0.0)
