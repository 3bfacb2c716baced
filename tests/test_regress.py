"""``zsim regress``: identical replays, detected rules changes (paired on the baseline's seeds),
distribution shifts, quiet noise, the per-game table, clear errors."""

from __future__ import annotations

import shutil
from pathlib import Path

import matplotlib.image
import numpy as np
import pandas as pd
import pytest
import yaml
from click.testing import CliRunner, Result
from scipy.stats import ks_2samp, norm, ttest_ind, ttest_ind_from_stats, ttest_rel

from zsim.cli import main
from zsim.components import default_box_dir
from zsim.paired import distribution_shift, mean_shift, quantile_shifts
from zsim.regress import (
    Baseline,
    BaselineError,
    Recording,
    compare,
    comparisons,
    dump_baseline,
    games_needed,
    load_baseline,
    paired_on_seeds,
    read_run,
    record,
    summarize,
    table_digest,
    table_path,
    verdict,
)
from zsim.regress_figures import figure_name
from zsim.runner import Experiment
from zsim.runner.batch import start_run
from zsim.stats import two_proportion_test, welch_test_from_stats

# Basic against itself at two players builds the most Palaces per game, so 100 games are
# enough to see Palace VP 6 -> 8 (about +3.5 VP of vp_palaces, Holm p < 0.01 on any seed).
GAMES = 100
SEED = 11


def regress(*args: str) -> Result:
    return CliRunner().invoke(main, ["regress", "--quiet", "--jobs", "1", *args])


@pytest.fixture(scope="module")
def box_copy(tmp_path_factory) -> Path:
    """A private copy of the component files, so a test can change the rules in place."""
    box = tmp_path_factory.mktemp("box") / "components"
    shutil.copytree(default_box_dir(), box)
    return box


@pytest.fixture(scope="module")
def experiment_file(box_copy: Path) -> Path:
    path = box_copy.parent / "small.yaml"
    path.write_text(yaml.safe_dump({"name": "small", "games": GAMES, "players": [2],
                                    "strategies": ["basic"], "seed": SEED,
                                    "box": str(box_copy), "chunk_size": 50}))
    return path


@pytest.fixture(scope="module")
def baseline(experiment_file: Path) -> Path:
    path = experiment_file.parent / "baselines" / "small.yaml"
    result = regress("--baseline", str(path), "--update", "--experiment", str(experiment_file))
    assert result.exit_code == 0, result.output
    return path


@pytest.fixture(scope="module")
def run_dir(experiment_file: Path, baseline: Path) -> Path:
    """The baseline's experiment played again through the runner's Python API."""
    out = experiment_file.parent / "run"
    start_run(load_baseline(baseline).summary.to_experiment("test"), out)
    return out


# --- the gate end to end ----------------------------------------------------------------


def test_an_unchanged_engine_reproduces_the_baseline_as_identical(baseline):
    result = regress("--baseline", str(baseline))
    assert result.exit_code == 0, result.output
    assert "identical: the 100 games reproduce the baseline's scores exactly" in result.output
    assert "PASS" in result.output


def test_recording_again_gives_the_same_file_with_one_line_per_column(baseline):
    before = baseline.read_text()
    assert regress("--baseline", str(baseline), "--update").exit_code == 0
    assert baseline.read_text() == before
    assert before.startswith("# zsim regression baseline")
    assert "vp_palaces: {mean: " in before and "quantiles: [0.1, 0.5, 0.9]" in before
    assert "tolerance: {distribution: 0.05, quantile: 1.0, vp: 0.5, win_rate: 0.02}" in before


def test_a_run_directory_compares_with_a_baseline_and_with_another_run(baseline, run_dir):
    for reference in (baseline, run_dir):
        result = regress("--baseline", str(reference), "--against", str(run_dir))
        assert result.exit_code == 0, result.output
        assert "identical" in result.output


def test_palace_vp_6_to_8_is_detected(baseline, box_copy):
    board = box_copy / "board.yaml"
    original = board.read_text()
    assert "  palace_vp: 6\n" in original
    board.write_text(original.replace("  palace_vp: 6\n", "  palace_vp: 8\n"))
    try:
        result = regress("--baseline", str(baseline))
    finally:
        board.write_text(original)
    assert result.exit_code == 1, result.output
    alarms = [line.split() for line in result.output.splitlines() if "ALARM" in line]
    assert ["basic", "2", "vp_palaces"] in [line[:3] for line in alarms]
    assert "tests: paired on 100 common games" in result.output
    assert "component files: digest" in result.output
    assert "FAIL" in result.output


def test_another_master_seed_does_not_alarm(baseline):
    result = regress("--baseline", str(baseline), "--seed", str(SEED + 1))
    assert result.exit_code == 0, result.output
    assert "identical" not in result.output and "seed: 11 -> 12" in result.output
    assert "tests: unpaired, the runs played other seeds" in result.output


def test_the_report_gives_a_sample_size_for_each_tolerance(baseline):
    result = regress("--baseline", str(baseline), "--against", str(baseline))
    lines = result.output.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("sample size"))
    rows = {line.split()[0]: line for line in lines[start + 3:] if line.strip()}
    assert {"vp_total", "vp_palaces", "win_rate"} <= rows.keys()


# --- errors ------------------------------------------------------------------------------


def test_a_baseline_of_another_lineup_is_a_clear_error(baseline, tmp_path):
    other = Experiment(games=20, players=[2], strategies=["random"], seed=1, jobs=1)
    start_run(other, tmp_path / "random")
    result = regress("--baseline", str(baseline), "--against", str(tmp_path / "random"))
    assert result.exit_code == 2
    assert "does not match" in result.output
    assert "basic 2p" in result.output and "random 2p" in result.output


@pytest.mark.parametrize("edit, message", [
    (lambda text: text + "\n  - [unclosed", "not valid YAML"),
    (lambda text: text.replace("format: 2", "format: 7"), "key 'format'"),
    (lambda text: text.replace("quantiles: [0.1,", "quantiles: [1.5,"), "key 'quantiles'"),
    (lambda text: text.replace("fingerprint:", "fingerprints:"), "key 'fingerprint'"),
    (lambda text: text.replace("sd: ", "sd: -", 1), ".vp.vp_"),
    (lambda text: text.replace("win_rate: 0.02", "win_rate: 0.02, vp_nothing: 1"),
     "vp_nothing"),
    (lambda text: "- just\n- a list\n", "a mapping"),
])
def test_a_malformed_baseline_names_the_file_and_key(baseline, tmp_path, edit, message):
    bad = tmp_path / "bad.yaml"
    bad.write_text(edit(baseline.read_text()))
    shutil.copy(table_path(baseline), tmp_path)  # the table it names, so only the edit is wrong
    result = regress("--baseline", str(bad), "--against", str(baseline))
    assert result.exit_code == 2, result.output
    assert str(bad) in result.output and message in result.output


def test_a_missing_baseline_and_a_bad_tolerance_are_errors(tmp_path, baseline):
    missing = regress("--baseline", str(tmp_path / "none.yaml"))
    assert missing.exit_code == 2 and "cannot read" in missing.output
    first = regress("--baseline", str(tmp_path / "none.yaml"), "--update")
    assert first.exit_code == 2 and "--experiment" in first.output
    assert regress("--baseline", str(baseline), "--tolerance", "vp").exit_code == 2


# --- comparisons from summary statistics -------------------------------------------------


def synthetic(shift: dict[str, float] | None = None, games: int = 400,
              seed: int = 0) -> pd.DataFrame:
    """A players table of two-player games: 'a' against 'b', normal scores."""
    rng = np.random.default_rng(seed)
    rows = []
    for game in range(games):
        palaces = rng.normal(10, 4, 2) + (shift or {}).get("vp_palaces", 0)
        walls = rng.normal(12, 5, 2)
        totals = palaces + walls
        for seat, strategy in enumerate("ab"):
            rows.append({"game": game, "seed": game, "n_players": 2, "seat": seat,
                         "strategy": strategy, "vp_total": totals[seat],
                         "vp_palaces": palaces[seat], "vp_walls": walls[seat],
                         "rank": 1 + int(totals[seat] < totals[1 - seat]),
                         "win_share": float(totals[seat] > totals[1 - seat])})
    return pd.DataFrame(rows)


EXPERIMENT = Experiment(name="synthetic", games=400, players=[2], strategies=["a", "b"])


def summary(frame: pd.DataFrame) -> Baseline:
    return summarize(frame, experiment=EXPERIMENT)


def recording(frame: pd.DataFrame) -> Recording:
    return record(frame, experiment=EXPERIMENT)


def test_a_shift_alarms_only_when_significant_and_beyond_tolerance():
    base = recording(synthetic())
    same = compare(base, recording(synthetic(seed=1)))
    assert not same["alarm"].any()
    moved = compare(base, recording(synthetic({"vp_palaces": 3}, seed=1)))
    alarms = moved[moved["alarm"]]
    assert set(alarms["metric"]) <= {"vp_palaces", "vp_total"} and "vp_palaces" in set(
        alarms["metric"])
    assert verdict(base.summary, summary(synthetic(seed=1)), moved).alarms == len(alarms)
    tolerant = base.with_settings({"vp": 5, "quantile": 5, "distribution": 0.5})
    relaxed = compare(tolerant, recording(synthetic({"vp_palaces": 3}, seed=1)))
    assert relaxed["significant"].any() and not relaxed["alarm"].any()


def test_a_summary_has_one_observation_per_game_and_a_stable_fingerprint():
    frame = synthetic()
    base = summary(frame)
    group = base.groups["a"][2]
    assert (group.games, group.player_games) == (400, 400)
    assert group.vp["vp_palaces"].mean == pytest.approx(
        frame[frame.strategy == "a"]["vp_palaces"].mean(), abs=1e-4)
    assert summary(frame.sample(frac=1, random_state=3)).fingerprint == base.fingerprint
    assert summary(synthetic(seed=1)).fingerprint != base.fingerprint
    assert yaml.safe_load(dump_baseline(base))["groups"]["a"][2]["games"] == 400


def test_the_projects_own_box_is_recorded_as_null_so_baselines_travel():
    frame = synthetic(games=10)
    resolved = Experiment(strategies=["a", "b"], players=[2], box=str(default_box_dir()))
    assert summarize(frame, experiment=resolved).experiment["box"] is None
    other = Experiment(strategies=["a", "b"], players=[2], box="/elsewhere/components")
    assert summarize(frame, experiment=other).experiment["box"] == "/elsewhere/components"


def test_games_needed_follows_the_power_calculation():
    base = summary(synthetic())
    needed = games_needed(base)
    # 2 groups x (3 VP columns x (mean, KS, 3 quantiles) + win rate)
    assert comparisons(base) == 2 * (3 * 5 + 1)
    level = base.alpha / comparisons(base)
    sd = max(base.groups[s][2].vp["vp_walls"].sd for s in "ab")
    by_hand = 2 * ((norm.isf(level / 2) + norm.ppf(0.9)) * sd / 0.5) ** 2
    assert needed.loc["vp_walls", "games"] == pytest.approx(by_hand, rel=0.01)
    assert games_needed(base.with_settings({"vp": 1})).loc["vp_walls", "games"] < by_hand
    stricter = games_needed(base.with_settings(alpha=0.001))
    assert (stricter["games"] > needed["games"]).all()
    # The shift the baseline's own games detect is the tolerance they would be enough for.
    for metric in ("vp_walls", "win_rate"):
        shift = needed.loc[metric, "detectable"]
        again = games_needed(base.with_settings({metric: shift})).loc[metric, "games"]
        assert again == pytest.approx(base.games, rel=0.01)


def test_a_mismatch_in_vp_columns_is_refused():
    base = recording(synthetic())
    fewer = recording(synthetic().drop(columns=["vp_walls"]))
    with pytest.raises(BaselineError, match="VP columns differ"):
        compare(base, fewer)


def test_welch_and_two_proportion_tests_from_summary_statistics():
    diff, low, high, p = welch_test_from_stats(10, 3, 50, 11, 4, 70)
    assert p == pytest.approx(ttest_ind_from_stats(11, 4, 70, 10, 3, 50, equal_var=False).pvalue)
    assert low < diff == 1 < high
    assert welch_test_from_stats(5, 0, 10, 5, 0, 10)[3] == 1.0
    assert welch_test_from_stats(5, 0, 10, 6, 0, 10)[3] == 0.0
    diff, low, high, p = two_proportion_test(30.5, 100, 40.25, 100)
    assert diff == pytest.approx(0.0975) and low < diff < high and 0 < p < 1
    assert two_proportion_test(0, 50, 0, 60)[3] == 1.0


# --- the per-game table ------------------------------------------------------------------


def test_the_baseline_keeps_every_players_scores_beside_it_with_their_digest(baseline):
    table = table_path(baseline)
    assert table.is_file() and table.stat().st_size < 100_000
    players = pd.read_parquet(table)
    assert len(players) == GAMES * 2 and players["game"].nunique() == GAMES
    assert {"seed", "seat", "strategy", "rank", "win_share", "vp_total", "vp_palaces",
            "unification_board", "first_player"} <= set(players.columns)
    assert not any(c.startswith("n_") and c != "n_players" for c in players.columns)
    summary = yaml.safe_load(baseline.read_text())
    assert summary["per_game"] == {"file": table.name, "digest": table_digest(players)}
    # The summary is the table's: recompute a mean from the Parquet with plain pandas.
    per_game_palaces = players.groupby("game")["vp_palaces"].mean()
    assert summary["groups"]["basic"][2]["vp"]["vp_palaces"]["mean"] == pytest.approx(
        per_game_palaces.mean(), abs=1e-4)
    before = table.read_bytes()
    assert regress("--baseline", str(baseline), "--update").exit_code == 0
    assert table.read_bytes() == before


def test_a_stale_or_missing_table_is_refused_and_update_repairs_it(baseline, run_dir, tmp_path):
    copy = tmp_path / "copy.yaml"
    copy.write_text(baseline.read_text().replace("file: small.parquet", "file: copy.parquet"))
    players = pd.read_parquet(table_path(baseline))
    players.loc[0, "vp_walls"] += 1  # a table that is not the recorded one
    players.to_parquet(table_path(copy), index=False)
    stale = regress("--baseline", str(copy), "--against", str(run_dir))
    assert stale.exit_code == 2
    assert "copy.parquet is not the one recorded with it" in stale.output
    assert f"zsim regress --baseline {copy} --update" in stale.output
    table_path(copy).unlink()
    missing = regress("--baseline", str(copy), "--against", str(run_dir))
    assert missing.exit_code == 2 and "cannot read its per-game table" in missing.output
    repaired = regress("--baseline", str(copy), "--update", "--against", str(run_dir))
    assert repaired.exit_code == 0, repaired.output
    assert "not compared with the old baseline" in repaired.output
    assert "identical" in regress("--baseline", str(copy), "--against", str(run_dir)).output


@pytest.mark.parametrize("key", ["fingerprint", "box_digest"])
def test_a_key_edited_by_hand_is_blamed_by_name(baseline, run_dir, tmp_path, key):
    copy = tmp_path / baseline.name
    shutil.copy(table_path(baseline), table_path(copy))
    recorded = yaml.safe_load(baseline.read_text())[key]
    copy.write_text(baseline.read_text().replace(f"{key}: {recorded}", f"{key}: 0123456789abcdef"))
    result = regress("--baseline", str(copy), "--against", str(run_dir))
    assert result.exit_code == 2
    assert result.output.startswith(
        f"Error: {copy}: key '{key}': 0123456789abcdef is not the {key} recorded with its "
        f"per-game table ({recorded}): the file was edited by hand")


def test_the_per_game_table_given_for_the_baseline_is_one_clear_line(baseline):
    result = regress("--baseline", str(table_path(baseline)))
    assert result.exit_code == 2 and result.output.splitlines() == [
        f"Error: {table_path(baseline)} is the per-game table of a baseline: give its YAML "
        f"file ({baseline})"]


# --- paired tests, distributions, figures ------------------------------------------------


def test_a_one_vp_scoring_constant_alarms_because_the_games_pair(baseline, box_copy, tmp_path):
    """+1 VP to every entry of the spare-soldier table: the bots value soldiers by differences
    of the table, so no decision changes and every player gains exactly 1 VP."""
    board = box_copy / "board.yaml"
    original = board.read_text()
    assert "extra_soldier_vp: [0, 2, 5, 9]" in original
    board.write_text(original.replace("extra_soldier_vp: [0, 2, 5, 9]",
                                      "extra_soldier_vp: [1, 3, 6, 10]"))
    out = tmp_path / "replay"
    try:
        result = regress("--baseline", str(baseline), "--out", str(out))
    finally:
        board.write_text(original)
    assert result.exit_code == 1, result.output
    assert "no variance reduction: 2 moved by the same amount in every game" in result.output
    alarms = {tuple(line.split()[:3]) for line in result.output.splitlines() if "ALARM" in line}
    assert {("basic", "2", "vp_total"), ("basic", "2", "vp_extra_soldiers")} <= alarms
    base, now = load_baseline(baseline), read_run(out)
    paired = compare(base, now)
    means = paired[(paired["kind"] == "mean") & paired["alarm"]]
    assert set(means["metric"]) == {"vp_total", "vp_extra_soldiers"}
    assert (means["diff"] == 1).all() and (means["test"] == "paired t").all()
    # The same games compared as two independent runs: 100 games cannot see 1 VP in a mean.
    unpaired = compare(base, now, paired=False)
    assert not unpaired.loc[unpaired["kind"] == "mean", "significant"].any()
    # One figure per alarm, beside the kept re-run, named after what alarmed.
    drawn = sorted(p.name for p in (out / "alarms").iterdir())
    assert drawn == sorted(figure_name(row) for _, row in paired[paired["alarm"]].iterrows())
    assert "basic-2p-vp_extra_soldiers-mean.png" in drawn
    image = matplotlib.image.imread(out / "alarms" / drawn[0])
    assert image.shape[0] > 100 and image.shape[1] > 100


def test_pairing_needs_the_same_seeds_under_the_same_game_numbers():
    frame = synthetic(games=50)
    assert paired_on_seeds(frame, frame.copy())
    assert paired_on_seeds(frame, frame[frame["game"] < 20])  # fewer games of the same plan
    reseeded = frame.assign(seed=frame["seed"] + 1000)
    assert not paired_on_seeds(frame, reseeded)
    with pytest.raises(BaselineError, match="other seeds"):
        compare(recording(frame), recording(reseeded), paired=True)


def spread_walls(frame: pd.DataFrame, factor: float) -> pd.DataFrame:
    """The same games with every Wall score moved away from the mean: equal mean, wider."""
    walls = 12 + factor * (frame["vp_walls"] - 12)
    return frame.assign(vp_walls=walls, vp_total=frame["vp_total"] - frame["vp_walls"] + walls)


def test_a_wider_spread_at_an_equal_mean_alarms_in_the_distribution_not_the_mean():
    frame = synthetic()
    table = compare(recording(frame), recording(spread_walls(frame, 1.6)))
    walls = table[(table["metric"] == "vp_walls") & (table["strategy"] == "a")]
    by_kind = walls.set_index(walls["kind"] + walls["level"].fillna(0).astype(str))
    assert not by_kind.loc["mean0.0", "alarm"]
    assert by_kind.loc["distribution0.0", "alarm"]
    assert by_kind.loc["quantile0.1", "alarm"] and by_kind.loc["quantile0.1", "diff"] < -2
    assert by_kind.loc["quantile0.9", "alarm"] and by_kind.loc["quantile0.9", "diff"] > 2
    assert table.attrs["paired"] and (walls["test"] != "Welch t").all()


def test_a_group_of_one_game_or_without_wins_is_tested_without_error():
    one = synthetic(games=1)
    table = compare(recording(one), recording(synthetic(games=1, seed=5)))
    assert not table["alarm"].any() and table["p"].isna().all()
    frame = synthetic()
    frame["win_share"] = np.where(frame["strategy"] == "a", 1.0, 0.0)  # 'b' never wins
    table = compare(recording(frame), recording(frame.copy()))
    wins = table[table["metric"] == "win_rate"]
    assert wins["p"].isna().all() and not wins["alarm"].any()
    unpaired = compare(recording(frame), recording(frame.assign(seed=frame["seed"] + 1)))
    assert (unpaired.loc[unpaired["metric"] == "win_rate", "p"] == 1).all()


def test_games_needed_gives_paired_figures_from_the_differences():
    frame = synthetic()
    moved = frame.assign(vp_walls=frame["vp_walls"] + np.random.default_rng(3).normal(
        0.2, 1.5, len(frame)))
    base = recording(frame)
    table = compare(base, recording(moved))
    needed = games_needed(base.summary, table)
    level = base.summary.alpha / comparisons(base.summary)
    sd = table.loc[(table["metric"] == "vp_walls") & (table["kind"] == "mean"), "sd"].max()
    by_hand = ((norm.isf(level / 2) + norm.ppf(0.9)) * sd / 0.5) ** 2
    assert needed.loc["vp_walls", "paired"] == pytest.approx(by_hand, rel=0.01)
    assert needed.loc["vp_walls", "paired"] < needed.loc["vp_walls", "games"] / 10
    assert np.isnan(games_needed(base.summary).loc["vp_walls", "paired"])


def test_quantile_levels_are_configurable_and_stored(baseline, tmp_path):
    copy = tmp_path / "levels.yaml"
    result = regress("--baseline", str(copy), "--update", "--against", str(baseline),
                     "--quantiles", "0.75,0.25")
    assert result.exit_code == 0, result.output
    assert "quantiles: [0.25, 0.75]" in copy.read_text()
    table = compare(load_baseline(copy), load_baseline(baseline))
    assert set(table["level"].dropna()) == {0.25, 0.75}
    assert regress("--baseline", str(copy), "--quantiles", "a,b").exit_code == 2
    wrong = regress("--baseline", str(copy), "--against", str(baseline), "--quantiles", "1.5")
    assert wrong.exit_code == 2 and "key 'quantiles'" in wrong.output


# --- the statistics ----------------------------------------------------------------------


def test_paired_and_unpaired_mean_tests_match_scipy():
    rng = np.random.default_rng(4)
    a = rng.normal(50, 10, 300)
    b = a + rng.normal(0.5, 2, 300)
    paired = mean_shift(a, b, paired=True)
    assert paired.pvalue == pytest.approx(ttest_rel(b, a).pvalue)
    assert paired.gain == pytest.approx((a.var(ddof=1) + b.var(ddof=1)) / (b - a).var(ddof=1))
    unpaired = mean_shift(a, b, paired=False)
    assert unpaired.pvalue == pytest.approx(ttest_ind(b, a, equal_var=False).pvalue)
    constant = mean_shift(a, a + 1, paired=True)
    assert (constant.diff, constant.pvalue, constant.gain) == (1.0, 0.0, np.inf)
    assert np.isnan(mean_shift(np.ones(5), np.ones(5), paired=True).pvalue)
    ks = distribution_shift(a, b)
    assert ks.pvalue == pytest.approx(ks_2samp(a, b, method="asymp").pvalue)
    assert ks.distance == pytest.approx(ks_2samp(a, b).statistic) and ks.distance > 0


def test_quantile_shifts_and_their_test_hold_the_level():
    rng = np.random.default_rng(5)
    a = rng.integers(0, 30, 400).astype(float)
    [(old, new, shift)] = quantile_shifts(a, a + 2, [0.1], paired=True)
    assert (new - old, shift.diff, shift.low, shift.high) == (2, 2, 2, 2)
    # Only the games that cross the pooled quantile tell (McNemar): here about a dozen.
    assert shift.pvalue < 0.001
    assert np.quantile(a, 0.1, method="inverted_cdf") == old
    rejected = {True: 0, False: 0}
    for _ in range(200):
        x, y = rng.poisson(20, 100).astype(float), rng.poisson(20, 100).astype(float)
        for paired in rejected:
            rejected[paired] += sum(s.pvalue < 0.05 for _, _, s in quantile_shifts(
                x, y, [0.1, 0.5, 0.9], paired, resamples=20))
    assert all(count / 600 < 0.08 for count in rejected.values()), rejected
