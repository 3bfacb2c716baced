"""The experience section of the report, and the experience metrics paired by ``zsim
compare``, ``zsim sweep``, ``zsim effects`` and ``zsim.api``."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from tests.conftest import experiment_file
from zsim import api
from zsim.cli import main
from zsim.experience.data import read
from zsim.experience.metrics import ALL, METRICS
from zsim.reports.build import build_report
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
    assert ">Game experience<" in html
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
    assert ">Game experience<" in html and "recorded no trajectories" in html


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
    result = CliRunner().invoke(main, ["sweep", "rules.palace_vp=6,8", "--experiment",
                                       str(experiment), "--games", "40", "--out", str(out),
                                       "--quiet"])
    assert result.exit_code == 0, result.output
    assert "experience, rules.palace_vp=8" in result.output
    table = pd.read_csv(out / "experience.csv")
    assert set(table["pair"]) == {"rules.palace_vp=8"}
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
