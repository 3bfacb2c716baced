"""The report's first page: what a designer should know, a sentence each, with links.

It reads the other sections' findings (so it is built after them) and a few plain counts of
the runs: the strategies' win rates with their intervals, the largest causal setup effects,
the strongest other findings, components that are hardly ever used, the assumed components the
findings rest on, and what the games could not resolve. At most ``FIRST_SCREEN`` findings are
named here; the findings section lists them all.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from pathlib import Path

import numpy as np
import pandas as pd

from zsim.compare import KEYS, per_game
from zsim.reports import route_fill
from zsim.reports.assumed import MARK, reasons
from zsim.reports.common import MIN_GAMES, percent, win_rates
from zsim.reports.findings import detectable_by_unit
from zsim.reports.loader import RunData
from zsim.reports.model import (
    ASSOCIATION,
    CAUSAL,
    SEATING,
    STRATEGY,
    Finding,
    FindingList,
    Point,
    Points,
    Section,
    Table,
)
from zsim.reports.recheck import NOT_REPLAYABLE, unreplayed
from zsim.sequential import MAX_STAGES, half_width, spread
from zsim.stats import trials_for_wilson

FIRST_SCREEN = 15  # findings named on the summary
#: How many findings of each kind the summary names, causal ones first. Seat, colour and
#: first-player findings have a share of their own, so strategy findings cannot crowd them out;
#: head-to-head gaps count as one (``_points``).
SHARES = ((CAUSAL, 4), (STRATEGY, 3), (SEATING, 4), (ASSOCIATION, 4))
TITLES = {CAUSAL: "Largest causal setup effects", STRATEGY: "Strategies",
          SEATING: "Seats, colours and turn order", ASSOCIATION: "Strongest associations"}
#: The share of games whose winner leads for good from round 1 on above which the summary
#: says the leader runs away with the game.
RUNAWAY = 0.15
#: A component used less than this share of the median of its kind is "near-dead".
RARE = 0.5
#: A reward taken in fewer than this share of the games on its board is "near-dead".
RARELY_TAKEN = 0.05
PRECISION_POINTS = 2.0  # the win-rate precision the summary says how to reach (± points)


def strategy_table(data: RunData) -> pd.DataFrame:
    """Per player count and strategy: games, win rate with its 95% Wilson interval, the fair
    share and the mean final score."""
    players = data.players
    table = win_rates(players, ["n_players", "strategy"])
    table["fair_share"] = 1 / table.index.get_level_values("n_players")
    table["mean_vp"] = players.groupby(["n_players", "strategy"])["vp_total"].mean()
    table = table.reset_index().sort_values(["n_players", "win_rate"], ascending=[True, False])
    return table[["n_players", "strategy", "player_games", "win_rate", "win_low", "win_high",
                  "fair_share", "mean_vp"]]


def _sentence(finding: Finding, data: RunData | None = None) -> Point:
    lead = finding.lead
    text = lead.claim
    if finding.also:
        text += "; also " + "; ".join(c.label for c in finding.also[:2])
    assumed = dict(lead.assumed)
    if data is not None and lead.label.startswith("colour"):
        assumed.update(colour_sets(data))
    if assumed:
        text += f" [{reasons(assumed)}]"
    if lead.causal_test:
        text += f". Association: test it with `{lead.causal_test}`"
    elif lead.no_test:
        text += f". Association: {lead.no_test}"
    text += f". Recheck: {unreplayed(finding)}"
    return Point(text + ".", lead.figure)


def colour_sets(data: RunData) -> dict[str, str]:
    """A colour carries its Alchemist set: a colour finding rests on the assumed split of the
    Alchemist abilities into sets, when the box assumes it."""
    why = next((v for k, v in data.assumed.items() if re.fullmatch(r"alch_\d+_\d+", k)), "")
    # a card's own reason comes first, its ability's after: the set's is the card's
    return {"colour = Alchemist set": why.split("; ")[0]} if why else {}


def head_to_head(finding: Finding) -> bool:
    return " against " in finding.lead.topic


def _points(findings: list[Finding], data: RunData | None = None) -> list[Point]:
    """The sentences of one part: head-to-head gaps (a pair's finishing order and its score
    gap, pair after pair) grouped into one sentence rather than repeated."""
    pairs = [f for f in findings if head_to_head(f)]
    points = [_sentence(f, data) for f in findings if not head_to_head(f)]
    if pairs:
        gaps = "; ".join(f.lead.claim.split(" (")[0].replace(" scores ", " ").removesuffix(
            " in the games they share") for f in pairs)
        points.append(Point(f"Head-to-head gaps ({len(pairs)} pairs, each by its strongest "
                            "test: finishing order or score within the games they share): "
                            f"{gaps}. Recheck: {NOT_REPLAYABLE}.", pairs[0].lead.figure))
    return points


def first_screen(listed: list[Finding]) -> list[tuple[str, list[Finding]]]:
    """The findings the summary names, by part: the strongest of each group, causal first,
    ``FIRST_SCREEN`` at most (every head-to-head gap of the strategy part counts as one)."""
    parts = []
    for group, share in SHARES:
        found = [f for f in listed if f.group == group]
        if group == SEATING:  # the seat model's strategy term repeats the strategy part
            found = [f for f in found if not f.lead.label.startswith("strategy")]
        if group == STRATEGY:
            others = [f for f in found if not head_to_head(f)]
            pairs = [f for f in found if head_to_head(f)]
            found = others[:share - 1 if pairs else share] + pairs
        else:
            found = found[:share]
        parts.append((TITLES[group], found))
    return parts


def rare_walls(data: RunData, listed: list[Finding] | None = None) -> list[Point]:
    """Wall tiles built on far less than the median tile, with their VP per Wall, and what
    the recheck of the tile's Walls found under stronger play (a tile the heuristic bots
    shun may be built on by a stronger bot)."""
    games = data.finished
    columns = [c for c in games.columns if c.startswith("wall_tile_")]
    if not columns or data.walls.empty:
        return []
    in_play = games.melt(id_vars="game_key", value_vars=columns)["value"].dropna()
    sections = in_play[in_play != ""].value_counts()  # sections the tile lay on, over all games
    built = data.walls.groupby("tile").size().reindex(sections.index, fill_value=0)
    per_game = built / sections
    vp = data.walls.groupby("tile")["vp"].mean()
    median = float(per_game.median())
    return [Point(f"Wall tile {tile}: {rate:.2f} Walls a game where it lies "
                  f"(median tile {median:.2f})"
                  + (f", at {vp[tile]:.1f} VP each" if tile in vp else "") + "."
                  + _built_recheck(listed or [], str(tile)), "fig-wall-built")
            for tile, rate in per_game.sort_values().items()
            if rate < RARE * median and sections[tile] >= MIN_GAMES]


def _built_recheck(listed: list[Finding], tile: str) -> str:
    """`` Recheck: ...`` of the finding on how often ``tile`` is built on, when replayed."""
    for finding in listed:
        for comparison in (finding.lead, *finding.also):
            if (comparison.component == ("wall_tiles", tile)
                    and comparison.label.startswith("Walls built on") and finding.verdict):
                return f" Recheck of its Walls built: {finding.recheck}."
    return ""


def rare_rewards(data: RunData) -> list[Point]:
    """Rewards taken in under ``RARELY_TAKEN`` of the games on their board."""
    if data.rewards.empty or "unification_board" not in data.finished:
        return []
    boards = data.finished.set_index("game_key")["unification_board"]
    taken = data.rewards.assign(board=data.rewards["game_key"].map(boards))
    games_on = boards.value_counts()
    games_on = games_on[games_on >= MIN_GAMES]  # fewer: too few games to call it rare
    share = taken.groupby(["board", "reward"])["game_key"].nunique() / \
        taken.groupby(["board", "reward"])["board"].first().map(games_on)
    return [Point(f"Reward {reward} on {board}: taken in {percent(rate)} of its games.",
                  "fig-board-take-rates")
            for (board, reward), rate in share.sort_values().items() if rate < RARELY_TAKEN]


def zero_categories(data: RunData) -> list[Point]:
    """VP categories nobody scored in, but not those no component can score in by rule (no
    reward gives VP): those are not dead, they are empty by design."""
    columns = [c for c in data.players.columns if c.startswith("vp_") and c != "vp_total"
               and c not in data.zero_by_rule]
    return [Point(f"{c.removeprefix('vp_')}: no player scored a point in it in any game.",
                  "fig-vp-categories")
            for c in columns if not data.players[c].fillna(0).any()]


def _assumed(data: RunData, sections: list[Section], listed: list[Finding],
             shown: list[Finding]) -> Points:
    """The assumed components of the findings named on the summary, with their reasons and
    other readings; the others' are counted."""
    named: dict[str, str] = {}
    for finding in shown:
        for comparison in (finding.lead, *finding.also):
            named.update(comparison.assumed)
    rest = {k for f in listed for c in (f.lead, *f.also) for k in c.assumed} - set(named)
    items = []
    for component, why in named.items():
        files = data.readings.get(component, [])
        check = "".join(f" Check the other reading: `zsim compare default {_shown(path)} "
                        f"--out check-{path.stem}` (each strategy's win rate, paired), and "
                        f"`zsim report check-{path.stem}/variant` (this finding under it)."
                        for path in files)
        items.append(Point(f"{component}{MARK}: {why.rstrip('.')}.{check}"))
    empty = ("No finding rests on an assumed component."
             if not data.box_problem else f"Assumed components not marked: {data.box_problem}.")
    figures = sum(1 for s in sections for f in s.figures if MARK in f.caption)
    if rest:
        items.append(Point(f"{len(rest)} more assumed component(s) in the other findings: "
                           f"{', '.join(sorted(rest))}.", "findings"))
    if figures:
        items.append(Point(f"{figures} figure(s) name assumed components; each is marked "
                           f"{MARK} with its reason."))
    return Points("Findings that rest on assumed components", items, empty)


def _shown(path: Path) -> str:
    """A path as a command printed here can say it from any folder: a shipped variant by its
    name (``zsim.paths.said``)."""
    from zsim.paths import said

    return said(path)


def games_for_win_rates(table: pd.DataFrame, games: int,
                        half_width: float = PRECISION_POINTS) -> float:
    """Games of the run's design that pin every win rate of ``table`` (``strategy_table``) to
    ``± half_width`` points.

    Each rate needs the player-games whose Wilson interval is that narrow at the binomial
    variance of its rate (the observed one, or the fair share when the rate rests on fewer than
    ``MIN_GAMES`` player-games), as the report's intervals are Wilson intervals; a strategy
    that sits in a share of the run's games needs that many more games."""
    needed: list[float] = []
    for seats, rate, fair in zip(table["player_games"].astype(float),
                                 table["win_rate"].astype(float),
                                 table["fair_share"].astype(float), strict=True):
        trials = trials_for_wilson(rate if seats >= MIN_GAMES else fair, half_width / 100)
        needed.append(trials * games / seats)
    return float(math.ceil(round(max(needed), 9))) if needed and games > 0 else math.nan


def games_for_sequences(players: pd.DataFrame, stage: int,
                        half: float = PRECISION_POINTS) -> float:
    """Games ``--until-precision`` plays, in stages of ``stage`` games of this run's design,
    before every win rate's confidence sequence is within ``± half`` points: the sequences of
    ``zsim.sequential`` (as the runner judges them, tuned to ``stage`` games) at each rate's
    observed spread, a strategy getting its share of each stage's games. NaN without games."""
    if stage <= 0 or players.empty:
        return math.nan
    values = per_game(players.assign(game=players["game_key"]), ["win_share"])
    played = players["game_key"].nunique()
    stages = 1
    for _, group in values.groupby(level=KEYS):
        share = len(group) / played
        sd = spread(group["win_share"].to_numpy(float), 1.0)
        while (half_width(sd, int(stages * stage * share), stage) > half / 100
               and stages < MAX_STAGES):
            stages += 1
    return float(stages * stage)


def runaway(data: RunData) -> list[Point]:
    """Per player count, the share of games whose eventual winner leads in standing for good
    from the end of round 1, when it is large (``RUNAWAY``): a designer's runaway leader."""
    from zsim.experience import data as experience_data

    try:
        games = experience_data.read([run.path for run in data.runs],
                                     players=data.players).games
    except (OSError, ValueError, KeyError):
        return []
    if games.empty or "decided_round" not in games:
        return []
    points = []
    for n, rows in games.groupby("n_players"):
        if len(rows) < MIN_GAMES:
            continue
        early = float((rows["decided_round"] <= 1).mean())
        if early >= RUNAWAY:
            points.append(Point(
                f"Runaway leader: in {early:.0%} of {n}-player games ({len(rows)} recorded) the "
                "eventual winner leads in standing from round 1 on and never loses the lead.",
                "experience"))
    return points


def _unresolved(data: RunData, sections: list[Section]) -> Points:
    items = []
    families: dict[tuple[str, str], list] = defaultdict(list)
    for section in sections:
        for comparison in section.comparisons:
            if not math.isnan(comparison.adjusted):
                families[comparison.section, comparison.family].append(comparison)
    quiet = [(key, tests) for key, tests in families.items()
             if not any(t.significant for t in tests)]
    quiet.sort(key=lambda item: -len(item[1]))
    for (title, family), tests in quiet[:6]:
        by_unit = [f"±{np.median(sizes):.2g} {unit} (median of {len(sizes)} tests)".replace(
            "  ", " ") for unit, sizes in detectable_by_unit(tests).items()]
        size = (f"; differences under {' and '.join(by_unit)} could not be seen at 80% power"
                if by_unit else "")
        items.append(Point(f"{title}, “{family}”: none of {len(tests)} test(s) significant"
                           f"{size}.", tests[0].figure))
    table = strategy_table(data)
    if len(table):
        widest = table.iloc[(table["win_high"] - table["win_low"]).argmax()]
        half = (widest["win_high"] - widest["win_low"]) / 2 * 100
        games = int(data.finished["game_key"].nunique())
        needed = games_for_win_rates(table, games)
        staged = games_for_sequences(data.players, games)
        if half > PRECISION_POINTS:
            items.append(Point(
                f"Win rates are known to ±{half:.1f} points at worst ({widest['strategy']}, "
                f"{widest['n_players']} players); ±{PRECISION_POINTS:g} points for every win "
                f"rate needs about {needed:,.0f} games played as one fixed batch (Wilson "
                f"intervals). `--until-precision {PRECISION_POINTS:g}` judges anytime-valid "
                "confidence sequences, which stay valid however often they are looked at and "
                f"so are wider: in stages of {games:,} games it stops after about "
                f"{staged:,.0f} games.", "strategies"))
    return Points("What these games could not resolve", items,
                  "Every family of tests found something.")


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 else "s")


def _intro(games: int, listed: list[Finding]) -> str:
    """How many games and findings, and what the page names of them."""
    total = sum(len(f.also) + 1 for f in listed)
    found = (f"{_plural(len(listed), 'finding')} ({_plural(total, 'significant test')}) after "
             "correction. " + (f"The {FIRST_SCREEN} most important are" if len(listed) >
                               FIRST_SCREEN else "The most important are") +
             " named here, causal ones first, each linked to its figure"
             if listed else "no finding survives correction")
    return (f"{_plural(games, 'finished game')}; {found}; {MARK} marks a component the "
            "rulebook does not print (assumed), with the reason.")


def _dead(data: RunData, listed: list[Finding] | None = None) -> Points:
    """Components hardly ever used, once there are games enough to say so."""
    title = "Dead or near-dead components"
    games = len(data.finished)
    if games < MIN_GAMES:
        return Points(title, [], f"Too few games ({games}; at least {MIN_GAMES} needed) to "
                                 "call any component dead or near-dead.")
    return Points(title, rare_walls(data, listed) + rare_rewards(data) + zero_categories(data),
                  "Every component is used in a fair share of games.")


def section(data: RunData, sections: list[Section], listing: Section) -> Section:
    """The summary of the report whose analysis ``sections`` and findings ``listing`` are
    built."""
    listed = next((b.items for b in listing.blocks if isinstance(b, FindingList)), [])
    result = Section("summary", "Summary", _intro(len(data.finished), listed))
    table = strategy_table(data)
    result.blocks.append(Table(
        "summary-strategies", "Strategies: win rates with 95% intervals", table,
        formats={"win_rate": "{:.1%}", "win_low": "{:.1%}", "win_high": "{:.1%}",
                 "fair_share": "{:.1%}", "mean_vp": "{:.1f}"}))
    parts = first_screen(listed)
    result.blocks += [Points(title, _points(chosen, data),
                             "None significant after correction.") for title, chosen in parts]
    flow = runaway(data)
    if flow:
        result.blocks.append(Points("How the games unfold", flow))
    result.blocks.append(_dead(data, listed))
    result.blocks.append(route_fill.points(data))
    result.blocks.append(_assumed(data, sections, listed,
                                  [f for _, chosen in parts for f in chosen]))
    result.blocks.append(_unresolved(data, sections))
    return result


def text(summary: Section) -> str:
    """The summary as plain text, for the terminal (``zsim report --summary``)."""
    lines = [summary.heading, summary.intro, ""]
    for block in summary.blocks:
        if isinstance(block, Table):
            shown = block.data.assign(
                win_rate=[f"{r:.1%} [{lo:.1%}, {hi:.1%}]" for r, lo, hi in zip(
                    block.data["win_rate"], block.data["win_low"], block.data["win_high"],
                    strict=True)],
                fair_share=block.data["fair_share"].map("{:.1%}".format),
                mean_vp=block.data["mean_vp"].map("{:.1f}".format))
            lines += [block.title + ":", shown.drop(columns=["win_low", "win_high"])
                      .to_string(index=False), ""]
        elif isinstance(block, Points):
            lines.append(block.title + ":")
            lines += [f"  - {p.text}" for p in block.items] or [f"  {block.empty}"]
            lines.append("")
    return "\n".join(lines)
