"""A seat-balanced round robin, planned as an ordinary experiment.

A tournament is the ``balanced`` seating of ``zsim.runner.seeds`` played to completion: with
S strategies at K players, every K-subset of the lineup sits down in every one of its K! seat
orders exactly once per round, so each strategy meets every set of opponents equally often and
sits in every seat equally often, against every neighbour on either side. Strategy is then
aliased neither with seat nor with opponents, and a rating of the games compares like with
like. A round is ``C(S, K) * K!`` games; a requested game count is rounded up to whole rounds.
The games are played by the runner like any run (``zsim tournament`` = ``zsim run`` with this
experiment, then ``zsim rate``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import comb, factorial

from zsim.runner.experiment import Experiment, ExperimentError


@dataclass(frozen=True)
class Tournament:
    """The experiment to play and how the requested game count became a balanced one."""

    experiment: Experiment
    round_games: int  # games of one complete round: every subset in every seat order
    requested: int

    @property
    def rounds(self) -> int:
        return self.experiment.games // self.round_games

    def describe(self) -> str:
        """One line on the design, and on the rounding when there was any."""
        s, k = len(self.experiment.strategies), self.experiment.players[0]
        design = (f"a balanced round robin of {s} strategies at {k} players is played in "
                  f"rounds of {self.round_games} games ({comb(s, k)} lineup(s) of {k} x "
                  f"{factorial(k)} seat orders)")
        games = self.experiment.games
        if games == self.requested:
            return f"{design}: {games} games, {self.rounds} round(s)"
        return (f"{design}: --games {self.requested} rounded up to {games} "
                f"({self.rounds} round(s))")


def round_games(strategies: int, players: int) -> int:
    """Games in one round: every ``players``-subset of the lineup in every seat order."""
    return comb(strategies, players) * factorial(players)


def plan_tournament(base: Experiment, strategies: Sequence[str], players: int,
                    games: int | None, **overrides: object) -> Tournament:
    """The tournament of ``strategies`` at ``players`` seats, on ``base``'s box, variants and
    execution settings; ``games`` (default: the base's) is rounded up to whole rounds."""
    names = [" ".join(name.split()) for name in strategies]  # as the registry names them
    if len(names) < 2:
        raise ExperimentError("a tournament needs at least two strategies (give -s A -s B ...)")
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise ExperimentError(f"strategy {repeated[0]!r} is given twice; a tournament's lineup "
                              "names each strategy once (every game already seats it against "
                              "every set of others)")
    if len(names) < players:
        raise ExperimentError(f"a tournament at {players} players needs at least {players} "
                              f"strategies (got {len(names)}); lower --players, or use "
                              "`zsim run` for games with one strategy in several seats")
    requested = games if games is not None else base.games
    size = round_games(len(names), players)
    rounded = -(-requested // size) * size
    experiment = base.with_overrides(
        "command line", name="tournament",
        description=f"seat-balanced round robin of {', '.join(names)} at {players} players",
        strategies=names, players=[players], seats="balanced", games=rounded, **overrides)
    return Tournament(experiment, size, requested)
