"""What a run plays: the experiment model, read from YAML and overridden from the command line.

An experiment separates *what* is played (games, player counts, lineup, seating, master seed,
variants, component box: these decide every result and make up the run id) from *how* it is
executed (jobs, backend, chunk size, failure tolerance, time limits), which never changes a
table of games that finish in time, and from how much of each game's course is recorded
(``trajectories``), which adds tables but changes no game.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from zsim.components import default_box_dir
from zsim.design import CHECKED_GAMES, partial_block, seat_aliasing
from zsim.errors import UserError
from zsim.options import GameOptions, OptionError
from zsim.paths import configs_dir
from zsim.runner.isolate import DEFAULT_MEMORY_MIB
from zsim.runner.limits import DEFAULT_DECISION_SECONDS, DEFAULT_GAME_SECONDS
from zsim.runner.seeds import Schedule
from zsim.validation import describe, read_yaml
from zsim.variants import Variants
from zsim.variants import parse as parse_variants

EXPERIMENTS_DIR = configs_dir("experiments")
ISOLATE_ALL = "all"  # ``isolate: [all]``: every strategy of the lineup
DEFAULT_EXPERIMENT = EXPERIMENTS_DIR / "default.yaml"

# The fields that decide the results; the run id is a digest of these plus the box contents.
IDENTITY_FIELDS = ("games", "players", "strategies", "seats", "seed", "variants")


class ExperimentError(UserError, ValueError):
    """An experiment file or override that cannot be run; the message names the file and key."""


class Experiment(BaseModel):
    """One named batch of games and how to execute it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = "experiment"
    description: str = ""
    games: int = Field(2000, ge=1)
    players: list[int] = Field(default_factory=lambda: [4], min_length=1)
    strategies: list[str] = Field(default_factory=lambda: ["basic"], min_length=1)
    seats: Literal["balanced", "rotate", "random", "fixed"] = "balanced"
    seed: int = Field(0, ge=0)
    variants: dict[str, str] = Field(default_factory=dict)
    box: str | None = None
    # a chunk's game plans are built at once in the worker playing it: a bound on its memory
    chunk_size: int = Field(200, ge=1, le=100_000)
    jobs: int = -1
    backend: Literal["local", "dask"] = "local"
    scheduler: str | None = None
    max_failures: int = Field(0, ge=0)
    decision_time_limit: float = Field(DEFAULT_DECISION_SECONDS, ge=0)  # seconds; 0 = none
    game_time_limit: float = Field(DEFAULT_GAME_SECONDS, ge=0)
    # extra tables recorded from every game (``zsim.runner.recorders``): what is played is the
    # same, but the run holds more, so a run that records is a run of its own (its run id)
    record: list[Literal["positions"]] = Field(default_factory=list)
    # what is recorded of each game's experience (zsim.experience.record): never what is played
    # off by default: recording costs a run about a fifth more CPU (docs/experience.md)
    trajectories: Literal["off", "vp", "value"] = "off"
    kingmaking: int = Field(0, ge=0)  # the first N games' last choices replayed with alternatives
    # strategies of the lineup played each in a process of its own (``zsim.runner.isolate``),
    # with this many MiB of memory beyond what the process starts with
    isolate: list[str] = Field(default_factory=list)
    isolate_memory: int = Field(DEFAULT_MEMORY_MIB, ge=16)  # MiB

    @field_validator("games", "players", "seed", "chunk_size", "jobs", "max_failures",
                     "kingmaking", "isolate_memory", "decision_time_limit", "game_time_limit",
                     mode="before")
    @classmethod
    def _no_flag_for_a_number(cls, value: Any) -> Any:
        """``seed: true`` is a slip, not the seed 1 (pydantic reads a bool as a number)."""
        items = value if isinstance(value, list) else [value]
        if any(isinstance(item, bool) for item in items):
            raise ValueError(f"expected a number, not {str(value).lower()}")
        return value

    @field_validator("name")
    @classmethod
    def _plain_name(cls, value: str) -> str:
        """The run's directory is runs/NAME-TIMESTAMP: a name with a folder in it (``../x``)
        wrote the run outside runs/."""
        if not value or value in (".", "..") or any(c in value for c in "/\\\0"):
            raise ValueError(f"{value!r} is not a plain name: no folders ('/'), no '..'")
        return value

    @field_validator("players", mode="before")
    @classmethod
    def _one_or_several_counts(cls, value: Any) -> Any:
        return [value] if isinstance(value, int) else value

    @field_validator("players")
    @classmethod
    def _counts_in_range(cls, value: list[int]) -> list[int]:
        for count in value:
            if not 2 <= count <= 4:
                raise ValueError(f"player count {count} is not between 2 and 4")
        return value

    @field_validator("variants", mode="before")
    @classmethod
    def _variants_as_mapping(cls, value: Any) -> Any:
        """Accept a YAML mapping or a list of ``KEY=VALUE`` strings, keep a mapping of strings."""
        if isinstance(value, list | tuple):
            pairs = {}
            for item in value:
                key, sep, val = str(item).partition("=")
                if not sep:
                    raise ValueError(f"variant {item!r} is not KEY=VALUE")
                pairs[key.strip()] = val.strip()
            value = pairs
        if isinstance(value, dict):
            return {str(k): str(v).lower() if isinstance(v, bool) else str(v)
                    for k, v in value.items()}
        return value

    @field_validator("variants")
    @classmethod
    def _variants_exist(cls, value: dict[str, str]) -> dict[str, str]:
        """Rule options are checked here; box paths when the box is loaded for the run."""
        try:
            parse_variants([f"{k}={v}" for k, v in value.items()]).game_options()
        except OptionError as error:
            raise ValueError(str(error)) from None
        return value

    @field_validator("backend", mode="before")
    @classmethod
    def _old_backend_name(cls, value: Any) -> Any:
        """``loky``, the name of the local backend when it ran on joblib's loky pool: in
        experiment files and the run.json of runs started then."""
        return "local" if value == "loky" else value

    @field_validator("jobs")
    @classmethod
    def _jobs_not_zero(cls, value: int) -> int:
        if value == 0:
            raise ValueError("jobs must be a positive count, or negative to count back from "
                             "all cores (-1 = all cores)")
        return value

    @model_validator(mode="after")
    def _fixed_seats_fit(self) -> Experiment:
        if self.seats == "fixed" and len(self.strategies) > min(self.players):
            raise ValueError(f"seats 'fixed' seats the lineup as given, but it has "
                             f"{len(self.strategies)} strategies for {min(self.players)} players")
        return self

    @model_validator(mode="after")
    def _isolated_in_lineup(self) -> Experiment:
        for name in self.isolate:
            if name != ISOLATE_ALL and name not in self.strategies:
                raise ValueError(f"isolate names {name!r}, which is not in the lineup "
                                 f"({', '.join(self.strategies)})")
        return self

    # --- derived ---------------------------------------------------------------------------

    def isolated(self) -> list[str]:
        """The strategies of the lineup played in processes of their own: those ``isolate``
        names, or every one with ``all`` (a tournament of bots none of which is trusted)."""
        if ISOLATE_ALL in self.isolate:
            return list(dict.fromkeys(self.strategies))
        return list(dict.fromkeys(self.isolate))

    def box_dir(self) -> Path:
        return Path(self.box) if self.box else default_box_dir()

    def variant_set(self) -> Variants:
        return parse_variants([f"{k}={v}" for k, v in self.variants.items()])

    def options(self) -> GameOptions:
        return self.variant_set().game_options()

    def schedule(self) -> Schedule:
        return Schedule(seed=self.seed, players=tuple(self.players),
                        lineup=tuple(self.strategies), seats=self.seats)

    def design_warnings(self) -> list[str]:
        """What this design cannot measure (seat, when aliased with lineup) or balances only
        approximately (a ``balanced`` run's partial last block), one line each."""
        schedule = self.schedule()
        warnings = []
        seatings = (schedule.plan(i).strategies for i in range(min(self.games, CHECKED_GAMES)))
        if (why := seat_aliasing(seatings)) is not None:
            warnings.append(f"seats '{self.seats}': {why}; seat effects cannot be measured "
                            "(seats: balanced seats every subset of the lineup in every seat)")
        if self.seats == "balanced":
            for i, count in enumerate(self.players):
                games = len(range(i, self.games, len(self.players)))
                if (note := partial_block(games, schedule.block_size(count))) is not None:
                    warnings.append(f"seats 'balanced', {count} players: {note}")
        return warnings

    def run_id(self, box_digest: str) -> str:
        """A short digest of everything that decides the results, so equal runs share an id."""
        identity: dict[str, Any] = {key: getattr(self, key) for key in IDENTITY_FIELDS}
        identity["box"] = box_digest
        if self.record:  # absent otherwise, so that the runs before it keep their ids
            identity["record"] = sorted(self.record)
        text = json.dumps(identity, sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:12]

    def with_overrides(self, source: str = "command line", **changes: Any) -> Experiment:
        """A copy with the given (non-None) fields replaced and validated again."""
        data = self.model_dump()
        data.update({k: v for k, v in changes.items() if v is not None})
        return parse_experiment(data, source)


def parse_experiment(data: Any, source: str) -> Experiment:
    """Validate a mapping, turning pydantic's errors into one message naming source and key."""
    if not isinstance(data, dict):
        raise ExperimentError(f"{source}: an experiment is a mapping of keys, "
                              f"got {type(data).__name__}")
    try:
        return Experiment.model_validate(data)
    except ValidationError as error:
        raise ExperimentError(describe(error, source)) from None


def load_experiment(path: str | Path) -> Experiment:
    """Read an experiment YAML file; its ``name`` defaults to the file name."""
    path = Path(path)
    data = read_yaml(path, ExperimentError)
    if isinstance(data, dict):
        data.setdefault("name", path.stem)
    return parse_experiment(data, str(path))
