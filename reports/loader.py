"""Read run directories into DataFrames, refusing anything a report could misread.

Reports read only the Parquet tables and ``run.json`` that ``zsim run`` writes (never engine
internals), so every column a section relies on is checked here once, with an error that names
the directory and the file. Several runs are pooled: their rows are concatenated, and a
``game_key`` numbers games uniquely across runs (``game`` restarts at 0 in each run).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from zsim.errors import UserError
from zsim.runner.writer import RUN_JSON, DamagedRun, check_tables, read_manifest

if TYPE_CHECKING:
    from zsim.components import Box

REQUIRED: dict[str, set[str]] = {
    "players": {"run_id", "game", "seed", "n_players", "seat", "strategy", "vp_total", "rank",
                "winner", "win_share"},
    "games": {"run_id", "game", "seed", "n_players", "failed"},
    "walls": {"run_id", "game", "seat", "section", "tier", "vp", "tile"},
    "rewards": {"run_id", "game", "round", "aspect", "seat", "reward"},
}
#: Optional tables, which runs made before they existed lack (see docs/reports.md): the log of
#: card and tile ability activations, and the tiles each player got.
ABILITIES = "abilities"
ABILITY_COLUMNS = {"run_id", "game", "seat", "card", "suit", "trigger", "ability", "vp"}
TILES = "tiles"
TILE_COLUMNS = {"run_id", "game", "seat", "kind", "tile"}
OPTIONAL = {ABILITIES: ABILITY_COLUMNS, TILES: TILE_COLUMNS}


class RunDirError(UserError, ValueError):
    """A run directory that is missing, unfinished or unreadable."""


@dataclass(frozen=True)
class RunInfo:
    """One run directory: where it is, its ``run.json`` and its failure records."""

    path: Path
    manifest: dict[str, Any]
    failures: list[dict[str, Any]]

    @property
    def run_id(self) -> str:
        return str(self.manifest.get("run_id", "?"))

    @property
    def experiment(self) -> dict[str, Any]:
        return self.manifest.get("experiment") or {}


@dataclass(frozen=True)
class RunData:
    """The pooled tables of one or more runs.

    ``players`` holds finished games only and gains ``lineup`` (the game's strategies, sorted:
    a player's opponents and the player count in one label), ``stratum`` (strategy within
    lineup, the group whose members are comparable) and ``position`` (place in the first
    round's turn order, 0 = first player, when ``first_player`` is recorded).
    """

    runs: list[RunInfo]
    players: pd.DataFrame
    games: pd.DataFrame  # every game, failed ones too
    walls: pd.DataFrame
    rewards: pd.DataFrame
    abilities: pd.DataFrame | None
    tiles: pd.DataFrame | None  # one row per tile a player got
    #: The runs' components that are assumed (id -> why), display names of components whose id
    #: says little, and the variant files that read an assumed component another way; empty
    #: when the runs' box cannot be read any more (``box_problem`` says why).
    assumed: dict[str, str] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)
    readings: dict[str, list[Path]] = field(default_factory=dict)
    box_problem: str = ""
    #: VP categories no component of the runs' boxes can score in (category -> why): zero by
    #: rule, not for want of use, so not a dead component.
    zero_by_rule: dict[str, str] = field(default_factory=dict)

    @property
    def finished(self) -> pd.DataFrame:
        return self.games[~self.games["failed"]]

    @property
    def player_counts(self) -> list[int]:
        return sorted(int(n) for n in self.finished["n_players"].unique())

    @property
    def strategies(self) -> list[str]:
        return sorted(self.players["strategy"].unique())


def _read_table(run: Path, name: str, required: set[str]) -> pd.DataFrame:
    path = run / f"{name}.parquet"
    if not path.is_file():
        raise RunDirError(f"{run}: {path.name} is missing; is this a finished `zsim run` "
                          f"directory?")
    try:
        frame = pq.read_table(path).to_pandas()
    except (OSError, pa.ArrowException) as error:
        raise RunDirError(f"{path}: cannot be read as Parquet ({error})") from None
    missing = required - set(frame.columns)
    if missing:
        raise RunDirError(f"{path}: missing column(s) {', '.join(sorted(missing))}")
    return frame


def _read_manifest(run: Path) -> dict[str, Any]:
    path = run / RUN_JSON
    if not path.is_file():
        raise RunDirError(f"{run}: run.json is missing; is this a `zsim run` directory?")
    try:
        manifest = read_manifest(path)
    except DamagedRun as error:
        raise RunDirError(str(error)) from None
    status = manifest["status"]
    if status != "complete":
        raise RunDirError(f"{run}: the run is not finished (status {status!r}); finish it "
                          f"with `zsim run --resume {run}`")
    return manifest


def _read_failures(run: Path) -> list[dict[str, Any]]:
    path = run / "failures.jsonl"
    if not path.is_file():
        return []
    records = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError as error:
                raise RunDirError(f"{path}: line {number} is not JSON ({error.msg})") from None
    return records


def _load_one(run: Path) -> tuple[RunInfo, dict[str, pd.DataFrame]]:
    if run.exists() and not run.is_dir():
        raise RunDirError(f"{run}: a file, not a run directory (the directory zsim run wrote)")
    if not run.is_dir():
        raise RunDirError(f"{run}: no such run directory")
    manifest = _read_manifest(run)
    frames = {name: _read_table(run, name, required) for name, required in REQUIRED.items()}
    for name, required in OPTIONAL.items():
        if (run / f"{name}.parquet").is_file():
            frames[name] = _read_table(run, name, required)
    try:  # the tables are this run's, whole, and hold numbers where the sections compute
        check_tables(run, manifest, frames["games"], frames["players"],
                     {name: frame for name, frame in frames.items()
                      if name not in ("games", "players")})
    except DamagedRun as error:
        raise RunDirError(str(error)) from None
    return RunInfo(run, manifest, _read_failures(run)), frames


def _concat(frames: list[pd.DataFrame]) -> pd.DataFrame:
    frames = [f for f in frames if not f.empty] or frames[:1]
    return pd.concat(frames, ignore_index=True)


def load_runs(paths: list[Path]) -> RunData:
    """Load and pool run directories; raises ``RunDirError`` naming the culprit."""
    if not paths:
        raise RunDirError("no run directory given")
    loaded = [_load_one(Path(p)) for p in paths]
    seen: dict[str, Path] = {}
    for info, _ in loaded:
        if info.run_id in seen:
            raise RunDirError(f"{info.path} and {seen[info.run_id]} hold the same run "
                              f"(run id {info.run_id}); pooling them would count its games twice")
        seen[info.run_id] = info.path
    tables = {name: _concat([frames[name] for _, frames in loaded]) for name in REQUIRED}
    optional = {name: [frames[name] for _, frames in loaded if name in frames]
                for name in OPTIONAL}
    games = tables["games"]
    games["failed"] = games["failed"].fillna(False).astype(bool)
    keys = pd.MultiIndex.from_frame(games[["run_id", "game"]])
    index = pd.Series(range(len(games)), index=keys)

    def keyed(frame: pd.DataFrame) -> pd.DataFrame:
        rows = pd.MultiIndex.from_frame(frame[["run_id", "game"]])
        return frame.assign(game_key=index.reindex(rows).to_numpy())

    games = games.assign(game_key=range(len(games)))
    players = _with_lineups(keyed(tables["players"]))
    assumed, names, readings, problem, silent = _components([info for info, _ in loaded])
    return RunData(
        assumed=assumed, names=names, readings=readings, box_problem=problem,
        zero_by_rule=silent,
        runs=[info for info, _ in loaded], players=players, games=games,
        walls=keyed(tables["walls"]), rewards=keyed(tables["rewards"]),
        abilities=keyed(_concat(optional[ABILITIES])) if optional[ABILITIES] else None,
        tiles=keyed(_concat(optional[TILES])) if optional[TILES] else None)


def run_box(run: RunInfo) -> Box:
    """The component box a run played, loaded as it was (its directory and variants, from
    run.json). Raises ``BoxError``, ``OptionError``, ``OSError`` or ``ValueError``."""
    from zsim.components import default_box_dir
    from zsim.variants import parse

    experiment = run.experiment
    variants = [f"{k}={v}" for k, v in (experiment.get("variants") or {}).items()]
    box_dir = Path(experiment["box"]) if experiment.get("box") else default_box_dir()
    return parse(variants).load_box(box_dir)


def _components(runs: list[RunInfo]) -> tuple[dict[str, str], dict[str, str],
                                             dict[str, list[Path]], str, dict[str, str]]:
    """What the report says of the runs' components: which are assumed and why, their display
    names, and the variant files that read an assumed one another way. Each run's box is
    loaded as it was played (its directory and variants, from run.json); a run whose box
    cannot be loaded any more leaves a one-line problem instead."""
    from zsim.components import BoxError
    from zsim.options import OptionError
    from zsim.paths import configs_dir
    from zsim.reports.assumed import assumed_components, component_names, variant_files

    assumed: dict[str, str] = {}
    names: dict[str, str] = {}
    silent: dict[str, str] | None = None  # what every run's box cannot score in
    for run in runs:
        try:
            box = run_box(run)
        except (BoxError, OptionError, OSError, ValueError) as error:
            first = str(error).splitlines()[0] if str(error) else type(error).__name__
            return {}, {}, {}, f"{run.path}: its component box cannot be read ({first})", {}
        assumed.update(assumed_components(box))
        names.update(component_names(box))
        scoring = {"vp_rewards": rewards_score(box)}
        found = {k: why for k, why in SILENT.items() if not scoring[k]}
        silent = found if silent is None else {k: v for k, v in silent.items() if k in found}
    return assumed, names, variant_files(configs_dir("variants"), assumed), "", silent or {}


#: Categories only some boxes can score in, and why one that cannot scores nothing.
SILENT = {"vp_rewards": "no Unification reward of the box gives VP, so no player can score "
                        "in it by rule"}


def rewards_score(box: Any) -> bool:
    """Whether any reward of any Unification board of ``box`` has an effect that scores VP."""
    rewards = {r for board in box.unification_boards for aspect in board.aspects
               for r in aspect.rewards}
    return any(str(getattr(effect, "effect", "")).startswith("vp")
               for name in rewards if name in box.abilities
               for option in box.abilities[name].options for effect in option)


def _with_lineups(players: pd.DataFrame) -> pd.DataFrame:
    if players.empty:  # no game finished: the columns, with no rows
        return players.assign(lineup=pd.Series(dtype=object), stratum=pd.Series(dtype=object))
    lineup = players.groupby("game_key")["strategy"].transform(
        lambda s: " + ".join(sorted(s)))
    players = players.assign(lineup=lineup, stratum=players["strategy"] + " in " + lineup)
    if "first_player" in players.columns:
        players["position"] = (players["seat"] - players["first_player"]) % players["n_players"]
    return players
