"""``zsim train``: self-play games recorded as positions, a value model fitted and validated.

The games are an ordinary run (``zsim.runner``: parallel, resumable, with its progress bar) that
also records the ``positions`` table (``zsim.learn.positions``); the run lives in ``OUT/games``,
and ``zsim train`` started again on the same ``OUT`` finishes it instead of starting over. The
model is fitted on most of the games' positions and validated on the rest (``zsim.learn.fit``),
then written with what it was trained for and how well it did: ``OUT/model.npz``,
``OUT/validation.json`` and ``OUT/calibration.png``.

Expert iteration is the same command with a stronger lineup: train once on the heuristics'
games, then on the games of a search on that model (``--strategy "mcts(leaf='model',
model='OUT1/model.npz', ...)"``), pooling the earlier positions with ``--data``.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from zsim.learn import dataset, fit
from zsim.learn.model import ValueModel, rules_digest, save

# the heuristic bots, seated at random: a spread of plans to learn from, and all cheap
DEFAULT_LINEUP = ("greedy", "builder", "governor", "alchemist", "courtier", "mausoleum")


@dataclass
class Trained:
    model: ValueModel
    validation: dict[str, Any]
    path: Path


def experiment(games: int, players: int, strategies: list[str], seed: int, jobs: int,
               variants: list[str]) -> Any:
    """The self-play run: the lineup seated at random, positions recorded."""
    from zsim.runner import Experiment

    return Experiment(name="train", games=games, players=[players],
                      strategies=strategies, seats="random" if len(strategies) > players
                      else "balanced", seed=seed, jobs=jobs, variants=variants,
                      record=["positions"])


def play(out: Path, spec: Any, progress: bool) -> Path:
    """Play (or finish) the self-play run in ``out / "games"``."""
    from zsim.runner.batch import resume_run, start_run

    games = out / "games"
    if (games / "run.json").is_file():
        resume_run(games, jobs=spec.jobs, progress=progress)
    else:
        start_run(spec, games, source="zsim train", progress=progress)
    return games


def train(runs: list[Path], out: Path, n_players: int, learner: str, hidden: tuple[int, ...],
          seed: int, held_out: float = 0.2, cards: bool = False) -> Trained:
    """Fit and validate a model on the positions of ``runs``; write it and its validation.
    The parts of the observation naming single cards are ignored unless ``cards``
    (``zsim.learn.features.CARD_PARTS`` says why)."""
    from zsim.components import load_box
    from zsim.runner import parse_experiment
    from zsim.runner.writer import RUN_JSON, read_manifest

    positions = dataset.load(runs, n_players)
    training, test = dataset.split(positions, held_out, seed)
    path = runs[0] / RUN_JSON
    run = parse_experiment(read_manifest(path)["experiment"], str(path))  # read by load too
    box = load_box(run.box_dir(), run.variant_set().box)
    from zsim.encode.observation import layout
    from zsim.learn.features import CARD_PARTS, card_columns
    from zsim.rules.tables import compile_tables

    encoding = layout(compile_tables(box), n_players)
    ignore = None if cards else card_columns(dict(encoding.parts),
                                              positions.observations.shape[1])
    meta = {"rules_digest": rules_digest(box), "box_digest": positions.box_digest,
            "observation": encoding.version, "ignored": [] if cards else list(CARD_PARTS),
            "variants": positions.variants, "trained_on": [str(r) for r in runs],
            "games": len(np.unique(positions.game)), "positions": len(positions),
            "created": time.strftime("%Y-%m-%dT%H:%M:%S")}
    fitted = fit.fit(training, learner, hidden, seed, meta, ignore)
    validation = fit.validate(fitted.model, training, test)
    validation["fit_cpu_seconds"] = round(fitted.seconds, 2)
    validation["inference_us"] = fit.inference_cost(fitted.model, test.observations)
    model = ValueModel({**fitted.model.meta, "validation": _summary(validation)},
                       fitted.model.mean, fitted.model.scale, fitted.model.weights,
                       fitted.model.biases)
    path = out / "model.npz"
    save(model, path)
    (out / "validation.json").write_text(json.dumps(validation, indent=2) + "\n")
    calibration_figure(validation, out / "calibration.png")
    return Trained(model, validation, path)


def _summary(validation: dict[str, Any]) -> dict[str, Any]:
    return {"games": validation["games"], "positions": validation["positions"],
            **{f"{who}_{k}": round(validation[who][k], 4) for who in ("model", "baseline")
               for k in ("brier", "log_loss")}}


def calibration_figure(validation: dict[str, Any], path: Path) -> None:
    """Predicted chance against observed win share, model and baseline, on held-out games."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(4.5, 4.5))
    ax.plot([0, 1], [0, 1], color="grey", linewidth=0.8, linestyle="--", label="perfect")
    for who, style in (("model", "o-"), ("baseline", "s--")):
        bins = validation[who]["calibration"]
        ax.plot([b["predicted"] for b in bins], [b["observed"] for b in bins], style,
                label=f"{who} (Brier {validation[who]['brier']:.3f})")
    ax.set_xlabel("predicted chance to win")
    ax.set_ylabel("observed win share")
    ax.set_title(f"held-out games: {validation['games']}")
    ax.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def report(trained: Trained) -> str:
    """The lines ``zsim train`` prints."""
    v = trained.validation
    cost = v["inference_us"]
    lines = [f"model: {trained.path} ({trained.model.meta['learner']}, "
             f"{trained.model.meta['positions']} positions of {trained.model.meta['games']} "
             f"games, {trained.model.meta['n_players']} players)",
             f"held out: {v['games']} games, {v['positions']} positions",
             f"  model:    Brier {v['model']['brier']:.4f}  log-loss {v['model']['log_loss']:.4f}"
             f"  margin RMSE {v['model']['margin_rmse']:.2f} VP",
             f"  baseline: Brier {v['baseline']['brier']:.4f}  log-loss "
             f"{v['baseline']['log_loss']:.4f}  (the track margin and the round only)",
             f"  constant: Brier {v['constant']['brier']:.4f}  log-loss "
             f"{v['constant']['log_loss']:.4f}",
             f"inference: {cost['single']:.1f} us per position alone, {cost['batch16']:.1f} in "
             f"batches of 16, {cost['batch256']:.2f} in batches of 256 (CPU)"]
    return "\n".join(lines)
