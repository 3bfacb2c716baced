"""The Optuna study that tunes the heuristic's weights for win share against a field.

A trial is one set of parameters (every weight of ``zsim.strategies.estimates.WEIGHTS`` and
``patience``). It plays the arena's training blocks in order and reports its running win share
after each; every trial plays the same blocks, so the running shares of two trials are always
measured on the same games. After each block the racing pruner compares the trial with the best
finished trial on exactly those games, game by game, and stops it once it is significantly
worse: poor candidates cost a block or two, and only candidates close to the best earn the full
number of games.

The first trials are the hand-weighted bots of ``configs/strategies/`` (enqueued), so the study
starts from what designers wrote and the best of them is the reference the winner must beat.

The study lives in Optuna's SQLite storage (``study.db`` in the output directory) together with
the setup (``Setup``) in the study's user attributes, so a study stopped by Ctrl-C continues
where it stopped (``resume``) and Optuna's own tools (``optuna-dashboard``, ``optuna.load_study``)
can read it.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import optuna
from optuna.pruners import BasePruner
from optuna.trial import FrozenTrial, Trial, TrialState
from tqdm import tqdm

from zsim.errors import UserError
from zsim.stats import paired_test
from zsim.strategies.estimates import WEIGHTS
from zsim.strategies.heuristic import HeuristicStrategy, load_bots
from zsim.strategies.registry import BOTS_DIR
from zsim.tuning.arena import Arena, Setup

STUDY_NAME = "tune"
DATABASE = "study.db"
SETUP, SAMPLER, REQUEUED, TRIALS = "setup", "sampler", "requeued", "trials"  # of the study
DEFAULT_TRIALS = 60
SHARES, BOT = "shares", "bot"  # trial user attributes: per-game win shares, hand bot's name
WEIGHT_RANGE = (0.0, 3.0)  # wide enough for every hand-weighted bot (the largest is 2.2)
PATIENCE_RANGE = (0.05, 0.95)
PARAMETERS = (*WEIGHTS, "patience")
# Racing: a trial stops once the paired two-sided test against the best has p below this and
# the trial is behind, that is one-sided at half of it. Lenient on purpose: a wrongly stopped
# trial costs one candidate, a wrongly continued one only games.
RACE_ALPHA = 0.1
RACE_MIN_GAMES = 24  # no verdict on fewer paired games than this


class TuningError(UserError, ValueError):
    """A study that cannot be started or resumed; the message says which and why."""


def storage_url(out: Path) -> str:
    return f"sqlite:///{(out / DATABASE).resolve()}"


def suggest(trial: Trial) -> dict[str, float]:
    """The parameters of one candidate."""
    params = {name: trial.suggest_float(name, *WEIGHT_RANGE) for name in WEIGHTS}
    params["patience"] = trial.suggest_float("patience", *PATIENCE_RANGE)
    return params


def hand_weighted() -> dict[str, dict[str, float]]:
    """The parameters of every bot of ``configs/strategies/``, by name."""
    return {name: params for name, (_, params) in load_bots(BOTS_DIR).items()}


def shares_of(trial: FrozenTrial) -> np.ndarray:
    """A trial's per-game win shares so far (NaN for failed games)."""
    return np.array([math.nan if v is None else v for v in trial.user_attrs.get(SHARES, [])],
                    dtype=float)


def behind(mine: np.ndarray, best: np.ndarray, alpha: float = RACE_ALPHA,
           min_games: int = RACE_MIN_GAMES) -> bool:
    """Whether ``mine`` is significantly behind ``best`` on the games both played (paired)."""
    count = min(len(mine), len(best))
    diff = mine[:count] - best[:count]
    diff = diff[~np.isnan(diff)]
    if diff.size < min_games or diff.mean() >= 0:
        return False
    return bool(paired_test(diff).pvalue < alpha)


class RacingPruner(BasePruner):
    """Prunes a trial significantly behind the best finished trial on the same games."""

    def prune(self, study: optuna.Study, trial: FrozenTrial) -> bool:
        best = best_trial(study)
        return best is not None and behind(shares_of(trial), shares_of(best))


def best_trial(study: optuna.Study) -> FrozenTrial | None:
    """The finished trial of highest win share, or None before the first finishes."""
    done = study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))
    return max(done, key=lambda t: -math.inf if t.value is None else t.value, default=None)


def _sampler(name: str, seed: int) -> optuna.samplers.BaseSampler:
    if name == "cmaes":
        try:
            import cmaes  # noqa: F401  (Optuna's CMA-ES sampler needs it)
        except ImportError:
            raise TuningError("--sampler cmaes needs the cmaes package: pip install cmaes") \
                from None
        return optuna.samplers.CmaEsSampler(seed=seed, warn_independent_sampling=False)
    return optuna.samplers.TPESampler(seed=seed, multivariate=True, n_startup_trials=10)


def create(out: Path, setup: Setup, sampler: str) -> optuna.Study:
    """A new study in ``out``, its first trials the hand-weighted bots."""
    if (out / DATABASE).exists():
        raise TuningError(f"{out} already holds a study; continue it with --resume {out}, "
                          "or choose another --out")
    out.mkdir(parents=True, exist_ok=True)
    optuna.logging.set_verbosity(optuna.logging.ERROR)
    study = optuna.create_study(study_name=STUDY_NAME, storage=storage_url(out),
                                direction="maximize", sampler=_sampler(sampler, setup.seed),
                                pruner=RacingPruner())
    study.set_user_attr(SETUP, setup.as_dict())
    study.set_user_attr(SAMPLER, sampler)
    study.set_user_attr(REQUEUED, [])
    for name, params in hand_weighted().items():
        study.enqueue_trial(params, user_attrs={BOT: name})
    return study


def load(out: Path) -> optuna.Study:
    """The study of ``out``, its sampler reseeded so a resumed study draws new candidates."""
    if not (out / DATABASE).is_file():
        raise TuningError(f"{out}: no {DATABASE}, so not a directory of zsim tune")
    optuna.logging.set_verbosity(optuna.logging.ERROR)
    stored = optuna.load_study(study_name=STUDY_NAME, storage=storage_url(out))
    setup = setup_of(stored)
    if setup.current_digest() != setup.digest:
        raise TuningError(f"{out}: the component files, zsim's code or the field's bots changed "
                          "since the study started; resuming would mix trials played under "
                          "two versions. Start a new study with --out")
    sampler = _sampler(stored.user_attrs[SAMPLER],
                       setup.seed + len(stored.get_trials(deepcopy=False)))
    study = optuna.load_study(study_name=STUDY_NAME, storage=storage_url(out), sampler=sampler,
                              pruner=RacingPruner())
    _requeue_interrupted(study)
    return study


def setup_of(study: optuna.Study) -> Setup:
    return Setup.from_dict(study.user_attrs[SETUP])


def _requeue_interrupted(study: optuna.Study) -> None:
    """Trials a Ctrl-C stopped (failed, or left running by a killed process) play again from
    their first block, with the same parameters, before any new candidate."""
    requeued = set(study.user_attrs.get(REQUEUED, []))
    stopped = [t for t in study.get_trials(deepcopy=False, states=(TrialState.FAIL,
                                                                     TrialState.RUNNING))
               if t.number not in requeued]
    for trial in stopped:
        attrs = {BOT: trial.user_attrs[BOT]} if BOT in trial.user_attrs else None
        study.enqueue_trial(trial.params, user_attrs=attrs)
        requeued.add(trial.number)
    study.set_user_attr(REQUEUED, sorted(requeued))


def finished(study: optuna.Study) -> int:
    """Trials that count towards the budget: complete or pruned."""
    return len(study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,
                                                        TrialState.PRUNED)))


def objective(arena: Arena, on_block: Callable[[], None] = lambda: None
              ) -> Callable[[Trial], float]:
    """Optuna's objective: the candidate's win share over the training blocks."""

    def evaluate(trial: Trial) -> float:
        bot = HeuristicStrategy(**suggest(trial))
        shares: list[float] = []
        for block in range(arena.setup.blocks):
            shares.extend(arena.play(bot, block).tolist())
            on_block()
            trial.set_user_attr(SHARES, [None if math.isnan(v) else v for v in shares])
            value = _mean(shares)
            trial.report(value, block)
            if block < arena.setup.blocks - 1 and trial.should_prune():
                raise optuna.TrialPruned()
        return _mean(shares)

    return evaluate


def _mean(values: list[float]) -> float:
    played = [v for v in values if not math.isnan(v)]
    return sum(played) / len(played) if played else 0.0


@dataclass
class Budget:
    trials: int | None = None  # finished trials to reach over all sessions (None: as before)
    minutes: float | None = None  # wall time of this session


def optimize(study: optuna.Study, arena: Arena, budget: Budget, progress: bool) -> None:
    """Run trials until the study has ``budget.trials`` finished ones or the time is up.

    The progress bar (on stderr, only when it is a terminal and ``progress``) counts finished
    trials, with the best win share so far and the games played; its time estimate is tqdm's,
    from the rate of trials.
    """
    target = budget.trials or study.user_attrs.get(TRIALS) or DEFAULT_TRIALS
    study.set_user_attr(TRIALS, target)
    remaining = target - finished(study)
    if remaining <= 0:
        return
    enabled = progress and sys.stderr.isatty()
    with tqdm(total=target, initial=finished(study), unit="trial", file=sys.stderr,
              disable=not enabled, dynamic_ncols=True) as bar:

        def show() -> None:
            best = best_trial(study)
            bar.set_postfix(best=f"{best.value:.3f}" if best else "-",
                            games=arena.games_played, refresh=True)

        def after_trial(study: optuna.Study, trial: FrozenTrial) -> None:
            if trial.state in (TrialState.COMPLETE, TrialState.PRUNED):
                bar.update(1)
            show()

        study.optimize(objective(arena, show), n_trials=remaining,
                       timeout=budget.minutes * 60 if budget.minutes else None,
                       callbacks=[after_trial], catch=())


def params_of(trial: FrozenTrial) -> dict[str, float]:
    return {name: float(trial.params[name]) for name in PARAMETERS}


def best_hand_weighted(study: optuna.Study) -> FrozenTrial | None:
    """The hand-weighted bot that did best in training: the furthest it raced, then the
    highest win share (a pruned bot was significantly behind the best, so one that finished
    ranks above it)."""
    hand = [t for t in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,
                                                                 TrialState.PRUNED))
            if BOT in t.user_attrs]
    return max(hand, key=lambda t: (len(t.user_attrs.get(SHARES, [])), _final(t)),
               default=None)


def _final(trial: FrozenTrial) -> float:
    return trial.value if trial.value is not None else _mean(shares_of(trial).tolist())


def history(study: optuna.Study) -> list[dict[str, Any]]:
    """One row per counted trial: number, state, games played, win share, hand bot name."""
    rows = []
    for trial in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,
                                                          TrialState.PRUNED)):
        rows.append({"trial": trial.number, "state": trial.state.name.lower(),
                     "games": len(trial.user_attrs.get(SHARES, [])),
                     "win_share": _final(trial), "bot": trial.user_attrs.get(BOT, ""),
                     **params_of(trial)})
    return rows
