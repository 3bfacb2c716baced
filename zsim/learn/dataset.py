"""Positions with their outcomes: the ``positions`` table of one or more runs joined with how
each seat finished (``players``), as arrays ready to fit on.

The outcome of a position is the seat's final result in that game: its margin (VP minus the
best other player's) and its win share (1 for a win, 1/k for a win shared by k, 0 otherwise).
Games are kept whole on one side of a split: positions of one game are close to each other, and
a model tested on games it has seen parts of would look better than it is.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.compute as pc
import pyarrow.parquet as pq

from zsim.errors import UserError
from zsim.learn.positions import OBSERVATION
from zsim.runner.writer import RUN_JSON, DamagedRun, read_manifest


class DatasetError(UserError, ValueError):
    """Runs that hold no positions to learn from, or positions of different games."""


@dataclass
class Positions:
    """Arrays of one player count's positions, row by row."""

    observations: np.ndarray  # (n, width) float32
    margin: np.ndarray  # final margin, VP
    win: np.ndarray  # final win share
    margin_now: np.ndarray  # the VP margin on the track when the position was seen
    progress: np.ndarray  # round / rounds played, 0..1
    game: np.ndarray  # a game key, unique across the runs pooled
    n_players: int
    box_digest: str
    variants: list[str]

    def __len__(self) -> int:
        return len(self.margin)

    def take(self, rows: np.ndarray) -> Positions:
        return Positions(self.observations[rows], self.margin[rows], self.win[rows],
                         self.margin_now[rows], self.progress[rows], self.game[rows],
                         self.n_players, self.box_digest, self.variants)


def load(runs: list[Path], n_players: int) -> Positions:
    """The positions at ``n_players`` of every run given (each a run directory that recorded
    positions), with their outcomes."""
    parts, digests, variants = [], set(), set()
    for number, run in enumerate(runs):
        path = run / "positions.parquet"
        if not path.is_file():
            raise DatasetError(f"{run}: no positions.parquet; a run records positions with "
                               f"record: [positions] (zsim train does)")
        try:
            manifest = read_manifest(run / RUN_JSON)
        except DamagedRun as error:
            raise DatasetError(str(error)) from None
        digests.add(manifest["box_digest"])
        variants.add(tuple(f"{k}={v}" for k, v in
                           sorted(manifest["experiment"].get("variants", {}).items())))
        table = pq.read_table(path)
        table = table.filter(pc.equal(table["n_players"], n_players))
        if not table.num_rows:
            continue
        players = pd.read_parquet(run / "players.parquet",
                                  columns=["game", "seat", "vp_total", "win_share"])
        best = players.groupby("game")["vp_total"].transform(
            lambda vp: vp.nlargest(2).iloc[-1] if len(vp) > 1 else vp.iloc[0])
        top = players.groupby("game")["vp_total"].transform("max")
        players["margin"] = players["vp_total"] - np.where(players["vp_total"] == top, best, top)
        rows = table.drop_columns([OBSERVATION]).to_pandas()
        rows["row"] = np.arange(len(rows))
        joined = rows.merge(players, on=["game", "seat"], how="inner")
        flat = pc.list_flatten(table[OBSERVATION]).to_numpy()
        vectors = flat.reshape(table.num_rows, -1)[joined["row"].to_numpy()]
        joined["key"] = joined["game"] * len(runs) + number
        parts.append((joined, vectors, manifest))
    if not parts:
        raise DatasetError(f"no positions of {n_players}-player games in "
                           f"{', '.join(map(str, runs))}")
    if len(digests) > 1 or len(variants) > 1:
        raise DatasetError(f"{', '.join(map(str, runs))}: positions of different rules (box "
                           f"digests {sorted(digests)}, variants {sorted(variants)}) cannot "
                           f"train one model")
    widths = {vectors.shape[1] for _, vectors, _ in parts}
    if len(widths) > 1:
        raise DatasetError(f"observations of different widths {sorted(widths)}: the runs were "
                           f"recorded with different encodings")
    frame = pd.concat([joined for joined, _, _ in parts], ignore_index=True)
    rounds = max(int(frame["round"].max()), 1)  # the last round is played in every game
    return Positions(
        observations=np.concatenate([v for _, v, _ in parts]).astype(np.float32),
        margin=frame["margin"].to_numpy(np.float64), win=frame["win_share"].to_numpy(np.float64),
        margin_now=frame["margin_now"].to_numpy(np.float64),
        progress=frame["round"].to_numpy(np.float64) / rounds,
        game=frame["key"].to_numpy(np.int64), n_players=n_players,
        box_digest=digests.pop(), variants=list(variants.pop()))


def split(positions: Positions, held_out: float, seed: int) -> tuple[Positions, Positions]:
    """(training, held-out): whole games drawn at random, ``held_out`` of them held out."""
    games = np.unique(positions.game)
    rng = np.random.default_rng(seed)
    test = set(rng.choice(games, size=max(1, round(held_out * len(games))),
                          replace=False).tolist())
    mask = np.array([g in test for g in positions.game])
    if mask.all():
        raise DatasetError(f"{len(games)} game(s) are too few to hold some out")
    return positions.take(np.flatnonzero(~mask)), positions.take(np.flatnonzero(mask))
