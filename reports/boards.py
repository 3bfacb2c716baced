"""The report section on Unification boards: which rewards are taken, what taking them is
worth, and
whether the boards produce different games.

A reward is identified by its board, round and aspect. Its effect compares the player who took
it with the other players of the same strategy and lineup in games on that board. That is an
association, not a cause: the reward goes to whoever leads the aspect, who may be winning
anyway. Score distributions are compared game by game (the mean VP of each game), because
players of one game are not independent.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from zsim.reports.common import (
    MIN_GAMES,
    annotate_cells,
    association,
    ecdf_panels,
    forest,
    forest_height,
    new_figure,
    player_count_label,
    share_of,
    too_few,
)
from zsim.reports.components import BOARD_TOPIC
from zsim.reports.findings import relative_phrase
from zsim.reports.loader import RunData
from zsim.reports.model import CAUSAL, Comparison, Figure, Note, Section, Table
from zsim.stats import distribution_test

INTRO = ("Take rate: the share of games on the board in which the reward was taken by anyone. "
         "Effects compare the taker with other players of the same strategy and lineup in "
         "games on that board (adjusted difference, 95% intervals clustered by game); they "
         "show association, not cause, since rewards go to players who lead an aspect.")

#: Why no command tests a reward's association by design.
PER_REWARD = ("no setup constraint takes one reward off a board, so no designed experiment "
              "tests it yet (`zsim effects board` swaps the whole board, every reward with it)")

def _take_rates(rewards: pd.DataFrame, games: pd.DataFrame) -> pd.DataFrame:
    """Per board, round and aspect: the reward there, games on the board, and its take rate."""
    per_board = games.groupby("unification_board").size().rename("board_games")
    taken = (rewards.groupby(["unification_board", "round", "aspect"])
             .agg(reward=("reward", lambda r: r.mode().iloc[0]), taken=("game_key", "nunique")))
    taken = taken.join(per_board, on="unification_board")
    taken["take_rate"] = taken["taken"] / taken["board_games"]
    return taken


def _heatmaps(rates: pd.DataFrame, boards: list[str], games: int) -> Figure:
    aspects = sorted(rates.index.get_level_values("aspect").unique())
    rounds = sorted(rates.index.get_level_values("round").unique())
    fig, axes = new_figure(len(boards), 1, height=0.6 + 0.6 * len(boards) * len(aspects))
    for ax, board in zip(axes[:, 0], boards, strict=True):
        cells = rates.loc[board] if board in rates.index.get_level_values(0) else rates.iloc[:0]
        grid = np.full((len(aspects), len(rounds)), np.nan)
        texts = np.full(grid.shape, "", dtype=object)
        for (rnd, aspect), row in cells.iterrows():
            i, j = aspects.index(aspect), rounds.index(rnd)
            grid[i, j] = row["take_rate"]
            texts[i, j] = f"{row['take_rate']:.0%}\n{row['reward']}"
        annotate_cells(ax, ax.imshow(grid, cmap="Blues", vmin=0, vmax=1, aspect="auto"), texts)
        ax.set_xticks(range(len(rounds)), [f"round {r}" for r in rounds])
        ax.set_yticks(range(len(aspects)), aspects)
        ax.set_title(f"{board}")
        ax.grid(False)
    return Figure("board-take-rates", "Reward take rates by board",
                  "Share of games on each board in which the reward of each round and aspect "
                  "was taken (the reward's id is under the rate).", games, fig)


def _reward_effects(data: RunData, board: str,
                    rates: pd.DataFrame) -> tuple[Figure | Note, pd.DataFrame]:
    games = data.finished.loc[data.finished["unification_board"] == board, "game_key"]
    players = data.players[data.players["game_key"].isin(games)]
    rewards = data.rewards[data.rewards["game_key"].isin(games)]
    cells = rates.loc[board] if board in rates.index.get_level_values(0) else rates.iloc[:0]
    labels, win_rows, vp_rows, comparisons = [], [], [], []
    keys = pd.MultiIndex.from_frame(players[["game_key", "seat"]])
    for (rnd, aspect), row in cells.iterrows():
        takers = rewards[(rewards["round"] == rnd) & (rewards["aspect"] == aspect)]
        took = keys.isin(pd.MultiIndex.from_frame(takers[["game_key", "seat"]]))
        name = f"round {rnd} {aspect} ({row['reward']})"
        common: dict[str, Any] = {"strata": "stratum", "clusters": "game_key",
                  "method_note": "same strategy and lineup, game-clustered",
                  "no_test": PER_REWARD}
        win, win_test = association(players, outcome="win_share", exposure=took,
                                label=f"{board} {name}: win rate",
                                subject=f"On {board}, taking the {name} reward",
                                measure="win rate", scale=100, unit="points", **common)
        vp, vp_test = association(players, outcome="vp_total", exposure=took,
                              label=f"{board} {name}: VP",
                              subject=f"On {board}, taking the {name} reward",
                              measure="final score", **common)
        labels.append(f"R{rnd} {aspect}: {row['reward']}")
        win_rows.append(win)
        vp_rows.append(vp)
        comparisons += [c for c in (win_test, vp_test) if c]
    status = [_too_few_takers(win) for win in win_rows]
    for win, vp, why in zip(win_rows, vp_rows, status, strict=True):
        if why:  # no estimate where there is no test: an interval would mislead
            for numbers in (win, vp):
                numbers.update(dict.fromkeys(ESTIMATES, float("nan")))
    effects = pd.concat([cells.reset_index().assign(board=board),
                         pd.DataFrame(win_rows).add_prefix("win_points_"),
                         pd.DataFrame(vp_rows).drop(columns=["exposed", "others"],
                                                    errors="ignore").add_prefix("vp_")], axis=1)
    effects["status"] = status
    if not labels:
        return Note(f"{board}: no reward was ever taken."), effects
    drawn = [i for i, why in enumerate(status) if not why]
    few = [labels[i] for i, why in enumerate(status) if why]
    left_out = (f" Rewards with fewer than {MIN_GAMES} takers (or others) are too few games "
                f"to estimate and are not drawn: {'; '.join(few)}." if few else "")
    if not drawn:
        return Note(f"{board}: every reward was taken by too few players (fewer than "
                    f"{MIN_GAMES}) to estimate what it goes with.", warning=True), effects
    shown = [labels[i] for i in drawn]
    wins = pd.DataFrame(win_rows).iloc[drawn]
    panels = [(wins, "win rate", "difference (percentage points)"),
              (pd.DataFrame(vp_rows).iloc[drawn], "final score", "difference (VP)")]
    if wins["estimate"].isna().all():  # the win rate never varied: nothing to draw
        panels = panels[1:]
        left_out += (" Win rates did not vary within any strategy and lineup (a bot that won "
                     "every game, or none), so no reward's effect on them is estimable.")
    fig, axes = new_figure(1, len(panels), height=forest_height(len(shown)))
    for i, (rows, name, xlabel) in enumerate(panels):
        forest(axes[0][i], shown, rows, name, xlabel)
        if i:
            axes[0][i].set_yticklabels([])
    return Figure(f"board-rewards-{board}", f"What taking each reward goes with: {board}",
                  f"For each reward of {board} (round, aspect, reward id), the difference in "
                  "win rate and final score between the player who took it and other players "
                  "of the same strategy and lineup in games on this board, with 95% intervals "
                  f"clustered by game. Association, not cause.{left_out}", len(games), fig,
                  comparisons), effects


#: The numbers of an effect's row (``zsim.reports.common.association``).
ESTIMATES = ("estimate", "low", "high", "p", "relative")


def _too_few_takers(row: dict[str, float]) -> str:
    """Why a reward's effect is not estimated (empty when it is): fewer than ``MIN_GAMES``
    players took it (or did not), the floor below which the report tests nothing."""
    if min(row["exposed"], row["others"]) >= MIN_GAMES:
        return ""
    return (f"too few games ({row['exposed']:.0f} takers, {row['others']:.0f} others; at least "
            f"{MIN_GAMES} on each side needed)")


def _scores(data: RunData, boards: list[str]) -> Figure | Note:
    players = data.players.assign(
        board=data.players["game_key"].map(data.finished.set_index("game_key")
                                           ["unification_board"]))
    per_game = players.groupby(["game_key", "n_players", "board"])["vp_total"].mean()
    counts = data.player_counts
    fig, axes = new_figure(1, len(counts), height=3.4)
    ecdf_panels(axes[0], players, counts, "n_players", boards, "board", "vp_total", "final VP")
    comparisons = []
    for ax, n in zip(axes[0], counts, strict=True):
        groups = []
        for board in boards:
            games = per_game.xs(n, level="n_players")
            board_games = games[games.index.get_level_values("board") == board]
            if len(board_games) >= MIN_GAMES:
                groups.append((board, board_games.to_numpy()))
        ax.set_title(player_count_label(n))
        if len(groups) > 1:
            test = distribution_test([g for _, g in groups])
            means = {b: g.mean() for b, g in groups}
            high, low = max(means, key=means.__getitem__), min(means, key=means.__getitem__)
            relative = share_of(means[high] - means[low],
                                float(np.concatenate([g for _, g in groups]).mean()))
            comparisons.append(Comparison(
                label=f"scores by board, {player_count_label(n)}",
                claim=f"{n}-player games on {high} score {means[high] - means[low]:+.1f} VP "
                      f"per player against {low} "
                      f"({relative_phrase(relative, 'mean score')})",
                method=("Mann-Whitney U" if len(groups) == 2 else "Kruskal-Wallis")
                + " test of per-game mean VP",
                pvalue=test.pvalue, effect=test.effect, effect_kind=test.effect_kind,
                games=sum(len(g) for _, g in groups), relative=relative, basis="mean score",
                group=CAUSAL, topic=BOARD_TOPIC))
    return Figure("board-scores", "Score distributions by board",
                  "Distribution of final VP per player on each board, per player count, as "
                  "the share of players scoring at most each total. The "
                  "boards are compared on each game's mean VP (rank test: Mann-Whitney U for "
                  "two boards, Kruskal-Wallis for more).",
                  int(players["game_key"].nunique()), fig, comparisons)


def section(data: RunData) -> Section:
    """Take rates, reward effects per board, and score distributions between boards."""
    section = Section("boards", "Unification boards", INTRO)
    if "unification_board" not in data.games.columns:
        section.blocks.append(Note("The runs do not record the Unification board.",
                                   warning=True))
        return section
    games = data.finished
    if len(games) < MIN_GAMES:
        section.blocks.append(too_few("Unification boards", len(games)))
        return section
    boards = sorted(games["unification_board"].dropna().unique())
    rewards = data.rewards.join(games.set_index("game_key")["unification_board"],
                                on="game_key")
    rates = _take_rates(rewards, games)
    section.blocks.append(_heatmaps(rates, boards, len(games)))
    section.blocks.append(Table("reward-take-rates", "Rewards by board, round and aspect",
                                rates.reset_index(), formats={"take_rate": "{:.1%}"}))
    effects = []
    for board in boards:
        board_games = int((games["unification_board"] == board).sum())
        if board_games < MIN_GAMES:
            section.blocks.append(too_few(f"Rewards of {board}", board_games))
        else:
            block, table = _reward_effects(data, board, rates)
            section.blocks.append(block)
            effects.append(table)
    if effects:
        section.blocks.append(Table(
            "reward-effects", "Reward effects (taker against comparable players)",
            pd.concat(effects, ignore_index=True),
            formats={"take_rate": "{:.1%}", "win_points_p": "{:.3g}", "vp_p": "{:.3g}"},
            collapsed=True))
    if len(boards) > 1:
        section.blocks.append(_scores(data, boards))
    else:
        section.blocks.append(Note(f"Every game used {boards[0]}: no boards to compare."))
    return section
