"""Batches of headless games: experiments, seeds, parallel chunks, Parquet output.

Running a batch is ``zsim.runner.batch.start_run``/``resume_run``. This package module stays
light on purpose: every worker process imports it, and should not pay for pandas or
statsmodels, which only the parent's summary needs.
"""

from zsim.runner.experiment import (
    DEFAULT_EXPERIMENT,
    Experiment,
    ExperimentError,
    load_experiment,
    parse_experiment,
)
from zsim.runner.seeds import GamePlan, Schedule, game_seed

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
