"""One ``zsim tune`` output directory, from a new or resumed study to its validated bot.

What the directory holds, once a session ends:

- ``study.db``: the Optuna study (SQLite), which ``--resume`` continues;
- ``tuned.yaml``: the best parameters as a bot of the ``configs/strategies/`` format;
- ``held_out.json``: the tuned bot and the best hand-weighted bot on the held-out seeds;
- ``trials.csv``, ``weights.csv``: every counted trial, and the tuned parameters against the
  reference's;
- ``history.png``, ``weights.png`` and ``index.html``: the figures and a page showing them.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
from optuna.trial import FrozenTrial

from zsim.tuning import figures, search
from zsim.tuning.arena import Arena, Execution, Setup, dask_cluster
from zsim.tuning.validation import HeldOut, validate, write_bot

BOT_FILE, HELD_OUT_FILE, TRIALS_FILE, WEIGHTS_FILE = ("tuned.yaml", "held_out.json",
                                                      "trials.csv", "weights.csv")
SCRATCH = "scratch"


@dataclass(frozen=True)
class TuneResult:
    out: Path
    setup: Setup
    params: dict[str, float]
    reference: str  # the best hand-weighted bot's name
    held_out: HeldOut
    trials: int  # counted trials in the study
    games: int  # games the study played in this session, held-out ones included
    page: Path


def tune(out: Path, setup: Setup | None, execution: Execution, budget: search.Budget,
         sampler: str = "tpe", progress: bool = True) -> TuneResult:
    """Start a study in ``out`` (``setup`` given) or continue the one there (``setup`` None),
    run it to its budget, then validate and write its winner. Ctrl-C propagates (as
    ``KeyboardInterrupt`` or the runner's ``RunInterrupted``) with the study saved."""
    study = search.create(out, setup, sampler) if setup is not None else search.load(out)
    setup = search.setup_of(study)
    with dask_cluster(execution) as running:
        arena = Arena(setup, running, out / SCRATCH)
        search.optimize(study, arena, budget, progress)
        best = search.best_trial(study)
        reference = search.best_hand_weighted(study)
        if best is None or reference is None:
            raise search.TuningError(f"{out}: no trial finished yet; raise --trials or "
                                     "--minutes and resume")
        params = search.params_of(best)
        held_out = _held_out(out, arena, best.number, params, reference)
    shutil.rmtree(out / SCRATCH, ignore_errors=True)
    write_bot(out / BOT_FILE, params, setup, held_out)
    trials = pd.DataFrame(search.history(study))
    trials.to_csv(out / TRIALS_FILE, index=False)
    moves = figures.weight_moves(params, search.params_of(reference))
    moves.to_csv(out / WEIGHTS_FILE, index=False)
    figures.history_figure(trials, out / figures.HISTORY)
    figures.weights_figure(moves, out / figures.WEIGHTS)
    page = figures.write_page(
        out, "zsim tune", [held_out.summary(), f"{len(trials)} trials; best: trial "
                           f"{best.number}; bot file: {BOT_FILE}"],
        [figures.HISTORY, figures.WEIGHTS], {"Parameters": moves, "Trials": trials})
    return TuneResult(out, setup, params, reference.user_attrs[search.BOT], held_out,
                      len(trials), arena.games_played, page)


def _held_out(out: Path, arena: Arena, number: int, params: dict[str, float],
              reference: FrozenTrial) -> HeldOut:
    """The held-out comparison, kept in ``held_out.json`` and replayed only when the best trial
    or the reference changed since it was written."""
    name = reference.user_attrs[search.BOT]
    path = out / HELD_OUT_FILE
    if path.is_file():
        kept = json.loads(path.read_text())
        if kept["trial"] == number and kept["reference"] == name:
            return HeldOut.from_dict(kept["result"])
    held_out = validate(arena, params, name, search.params_of(reference))
    path.write_text(json.dumps({"trial": number, "reference": name,
                                "result": held_out.as_dict()}, indent=2) + "\n")
    return held_out
