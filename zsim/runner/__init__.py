"""Batches of headless games: experiments, seeds, parallel chunks, Parquet output."""

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
