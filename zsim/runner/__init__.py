"""Batches of headless games: experiments, seeds, parallel chunks, Parquet output."""

from zsim.runner.batch import RunInterrupted, RunReport, resume_run, start_run
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
    "RunInterrupted",
    "RunReport",
    "Schedule",
    "game_seed",
    "load_experiment",
    "parse_experiment",
    "resume_run",
    "start_run",
]
