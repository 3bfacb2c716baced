"""The game experience: is the game tense, decisive and interesting?

Read from the runs' experience tables alone (``zsim.experience``; docs/experience.md defines
every metric): the win-probability fan of the games and of a typical one, when games are
decided, lead changes by player count, the metrics' means with their intervals, branching and
clarity per decision kind, the options nobody takes and the components nobody uses, kingmaking
where it was looked for, and how well the win probabilities are calibrated. The figures
describe; they test nothing, so they add no finding to the report's list.
"""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.ticker import MaxNLocator

from zsim.experience import data as experience_data
from zsim.experience import metrics, unused
from zsim.experience.data import Experience
from zsim.reports.common import (
    MIN_GAMES,
    STYLE,
    figure_legend,
    new_figure,
    player_count_label,
    too_few,
)
from zsim.reports.loader import RunData
from zsim.reports.model import Comparison, Figure, Note, Section, Table
from zsim.stats import wilson_interval

SLUG = "experience"
TITLE = "Game experience"
INTRO = ("How the games unfold for their players, not only who wins them: how long they last, "
         "how often the lead changes, how far behind the eventual winner was, when the winner "
         "was settled, how clear the choices are, and what nobody ever does. Each metric is "
         "defined in docs/experience.md with its formula and its source (Ludii's evaluation "
         "metrics, after Browne, where one exists); `zsim compare`, `zsim sweep` and "
         "`zsim effects` pair them across rule variants game by game.")
SHOWN = ("decisions", "branching", "real_choice", "lead_changes", "track_lead_changes", "drama",
         "trailed", "decided_round", "p_decided_round", "uncertainty", "stability",
         "clarity_gap", "comeback", "first_player_won")
FAN_LEVELS = (0.1, 0.25, 0.5, 0.75, 0.9)


def _winner_chance(experience: Experience) -> pd.DataFrame:
    """Per game and point: the share of the game played and the eventual winners' estimated
    chance to win (summed over tied winners)."""
    t = experience.trajectories
    chances = t[t["p_win"].notna()]
    final = t[t["stage"] == "final"]
    best = final.groupby(["run_id", "game"])["vp"].transform("max")
    winners = final.loc[final["vp"] == best, ["run_id", "game", "seat"]].assign(won=True)
    rows = chances.merge(winners, on=["run_id", "game", "seat"], how="left")
    rows = rows[rows["won"].fillna(False).astype(bool)]
    last = t.groupby(["run_id", "game"])["turn"].max().rename("last")
    rows = rows.join(last, on=["run_id", "game"])
    rows["progress"] = rows["turn"] / rows["last"]
    order = rows["stage"].map(metrics.STAGES)
    return (rows.assign(_order=order)
            .groupby(["run_id", "game", "n_players", "turn", "_order"], as_index=False)
            .agg(progress=("progress", "first"), round=("round", "first"),
                 chance=("p_win", "sum")))


def _typical_game(experience: Experience, n_players: int) -> tuple[str, int] | None:
    """The game of this player count whose lead changes, drama and deciding round are closest
    to the run's medians (distance in each metric's own spread)."""
    games = experience.games[experience.games["n_players"] == n_players]
    keys = ["lead_changes", "drama", "decided_round"]
    games = games.dropna(subset=keys)
    if games.empty:
        return None
    spread = games[keys].std().replace(0, 1).fillna(1)
    distance = ((games[keys] - games[keys].median()) / spread).abs().sum(axis=1)
    row = games.loc[distance.idxmin()]
    return str(row["run_id"]), int(row["game"])


def _fan_figure(experience: Experience, counts: list[int]) -> Figure | None:
    chance = _winner_chance(experience)
    if chance.empty:
        return None
    fig, axes = new_figure(2, len(counts), height=5.6)
    for col, n in enumerate(counts):
        ax = axes[0][col]
        rows = chance[chance["n_players"] == n]
        bands = rows.groupby(rows["progress"].round(2))["chance"].quantile(
            list(FAN_LEVELS)).unstack()
        x = bands.index.to_numpy(float)
        ax.fill_between(x, bands[0.1], bands[0.9], color="C0", alpha=0.15, linewidth=0,
                        label="10–90% of games")
        ax.fill_between(x, bands[0.25], bands[0.75], color="C0", alpha=0.3, linewidth=0,
                        label="25–75%")
        ax.plot(x, bands[0.5], color="C0", label="median")
        ax.axhline(1 / n, color="0.3", linestyle="--", linewidth=1)
        _chance_axis(ax)
        ax.set_title(f"{player_count_label(n)}: the eventual winner's chance")
        ax.set_xlabel("share of the game played")
        typical = _typical_game(experience, n)
        ax = axes[1][col]
        if typical is None:
            ax.set_axis_off()
            continue
        t = experience.trajectories
        game = t[(t["run_id"] == typical[0]) & (t["game"] == typical[1]) & t["p_win"].notna()]
        order = game["stage"].map(metrics.STAGES)
        game = game.assign(_order=order).sort_values(["turn", "_order"])
        for seat, line in game.groupby("seat"):
            ax.plot(line["turn"], line["p_win"], marker=".", color=f"C{int(seat) + 1}",
                    label=f"seat {seat} ({line['strategy'].iloc[0]})")
        _chance_axis(ax)
        ax.set_title(f"a typical game ({typical[1]})", fontsize=9)
        ax.set_xlabel("turns played")
        # beside the panel: inside, the seats' lines run through every corner
        ax.legend(fontsize=7, frameon=False, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    axes[0][0].set_ylabel("estimated chance to win")
    axes[1][0].set_ylabel("estimated chance to win")
    figure_legend(fig, axes[0][0])  # above the panels, off the bands
    estimator = "; ".join(experience.estimators) or "the recorder's estimator"
    return Figure(
        "experience-fan", "The win-probability fan",
        "Top: the eventual winner's estimated chance to win as the game goes on, across "
        "games: the median and the bands holding the middle 50% and 80% of games (the dashed "
        "line is an even chance). A fan that rises early means games are settled early. "
        "Bottom: every seat's estimated chance in the game closest to the run's medians of "
        f"lead changes, drama and deciding round. Estimates: {estimator}.",
        int(experience.games["game"].size), fig)


def _chance_axis(ax: Axes) -> None:
    """A win-probability axis from 0 to 100% with headroom, so that a line at 100% (a game's
    end, when the winner is known) is not drawn on the frame."""
    ax.set_ylim(-0.03, 1.06)
    ax.set_yticks([0, 0.25, 0.5, 0.75, 1])
    ax.yaxis.set_major_formatter(lambda v, _: f"{v:.0%}")


def _decided_figure(experience: Experience, counts: list[int]) -> Figure:
    games = experience.games
    fig, axes = new_figure(1, 2, height=3.4)
    rounds = int(np.nanmax(games["rounds"])) if games["rounds"].notna().any() else 5
    for i, (column, title) in enumerate((
            ("decided_round", "winner ahead in standing for good"),
            ("p_decided_round", f"winner's chance above {metrics.DECIDED:.0%} for good"))):
        ax = axes[0][i]
        for n in counts:
            values = games.loc[games["n_players"] == n, column].dropna()
            if values.empty:
                continue
            share = [(values <= r).mean() for r in range(1, rounds + 1)]
            ax.plot(range(1, rounds + 1), share, marker="o", label=player_count_label(n))
        ax.set_ylim(0, 1.02)
        ax.set_xticks(range(1, rounds + 1))
        ax.set_xlabel("by the end of round")
        ax.set_title(title, fontsize=10)
        ax.yaxis.set_major_formatter(lambda v, _: f"{v:.0%}")
    axes[0][0].set_ylabel("games decided")
    axes[0][0].legend(frameon=False, fontsize=8)
    return Figure(
        "experience-decided", "Decisiveness by round",
        "Share of games already decided by the end of each round: left, the eventual winner "
        "leads every other player in standing (the VP each would have if the game ended "
        "there) from that round to the end; right, the winner's estimated chance stays above "
        f"{metrics.DECIDED:.0%}. The last round's end is the final score, so every line "
        "reaches 100% there.", int(games["game"].size), fig)


def _lead_figure(experience: Experience, counts: list[int]) -> Figure:
    summary = experience.summary
    fig, axes = new_figure(1, 2, height=3.2)
    for ax, metric, title in ((axes[0][0], "lead_changes", "in standing, round by round"),
                              (axes[0][1], "track_lead_changes", "on the score track, turn "
                               "by turn")):
        rows = summary[(summary["metric"] == metric)
                       & summary["n_players"].isin([str(n) for n in counts])]
        x = np.arange(len(rows))
        ax.bar(x, rows["mean"], color="C0", alpha=0.7)
        ax.errorbar(x, rows["mean"], yerr=np.vstack([rows["mean"] - rows["low"],
                                                     rows["high"] - rows["mean"]]),
                    fmt="none", ecolor="0.2", capsize=3)
        ax.set_xticks(list(x), [player_count_label(int(n)) for n in rows["n_players"]])
        ax.set_title(f"lead changes {title}", fontsize=10)
    axes[0][0].set_ylabel("lead changes per game")
    return Figure(
        "experience-lead-changes", "Lead changes by player count",
        "Mean number of times the sole leader changed per game, with 95% bootstrap intervals: "
        "left in standing (which counts the end-game scoring too), measured at each round's "
        "end (and each turn's with --trajectories value); right on the score track the "
        "players see, measured after every turn. A tie changes nothing.",
        int(experience.games["game"].size), fig)


def _kingmaking_table(runs: RunData) -> Table | Note:
    frames = [pd.read_parquet(run.path / "kingmaking.parquet") for run in runs.runs
              if (run.path / "kingmaking.parquet").is_file()]
    frames = [f for f in frames if len(f)]
    if not frames:
        return Note("Kingmaking was not looked for in these runs (`zsim run --kingmaking N` "
                    "replays the last choices of the players who did not win in the first N "
                    "games).")
    rows = pd.concat(frames, ignore_index=True)
    per_game = rows.groupby(["run_id", "game", "n_players"])["kingmaker"].any().reset_index()
    table = []
    for n, games in per_game.groupby("n_players"):
        found = int(games["kingmaker"].sum())
        low, high = wilson_interval(found, len(games))
        out = rows[rows["n_players"] == n]
        table.append({"n_players": int(games["n_players"].iloc[0]), "games_examined": len(games),
                      "games_with_kingmaking": found, "share": found / len(games),
                      "low": low, "high": high,
                      "choices_examined": len(out),
                      "choices_of_players_out_of_the_running": int((~out["could_win"]).sum()),
                      "kingmaking_choices": int(out["kingmaker"].sum())})
    return Table("experience-kingmaking", "Kingmaking: players who could no longer win "
                 "deciding who does", pd.DataFrame(table),
                 {"share": "{:.1%}", "low": "{:.1%}", "high": "{:.1%}"})


def section(data: RunData) -> Section:
    """The experience section of a report of ``data``'s runs."""
    section = Section(SLUG, TITLE, INTRO)
    experience = experience_data.read([run.path for run in data.runs], players=data.players)
    if not experience.recorded:
        section.blocks.append(Note(
            "These runs recorded no trajectories, so there is nothing to show: a run records "
            "them with `zsim run --trajectories vp` (off by default, since they cost a run "
            "about a fifth more CPU); `zsim compare`, `sweep` and `effects` always record "
            "them.", warning=True))
        return section
    games = experience.games
    sizes = games.groupby("n_players").size()
    counts = [int(n) for n in sizes.index[sizes >= MIN_GAMES]]
    if not counts:
        section.blocks.append(too_few("Game experience", len(games)))
        return section
    if not experience.estimators and games["uncertainty"].isna().all():
        section.blocks.append(Note("No win probabilities were estimated (too few games per "
                                   "player count to fit the estimator), so the metrics made "
                                   "of them are left out.", warning=True))
    else:
        fan = _fan_figure(experience, counts)
        if fan is not None:
            section.blocks.append(fan)
    section.blocks += [_decided_figure(experience, counts), _lead_figure(experience, counts)]
    summary = experience.summary[experience.summary["metric"].isin(SHOWN)]
    section.blocks.append(Table(
        "experience-metrics", "Experience metrics per player count", summary,
        {"mean": "{:.3g}", "low": "{:.3g}", "high": "{:.3g}", "median": "{:.3g}"}))
    section.blocks.append(Table(
        "experience-decision-kinds", "Branching, real choices and clarity per decision kind",
        experience.kinds, {"per_game": "{:.1f}", "branching": "{:.2f}",
                           "real_choice": "{:.1%}", "clarity_gap": "{:.2f}",
                           "clarity_narrow": "{:.1%}", "clarity_spread": "{:.2f}"},
        collapsed=len(experience.kinds) > 12))
    section.blocks.append(_unused_table(data, experience))
    section.blocks.append(_kingmaking_table(data))
    calibration = experience.calibration
    if len(calibration):
        section.blocks.append(Table(
            "experience-calibration",
            f"Calibration of the win probabilities (Brier score "
            f"{calibration.attrs['brier']:.3f})", calibration,
            {"estimated": "{:.1%}", "observed": "{:.1%}"}, collapsed=True))
        section.blocks.append(Note(
            "Win probabilities: " + ("; ".join(experience.estimators) or "none") + ". Each "
            "game's estimates come from the model fitted on the other half of the games. The "
            "table compares, by range of estimate, the mean estimate with the share of the win "
            "those seats actually took: a well-calibrated estimator has them close."))
    section.blocks.append(Table("experience-games", "Every game's experience metrics",
                                games, {m: "{:.3g}" for m in metrics.METRICS}, collapsed=True))
    return section


def _unused_table(data: RunData, experience: Experience) -> Table:
    never = experience.never_taken.assign(what="option never chosen")
    dead = unused.dead_components(data.finished, data.tiles, data.walls, None).assign(
        what="component never used")
    rows = pd.concat([
        never.rename(columns={"option": "name", "offered": "chances", "chosen": "uses"})[
            ["what", "kind", "name", "chances", "uses"]],
        dead.rename(columns={"component": "name"})[["what", "kind", "name", "chances",
                                                    "uses"]]], ignore_index=True)
    return Table("experience-unused", f"Options never chosen and components never used "
                 f"(offered or in play at least {unused.MIN_OFFERED} times)", rows)


# --- paired across rule sets: zsim compare, sweep and effects ---------------------------------

def _paired_figure(table: pd.DataFrame, slug: str, title: str) -> Figure:
    from zsim.experience.paired import HEADLINE
    from zsim.reports.common import forest

    shown = [m for m in HEADLINE if m in set(table["metric"])]
    cols = 4
    rows_needed = -(-len(shown) // cols)
    counts = list(dict.fromkeys(table["n_players"]))
    fig, axes = new_figure(rows_needed, cols, height=0.9 + rows_needed * (0.5 + 0.3 * len(counts)))
    for ax, metric in zip(axes.ravel(), shown, strict=False):
        rows = table[table["metric"] == metric]
        unit = metrics.METRICS[metric].unit
        scale = 100 if unit == "percentage points" else 1
        forest(ax, [f"{n}p" if n != metrics.ALL else n for n in rows["n_players"]],
               rows.assign(estimate=rows["difference"] * scale, low=rows["low"] * scale,
                           high=rows["high"] * scale), metric.replace("_", " "), unit)
        ax.xaxis.set_major_locator(MaxNLocator(nbins=3))  # a quarter of the width: 3 numbers
        for y, significant in zip(range(len(rows))[::-1], rows["significant"], strict=True):
            if significant:
                ax.annotate("*", (1.0, y), xycoords=("axes fraction", "data"), fontsize=11)
    for ax in axes.ravel()[len(shown):]:
        ax.set_axis_off()
    games = int(table["games"].max()) if len(table) else 0
    return Figure(slug, title,
                  "Variant minus base, game by game on the same seeds: mean paired difference "
                  "with its 95% bootstrap interval, per player count; * marks a difference "
                  "that stays significant after Holm's correction over every experience metric "
                  "and player count of this comparison (Wilcoxon signed-rank test). Every "
                  "metric is in the table below and in docs/experience.md.", games, fig,
                  _paired_tests(table[table["metric"].isin(shown)],
                                int(table["adjusted"].notna().sum())))


def _paired_tests(table: pd.DataFrame, family_size: int) -> list[Comparison]:
    """The tests behind the figure's stars, so that its caption states their verdict: one
    family, every experience metric and player count of the comparison (the pooled rows
    repeat the games and are not tested)."""
    from zsim.experience.paired import sentence

    return [Comparison(
        label=f"{row['metric']} ({row['n_players']}p)", claim=sentence(row),
        method="Wilcoxon signed-rank test on paired games", pvalue=row["pvalue"],
        effect=row["effect"], effect_kind="d", games=int(row["games"]),
        family="every experience metric and player count", adjusted=row["adjusted"],
        family_size=family_size)
        for _, row in table.iterrows() if row["n_players"] != metrics.ALL]


def paired_blocks(table: pd.DataFrame | None, slug: str, title: str) -> list:
    """The report blocks of one paired experience comparison (``zsim.experience.paired``):
    its figure, its sentences (a change said, or refused) and its table."""
    from zsim.experience.paired import HEADLINE, sentences

    if table is None or table.empty:
        return [Note(f"{title}: no trajectories in both runs, so no experience metric to "
                     "compare (`zsim run --trajectories vp`, the default, records them).")]
    said = sentences(table[table["n_players"] != metrics.ALL], HEADLINE)
    return [_paired_figure(table, slug, title), Note(" ".join(said)),
            Table(slug, f"{title}: every paired difference", table,
                  {c: "{:.3g}" for c in ("base", "variant", "difference", "low", "high",
                                         "pvalue", "effect", "adjusted")}, collapsed=True)]


def paired_sections(tables: Sequence[tuple[str, pd.DataFrame | None]]) -> list[Section]:
    """One section holding each labelled paired experience table (a comparison has one, a
    sweep one per value after the first, ``zsim effects`` one per component)."""
    section = Section(f"{SLUG}-paired", "Game experience, paired",
                      "How the variant changes the way games unfold, measured game by game on "
                      "the same seeds (docs/experience.md). A change is stated only when it "
                      "survives Holm's correction over the experience tests of its comparison; "
                      "otherwise the sentence says so and gives the interval.")
    with matplotlib.rc_context(STYLE):
        for i, (label, table) in enumerate(tables):
            section.blocks += paired_blocks(table, f"{SLUG}-paired-{i}",
                                            f"Experience, {label}" if label else "Experience")
    return [section]


def usage_section(pairs: Sequence[tuple[str, pd.DataFrame]]) -> list[Section]:
    """Each pair's components' use, base against variant: uses per game, VP per use and the
    pick rate when offered (``zsim.experience.usage``), those that moved by a fifth first."""
    if not pairs:
        return []
    section = Section(f"{SLUG}-usage", "Usage, base against variant",
                      "How often each component is used (Walls built on a Wall tile's section "
                      "per game it lay on, tiles taken and rewards taken per game), what a use "
                      "scores (VP per Wall), and how often it was picked when offered (a tile "
                      "dealt but not kept counts as offered; from the runs' option tables), in "
                      "the base and in the variant. Rows that moved by a fifth or more come "
                      "first. Counts, not tests: a use that moved tells where to look.")
    for i, (label, joined) in enumerate(pairs):
        shown = joined.sort_values(["moved", "kind", "component"], ascending=[False, True,
                                                                              True])
        section.blocks.append(Table(
            f"{SLUG}-usage-{i}", f"Usage, {label}" if label else "Usage", shown,
            formats={c: "{:.2f}" for c in shown.columns if c.startswith(("uses", "vp_per"))}
            | {c: "{:.0%}" for c in shown.columns if c.startswith("picked")}))
    return [section]
