"""``zsim report``: the page, its files, small and failing and pooled runs, and bad inputs."""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import subprocess
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from chromium import chromium as _chromium
from click.testing import CliRunner

from zsim.cli import main
from zsim.decisions import Decision
from zsim.recheck import VERDICTS
from zsim.reports import cards, components
from zsim.reports.build import ReportOutputError, build_report
from zsim.reports.common import bars_with_intervals, new_figure
from zsim.reports.html import table_html
from zsim.reports.loader import RunDirError, load_runs
from zsim.reports.model import Table
from zsim.runner import Experiment
from zsim.runner.batch import start_run
from zsim.strategies.base import Strategy
from zsim.view import PlayerView

SECTIONS = ["1. Summary", "2. Findings", "3. Overview", "4. Strategies", "5. Seats and turn order",
            "6. Wall tiles", "7. Unification boards", "8. Other components", "9. Cards"]


class Boom(Strategy):
    """Raises at its first real decision, so every game it sits in fails."""

    name = "boom"

    def choose(self, view: PlayerView, decision: Decision) -> Any:
        raise RuntimeError("boom")


@pytest.fixture(scope="session")
def run_dir(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("runs") / "main"
    start_run(Experiment(games=300, players=[2, 4], strategies=["basic", "random"], seed=11,
                         chunk_size=50), out)
    return out


@pytest.fixture(scope="session")
def failing_run(tmp_path_factory) -> Path:
    """A small run in which a third of the games fail."""
    out = tmp_path_factory.mktemp("runs") / "failing"
    start_run(Experiment(games=12, players=[2], seed=5, chunk_size=6, jobs=1,
                         strategies=["random", "basic", "boom"]), out,
              strategies={"boom": Boom()})
    return out


@pytest.fixture(scope="session")
def report(run_dir, failing_run, tmp_path_factory) -> Path:
    """One report, built once: two runs pooled, one of them with failed games."""
    out = tmp_path_factory.mktemp("report")
    build_report([run_dir, failing_run], out)
    return out


@pytest.fixture(scope="session")
def tiny_run(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("runs") / "tiny"
    start_run(Experiment(games=6, players=[2], strategies=["random"], seed=1, jobs=1), out)
    return out


@pytest.fixture(scope="session")
def one_game_run(tmp_path_factory) -> Path:
    """A single 4-player game, two strategies of two seats each."""
    out = tmp_path_factory.mktemp("runs") / "one"
    start_run(Experiment(games=1, players=[4], strategies=["basic", "random"], seed=3, jobs=1),
              out)
    return out


def summary_of(*runs: Path) -> str:
    """The summary page as the terminal prints it (``zsim report --summary``)."""
    from zsim.reports import summary
    from zsim.reports.build import build_sections

    sections = build_sections(load_runs(list(runs)))
    return summary.text(next(s for s in sections if s.slug == "summary"))


def wilson_trials_by_scan(rate: float, half: float = 0.02) -> int:
    """The fewest trials whose Wilson interval at ``rate`` is ``± half`` wide, by counting."""
    from zsim.stats import wilson_interval

    n = 1
    while (lambda b: (b[1] - b[0]) / 2)(wilson_interval(rate * n, n)) > half:
        n += 1
    return n


def figure_slugs(html: str) -> list[str]:
    return re.findall(r'<figure id="fig-([\w-]+)"', html)


def test_the_page_has_every_section_embedded_figures_and_no_outside_resources(report):
    html = (report / "index.html").read_text(encoding="utf-8")
    for heading in SECTIONS:
        assert f">{heading}</h2>" in html
    assert len(figure_slugs(html)) >= 10
    assert html.count('src="data:image/svg+xml;base64,') == len(figure_slugs(html))
    assert "<script" not in html and "http://" not in html and "https://" not in html
    assert "Based on 304 games" in html  # 300 + the failing run's 4 finished games
    # Findings point at figures that exist on the page.
    for anchor in re.findall(r'<a href="#(fig-[\w-]+)">see figure</a>', html):
        assert f'id="{anchor}"' in html


def test_every_figure_is_written_as_png_and_svg_and_every_table_as_csv(report):
    html = (report / "index.html").read_text(encoding="utf-8")
    for slug in figure_slugs(html):
        assert (report / "figures" / f"{slug}.png").stat().st_size > 1000
        assert (report / "figures" / f"{slug}.svg").read_text().lstrip().startswith("<?xml")
    csvs = re.findall(r'href="tables/([\w-]+)\.csv"', html)
    assert {"runs", "strategies", "wall-tiles", "tests"} <= set(csvs)
    for slug in csvs:
        assert not pd.read_csv(report / "tables" / f"{slug}.csv").empty
    tests = pd.read_csv(report / "tables" / "tests.csv")
    assert (tests["holm_p"] >= tests["p"] - 1e-12).all()
    assert tests["significant"].eq(tests["holm_p"] < 0.05).all()


def test_the_cards_section_shows_the_recorded_activations(report):
    html = (report / "index.html").read_text(encoding="utf-8")
    assert "not recorded in this run" not in html
    assert (report / "figures" / "card-abilities.png").is_file()


def test_the_components_section_compares_the_players_who_took_each_tile(report, run_dir,
                                                                       tmp_path):
    html = (report / "index.html").read_text(encoding="utf-8")
    kinds = ["palace", "governor", "emperor", "starting"]
    assert [f"{kind}-tile-takers" for kind in kinds] == [
        slug for slug in figure_slugs(html) if slug.endswith("-tile-takers")]
    takers = pd.read_csv(report / "tables" / "tile-takers.csv")
    assert sorted(set(takers["kind"])) == sorted(kinds)
    assert (takers["players_who_took_it"] > 0).all()
    tiles = pd.read_parquet(run_dir / "tiles.parquet")
    starting = takers[takers["kind"] == "starting"]
    assert set(starting["tile"]) == set(tiles.loc[tiles["kind"] == "starting", "tile"])
    older = tmp_path / "older"  # a run made before tiles.parquet existed
    shutil.copytree(run_dir, older)
    (older / "tiles.parquet").unlink()
    slugs = [block.slug for block in components.section(load_runs([older])).figures]
    assert "start-tiles" in slugs and not [s for s in slugs if s.endswith("-tile-takers")]


def test_text_columns_are_left_aligned_and_numbers_right_aligned() -> None:
    frame = pd.DataFrame({"strategy": ["greedy", "random"], "games": [10, 12],
                          "tile": ["wall_a", "wall_b"], "win rate": [0.5, 0.25]})
    html = table_html(Table("by-bot", "By bot", frame))
    rule = re.search(r"<style>(.*?) \{ text-align: left; \}", html)
    assert rule is not None and 'id="table-by-bot"' in html
    assert set(re.findall(r"nth-child\((\d)\)", rule.group(1))) == {"1", "3"}
    # Text cells wrap at spaces; numbers keep the page's one-line default.
    wrap = re.search(r"\}\s*(.*?) \{ white-space: normal;", html)
    assert wrap is not None
    assert set(re.findall(r"td:nth-child\((\d)\)", wrap.group(1))) == {"1", "3"}
    numbers_only = table_html(Table("plain", "Plain", frame[["games", "win rate"]]))
    assert "<style>" not in numbers_only


def test_a_signed_number_that_rounds_to_zero_is_shown_as_a_plain_zero() -> None:
    """A seat a hair under the fair share is "0%", never "-0%"; real signs stay."""
    frame = pd.DataFrame({"level": ["0", "1", "2", "3"],
                          "vs_fair": [-0.001, 0.0, 0.05, -0.05]})
    html = table_html(Table("seats", "Seats", frame, formats={"vs_fair": "{:+.0%}"}))
    cells = re.findall(r"<td>([^<]*)</td>", html)[1::2]
    assert cells == ["0%", "0%", "+5%", "-5%"]
    from zsim.reports.findings import relative_phrase

    assert relative_phrase(-0.004, "mean score") == "0% of the mean score"
    assert relative_phrase(-0.04, "mean score") == "-4% of the mean score"


def test_seven_series_on_three_axes_share_one_legend_and_lay_out() -> None:
    bots = [f"bot{i}" for i in range(7)]
    index = pd.MultiIndex.from_product([["all"], bots])
    means = pd.DataFrame({"mean": range(7), "low": range(7), "high": range(1, 8)}, index=index)
    fig, axes = new_figure(1, 3)
    for ax in axes[0]:
        bars_with_intervals(ax, means, ["all"], bots, "mean", "low", "high")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a collapsed constrained layout only warns
        fig.get_layout_engine().execute(fig)
    assert len(fig.legends) == 1 and all(ax.get_legend() is None for ax in axes[0])
    assert [text.get_text() for text in fig.legends[0].get_texts()] == bots


def test_a_tiny_run_says_too_few_games_instead_of_plotting(tiny_run, tmp_path):
    built = build_report([tiny_run], tmp_path / "report")
    html = built.index.read_text(encoding="utf-8")
    assert "too few games" in html
    assert built.figures == 0 and not figure_slugs(html)
    for heading in SECTIONS:
        assert f">{heading}</h2>" in html


def test_several_runs_pool_and_failures_are_reported(report):
    html = (report / "index.html").read_text(encoding="utf-8")
    assert "312 games from 2 run(s); 304 finished" in html
    assert "8 game(s) failed" in html and "RuntimeError: boom" in html
    runs = pd.read_csv(report / "tables" / "runs.csv")
    assert runs["failed"].tolist() == [0, 8]
    # On the page the runs are columns (a few records of many fields fit the width that way).
    page = re.search(r'<table class="dataframe data fields" id="table-runs">(.*?)</table>',
                     html, re.S)
    assert page is not None
    headers = re.findall(r"<th>(.*?)</th>", page.group(1))
    assert headers == ["run", *runs["run"]]
    assert len(re.findall(r"<tr>", page.group(1))) == len(runs.columns) - 1
    lineups = pd.read_csv(report / "tables" / "lineups.csv")
    assert lineups["games"].sum() == 304


def test_missing_corrupt_unfinished_and_duplicated_runs_are_clear_errors(run_dir, tmp_path):
    with pytest.raises(RunDirError, match="nowhere: no such run directory"):
        build_report([tmp_path / "nowhere"], tmp_path / "out")
    broken = tmp_path / "broken"
    shutil.copytree(run_dir, broken)
    (broken / "players.parquet").write_bytes(b"not parquet at all")
    with pytest.raises(RunDirError, match=r"broken/players\.parquet: cannot be read"):
        build_report([broken], tmp_path / "out")
    (broken / "players.parquet").unlink()
    with pytest.raises(RunDirError, match=r"players\.parquet is missing"):
        build_report([broken], tmp_path / "out")
    shutil.copy(run_dir / "players.parquet", broken / "players.parquet")
    manifest = (broken / "run.json").read_text().replace('"complete"', '"interrupted"')
    (broken / "run.json").write_text(manifest)
    with pytest.raises(RunDirError, match=r"not finished.*--resume"):
        build_report([broken], tmp_path / "out")
    with pytest.raises(RunDirError, match="hold the same run"):
        build_report([run_dir, run_dir], tmp_path / "out")


def test_a_run_where_no_game_finished_is_refused_in_one_line(tmp_path):
    out = tmp_path / "run"
    start_run(Experiment(games=2, players=[2], strategies=["boom"], jobs=1, max_failures=2),
              out, strategies={"boom": Boom()})
    result = CliRunner().invoke(main, ["report", str(out)])
    assert result.exit_code == 1 and result.output.splitlines() == [
        f"Error: {out}: no game finished (2 failed: see failures.jsonl), so there is nothing "
        f"to report"]


@pytest.mark.parametrize("change, message", [
    ({"format": 2}, "run.json: format 2, not the 1 this zsim reads"),
    ({"run_id": None}, "run.json: key 'run_id' is missing: the file is damaged"),
])
def test_a_run_json_of_another_format_is_refused(tiny_run, tmp_path, change, message):
    other = tmp_path / "other"
    shutil.copytree(tiny_run, other, ignore=shutil.ignore_patterns("report"))
    manifest = json.loads((other / "run.json").read_text())
    manifest.update(change)
    manifest = {key: value for key, value in manifest.items() if value is not None}
    (other / "run.json").write_text(json.dumps(manifest))
    result = CliRunner().invoke(main, ["report", str(other)])
    assert result.exit_code == 1 and message in result.output
    assert len(result.output.splitlines()) == 1


@pytest.mark.parametrize("where", ["afile/sub", "/proc/zsim-report"])
def test_an_out_that_cannot_be_made_is_one_line_naming_it(tiny_run, tmp_path, where):
    (tmp_path / "afile").write_text("mine")
    out = tmp_path / where
    result = CliRunner().invoke(main, ["report", str(tiny_run), "--out", str(out)])
    assert result.exit_code == 1
    assert result.output.startswith(f"Error: --out {out}: cannot be written (")
    assert len(result.output.splitlines()) == 1
    assert (tmp_path / "afile").read_text() == "mine"


def test_a_non_report_directory_is_not_overwritten(run_dir, tmp_path):
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "notes.txt").write_text("mine")
    with pytest.raises(ReportOutputError, match="not a report"):
        build_report([run_dir], tmp_path / "busy")
    assert (tmp_path / "busy" / "notes.txt").read_text() == "mine"


def test_cli_writes_the_report_and_explains_errors(run_dir, tiny_run, report, tmp_path):
    runner = CliRunner()
    # Rebuilding into an existing report directory replaces it, stale files included.
    copy = tmp_path / "again"
    shutil.copytree(report, copy)
    result = runner.invoke(main, ["report", str(tiny_run), "--out", str(copy)])
    assert result.exit_code == 0, result.output
    assert "index.html: 0 figures" in result.output
    assert not any((copy / "figures").iterdir())
    result = runner.invoke(main, ["report", str(tiny_run)])
    assert result.exit_code == 0 and (tiny_run / "report" / "index.html").is_file()
    result = runner.invoke(main, ["report", str(tmp_path / "nowhere")])
    assert result.exit_code == 1 and "no such run directory" in result.output
    result = runner.invoke(main, ["report", str(run_dir), str(run_dir)])
    assert result.exit_code == 2 and "--out is required" in result.output


CHECK = """<script>
window.addEventListener("load", () => {
  const broken = [...document.images].filter((img) => !img.complete || !img.naturalWidth);
  // A table wider than the page must scroll inside its frame, never be cut off; the runs
  // table must fit without scrolling.
  const wraps = [...document.querySelectorAll(".tablewrap")];
  const cut = wraps.filter((w) => w.scrollWidth > w.clientWidth
                                  && getComputedStyle(w).overflowX !== "auto");
  const runs = document.getElementById("table-runs").parentElement;
  const fits = runs.scrollWidth <= runs.clientWidth;
  console.log("zsim-check images " + document.images.length + " broken " + broken.length
              + " tables " + wraps.length + " cut " + cut.length + " runs-fit " + fits);
});
</script>"""


# CI sets ZSIM_REQUIRE_CHROMIUM where it can install Chromium, so that a failed install fails
# the run instead of skipping the one test that opens the page in a browser.
@pytest.mark.skipif(_chromium() is None and not os.environ.get("ZSIM_REQUIRE_CHROMIUM"),
                    reason="Chromium is not installed")
def test_the_page_loads_in_headless_chromium_without_console_errors(report, tmp_path):
    assert _chromium(), "ZSIM_REQUIRE_CHROMIUM is set but Chromium is not installed"
    # The report has no script of its own; a copy gets one that reports, on the console,
    # whether every embedded figure decoded. Chromium logs console messages to stderr.
    page = tmp_path / "index.html"
    html = (report / "index.html").read_text(encoding="utf-8")
    page.write_text(html.replace("</body>", CHECK + "</body>"), encoding="utf-8")
    result = subprocess.run(
        [_chromium(), "--headless", "--no-sandbox", "--disable-gpu",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--no-first-run", f"--user-data-dir={tmp_path / 'profile'}",
         "--enable-logging=stderr", "--v=0", "--virtual-time-budget=10000",
         "--window-size=1280,900", "--dump-dom",
         page.as_uri()],
        capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr[-2000:]
    for heading in SECTIONS:
        assert heading in result.stdout
    console = [line for line in result.stderr.splitlines() if ":CONSOLE" in line]
    checks = [line for line in console if "zsim-check" in line]
    assert checks, result.stderr[-2000:]
    images = len(figure_slugs(html))
    tables = html.count('<div class="tablewrap">')
    assert f"zsim-check images {images} broken 0 tables {tables} cut 0 runs-fit true" in checks[0]
    assert console == checks, console


def test_cards_section_shows_ability_activations_when_they_are_logged(run_dir, tmp_path):
    logged = tmp_path / "logged"
    shutil.copytree(run_dir, logged)
    players = pd.read_parquet(run_dir / "players.parquet")
    rows = players[["run_id", "game", "seat"]].head(400).assign(
        card=range(400), suit=["writing", "currency", "laws", "writing"] * 100,
        trigger=["recruit", "hire"] * 200, ability=["ship_1", "vp_walls", "calm_any_1"] * 133
        + ["ship_1"], vp=[0, 2, 0, 1] * 100)
    rows.to_parquet(logged / "abilities.parquet")
    section = cards.section(load_runs([logged]))
    slugs = [f.slug for f in section.figures]
    assert slugs == ["cards-by-suit", "card-abilities", "card-triggers"]
    table = section.tables[0].data.set_index(["ability", "suit"])
    assert table["activations"].sum() == 400
    assert table.loc[("vp_walls", "currency"), "vp_per_activation"] == pytest.approx(
        rows.loc[(rows["ability"] == "vp_walls") & (rows["suit"] == "currency"), "vp"].mean())
    (logged / "abilities.parquet").write_bytes(b"garbage")
    with pytest.raises(RunDirError, match=r"abilities\.parquet: cannot be read"):
        load_runs([logged])


def test_the_solo_section_shows_win_rates_by_lisi_level(tmp_path):
    runs = []
    for level in (1, 4):
        out = tmp_path / f"solo{level}"
        start_run(Experiment(games=40, players=[2], strategies=["basic", f"lisi-{level}"],
                             seed=level, jobs=1), out)
        runs.append(out)
    built = build_report(runs, tmp_path / "report")
    html = built.index.read_text(encoding="utf-8")
    assert ">10. Solo</h2>" in html and "solo-levels" in figure_slugs(html)
    table = pd.read_csv(tmp_path / "report" / "tables" / "solo-levels.csv")
    assert sorted(table["level"]) == ["lisi-1", "lisi-4"]
    assert set(table["strategy"]) == {"basic"} and (table["player_games"] == 40).all()


def test_without_solo_games_the_solo_section_says_so(report):
    assert "No solo games in these runs." in (report / "index.html").read_text(encoding="utf-8")


def test_the_ratings_section_shows_the_ladder_when_two_strategies_played(report, tiny_run,
                                                                         tmp_path):
    html = (report / "index.html").read_text(encoding="utf-8")
    assert ">12. Ratings</h2>" in html and "rating-ladder" in figure_slugs(html)
    table = pd.read_csv(report / "tables" / "ratings.csv")
    assert sorted(table["n_players"].unique()) == [2, 4]
    assert set(table["strategy"]) == {"basic", "random"}
    assert table[["rating", "low", "high"]].notna().all().all()
    assert (table["low"] < table["rating"]).all() and (table["rating"] < table["high"]).all()
    for n, ladder in table.groupby("n_players"):
        assert ladder["rating"].sum() == pytest.approx(0, abs=1e-6)
        best = ladder.iloc[0]
        assert f"{n} players: {best['strategy']} is rated" in html
    gaps = pd.read_csv(report / "tables" / "rating-gaps.csv")
    assert len(gaps) == 2 and (gaps["gap"] >= 0).all()
    # One strategy in every seat: nothing to rate, so no section.
    alone = build_report([tiny_run], tmp_path / "alone").index.read_text(encoding="utf-8")
    assert "Ratings</h2>" not in alone


def test_a_transposed_table_whose_record_is_named_like_its_key_is_shown():
    """The runs table is transposed (a column per run); a run directory named ``run`` makes a
    column named like the key column, which the page must still show."""
    table = Table("runs", "Runs", pd.DataFrame({"run": ["run", "other"], "games": [20, 40]}),
                  transposed=True)
    page = table_html(table)
    assert re.findall(r"<th[^>]*>(.*?)</th>", page) == ["run", "run", "other"]
    assert re.findall(r"<td[^>]*>(.*?)</td>", page) == ["games", "20", "40"]


def test_the_page_opens_on_the_summary_and_the_cli_prints_it(run_dir, failing_run, report,
                                                             tmp_path):
    html = (report / "index.html").read_text(encoding="utf-8")
    sections = re.findall(r'<section id="([\w-]+)">', html)
    assert sections[:3] == ["summary", "findings", "overview"]
    summary = html[html.index('<section id="summary">'):html.index('<section id="findings">')]
    for part in ("Strategies: win rates with 95% intervals", "Largest causal setup effects",
                 "Dead or near-dead components", "What these games could not resolve"):
        assert part in summary
    # The summary's strategy table is the plain win rates, recomputed from players.parquet.
    table = pd.read_csv(report / "tables" / "summary-strategies.csv")
    players = pd.concat([pd.read_parquet(d / "players.parquet")
                         for d in (run_dir, failing_run)])
    games = pd.concat([pd.read_parquet(d / "games.parquet") for d in (run_dir, failing_run)])
    finished = players.merge(games[~games["failed"].fillna(False).astype(bool)][
        ["run_id", "game"]], on=["run_id", "game"])
    by_hand = finished.groupby(["n_players", "strategy"])["win_share"].mean()
    got = table.set_index(["n_players", "strategy"])["win_rate"]
    pd.testing.assert_series_equal(got.sort_index(), by_hand.sort_index(), check_names=False)
    # Every link of the summary leads somewhere on the page.
    for anchor in re.findall(r'<a href="#([\w-]+)">see</a>', summary):
        assert f'id="{anchor}"' in html
    result = CliRunner().invoke(main, ["report", str(run_dir), "--out", str(tmp_path / "r"),
                                       "--summary", "--no-recheck"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("1. Summary") and "Largest causal setup effects:" in \
        result.output


def test_assumed_components_carry_the_mark_and_the_reason_on_the_page(report):
    html = (report / "index.html").read_text(encoding="utf-8")
    tiles = pd.read_csv(report / "tables" / "wall-tiles.csv")
    assert tiles["assumed"].str.contains("the B face copies it").all()  # every Wall tile
    assert "† assumed: wall_" in html  # in the captions of the Wall figures
    tests = pd.read_csv(report / "tables" / "tests.csv")
    tile = r"\b(?:" + "|".join(tiles["tile"]) + r")\b"
    walls = tests[tests["comparison"].str.contains(tile, na=False)]
    assert len(walls) and walls["assumed"].str.contains("the B face copies it").all()


def test_recheck_replays_the_findings_with_one_bot_within_the_budget(run_dir, tmp_path):
    out = tmp_path / "rechecked"
    result = CliRunner().invoke(main, ["report", str(run_dir), "--out", str(out), "--recheck",
                                       "random", "--budget", "0.05", "--summary"])
    assert result.exit_code == 0, result.output
    html = (out / "index.html").read_text(encoding="utf-8")
    assert "<h2>3. Findings under stronger play (random)</h2>" in html
    replays = out / "tables" / "recheck.csv"
    if replays.is_file():  # the run's findings included one a constraint can replay
        table = pd.read_csv(replays)
        assert set(table["verdict"]) <= set(VERDICTS)
        for _, row in table.iterrows():
            assert (out / "recheck").is_dir()
            assert row["games_measured"] <= row["games_per_batch"]
            # the terminal prints the replay's numbers, not the finding's
            assert f"{row['verdict']} under random: {row['estimate']:+.1f}" in result.output
    # every finding named on the summary says what its recheck found, or why there is none
    summary = result.output.split("Dead or near-dead")[0]
    for line in (s for s in summary.splitlines() if s.startswith("  - ")):
        assert "Recheck: " in line
    result = CliRunner().invoke(main, ["report", str(run_dir), "--out", str(tmp_path / "x"),
                                       "--recheck", "nobody"])
    assert result.exit_code == 2 and "nobody" in result.output
    result = CliRunner().invoke(main, ["report", str(run_dir), "--out", str(tmp_path / "y"),
                                       "--recheck", "random", "--no-recheck"])
    assert result.exit_code == 2 and "contradict" in result.output


def test_a_replay_with_real_games_spends_its_budget_on_the_batches_themselves(tmp_path):
    from zsim.cli.batches import run_players
    from zsim.recheck import FIRST_GAMES, Candidate, keeper_edge, recheck

    base = Experiment(games=40, players=[2], strategies=["basic"], seed=3, jobs=1)
    wanted = [Candidate("keepers of start_ship_2 win", "starting_tiles", "start_ship_2",
                        "keeper_win", 1, original=0.4, original_low=0.3, original_high=0.5),
              Candidate("board1 raises scores", "board", "board1", "mean_vp", 1)]
    ticks = iter(range(100_000))
    played: list[int] = []

    def play(experiment, out):
        played.append(experiment.games)
        return run_players(experiment, out, True)

    # A game "takes 1 s" (one clock tick per batch): the first batches' cost sets the rest.
    results, left = recheck(base, "basic", wanted, 200.0, tmp_path, play,
                            clock=lambda: float(next(ticks)))
    assert [r.candidate.component for r in results] == ["start_ship_2", "board1"]
    assert not left and played[:2] == [FIRST_GAMES, FIRST_GAMES] and len(played) == 6
    first = tmp_path / "0-start_ship_2" / "2p"
    edges = [keeper_edge(pd.read_parquet(d / "exclude" / "players.parquet"),
                         pd.read_parquet(d / "force" / "players.parquet"), "start_ship_2")
             for d in (first, first / "stage-1")]
    values = np.concatenate(edges)
    assert results[0].games == len(values) and results[0].played == FIRST_GAMES + played[2]
    if len(values):
        assert results[0].estimate == pytest.approx(values.mean())
    # Too small a budget for more: only the first finding, on its first batches.
    ticks = iter(range(100_000))
    played.clear()
    results, left = recheck(base, "basic", wanted, 0.5, tmp_path / "short", play,
                            clock=lambda: float(next(ticks)))
    assert len(results) == 1 and results[0].played == FIRST_GAMES
    assert [c.component for c in left] == ["board1"] and played == [FIRST_GAMES] * 2


def test_the_cost_of_a_game_is_read_off_the_batches_not_a_pilot():
    from zsim.recheck import Costs

    # Two batches of 20 games, 30 s of wall clock, 40 s of playing on 2 workers: a game adds
    # half a second, a batch costs 5 s before its first game.
    costs = Costs(seconds=30.0, games=40, batches=2, playing=40.0)
    assert costs.per_game(2) == pytest.approx(0.5) and costs.per_batch(2) == pytest.approx(5.0)
    unknown = Costs(seconds=30.0, games=40, batches=2, playing=None)
    assert unknown.per_game(2) == pytest.approx(0.75) and unknown.per_batch(2) == 0


def test_the_games_that_pin_win_rates_to_two_points_come_from_the_binomial_variance(
        one_game_run, run_dir):
    """One game says nothing of the rates: the fair share's variance decides (a quarter, two
    seats a game), not the interval one game gave scaled by its width."""
    from zsim.reports.summary import games_for_win_rates, strategy_table

    one = load_runs([one_game_run])
    needed = math.ceil(wilson_trials_by_scan(0.25) / 2)  # two seats per game each
    assert needed > 850
    assert games_for_win_rates(strategy_table(one), 1) == needed
    assert f"±2 points for every win rate needs about {needed:,} games" in summary_of(
        one_game_run)
    many = load_runs([run_dir])
    table = strategy_table(many)
    games = int(many.finished["game_key"].nunique())
    by_scan = max(wilson_trials_by_scan(rate) * games / seats
                  for rate, seats in zip(table["win_rate"], table["player_games"], strict=True))
    assert games_for_win_rates(table, games) == math.ceil(by_scan)


def test_what_the_games_could_not_resolve_gives_detectable_sizes_per_unit(one_game_run):
    """A family testing win rates (points) and mean scores (VP) gives a size in each unit, not
    one median of both read in the first test's unit."""
    from matplotlib.figure import Figure as MplFigure

    from zsim.reports import summary
    from zsim.reports.findings import correct, significance_sentence
    from zsim.reports.model import Comparison, Figure, Section

    def test(unit: str, detectable: float) -> Comparison:
        return Comparison(label=f"{unit} {detectable}", claim="", method="", pvalue=0.5,
                          effect=0.1, effect_kind="d", games=100, unit=unit,
                          detectable=detectable)

    tests = [test("points per copy", d) for d in (2.0, 3.0, 4.0)] + [
        test("VP per copy", d) for d in (9.0, 10.0, 11.0, 30.0)]
    figure = Figure("mausoleum-layout", "Mausoleum layout", "", 100, MplFigure(), tests)
    components = Section("components", "Other components", "", [figure])
    correct(components.comparisons)
    assert ("±2 to ±4 points per copy and ±9 to ±30 VP per copy at 80% power"
            in significance_sentence(figure))
    said = summary._unresolved(load_runs([one_game_run]), [components]).items[0].text
    assert ("none of 7 test(s) significant; differences under ±3 points per copy (median of 3 "
            "tests) and ±10 VP per copy (median of 4 tests) could not be seen") in said


def test_one_game_calls_no_component_dead_and_says_it_found_nothing(one_game_run):
    """One game cannot show a Wall tile to be near-dead, and a summary of no findings names
    none of "the 15 most important"."""
    said = summary_of(one_game_run)
    assert said.count("1 finished game;") == 1 and "1 finished games" not in said
    assert "no finding survives correction" in said and "most important" not in said
    dead = said[said.index("Dead or near-dead components:"):]
    dead = dead[:dead.index("\n\n")]
    assert "Wall tile" not in dead and "no player scored" not in dead
    assert "Too few games (1; at least 30 needed)" in dead


def test_a_reward_with_too_few_takers_is_neither_drawn_nor_estimated(run_dir, tmp_path):
    """Below 30 takers the report tests nothing, so the figure and the table give no interval
    either: the row says "too few games" and the caption names it."""
    from zsim.reports import boards

    run = tmp_path / "rare"
    shutil.copytree(run_dir, run, ignore=shutil.ignore_patterns("report"))
    rewards = pd.read_parquet(run / "rewards.parquet")
    key = ["round", "aspect"]
    rare = rewards.groupby(key).size().idxmax()  # keep 12 of its takers
    picked = rewards.set_index(key).index == rare
    rewards = rewards[~picked | (picked.cumsum() <= 12)]
    rewards.to_parquet(run / "rewards.parquet")
    built = boards.section(load_runs([run]))
    effects = next(t for t in built.tables if t.slug == "reward-effects").data
    few = effects[effects["status"] != ""]
    assert len(few) >= 1 and (few[["round", "aspect"]].apply(tuple, axis=1) == rare).all()
    numbers = [f"{prefix}{n}" for prefix in ("win_points_", "vp_")
               for n in ("estimate", "low", "high", "p")]
    assert few[numbers].isna().all().all()
    assert few["status"].str.startswith("too few games (").all()
    assert few["win_points_exposed"].sum() == 12  # the takers kept, over the boards
    assert effects.loc[effects["status"] == "", "win_points_estimate"].notna().all()
    for _, row in few.iterrows():
        figure = next(f for f in built.figures if f.slug == f"board-rewards-{row['board']}")
        label = f"R{row['round']} {row['aspect']}: {row['reward']}"
        assert f"too few games to estimate and are not drawn: {label}." in figure.caption
        drawn = [t.get_text() for t in figure.figure.axes[0].get_yticklabels()]
        assert label not in drawn and drawn
        assert not any(label in c.label for c in figure.comparisons)


def test_the_default_recheck_uses_each_player_counts_strongest_cheap_bot(run_dir, tmp_path):
    from zsim.strategies.registry import strongest_cheap

    out = tmp_path / "default"
    result = CliRunner().invoke(main, ["report", str(run_dir), "--out", str(out), "--budget",
                                       "0.01"])
    assert result.exit_code == 0, result.output
    html = (out / "index.html").read_text(encoding="utf-8")
    bots = " / ".join(dict.fromkeys(strongest_cheap(n) for n in (2, 4)))
    assert f"Findings under stronger play ({bots})".replace("'", "&#39;") in html
    replays = out / "tables" / "recheck.csv"
    if replays.is_file():
        table = pd.read_csv(replays)
        assert set(table["bot"]) <= {bots, "the run's lineup"}
