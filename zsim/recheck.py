"""Replay a report's top findings under stronger play, within a time budget.

A finding of the default report is about the game as the heuristic bots play it. ``zsim report``
replays the findings a setup constraint can reproduce (by default with
``strategies.registry.strongest_cheap(n)`` in every seat, ``--recheck BOT`` to choose), in a
forced-in/kept-out design on common seeds (as ``zsim effects`` plays them):

* a component laid out for the table (a Wall tile, a board, a Master Alchemist...) whose
  presence moved the game's mean score: the paired difference of the game's mean VP, forced in
  minus kept out, game by game on the same seeds (``mean_vp``);
* a Starting tile whose keepers won more (or less) than others: per seed, the win share of the
  seat that kept the tile when it was forced into the deal, minus the same seat's win share in
  the same game with the tile kept out (``keeper_win``); both batches are used, so the seat's
  luck of the deal cancels out;
* a Wall tile whose section is built on more (or less) than others: per seed, the Walls built
  on the tile's section in the forced-in game minus those built on the same section in the
  kept-out game (``walls_built``); a Wall tile whose Walls score more (or less): the VP per
  Wall on that section, paired the same way (``wall_vp``);
* a seat, colour or first-player edge: one batch with the bot in every seat, nothing forced,
  the win share of the player at that seat (colour, place in turn order) minus the fair share
  (``seat_win``);
* a strategy's win rate moved by a component in play (a "causal setup effect" read from the
  few games that drew it, or did not): the same paired difference of that strategy's win share,
  replayed with the run's own lineup (``strategy_win``), which is the designed experiment
  ``zsim effects`` would run.

Each replay is judged against the finding's own estimate and interval (``judge``): *holds*,
*shrinks*, *vanished*, *flips* or *cannot tell*.

The budget is spent on the replays themselves: the first finding is played on a few games per
batch, the cost of a game and of starting a batch are read off those batches (their games'
own ``duration_s``), and the games per batch of every finding follow from what is left.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
import scipy

from zsim.runner.experiment import Experiment
from zsim.sequential import stage_seed

HOLDS, SHRINKS, VANISHED, FLIPS, CANNOT_TELL = (
    "holds", "shrinks", "vanished", "flips", "cannot tell")
VERDICTS = (HOLDS, SHRINKS, VANISHED, FLIPS, CANNOT_TELL)
MIN_GAMES = 2  # fewest games per batch a finding is replayed on
MAX_FINDINGS = 5
FIRST_GAMES = 12  # games per batch of the timed first batches
DEFAULT_BUDGET = 2.0  # minutes the default recheck of ``zsim report`` may take
SAFETY = 0.9  # the share of the budget the plan spends: the rest absorbs the estimate's error
#: The measures a replay can take, and the unit its numbers are shown in (scale, unit).
UNITS = {"mean_vp": (1.0, "VP"), "keeper_win": (100.0, "points"),
         "strategy_win": (100.0, "points"), "walls_built": (1.0, "Walls"),
         "wall_vp": (1.0, "VP"), "seat_win": (100.0, "points")}
#: The kind of a seat, colour or first-player finding: ``seat:TERM`` (its level the component),
#: replayed on one batch of the bot in every seat, nothing forced.
SEAT = "seat:"
OWN_LINEUP = "the run's lineup"


@dataclass(frozen=True)
class Candidate:
    """A finding a forced-in/kept-out design can replay: its component, what it measured
    (``UNITS``), the sign of its effect and the effect itself with its 95% interval, in the
    measure's raw unit (VP; a win share from 0 to 1). ``mirrors`` are the claims of findings
    that are this one seen from the other side (board2 in play is board1 out), replayed with
    it; ``strategy`` the strategy whose win rate a ``strategy_win`` finding is about."""

    claim: str
    kind: str
    component: str
    measure: str
    sign: int
    link: str = ""
    original: float = math.nan
    original_low: float = math.nan
    original_high: float = math.nan
    mirrors: tuple[str, ...] = ()
    strategy: str = ""

    @property
    def own_lineup(self) -> bool:
        """Replayed with the run's own bots (a strategy's win rate needs them)."""
        return self.measure == "strategy_win"


@dataclass(frozen=True)
class Rechecked:
    """One replay: ``played`` games per batch (over the run's player counts), of which
    ``games`` gave a value (for a Starting tile, the forced-in games in which someone kept
    it), played by ``bot``."""

    candidate: Candidate
    played: int
    games: int
    estimate: float
    low: float
    high: float
    verdict: str
    bot: str = ""


def judge(sign: int, low: float, high: float, original: float = math.nan) -> str:
    """The replay's verdict on a finding of sign ``sign`` and estimate ``original``:

    * *flips*: the interval excludes zero on the other side;
    * *holds*: it excludes zero on the finding's side and does not lie wholly short of the
      original estimate;
    * *shrinks*: on the finding's side, but wholly short of the original estimate;
    * *vanished*: it holds zero and lies wholly short of the original estimate (a tight
      interval around zero);
    * *cannot tell*: it holds both zero and the original estimate (too few games), or is
      missing."""
    if not (math.isfinite(low) and math.isfinite(high)):
        return CANNOT_TELL
    short = math.isfinite(original) and (high < original if sign > 0 else low > original)
    if low > 0 or high < 0:
        if (low > 0) != (sign > 0):
            return FLIPS
        return SHRINKS if short else HOLDS
    return VANISHED if short else CANNOT_TELL


def mean_interval(values: np.ndarray, confidence: float = 0.95) -> tuple[float, float, float]:
    """Mean and t interval of per-game values; no interval from fewer than two, a zero-width
    one from values that do not vary."""
    values = np.asarray(values, dtype=float)
    if values.size == 0:
        return math.nan, math.nan, math.nan
    mean = float(values.mean())
    if values.size < 2:
        return mean, math.nan, math.nan
    sd = float(values.std(ddof=1))
    if sd == 0:
        return mean, mean, mean
    half = float(scipy.stats.t.ppf(0.5 + confidence / 2, values.size - 1)) * sd / math.sqrt(
        values.size)
    return mean, mean - half, mean + half


def keeper_excess(players: pd.DataFrame, tile: str) -> np.ndarray:
    """Per game with a keeper of ``tile``: the keepers' mean win share minus the fair share."""
    kept = players[players["start_tile"] == tile]
    return (kept.groupby("game")["win_share"].mean() - 1 / kept.groupby("game")["n_players"]
            .first()).to_numpy(float)


def keeper_edge(excluded: pd.DataFrame, forced: pd.DataFrame, tile: str) -> np.ndarray:
    """Per seed with a keeper of ``tile`` in the forced-in game: the keeper's win share minus
    the same seat's in the same game with the tile kept out (both batches, paired by seed)."""
    kept = forced.loc[forced["start_tile"] == tile, ["game", "seat", "win_share"]]
    other = excluded[["game", "seat", "win_share"]]
    joined = kept.merge(other, on=["game", "seat"], suffixes=("_forced", "_excluded"))
    edge = joined["win_share_forced"] - joined["win_share_excluded"]
    return edge.groupby(joined["game"]).mean().to_numpy(float)


def mean_vp_difference(excluded: pd.DataFrame, forced: pd.DataFrame) -> np.ndarray:
    """Per seed played in both: the game's mean VP forced in minus kept out."""
    joined = forced.groupby("game")["vp_total"].mean().to_frame("forced").join(
        excluded.groupby("game")["vp_total"].mean().to_frame("excluded"), how="inner")
    return (joined["forced"] - joined["excluded"]).to_numpy(float)


def strategy_win_difference(excluded: pd.DataFrame, forced: pd.DataFrame,
                            strategy: str) -> np.ndarray:
    """Per seed played in both in which ``strategy`` sat: its mean win share forced in minus
    kept out."""
    def share(frame: pd.DataFrame) -> pd.Series:
        return frame[frame["strategy"] == strategy].groupby("game")["win_share"].mean()

    joined = share(forced).to_frame("forced").join(share(excluded).to_frame("excluded"),
                                                   how="inner")
    return (joined["forced"] - joined["excluded"]).to_numpy(float)


def walls_built_difference(excluded: Path, forced: Path, tile: str,
                           vp: bool = False) -> np.ndarray:
    """Per seed played in both: the Walls built on the section where ``tile`` lies in the
    forced-in game, minus the Walls built on the same section in the same game with it kept
    out (another tile lies there), from the batches' games and walls tables. With ``vp``,
    the mean VP per Wall there instead (a game without a Wall on that section on either side
    gives no value)."""
    def built(where: Path) -> pd.Series:
        walls = pd.read_parquet(where / "walls.parquet", columns=["game", "section", "vp"])
        grouped = walls.groupby(["game", "section"])["vp"]
        return grouped.mean() if vp else grouped.size()

    games = pd.read_parquet(forced / "games.parquet")
    slots = [c for c in games.columns if c.startswith("wall_tile_")]
    long = games.melt(id_vars="game", value_vars=slots, var_name="section", value_name="tile")
    long = long[long["tile"] == tile]
    keys = pd.MultiIndex.from_arrays(
        [long["game"], long["section"].str.removeprefix("wall_tile_").astype(int) - 1])
    missing = math.nan if vp else 0
    with_it = built(forced).reindex(keys, fill_value=missing).to_numpy(float)
    without = built(excluded).reindex(keys, fill_value=missing).to_numpy(float)
    differences = pd.Series(with_it - without).groupby(long["game"].to_numpy()).mean()
    return differences.dropna().to_numpy(float)


def seat_excess(players: pd.DataFrame, term: str, level: str) -> np.ndarray:
    """Per game: the win share of the player at ``level`` of ``term`` (a seat, a colour, a
    place in the first round's turn order, 0 the first player) minus the fair share."""
    if term == "colour" and "colour" in players:
        where = players["colour"].astype(str)
    elif term == "position" and "first_player" in players:
        where = ((players["seat"] - players["first_player"]) % players["n_players"]).astype(str)
    elif term == "seat":
        where = players["seat"].astype(str)
    else:
        return np.array([])
    rows = players[where == str(level)]
    return (rows.groupby("game")["win_share"].mean()
            - 1 / rows.groupby("game")["n_players"].first()).to_numpy(float)


def measure(candidate: Candidate, excluded: pd.DataFrame | None, forced: pd.DataFrame,
            where: tuple[Path, Path] | None = None) -> np.ndarray:
    """The per-game values a replay's interval is drawn from (``where``: the batches'
    directories, kept out and forced in, for a measure that reads more than the players)."""
    if candidate.measure == "seat_win":
        return seat_excess(forced, candidate.kind.removeprefix(SEAT), candidate.component)
    if excluded is None:
        raise ValueError(f"{candidate.measure} needs the kept-out batch")
    if candidate.measure == "walls_built":
        if where is None:
            raise ValueError("Walls built are read from the batches' directories")
        return walls_built_difference(*where, candidate.component)
    if candidate.measure == "wall_vp":
        if where is None:
            raise ValueError("VP per Wall is read from the batches' directories")
        return walls_built_difference(*where, candidate.component, vp=True)
    if candidate.measure == "keeper_win":
        return keeper_edge(excluded, forced, candidate.component)
    if candidate.measure == "strategy_win":
        return strategy_win_difference(excluded, forced, candidate.strategy)
    return mean_vp_difference(excluded, forced)


Play = Callable[[Experiment, Path], pd.DataFrame]


def batches(base: Experiment, bot: str, candidate: Candidate, games: int, stage: int = 0
            ) -> list[tuple[str, Experiment]]:
    """The two batches of one replay: ``bot`` in every seat (the run's lineup for a
    ``strategy_win`` finding), the component kept out and forced in, on the same seeds; a
    chunk per worker or two, so that a small batch still uses every core."""
    planned = []
    workers = _workers(base)
    if candidate.measure == "seat_win":  # nothing to force: one batch of the bot
        return [("force", base.with_overrides(
            f"recheck {bot}", strategies=[bot], games=games, seed=stage_seed(base.seed, stage),
            chunk_size=max(1, math.ceil(games / (2 * workers)))))]
    for mode in ("exclude", "force"):
        key = f"setup.{mode}.{candidate.kind}"
        strategies = base.strategies if candidate.own_lineup else [bot]
        planned.append((mode, base.with_overrides(
            f"recheck {bot}", strategies=strategies, games=games,
            seed=stage_seed(base.seed, stage),
            chunk_size=max(1, math.ceil(games / (2 * workers))),
            variants={**base.variants, key: candidate.component})))
    return planned


def _workers(base: Experiment) -> int:
    cores = os.cpu_count() or 1
    return max(1, min(cores, base.jobs) if base.jobs > 0 else cores + 1 + base.jobs)


@dataclass
class Costs:
    """What the batches played so far cost: wall-clock seconds spent, games played, batches
    started, and the games' own playing time (``duration_s``; None when not recorded)."""

    seconds: float = 0.0
    games: int = 0
    batches: int = 0
    playing: float | None = 0.0

    def per_game(self, workers: int) -> float:
        """Wall-clock seconds a game adds to a batch: its playing time shared by the workers
        when the batches recorded it, else the whole wall clock per game."""
        if self.playing is None or self.playing <= 0:
            return self.seconds / max(self.games, 1)
        return min(self.playing / workers, self.seconds) / max(self.games, 1)

    def per_batch(self, workers: int) -> float:
        """Wall-clock seconds a batch costs before its first game (starting the workers,
        loading the bots, writing the tables)."""
        return max(0.0, self.seconds - self.per_game(workers) * self.games) / max(
            self.batches, 1)


@dataclass
class _Replay:
    candidate: Candidate
    bot: str
    played: int = 0
    values: list[np.ndarray] = field(default_factory=list)


def _play(replay: _Replay, base: Experiment, games: int, stage: int, out: Path, play: Play,
          costs: Costs, clock: Callable[[], float]) -> None:
    frames, dirs = {}, {}
    for mode, experiment in batches(base, replay.bot, replay.candidate, games, stage):
        where = dirs[mode] = out / f"stage-{stage}" / mode if stage else out / mode
        started = clock()
        frames[mode] = play(experiment, where)
        costs.seconds += clock() - started
        costs.games += games
        costs.batches += 1
        durations = _durations(where)
        costs.playing = None if durations is None or costs.playing is None else (
            costs.playing + durations)
    replay.played += games
    replay.values.append(measure(replay.candidate, frames.get("exclude"), frames["force"],
                                 (dirs.get("exclude", dirs["force"]), dirs["force"])))


def _durations(where: Path) -> float | None:
    """The summed playing time of a batch's games, when its games table records it."""
    try:
        games = pd.read_parquet(where / "games.parquet", columns=["duration_s"])
    except (OSError, ValueError, KeyError):
        return None
    return float(games["duration_s"].sum())


def recheck(base: Experiment, bot: str | Callable[[int], str], candidates: list[Candidate],
            budget_seconds: float, out: Path, play: Play,
            clock: Callable[[], float] = time.monotonic
            ) -> tuple[list[Rechecked], list[Candidate]]:
    """Replay ``candidates`` (most important first) within ``budget_seconds``.

    ``bot`` is the spec every seat plays, or a function of the player count giving it (the
    run's player counts are replayed one at a time). The first finding is played on
    ``FIRST_GAMES`` games per batch; what those batches cost sets how many findings get at
    least ``MIN_GAMES`` more games per batch and how many each gets (``_weight``), in one more
    stage on seeds of its own. Returns the replays and the findings left out for want of time."""
    if not candidates:
        return [], []
    started = clock()
    counts = list(dict.fromkeys(base.players))
    spec = bot if callable(bot) else (lambda _n: bot)
    workers = _workers(base)
    costs = Costs()
    per_count = [base.with_overrides("recheck", players=[n]) for n in counts]

    def bots(candidate: Candidate) -> list[str]:
        return [OWN_LINEUP if candidate.own_lineup else spec(n) for n in counts]

    replays = [[_Replay(c, b) for b in bots(c)] for c in candidates[:MAX_FINDINGS]]
    first = min(FIRST_GAMES, max(MIN_GAMES, base.games))
    for replay, experiment in zip(replays[0], per_count, strict=True):
        _play(replay, experiment, first, 0, out / f"0-{replay.candidate.component}"
              / _slug(replay.bot, experiment), play, costs, clock)
    # a margin for what the first batches could not show (a busier machine, a slower deal)
    left = SAFETY * budget_seconds - (clock() - started)
    game, batch = costs.per_game(workers), costs.per_batch(workers)
    chosen_candidates = [row[0].candidate for row in replays]

    def unit(findings: int) -> float:
        """Games per batch of a finding of weight 1 when ``findings`` findings share what is
        left: each batch costs its start, each game its share of the workers' time."""
        shown = chosen_candidates[:findings]
        money = left - sum(len(counts) * _batches(c) for c in shown) * batch
        spent = sum(len(counts) * _batches(c) * _weight(c) for c in shown) * max(game, 1e-6)
        return money / spent if money > 0 else 0.0

    chosen = len(replays)
    while chosen > 1 and unit(chosen) < MIN_GAMES:
        chosen -= 1
    share = unit(chosen)
    for i, row in enumerate(replays[:chosen]):
        # never more games than the run itself
        more = min(int(share * _weight(row[0].candidate)), base.games)
        if more < MIN_GAMES:
            break
        for replay, experiment in zip(row, per_count, strict=True):
            where = out / f"{i}-{replay.candidate.component}" / _slug(replay.bot, experiment)
            _play(replay, experiment, more, 1 if i == 0 else 0, where, play, costs, clock)
    results = []
    for row in replays:
        if not row[0].played:
            continue
        values = np.concatenate([v for replay in row for v in replay.values])
        estimate, low, high = mean_interval(values)
        candidate = row[0].candidate
        results.append(Rechecked(candidate, sum(r.played for r in row), len(values),
                                 estimate, low, high,
                                 judge(candidate.sign, low, high, candidate.original),
                                 " / ".join(dict.fromkeys(r.bot for r in row))))
    done = {id(r.candidate) for r in results}
    return results, [c for c in candidates if id(c) not in done]


def _batches(candidate: Candidate) -> int:
    """Batches of one finding per player count: a seat edge forces nothing (one batch)."""
    return 1 if candidate.measure == "seat_win" else 2


def _weight(candidate: Candidate) -> int:
    """The games a finding gets against the others': a Starting tile's keeper is measured
    only in the games where the forced tile was kept (about half), so it gets twice as many."""
    return 2 if candidate.measure == "keeper_win" else 1


def _slug(bot: str, experiment: Experiment) -> str:
    """A batch's folder under its finding's: one per player count."""
    del bot
    return f"{experiment.players[0]}p"


__all__ = ["CANNOT_TELL", "FLIPS", "HOLDS", "SHRINKS", "VANISHED", "Candidate", "Rechecked",
           "judge", "keeper_edge", "keeper_excess", "mean_interval", "recheck"]
