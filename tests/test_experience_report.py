"""The experience section of the report, and the experience metrics paired by ``zsim
compare``, ``zsim sweep``, ``zsim effects`` and ``zsim.api``."""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd
import pytest
from chromium import Browser, chromium
from click.testing import CliRunner

from tests.conftest import experiment_file
from tests.experience_by_hand import by_hand
from zsim import api
from zsim.cli import main
from zsim.experience.data import read
from zsim.experience.metrics import ALL, METRICS
from zsim.reports.build import build_report
from zsim.reports.experience import SHOWN, section
from zsim.reports.loader import load_runs
from zsim.runner import Experiment
from zsim.runner.batch import start_run

EXPERIMENT = """\
games: 80
players: [2, 4]
strategies: [greedy, random]
seed: 2
jobs: 1
chunk_size: 20
"""


@pytest.fixture(scope="module")
def experiment(tmp_path_factory):
    return experiment_file(tmp_path_factory, EXPERIMENT)


@pytest.fixture(scope="module")
def compared(experiment, tmp_path_factory):
    out = tmp_path_factory.mktemp("compare") / "palace"
    result = CliRunner().invoke(main, ["compare", str(experiment), "rules.palace_vp=8",
                                       "--out", str(out), "--quiet"])
    assert result.exit_code == 0, result.output
    return out, result.output


def test_the_default_report_has_the_experience_section(compared, tmp_path):
    run = compared[0] / "base"
    built = build_report([run], tmp_path / "report")
    html = built.index.read_text(encoding="utf-8")
    assert "Game experience</h2>" in html
    figures = re.findall(r'<figure id="fig-(experience[\w-]*)"', html)
    assert figures == ["experience-fan", "experience-decided", "experience-lead-changes"]
    for slug in figures:
        assert (tmp_path / "report" / "figures" / f"{slug}.png").is_file()
    metrics = pd.read_csv(tmp_path / "report" / "tables" / "experience-metrics.csv")
    assert set(metrics["n_players"].astype(str)) == {"2", "4", ALL}
    games = pd.read_csv(tmp_path / "report" / "tables" / "experience-games.csv")
    assert len(games) == 80
    # the table's mean lead changes is the games' mean, recomputed from the Parquet file
    t = pd.read_parquet(run / "trajectories.parquet")
    changes = []
    for _, g in t[t["standing"].notna() & (t["n_players"] == 4)].groupby("game"):
        g = g.assign(order=g["stage"].map({"turn": 0, "round": 1, "final": 2}))
        wide = g.pivot_table(index=["turn", "order"], columns="seat", values="standing")
        leader = wide.apply(lambda r: r.idxmax() if (r == r.max()).sum() == 1 else None,
                            axis=1).dropna()
        changes.append((leader != leader.shift()).sum() - 1)
    row = metrics[(metrics["n_players"].astype(str) == "4")
                  & (metrics["metric"] == "lead_changes")].iloc[0]
    assert row["mean"] == pytest.approx(np.mean(changes))
    assert "Calibration of the win probabilities" in html


def test_a_run_without_trajectories_says_so_in_its_report(tmp_path):
    out = tmp_path / "off"
    start_run(Experiment(games=6, players=[2], strategies=["random"], jobs=1,
                         trajectories="off"), out)
    html = build_report([out], tmp_path / "report").index.read_text(encoding="utf-8")
    assert "Game experience</h2>" in html and "recorded no trajectories" in html


def test_compare_pairs_the_experience_metrics_with_intervals(compared):
    out, output = compared
    assert "experience (variant minus base, * significant after Holm):" in output
    assert "decided_round" in output and "Experience:" in output
    table = pd.read_csv(out / "experience.csv")
    assert set(table["metric"]) <= set(METRICS) and "decided_round" in set(table["metric"])
    assert (table["low"] <= table["difference"] + 1e-9).all()
    assert (table["difference"] <= table["high"] + 1e-9).all()
    # recomputed by hand: the paired difference of the deciding round, 4 players
    before, after = read([out / "base"]).games, read([out / "variant"]).games
    joined = before.merge(after, on="game", suffixes=("_b", "_v"))
    joined = joined[joined["n_players_b"] == 4]
    row = table[(table["n_players"].astype(str) == "4")
                & (table["metric"] == "decided_round")].iloc[0]
    assert row["difference"] == pytest.approx(
        (joined["decided_round_v"] - joined["decided_round_b"]).mean())
    html = (out / "report" / "index.html").read_text(encoding="utf-8")
    assert "Game experience, paired" in html and 'id="fig-experience-paired-0"' in html
    assert "No detectable change in" in html or "With the variant" in html


def test_sweep_and_effects_pair_the_experience_of_each_value(experiment, tmp_path):
    out = tmp_path / "sweep"
    result = CliRunner().invoke(main, ["sweep", "rules.palace_vp=6,8,10", "--experiment",
                                       str(experiment), "--games", "40", "--out", str(out),
                                       "--quiet"])
    assert result.exit_code == 0, result.output
    assert "experience, rules.palace_vp=8" in result.output
    table = pd.read_csv(out / "experience.csv")
    assert set(table["pair"]) == {"rules.palace_vp=8", "rules.palace_vp=10"}
    # the first value's games are the base of both comparisons: the same games give the
    # same base values (one win-probability model fitted over every batch)
    wide = table.pivot_table(index=["n_players", "metric", "games"], columns="pair",
                             values="base")
    both = wide.dropna()
    assert len(both) and np.allclose(both["rules.palace_vp=8"], both["rules.palace_vp=10"])
    effects = tmp_path / "effects"
    small = experiment_file_text(tmp_path, EXPERIMENT.replace("games: 80", "games: 8"))
    result = CliRunner().invoke(main, ["effects", "wall_tiles", "--only", "wall_pairs",
                                       "--experiment", str(small), "--out", str(effects),
                                       "--quiet"])
    assert result.exit_code == 0, result.output
    assert set(pd.read_csv(effects / "experience.csv")["pair"]) == {"wall_pairs"}
    assert "Game experience, paired" in (effects / "report" / "index.html").read_text()


def experiment_file_text(tmp_path, text: str):
    path = tmp_path / "small.yaml"
    path.write_text(text)
    return path


def test_the_api_returns_trajectories_metrics_and_paired_experience(experiment):
    comparison = api.compare(experiment, "rules.palace_vp=8", games=40, progress=False)
    base = comparison.base
    assert set(base.trajectories["stage"]) == {"turn", "round", "final"}
    assert len(base.experience) == 40 and "decided_round" in base.experience
    assert {"mean", "low", "high"} <= set(base.experience_summary.columns)
    table = comparison.experience
    assert table is not None and set(table["n_players"]) == {"2", "4", ALL}
    assert len(comparison.experience_sentences) == 2 * 8  # 2 player counts, 8 headline metrics


@pytest.mark.skipif(chromium() is None, reason="Chromium is not installed")
def test_the_section_opens_in_headless_chromium_and_its_tables_hold_the_games_means(
        compared, tmp_path):
    run = compared[0] / "base"
    built = build_report([run], tmp_path / "report")
    with Browser(tmp_path / "profile") as browser:
        browser.open(built.index.as_uri())
        page = browser.evaluate("""(() => {
            const s = document.getElementById('experience');
            const rows = id => [...s.querySelectorAll(`#${id} tbody tr`)]
                .map(r => [...r.cells].map(c => c.textContent.trim()));
            return {
              linked: [...document.querySelectorAll('nav a')]
                  .some(a => a.getAttribute('href') === '#experience'),
              heading: s.querySelector('h2').textContent,
              figures: [...s.querySelectorAll('figure')].map(f => {
                  const img = f.querySelector('img');
                  return [f.id, img.complete, img.naturalWidth, img.getBoundingClientRect().height];
              }),
              metrics: rows('table-experience-metrics'),
              games: rows('table-experience-games').length,
              kinds: rows('table-experience-decision-kinds').length,
            };
        })()""")
        assert browser.console_errors() == []
        assert browser.screenshot(tmp_path / "page.png").stat().st_size > 20_000
    assert page["linked"] and page["heading"].endswith(". Game experience")
    assert [f[0] for f in page["figures"]] == [
        "fig-experience-fan", "fig-experience-decided", "fig-experience-lead-changes"]
    for _, complete, width, height in page["figures"]:
        assert complete and width > 300 and height > 100  # decoded and laid out
    assert page["games"] == 80 and page["kinds"] > 3
    # the page's metric means are the games' means, recomputed by hand from the Parquet files
    hand = by_hand(run)
    shown = {(n, metric): mean for n, metric, _games, mean, *_ in page["metrics"]}
    assert {metric for _, metric in shown} == set(SHOWN)
    for n in (2, 4):
        for metric in SHOWN:
            expected = hand.loc[hand["n_players"] == n, metric].mean()
            assert shown[(str(n), metric)] == f"{expected:.3g}", (n, metric)


def test_the_figures_draw_the_games_recomputed_by_hand(compared):
    run = compared[0] / "base"
    figures = {block.slug: block.figure for block in section(load_runs([run])).blocks
               if hasattr(block, "figure")}
    hand = by_hand(run)
    # lead changes: one bar per player count, its height the games' mean
    standing, track = figures["experience-lead-changes"].axes[:2]
    for ax, metric in ((standing, "lead_changes"), (track, "track_lead_changes")):
        heights = [bar.get_height() for bar in ax.patches]
        assert heights == pytest.approx(list(hand.groupby("n_players")[metric].mean()))
    # decisiveness: the share of games decided by the end of each round
    for ax, metric in zip(figures["experience-decided"].axes[:2],
                          ("decided_round", "p_decided_round"), strict=True):
        for line, n in zip(ax.get_lines(), (2, 4), strict=True):
            values = hand.loc[hand["n_players"] == n, metric].dropna()
            rounds, shares = line.get_data()
            assert list(shares) == pytest.approx([(values <= r).mean() for r in rounds])
            assert shares[-1] == 1  # the last round's end is the final score
    # the typical game: each seat's line is its p_win from the Parquet file
    t = pd.read_parquet(run / "trajectories.parquet")
    fan = figures["experience-fan"].axes
    for ax in fan[2:]:
        assert ax.get_lines(), "a typical game of each player count is drawn"
        game = int(re.search(r"\((\d+)\)", ax.get_title()).group(1))
        chances = t[(t["game"] == game) & t["p_win"].notna()]
        for line in ax.get_lines():
            seat = int(re.search(r"seat (\d+)", line.get_label()).group(1))
            assert sorted(line.get_ydata()) == pytest.approx(
                sorted(chances.loc[chances["seat"] == seat, "p_win"]))


def test_a_run_of_one_game_gives_metrics_and_a_report_that_says_it_is_too_few(tmp_path):
    out = tmp_path / "one"
    start_run(Experiment(games=1, players=[3], strategies=["random"], jobs=1,
                         trajectories="vp"), out)
    experience = read([out])
    games = experience.games
    assert len(games) == 1 and games["p_decided_round"].isna().all()  # no estimator fitted
    assert games["rounds"].iloc[0] >= 1 and not math.isnan(games["decided_round"].iloc[0])
    summary = experience.summary.set_index("metric")
    assert summary.loc["drama", "games"] == 1 and math.isnan(summary.loc["drama", "low"])
    html = build_report([out], tmp_path / "report").index.read_text(encoding="utf-8")
    assert "Game experience</h2>" in html and 'id="fig-experience' not in html


def test_the_experience_doc_has_each_heading_once():
    """A reader sent to "What it costs" finds one section of that name."""
    from pathlib import Path

    doc = Path(__file__).parent.parent / "docs" / "experience.md"
    headings = re.findall(r"^#+ (.+)$", doc.read_text(encoding="utf-8"), flags=re.MULTILINE)
    assert len(headings) == len(set(headings)), sorted(h for h in headings
                                                       if headings.count(h) > 1)


def test_the_docs_name_the_metrics_the_per_count_table_leaves_to_the_per_game_one():
    """docs/reports.md says which metrics experience-metrics.csv holds: every one but those it
    names, which the table of every game holds."""
    from pathlib import Path

    doc = (Path(__file__).parent.parent / "docs" / "reports.md").read_text(encoding="utf-8")
    said = re.search(r"median per player count \(every metric but (.*?), which are in the "
                     r"table of every game's metrics\)", doc.replace("\n", " "))
    assert said is not None
    assert set(re.findall(r"`(\w+)`", said.group(1))) == set(METRICS) - set(SHOWN)
    assert set(SHOWN) <= set(METRICS)


def test_the_paired_figure_keeps_its_numbers_apart_and_states_its_tests_verdict():
    """Narrow panels get few x ticks (no "−0.24−0.16−0.08"), and the caption's stars and its
    verdict agree: the figure's tests are named, never "No statistical test"."""
    import matplotlib
    from figure_checks import tick_label_clashes

    from zsim.experience.paired import HEADLINE
    from zsim.reports.common import STYLE
    from zsim.reports.experience import paired_blocks
    from zsim.reports.findings import significance_sentence

    rows = [{"n_players": n, "metric": metric, "games": 360, "base": 1.0, "variant": 0.9,
             "difference": -0.13 - 0.01 * i, "low": -0.27 - 0.01 * i, "high": 0.01,
             "pvalue": 0.01 * (i + 1), "effect": -0.1, "adjusted": 0.02 * (i + 1)}
            for i, metric in enumerate(HEADLINE) for n in (2, 3, 4)]
    table = pd.DataFrame(rows).assign(significant=lambda t: t["adjusted"] < 0.05)
    with matplotlib.rc_context(STYLE):
        figure = paired_blocks(table, "experience-paired-0", "Experience")[0]
        figure.figure.get_layout_engine().execute(figure.figure)
        figure.figure.draw_without_rendering()
    assert not tick_label_clashes(figure)
    verdict = significance_sentence(figure)
    assert "No statistical test" not in verdict
    assert f"“every experience metric and player count”, {len(table)} tests" in verdict
    assert "decided_round (2p)" in verdict  # significant: starred and named


def test_compare_shows_each_components_use_next_to_the_outcomes(compared):
    """Usage base against variant, recomputed by hand from the batches' Parquet tables."""
    out, output = compared
    assert "usage (base -> variant" in output or "usage: no component's use" in output
    table = pd.read_csv(out / "usage.csv")
    for side in ("base", "variant"):
        games = pd.read_parquet(out / side / "games.parquet")
        walls = pd.read_parquet(out / side / "walls.parquet")
        slots = [c for c in games.columns if c.startswith("wall_tile_")]
        long = games.melt(id_vars="game", value_vars=slots, var_name="slot", value_name="tile")
        long["section"] = long["slot"].str[-1].astype(int) - 1
        tile = long["tile"].dropna().iloc[0]
        where = long[long["tile"] == tile]
        built = walls.merge(where[["game", "section"]], on=["game", "section"])
        row = table[(table["kind"] == "wall_tiles") & (table["component"] == tile)].iloc[0]
        assert row[f"games_{side}"] == where["game"].nunique()
        assert row[f"uses_per_game_{side}"] == pytest.approx(len(built) / len(where))
        if len(built):
            assert row[f"vp_per_use_{side}"] == pytest.approx(built["vp"].mean())
        # a Starting tile's pick rate when offered is its options' chosen over offered
        options = pd.read_parquet(out / side / "options.parquet")
        offered = options[options["kind"] == "start_tile"].groupby("option")[
            ["offered", "chosen"]].sum()
        name = offered.index[0]
        picked = table[(table["component"] == f"starting {name}")].iloc[0][f"picked_{side}"]
        assert picked == pytest.approx(offered.loc[name, "chosen"] / offered.loc[name,
                                                                                "offered"])
    html = (out / "report" / "index.html").read_text(encoding="utf-8")
    assert "Usage, base against variant" in html


def test_a_runaway_leader_is_said_on_the_summary_when_games_are_settled_early(compared):
    from zsim.reports.loader import load_runs
    from zsim.reports.summary import RUNAWAY, runaway

    run = compared[0] / "base"
    data = load_runs([run])
    games = read([run]).games
    lines = runaway(data)
    for n, rows in games.groupby("n_players"):
        early = (rows["decided_round"] <= 1).mean()
        said = [p.text for p in lines if f"of {n}-player games" in p.text]
        assert bool(said) == (len(rows) >= 30 and early >= RUNAWAY)
        if said:
            assert f"{early:.0%}" in said[0]
