"""The heuristic with weights learned from playouts: other rates by phase of the game, and a
bonus per kind of move, at the heuristic's cost.

At a turn question the bot finds the phase of the game its scorer gives for the turns left
(``zsim.learn.policy``), values every option as the heuristic does with that phase's weights,
adds the phase's bonus for each option's kind of move (a tuck, each Court action, a Court
action firing the card below), and plays the best of the heuristic's ``width`` favourites (the
options the scorer was fitted on). The scorer was fitted so that the option it prefers is the
one that plays out best (``zsim.learn.distill``): a one-step improvement on the heuristic,
learned once, with no fork or playout in play. The questions that follow a turn are answered by
the heuristic with the turn's estimator (so with the phase's weights); every other question by
the heuristic it extends (``greedy``'s weights unless given others). Weights given to the bot
shift the phases' learned ones by their difference from 1 (``phase_params``): a style on top of
the scorer, as the archetypes' files with ``plays: distilled`` are.

``scorer``: the scorer file (by default the strongest shipped for the game's player count,
``STRONGEST_SCORER``; a file fitted for another count is refused, one fitted on other rules
plays with a warning), or the name of a shipped one (``round3``:
``configs/models/distilled-2p-round3.yaml``, a later round of the same fit: docs/learning.md;
``round1``: the first round, ``configs/models/distilled-{N}p.yaml``).
Deterministic given the game seed (the heuristic's tie-breaks draw from the view's RNG); it
reads nothing but its view.
"""

from __future__ import annotations

import math
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any

from zsim.decisions import Decision
from zsim.strategies import estimates
from zsim.strategies.estimates.choices import VALUES
from zsim.strategies.estimates.questions import STATICS, UNCHANGED, begin
from zsim.strategies.heuristic import FIRST_QUESTION, HeuristicStrategy, nothing_to_weigh
from zsim.view import PlayerView

if TYPE_CHECKING:
    from zsim.learn.policy import ScorerFile

_SCORERS: dict[str, ScorerFile] = {}
_WARNED: set[tuple[str, str]] = set()
# The scorer each (spec, player count, box) was checked for, with the box itself, so that an id
# reused by a later box is not taken for it: the checks run once, not at every turn.
_CHECKED: dict[tuple[str, int, int], tuple[object, ScorerFile]] = {}


# The shipped scorer a plain ``distilled`` plays, per player count: the strongest measured there
# (docs/learning.md, "Expert iteration" and "Shifted scorers"): round 3 at 2 players, the first
# round with the Unification rewards' weight put back (``rewards``) at 3 and 4; a count not
# named plays its first round. ``round1`` names the first round's file, ``distilled-{N}p.yaml``,
# at every count.
STRONGEST_SCORER: dict[int, str] = {2: "round3", 3: "rewards", 4: "rewards"}
FIRST_ROUND = "round1"


def scorer_path(n_players: int, name: str = "") -> Path:
    """The scorer a plain ``distilled`` plays at ``n_players`` (``STRONGEST_SCORER``); with
    ``name``, the shipped scorer of that name (``round3``: ``distilled-2p-round3.yaml``;
    ``round1``: the first round, ``distilled-2p.yaml``)."""
    from zsim.learn.model import MODELS_DIR

    name = name or STRONGEST_SCORER.get(n_players, FIRST_ROUND)
    suffix = "" if name == FIRST_ROUND else f"-{name}"
    return MODELS_DIR / f"distilled-{n_players}p{suffix}.yaml"


def shipped_names() -> list[str]:
    """The names of the shipped scorers, for any player count (``round1`` always)."""
    from zsim.learn.model import MODELS_DIR

    return sorted({FIRST_ROUND} | {path.stem.split("-", 2)[2]
                                   for path in MODELS_DIR.glob("distilled-*p-*.yaml")})


def is_name(spec: str) -> bool:
    """Whether ``scorer=spec`` names a shipped scorer rather than a file: a bare word that is
    not a file here."""
    return spec.isidentifier() and not Path(spec).is_file()


def scorer_file(spec: str, n_players: int) -> str:
    """The file a ``scorer`` parameter stands for at ``n_players``: ``''`` the default shipped
    for that count, a shipped scorer's name, or a file's path."""
    if not spec or is_name(spec):
        return str(scorer_path(n_players, spec))
    return spec


def scorer_for(spec: str, view: PlayerView) -> ScorerFile:
    """The scorer a game is played with, read once per process and checked against it."""
    n, box = view.n_players, view.tables.box
    checked = _CHECKED.get((spec, n, id(box)))
    if checked is not None and checked[0] is box:
        return checked[1]
    scorer = _checked_scorer(spec, view)
    _CHECKED[(spec, n, id(box))] = (box, scorer)
    return scorer


def read_scorer(spec: str, n: int) -> ScorerFile:
    """The scorer ``spec`` stands for in an ``n``-player game, read once per process; refused
    (``ScorerError``, one line) when none is shipped for ``n`` or the file is for another
    count. A run calls it for each of its player counts before its first game."""
    from zsim.learn.policy import ScorerError, load_scorer

    path = scorer_file(spec, n)
    scorer = _SCORERS.get(path)
    if scorer is None:
        if (not spec or is_name(spec)) and not Path(path).is_file():
            which = f"scorer {spec!r}" if spec else "turn scorer"
            raise ScorerError(f"no {which} is shipped for {n} players ({path}): fit one "
                              f"with `python -m zsim.learn.distill --players {n} --out FILE` "
                              f"and play distilled(scorer='FILE')")
        scorer = _SCORERS[path] = load_scorer(path)
    if scorer.n_players != n:
        raise ScorerError(f"scorer file {path}: fitted for {scorer.n_players} players, not "
                          f"the {n} of this game")
    return scorer


def _checked_scorer(spec: str, view: PlayerView) -> ScorerFile:
    """``scorer_for`` the first time: read (once per process), refused for another player
    count, warned about once on other rules."""
    from zsim.learn.model import ModelMismatch, rules_digest

    scorer = read_scorer(spec, view.n_players)
    path = scorer_file(spec, view.n_players)
    digest = rules_digest(view.tables.box)
    if scorer.rules_digest != digest and (path, digest) not in _WARNED:
        _WARNED.add((path, digest))
        warnings.warn(f"scorer file {path}: fitted on other rules than this game's (box "
                      f"{digest}); its weights are an extrapolation here", ModelMismatch,
                      stacklevel=2)
    return scorer


class DistilledStrategy(HeuristicStrategy):
    name = "distilled"
    description = ("the heuristic with weights and move bonuses learned from playouts, by "
                   "phase of the game, at the heuristic's cost (parameters: scorer, a file or "
                   "a shipped name such as 'round3', and heuristic weights, which shift the "
                   "learned ones by their difference from 1)")

    def __init__(self, scorer: str = "", **weights: float) -> None:
        from zsim.learn.policy import ScorerError, load_scorer

        if scorer and is_name(scorer):  # a shipped scorer, read when a game says its count
            shipped = shipped_names()
            if scorer not in shipped:
                raise ScorerError(f"scorer {scorer!r}: no file of that name, and no shipped "
                                  f"scorer of that name (shipped: "
                                  f"{', '.join(shipped) or 'none'})")
        elif scorer and scorer not in _SCORERS:  # a bad file is refused before any game
            _SCORERS[scorer] = load_scorer(scorer)
        super().__init__(**weights)
        self.scorer = str(scorer)

    def check_players(self, n_players: int) -> None:
        """Refuse a player count this bot has no scorer for, before a run plays any game."""
        read_scorer(self.scorer, n_players)

    def __getstate__(self) -> dict[str, Any]:
        state = super().__getstate__()
        state.pop("_phased", None)  # rebuilt on arrival, like the weights
        return state

    def _bots(self, scorer: ScorerFile) -> list[HeuristicStrategy]:
        """A heuristic per phase of ``scorer``: this bot's parameters with the phase's weights.
        Kept per scorer: one bot plays the games of every player count of a run, each count
        with its own file (the scorers live as long as the process, in ``_SCORERS``)."""
        phased: dict[int, list[HeuristicStrategy]] = self.__dict__.setdefault("_phased", {})
        bots = phased.get(id(scorer))
        if bots is None:
            bots = phased[id(scorer)] = [HeuristicStrategy(**self.phase_params(phase.weights))
                                         for phase in scorer.phases]
        return bots

    def phase_params(self, learned: dict[str, float]) -> dict[str, float]:
        """The heuristic parameters of a phase: its learned weights, each moved by this bot's
        own weight of that category less 1 (``greedy``'s; so unchanged unless given: an
        archetype's style, such as ``alchemist``'s Elixir at 2, on top of the scorer), never
        below 0, and this bot's patience. Added rather than multiplied: the fit sets some
        categories to 0 in some phases, where a factor would leave no style at all."""
        return {**self.params,
                **{k: max(0.0, v + self.params[k] - 1.0) for k, v in learned.items()}}

    def choose_turn(self, view: PlayerView, decision: Decision) -> Any:
        if nothing_to_weigh(decision):
            return super().choose_turn(view, decision)
        favourite, _, scores = self._scored(view, decision, kept_only=True)
        options = decision.options
        best = max(range(len(options)), key=scores.__getitem__)
        if scores[best] <= scores[options.index(favourite)]:
            return favourite  # among equals, the heuristic's favourite
        choice = options[best]
        view.memo.pop(UNCHANGED, None)  # the heuristic's hint was for its own favourite
        if choice[0] == "court" and choice[2] in FIRST_QUESTION:
            self.unchanged(view, FIRST_QUESTION[choice[2]])
        return choice

    def option_values(self, view: PlayerView, decision: Decision) -> list[float | None]:
        """At a turn question, its score of every option (the phase's value plus the move's
        bonus), which a search can order its options by; the view's RNG and memory are put back
        as they were. The scorer was fitted on the heuristic's ``width`` favourites: the others'
        scores are the same sum, outside what it was fitted on. Every other question: the
        heuristic's values."""
        if decision.kind != "turn" or nothing_to_weigh(decision):
            return super().option_values(view, decision)
        return list(self.values_and_scores(view, decision)[1])

    def values_and_scores(self, view: PlayerView,
                          decision: Decision) -> tuple[list[float], list[float]]:
        """At a turn question with options to weigh, every option's value with the phase's
        weights and its score (the value plus the move's bonus); the view's RNG and memory are
        put back as they were."""
        rng, memo = view.rng.getstate(), dict(view.memo)
        try:
            begin(view, decision.kind)
            _, values, scores = self._scored(view, decision)
            return values, scores
        finally:
            view.rng.setstate(rng)
            view.memo.clear()
            view.memo.update(memo)

    def phase_bot(self, view: PlayerView) -> HeuristicStrategy:
        """The heuristic this bot values a turn with at this point of the game."""
        from zsim.learn.policy import phase_of

        scorer = scorer_for(self.scorer, view)
        return self._bots(scorer)[phase_of(view.turns_left,
                                           [p.from_turns_left for p in scorer.phases])]

    def _scored(self, view: PlayerView, decision: Decision,
                kept_only: bool = False) -> tuple[Any, list[float], list[float]]:
        """The phase's heuristic favourite, every option's value with the phase's weights and
        its score (the value plus the move's bonus). With ``kept_only``, only the scorer's
        ``width`` favourites are scored (the options it was fitted on, all that a turn chooses
        among) and the others score minus infinity."""
        from zsim.learn.policy import phase_of, score

        scorer = scorer_for(self.scorer, view)
        k = phase_of(view.turns_left, [p.from_turns_left for p in scorer.phases])
        bot, phase = self._bots(scorer)[k], scorer.phases[k]
        memo = view.memo
        own = memo.get(STATICS)
        memo[STATICS] = estimates.statics(view.tables, bot.weights)  # the phase's flat rates
        shown: dict[Any, float] = {}
        memo[VALUES] = shown
        try:  # the phase's heuristic, which keeps its estimator for the questions after it
            favourite = HeuristicStrategy.choose_turn(bot, view, decision)
        finally:
            del memo[VALUES]
            if own is None:
                del memo[STATICS]
            else:
                memo[STATICS] = own
        options = decision.options
        values = [shown.get(o, 0.0) for o in options]
        width = scorer.width
        if not kept_only or not 0 < width < len(options):
            return favourite, values, score(view, phase, options, values)
        # stable: among equal values the earlier option, as everywhere the favourites are cut
        kept = sorted(range(len(options)), key=values.__getitem__, reverse=True)[:width]
        scores = [-math.inf] * len(options)
        for i, v in zip(kept, score(view, phase, [options[i] for i in kept],
                                    [values[i] for i in kept]), strict=True):
            scores[i] = v
        return favourite, values, scores

