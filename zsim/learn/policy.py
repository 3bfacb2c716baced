"""A turn scorer learned from playouts: the heuristic's weights by phase of the game, and a
bonus per kind of move, fitted so that the option played is the one that plays out best.

The heuristic values every option of a turn in end-game VP, as a sum of categories each times
its weight (``zsim.strategies.estimates``). Whether it picks well is a matter of those rates:
how much a Wall, a soldier or a VP now is worth against the others, and how that changes as the
game goes on. So the scorer keeps the heuristic and learns the rates: for each option of a
recorded turn, what each category contributes to its value (the value less the value with that
category's weight at 0: ``zeroed_values``), the kind of move (a tuck, each Court action) and
whether a Court action fires the card below it; and what the option is worth, played out to the
end (``zsim.learn.distill``). A ridge regression of each option's playout worth on those
features, and on the features times how far the game is from its end (so that the rates drift
steadily over the game), both measured from the turn's mean, gives for each phase of the game
(by turns left) a weight per category and a bonus per kind of move. Divided by the weight of
the heuristic's own value, these are new weights for the heuristic (1 + the category's
coefficient, floored at 0: the heuristic adds up its categories, so a re-weighted sum is the
same heuristic with other weights) and bonuses in VP. The bot playing it
(``zsim.strategies.distilled``) values the turn once, with the weights of the phase, and adds
the bonuses: the cost of the heuristic.

The scorer file is a small YAML file (``ScorerFile``), readable and checked on reading: a file
that cannot be read, or whose fields are wrong, is one ``ScorerError`` naming the file and the
field.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from zsim.learn.model import ModelError
from zsim.rules import queries
from zsim.strategies.estimates import WEIGHTS
from zsim.yamlload import safe_load

if TYPE_CHECKING:
    from zsim.decisions import Decision
    from zsim.strategies.heuristic import HeuristicStrategy
    from zsim.view import PlayerView

# the categories whose contribution is weighed (each costs one more valuation when recording)
CATEGORIES = tuple(WEIGHTS)
# the kinds of move with a bonus: a tuck, and each Court action (a discard is never a choice)
MOVES = ("unify", "recruit", "hire", "elixir", "palace", "governor", "wall")


class ScorerError(ModelError):
    """A scorer file that cannot be used here; the message names the file."""


def feature_names() -> list[str]:
    """The columns of ``features``, in order."""
    return ["gap", *(f"c_{c}" for c in CATEGORIES), *(f"m_{m}" for m in MOVES), "fires"]


def move_of(option: Any) -> str | None:
    """The kind of move of a turn option: ``unify``, a Court action's name, None (a discard)."""
    if option[0] == "unify":
        return "unify"
    if option[0] == "court":
        return MOVES[1 + int(option[2])]
    return None


def fires(view: PlayerView, option: Any) -> bool:
    """Whether a turn option plays a card to the Court that fires the card below it."""
    board = view.board
    return option[0] == "court" and queries.activates(
        int(option[2]), option[1], queries.court_top(board), board.court_free)


def zeroed_bots(params: dict[str, float]) -> dict[str, HeuristicStrategy]:
    """A heuristic with the weight of each category at 0, by category."""
    from zsim.strategies.heuristic import HeuristicStrategy

    return {c: HeuristicStrategy(**{**params, c: 0.0}) for c in CATEGORIES}


def zeroed_values(view: PlayerView, decision: Decision,
                  bots: dict[str, HeuristicStrategy]) -> dict[str, list[float]]:
    """Each option's value to each of ``bots`` (a heuristic with a category's weight at 0),
    by category. Each values in an empty memory (the estimator and flat-rate values kept there
    are the real weights'), and the view's RNG and memory are put back as they were, so the
    game goes on as without the valuations."""
    from zsim.strategies.estimates.choices import VALUES
    from zsim.strategies.heuristic import HeuristicStrategy

    memo, rng = view.memo, view.rng
    kept, state = dict(memo), rng.getstate()
    out: dict[str, list[float]] = {}
    try:
        for category, bot in bots.items():
            memo.clear()
            shown: dict[Any, float] = {}
            memo[VALUES] = shown
            HeuristicStrategy.choose(bot, view, decision)
            out[category] = [shown.get(o, 0.0) for o in decision.options]
    finally:
        memo.clear()
        memo.update(kept)
        rng.setstate(state)
    return out


def features(view: PlayerView, decision: Decision, values: list[float],
             zeroed: dict[str, list[float]], scores: list[float] | None = None) -> np.ndarray:
    """One row per option, the columns of ``feature_names``: the option's score less the best
    option's (its value, unless the policy adds move bonuses to it: ``scores``), each
    category's contribution to its value, its kind of move, and whether it fires the card
    below it at Court."""
    options = decision.options
    v = np.asarray(values, dtype=float)
    rows = np.zeros((len(options), len(feature_names())))
    g = v if scores is None else np.asarray(scores, dtype=float)
    rows[:, 0] = g - g.max()
    for j, c in enumerate(CATEGORIES):
        rows[:, 1 + j] = v - np.asarray(zeroed[c], dtype=float)
    m0 = 1 + len(CATEGORIES)
    for i, option in enumerate(options):
        move = move_of(option)
        if move is not None:
            rows[i, m0 + MOVES.index(move)] = 1.0
        rows[i, -1] = float(fires(view, option))
    return rows


# --- the scorer file --------------------------------------------------------------------------


class Phase(BaseModel):
    """The heuristic's weights and the bonuses of the moves from some turns left to the end."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    from_turns_left: int = Field(ge=0, description="this phase holds while at least this many "
                                                   "turns are left (the first that does)")
    weights: dict[str, float] = Field(description="the heuristic's weights in this phase")
    bonus: dict[str, float] = Field(default_factory=dict,
                                    description="VP added to a move of each kind")
    fires: float = Field(0.0, description="VP added to a Court action firing the card below")


class ScorerFile(BaseModel):
    """A fitted turn scorer: its phases, what it was fitted on and how it did."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    n_players: int = Field(ge=2, le=4)
    rules_digest: str
    width: int = Field(6, ge=0, description="how many of the heuristic's favourite options "
                                            "it chooses among (0: all)")
    phases: list[Phase] = Field(min_length=1)
    fitted: dict[str, Any] = Field(default_factory=dict,
                                   description="the data and validation of the fit")


def check(scorer: ScorerFile, where: str) -> ScorerFile:
    """Refuse a scorer whose weights or moves are not the heuristic's, or whose phases do not
    cover the game in decreasing order."""
    for k, phase in enumerate(scorer.phases):
        unknown = sorted(set(phase.weights) - set(WEIGHTS)) + sorted(set(phase.bonus) -
                                                                     set(MOVES))
        if unknown:
            raise ScorerError(f"{where}: phases.{k}: unknown weight or move {unknown[0]!r}")
        if any(w < 0 for w in phase.weights.values()):
            raise ScorerError(f"{where}: phases.{k}.weights: a weight is negative")
    starts = [p.from_turns_left for p in scorer.phases]
    if starts != sorted(starts, reverse=True) or starts[-1] != 0:
        raise ScorerError(f"{where}: phases: from_turns_left must decrease to 0 (the last "
                          f"phase holds to the end of the game)")
    return scorer


def phase_of(left: int, starts: list[int]) -> int:
    """The index of the phase a turn with ``left`` turns left is in."""
    return next((k for k, s in enumerate(starts) if left >= s), len(starts) - 1)


def load_scorer(path: str | Path) -> ScorerFile:
    """Read a scorer file; anything wrong with it is one ``ScorerError`` naming the file."""
    path = Path(path)
    try:
        raw = safe_load(path.read_text())
    except FileNotFoundError:
        raise ScorerError(f"scorer file {path}: no such file") from None
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as error:
        raise ScorerError(f"scorer file {path}: cannot read it as YAML "
                          f"({type(error).__name__})") from None
    try:
        scorer = ScorerFile.model_validate(raw)
    except ValidationError as error:
        problem = error.errors()[0]
        key = ".".join(str(x) for x in problem["loc"]) or "(the file)"
        raise ScorerError(f"scorer file {path}: {key}: {problem['msg']}") from None
    return check(scorer, f"scorer file {path}")


def save_scorer(scorer: ScorerFile, path: Path) -> None:
    """Write a scorer file (YAML)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(scorer.model_dump(), sort_keys=False))


# --- the fit ---------------------------------------------------------------------------------

# a recorded turn: the features of every option, the turns left, the options played out
# (indices, the heuristic's favourite first) and the mean final margin of each
Turn = tuple[np.ndarray, int, np.ndarray, np.ndarray]
DIGITS = 4  # decimals kept in the file: far below what the fit can tell
SPAN = 30  # turns left from which a turn counts as the start of the game (a game has ~30)


def stage(left: int) -> float:
    """How far from the end a turn is: 1 at the start of the game, 0 at its last turn."""
    return min(left, SPAN) / SPAN


def _rows(x: np.ndarray, left: int) -> np.ndarray:
    """The regression's inputs for some options of a turn: the features, and the features
    times the stage, so that every rate may drift steadily over the game."""
    return np.concatenate([x, x * stage(left)], axis=1)


# what a fit may leave as the policy has it (``fit_coefficients``'s ``hold``)
HOLDS = ("none", "score", "weights")


def fit_coefficients(turns: list[Turn], alpha: float, hold: str = "none") -> np.ndarray:
    """The ridge coefficients (scikit-learn) of the options' playout worth on their features
    and the features times the stage, both measured from their turn's mean.

    ``hold`` keeps part of the policy as it is, so that the ridge penalty shrinks the fit
    towards the policy rather than towards choosing at random: ``score`` holds the coefficient
    of the policy's own score at 1 at every stage and fits the rest as a correction of it (the
    worth less the score); ``weights`` holds every category's coefficient at 0 as well, so that
    only the bonuses (of the moves, and of firing the card below) are fitted: the policy's
    values, and so the options it keeps, stay as they are."""
    from sklearn.linear_model import Ridge

    if hold not in HOLDS:
        raise ValueError(f"hold {hold!r}: expected one of {', '.join(HOLDS)}")
    xs, ys = [], []
    for x, left, order, worth in turns:
        if len(order) > 1:
            rows = _rows(x[order], left)
            xs.append(rows - rows.mean(axis=0))
            ys.append(worth - worth.mean())
    if not xs:
        raise ValueError("no turn with two options played out to fit on")
    x_all, y_all = np.concatenate(xs), np.concatenate(ys)
    width = x_all.shape[1] // 2
    held = {"none": [], "score": [0], "weights": list(range(1 + len(CATEGORIES)))}[hold]
    fixed = np.zeros(x_all.shape[1])
    if hold != "none":
        fixed[0] = 1.0
    free = [j for j in range(x_all.shape[1]) if j % width not in held]
    coef = fixed.copy()
    coef[free] = Ridge(alpha=alpha, fit_intercept=False).fit(
        x_all[:, free], y_all - x_all @ fixed).coef_
    return coef


def phase_from(coef: np.ndarray, start: int, base: dict[str, float]) -> Phase:
    """The heuristic's weights and the bonuses the coefficients of one stage amount to (see
    the module docstring); ``base``: the weights the contributions were measured at."""
    gap = coef[0]
    if gap <= 0:  # the heuristic's own value told nothing: keep it as it is
        return Phase(from_turns_left=start, weights={c: base[c] for c in CATEGORIES}, bonus={},
                     fires=0.0)
    weights = {c: round(max(0.0, base[c] * (1.0 + coef[1 + j] / gap)), DIGITS)
               for j, c in enumerate(CATEGORIES)}
    m0 = 1 + len(CATEGORIES)
    bonus = {m: round(float(coef[m0 + j] / gap), DIGITS) for j, m in enumerate(MOVES)}
    return Phase(from_turns_left=start, weights=weights, bonus=bonus,
                 fires=round(float(coef[-1] / gap), DIGITS))


def phases_from(coef: np.ndarray, starts: list[int], base: dict[str, float]) -> list[Phase]:
    """The phases starting at ``starts`` turns left (decreasing to 0), each with the rates of
    the middle of its span."""
    return [phase_from(c, start, base) for start, c in _by_phase(coef, starts)]


def _by_phase(coef: np.ndarray, starts: list[int]) -> list[tuple[int, np.ndarray]]:
    """Each phase's start and the coefficients of the middle of its span (the fit's rates
    drift with the stage of the game)."""
    width = len(coef) // 2
    ends = [SPAN, *starts[:-1]]
    return [(start, coef[:width] + stage((min(end, SPAN) + start) // 2) * coef[width:])
            for start, end in zip(starts, ends, strict=True)]


def fit_scorer(turns: list[Turn], starts: list[int], alpha: float,
               base: dict[str, float], hold: str = "none") -> list[Phase]:
    """The phases fitted on recorded turns (``hold``: see ``fit_coefficients``)."""
    return phases_from(fit_coefficients(turns, alpha, hold), starts, base)


def refine_phases(coef: np.ndarray, policy: list[Phase], base: dict[str, float]) -> list[Phase]:
    """A further round: the policy's phases corrected by coefficients fitted on turns whose
    features were measured at the policy's own weights and scores (``features`` with
    ``scores``). Each phase's weights are scaled as ``phase_from`` scales the heuristic's, and
    the fitted bonuses are added to the policy's; a phase whose own score told nothing (a
    coefficient of at most 0) is kept as it is. ``base``: the weights of the policy's heuristic
    that its phases leave as they are."""
    out = []
    for phase, (start, c) in zip(policy, _by_phase(coef, [p.from_turns_left for p in policy]),
                                 strict=True):
        if c[0] <= 0:
            out.append(phase)
            continue
        step = phase_from(c, start, {**base, **phase.weights})
        out.append(Phase(from_turns_left=start, weights=step.weights,
                         bonus={m: round(phase.bonus.get(m, 0.0) + step.bonus[m], DIGITS)
                                for m in MOVES},
                         fires=round(phase.fires + step.fires, DIGITS)))
    return out


def score(view: PlayerView, phase: Phase, options: list, values: list[float]) -> list[float]:
    """The scores of a turn's options in a phase: each value (with the phase's weights) plus
    the bonus of its kind of move (plain floats: a turn has a few dozen options at most)."""
    bonus = phase.bonus
    out = []
    for option, v in zip(options, values, strict=True):
        move = move_of(option)
        if move is not None:
            v += bonus.get(move, 0.0)
            if move != "unify" and phase.fires and fires(view, option):
                v += phase.fires
        out.append(v)
    return out


def gain(turns: list[Turn], coef: np.ndarray) -> tuple[float, float]:
    """Held-out check: the mean playout worth of the option the coefficients prefer among
    those played out, less the heuristic's favourite's (VP), and its standard error."""
    g = np.array([worth[int(np.argmax(_rows(x[order], left) @ coef))] - worth[0]
                  for x, left, order, worth in turns])
    return float(g.mean()), float(g.std(ddof=1) / np.sqrt(len(g))) if len(g) > 1 else 0.0
