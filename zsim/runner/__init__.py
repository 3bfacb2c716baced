"""Batches of headless games: experiments, seeds, parallel chunks, Parquet output.

Running a batch is ``zsim.runner.batch.start_run``/``resume_run``. This package module stays
light on purpose: every worker process imports it, and should not pay for pandas or
statsmodels, which only the parent's summary needs, nor for the experiment models (pydantic
validators, YAML), which only the parent reads. The names below are loaded on first use.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from zsim.runner.experiment import (
        DEFAULT_EXPERIMENT,
        Experiment,
        ExperimentError,
        load_experiment,
        parse_experiment,
    )
    from zsim.runner.seeds import GamePlan, Schedule, game_seed

_HOMES = {
    "DEFAULT_EXPERIMENT": "experiment",
    "Experiment": "experiment",
    "ExperimentError": "experiment",
    "load_experiment": "experiment",
    "parse_experiment": "experiment",
    "GamePlan": "seeds",
    "Schedule": "seeds",
    "game_seed": "seeds",
}

__all__ = [
    "DEFAULT_EXPERIMENT",
    "Experiment",
    "ExperimentError",
    "GamePlan",
    "Schedule",
    "game_seed",
    "load_experiment",
    "parse_experiment",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{home}"), name)
