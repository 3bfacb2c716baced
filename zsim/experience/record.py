"""The listener that records how a game unfolds: its trajectory and its decisions.

``ExperienceRecorder`` follows a game through its events (``Game.listen``), as
``zsim.records.ResultRecorder`` does for the result tables, and never reads the rules' own
workings: what it reads of the table is the state a player sees (the VP on the score track), and
the rules' public query of what each player would score if the game ended now
(``zsim.rules.scoring.standing``). It makes three tables' records, tuples of
``RECORD_FIELDS[name]``:

- ``trajectories``: one row per seat at every *point* of the game: after every turn (``stage``
  ``turn``, ``mover`` the seat whose turn it was), after every round's Unification rewards
  (``round``) and after the final scoring (``final``). ``vp`` is the score track (the in-game
  categories) and, at the final point, the final total; ``standing`` is the VP total had the game
  ended there (at every round and the final point; at every turn too in ``value`` mode, where it
  costs about a tenth of the game's time); ``p_win`` the seat's estimated chance to win, when an
  estimator of positions plays along (see ``zsim.experience.winprob``).
- ``choices``: per seat and decision kind, the questions asked (two options or more), the
  questions with one option only (``forced``: the engine never asks them, it tells them as
  ``forced`` events), the options offered in all, and, where the seat's bot valued the options
  (the heuristic bots, through ``keep_values``), the clarity sums: best minus second-best value,
  the share of options near the best, and the variance of the values.
- ``options``: per seat, decision kind and kind of option (``option_label``), how many questions
  offered it and how often it was chosen.

Rows are summed per game, so a game adds a few hundred small tuples at most; the runner turns
them into columns with the other tables (``zsim.runner.columns``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final

from zsim.components.schema import COURT_ACTIONS, OFFICIALS, REGIONS, SUITS
from zsim.rules.scoring import standing

if TYPE_CHECKING:
    from zsim.decisions import Decision
    from zsim.game import Game, GameResult

#: What a run records of each game's experience (the ``trajectories`` experiment key):
#: ``off`` nothing, ``vp`` the score track after every turn and the standing after every round,
#: ``value`` also the standing (and, with an estimator of positions, the win probabilities)
#: after every turn.
MODES: Final = ("off", "vp", "value")
DEFAULT_MODE: Final = "vp"
KINDS: Final = ("turn", "phase", "decision", "forced")  # the events listened to
RECORD_FIELDS: Final[dict[str, tuple[str, ...]]] = {
    "trajectories": ("seat", "round", "turn", "stage", "mover", "vp", "standing", "p_win"),
    "choices": ("seat", "kind", "asked", "forced", "options", "valued", "gap", "narrow",
                "spread"),
    "options": ("seat", "kind", "option", "offered", "chosen"),
}
# an option is "near the best" at mean + NARROW * (best - mean) or above (after Ludii)
NARROW: Final = 0.75

#: An estimator of positions: each seat's chance to win the game from where it stands now.
PositionEstimator = Callable[["Game"], Sequence[float]]


class Choices:
    """One seat's questions of one decision kind in a game, and the clarity sums of those its
    bot valued (``RECORD_FIELDS["choices"]``)."""

    __slots__ = ("asked", "forced", "gap", "narrow", "options", "spread", "valued")

    def __init__(self) -> None:
        self.asked = self.forced = self.options = self.valued = 0
        self.gap = self.narrow = self.spread = 0.0


class Tally:
    """How many questions offered one kind of option, and how often it was chosen."""

    __slots__ = ("chosen", "offered")

    def __init__(self) -> None:
        self.offered = self.chosen = 0


class ExperienceRecorder:
    """Records one game's trajectory, decision counts and option values; see the module
    docstring. ``mode`` is ``vp`` or ``value`` (``off`` records nothing: attach no recorder)."""

    def __init__(self, game: Game, mode: str = DEFAULT_MODE,
                 estimator: PositionEstimator | None = None) -> None:
        if mode not in MODES[1:]:
            raise ValueError(f"trajectories {mode!r}: expected one of {', '.join(MODES[1:])}")
        self.n = game.n
        self.every_turn = mode == "value"
        self.estimator = estimator
        self.turn = 0  # turns played so far in the game
        self.mover = -1  # whose turn is under way (-1: none)
        self.rewarded = 0  # the round whose rewards were the last thing played (0: none)
        self.trajectories: list[tuple[Any, ...]] = []
        # per seat: by decision kind, its questions; by decision kind and option label, a tally
        self.choices: list[dict[str, Choices]] = [{} for _ in range(game.n)]
        self.options: list[dict[str, dict[str, Tally]]] = [{} for _ in range(game.n)]
        self.values = [_kept_values(strategy, view)
                       for strategy, view in zip(game.strategies, game.views, strict=True)]

    def listen(self, game: Game) -> ExperienceRecorder:
        game.listen(self, KINDS)
        return self

    # --- the events ----------------------------------------------------------------------------

    def event(self, game: Game, kind: str, data: dict[str, Any]) -> None:
        if kind == "decision":
            self._decision(game, data["decision"], data["answer"])
        elif kind == "forced":
            self._choices(data["seat"], data["kind"]).forced += 1
        elif kind == "turn":
            self._close(game)
            self.mover = data["seat"]
        else:  # the round's rewards begin
            self._close(game)
            self.rewarded = game.state.round

    def _close(self, game: Game) -> None:
        """The point reached before a new turn or phase begins: the end of a turn, or of a
        round's rewards."""
        if self.mover >= 0:
            self.turn += 1
            self._point(game, game.state.round, "turn", self.mover, self.every_turn)
            self.mover = -1
        elif self.rewarded:
            self._point(game, self.rewarded, "round", -1, True)
            self.rewarded = 0

    def _point(self, game: Game, round_: int, stage: str, mover: int, scored: bool) -> None:
        players = game.state.players
        turn = self.turn
        append = self.trajectories.append
        if not scored and self.estimator is None:
            for seat in range(self.n):
                append((seat, round_, turn, stage, mover, players[seat].vp_in_game, None,
                        None))
            return
        totals: Sequence[int | None] = standing(game) if scored else [None] * self.n
        chances: Sequence[float | None] = (self.estimator(game) if self.estimator is not None
                                           else [None] * self.n)
        for seat in range(self.n):
            append((seat, round_, turn, stage, mover, players[seat].vp_in_game, totals[seat],
                    chances[seat]))

    def _choices(self, seat: int, kind: str) -> Choices:
        mine = self.choices[seat]
        counts = mine.get(kind)
        if counts is None:
            counts = mine[kind] = Choices()
        return counts

    def _decision(self, game: Game, decision: Decision, answer: Any) -> None:
        seat, kind, options = decision.seat, decision.kind, decision.options
        counts = self._choices(seat, kind)
        counts.asked += 1
        counts.options += len(options)
        kept = self.values[seat]
        if kept:
            # the bot weighed this decision's options (or some of them) and nothing else since
            # the last decision: what it noted are their values
            clarity = option_clarity(list(kept.values()))
            kept.clear()
            if clarity is not None:
                counts.valued += 1
                counts.gap += clarity[0]
                counts.narrow += clarity[1]
                counts.spread += clarity[2]
        # labels in the order first offered (a dict, not a set: a set's order follows the
        # strings' hashes, which change from one process to the next, and with it the order
        # of options.parquet's rows)
        labels = turn_labels(options) if kind == "turn" else dict.fromkeys(
            option_label(game, kind, option) for option in options)
        chosen = option_label(game, kind, answer)
        tallies = self.options[seat].get(kind)
        if tallies is None:
            tallies = self.options[seat][kind] = {}
        for label in labels:
            tally = tallies.get(label)
            if tally is None:
                tally = tallies[label] = Tally()
            tally.offered += 1
            if label == chosen:
                tally.chosen += 1

    # --- the end -------------------------------------------------------------------------------

    def finish(self, game: Game, result: GameResult) -> dict[str, list[tuple[Any, ...]]]:
        """The game's records, once it is over: the last round's point and the final one
        (the final scores) close the trajectory."""
        self._close(game)
        totals = [score["vp_total"] for score in result.scores]
        winners = set(result.winners)
        share = 1.0 / len(winners)
        rounds = game.state.round
        for seat in range(self.n):
            self.trajectories.append((seat, rounds, self.turn, "final", -1, totals[seat],
                                      totals[seat], share if seat in winners else 0.0))
        choices: list[tuple[Any, ...]] = []
        options: list[tuple[Any, ...]] = []
        for seat in range(self.n):
            for kind, c in self.choices[seat].items():
                choices.append((seat, kind, c.asked, c.forced, c.options, c.valued, c.gap,
                                c.narrow, c.spread))
            for kind, tallies in self.options[seat].items():
                for label, tally in tallies.items():
                    options.append((seat, kind, label, tally.offered, tally.chosen))
        return {"trajectories": self.trajectories, "choices": choices, "options": options}


def _kept_values(strategy: Any, view: Any) -> dict[Any, float] | None:
    """Where a seat's bot notes its option values, if it can (``keep_values``). A bot that
    forks is left alone: its forks share its memory, and would note their own values there."""
    keep = getattr(strategy, "keep_values", None)
    if keep is None or getattr(strategy, "forks", False):
        return None
    return keep(view)


def option_clarity(values: list[float]) -> tuple[float, float, float] | None:
    """How clear one choice was to the bot that valued its options (``values``, one per option
    it valued): (best minus second-best value, share of the options at ``mean + NARROW * (best -
    mean)`` or above, the population variance of the values). None for fewer than two."""
    count = len(values)
    if count < 2:
        return None
    best = second = -math.inf
    total = squares = 0.0
    for value in values:
        v = float(value)
        total += v
        squares += v * v
        if v > best:
            best, second = v, best
        elif v > second:
            second = v
    mean = total / count
    near = mean + NARROW * (best - mean)
    close = 0
    for value in values:
        if float(value) >= near:
            close += 1
    return best - second, close / count, max(0.0, squares / count - mean * mean)


# --- what kind of option an option is --------------------------------------------------------

COURT_LABELS: Final = tuple(f"court {action}" for action in COURT_ACTIONS)
_REGION_KINDS: Final = frozenset({"hire", "palace", "palace_worker", "governor", "region"})
_SUIT_KINDS: Final = frozenset({"token", "large_token", "discard_token"})


def turn_labels(options: list[Any]) -> dict[str, None]:
    """The kinds of option a turn question offers (``option_label`` of each), in the order
    first offered."""
    labels: dict[str, None] = {}
    for option in options:
        turn: tuple[Any, ...] = option
        head: str = turn[0]
        labels[COURT_LABELS[turn[2]] if head == "court" else head] = None
    return labels


def option_label(game: Game, kind: str, option: Any) -> str:
    """The kind of option ``option`` is, for counting what players never choose: a Court
    action, a region, an Official type, a suit, a tile, a keyword (``pass``, ``stop``...).
    Options that differ only in which card or spot they name share a label."""
    if isinstance(option, str):
        return option
    if kind == "turn":
        return COURT_LABELS[option[2]] if option[0] == "court" else str(option[0])
    if isinstance(option, tuple):
        if option and isinstance(option[0], str):
            return str(option[0])
        if kind == "recruit":
            return OFFICIALS[option[0]]
        if kind == "wall":
            return f"tier {game.state.walls[option[0]].tiers[option[1]]}"
        return "choice"
    if kind in _REGION_KINDS:
        return REGIONS[option]
    if kind in _SUIT_KINDS:
        return SUITS[option]
    if kind == "official":
        return OFFICIALS[option]
    if kind == "palace_tile":
        return game.t.box.palace_tiles[option].id
    if kind == "start_tile":
        return game.t.box.starting_tiles[option].id
    if kind == "master":
        return game.t.card_name[option]
    if kind in ("ability_option", "bonus"):
        return f"alternative {option + 1}"
    return "index"
