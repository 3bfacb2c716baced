"""zsim tune, exploit and balance: small budgets, real games, results checked another way."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import optuna
import pandas as pd
import pytest
import yaml
from click.testing import CliRunner
from optuna.trial import TrialState

from zsim.cli import main
from zsim.runner.experiment import DEFAULT_EXPERIMENT, load_experiment
from zsim.strategies.registry import resolve
from zsim.tuning import search
from zsim.tuning.arena import CANDIDATE, Arena, Execution, candidate_shares, make_setup
from zsim.tuning.balance import BalanceError, parse_range, refine
from zsim.tuning.validation import compare

# Two-player games against greedy alone: the fastest real games there are.
SMALL = ["--players", "2", "--field", "greedy", "--block-games", "4", "--blocks", "2",
         "--held-out-games", "4", "--jobs", "1", "--quiet"]


def _tune(args: list[str]) -> object:
    return CliRunner().invoke(main, ["tune", *args, *SMALL])


def _setup(**changes: object) -> object:
    options = {"field": ("greedy", "builder", "governor"), "players": 3, "seed": 4,
               "block_games": 5, "blocks": 2, "held_out_games": 6} | changes
    return make_setup(load_experiment(DEFAULT_EXPERIMENT), **options)


# --- the arena ---------------------------------------------------------------------------------


def test_setup_rounds_blocks_to_seat_rotations_and_meets_the_whole_field() -> None:
    setup = _setup()
    assert setup.block_games == 6
    assert setup.held_out_blocks() == 1
    met = [bot for block in range(3) for bot in setup.opponents(block)]  # C(3, 2) = 3 sets
    assert sorted(met) == sorted(["greedy", "builder", "governor"] * 2)


def test_held_out_blocks_never_share_a_master_seed_with_training(tmp_path: Path) -> None:
    arena = Arena(_setup(), Execution(jobs=1), tmp_path)
    training = {arena.experiment(b).seed for b in range(100)}
    held = {arena.experiment(b, held_out=True).seed for b in range(100)}
    assert not training & held
    assert arena.experiment(1).strategies[0] == CANDIDATE


def test_a_block_is_reproducible_and_pairs_candidates_on_its_games(tmp_path: Path) -> None:
    arena = Arena(_setup(), Execution(jobs=1), tmp_path)
    greedy = arena.play(resolve("greedy"), 0)
    assert np.array_equal(greedy, arena.play(resolve("greedy"), 0))
    # recomputed from the runner's own tables: a run of the same block with plain names
    from zsim.runner.batch import start_run

    start_run(arena.experiment(0), tmp_path / "again", strategies={CANDIDATE: resolve("greedy")})
    players = pd.read_parquet(tmp_path / "again" / "players.parquet")
    mine = players[players["strategy"] == CANDIDATE].sort_values("game")["win_share"]
    assert np.allclose(greedy, mine.to_numpy())
    assert not (tmp_path / "block").exists()  # the scratch run is removed


def test_failed_games_are_missing_not_lost() -> None:
    players = pd.DataFrame({"game": [0, 0, 2, 2], "strategy": [CANDIDATE, "greedy"] * 2,
                            "win_share": [1.0, 0.0, 0.5, 0.5]})
    shares = candidate_shares(players, 3)
    assert shares[0] == 1.0 and np.isnan(shares[1]) and shares[2] == 0.5


def test_bad_field_and_variants_are_named() -> None:
    with pytest.raises(ValueError, match="'gredy'"):
        _setup(field=("gredy",))
    with pytest.raises(ValueError, match="between 2 and 4"):
        _setup(players=5)
    experiment = load_experiment(DEFAULT_EXPERIMENT).with_overrides(
        "t", variants={"foo.bar": "2"})
    with pytest.raises(ValueError, match=r"'foo\.bar'"):
        make_setup(experiment, ("greedy",), 2, 0, 4, 1, 4)


# --- racing and the held-out comparison -----------------------------------------------------


def test_racing_stops_only_a_clearly_worse_candidate() -> None:
    best = np.array([1.0, 0.0] * 30)
    worse = np.zeros(60)  # loses every game the best won
    assert search.behind(worse, best)
    assert not search.behind(best.copy(), best)  # equal: no difference to test
    assert not search.behind(worse[:10], best)  # too few games for a verdict
    assert not search.behind(best, worse)  # ahead is never behind
    with_failed = worse.copy()
    with_failed[:5] = np.nan
    assert search.behind(with_failed, best)


def test_the_pruner_races_a_trial_against_the_best_finished_one() -> None:
    study = optuna.create_study(direction="maximize", pruner=search.RacingPruner())
    best = [1.0, 0.0] * 30
    for value, shares in ((0.2, [0.0, 1.0] * 30), (0.5, best)):
        study.add_trial(optuna.trial.create_trial(value=value, user_attrs={search.SHARES:
                                                                             shares}))
    assert search.best_trial(study).user_attrs[search.SHARES] == best
    trial = study.ask()
    trial.set_user_attr(search.SHARES, [0.0] * 30)  # lost the 15 games the best won so far
    trial.report(0.0, 0)
    assert trial.should_prune()
    level = study.ask()
    level.set_user_attr(search.SHARES, best[:30])
    level.report(0.5, 0)
    assert not level.should_prune()


def test_held_out_comparison_on_degenerate_data() -> None:
    none = compare(np.zeros(10), np.zeros(10), "greedy", 4)
    assert none.tuned.share == 0 and none.tuned.low == 0 and none.difference == 0
    assert not none.significant
    one = compare(np.array([1.0]), np.array([0.0]), "greedy", 2)
    assert one.tuned.games == 1 and np.isnan(one.low)
    assert not one.significant
    clear = compare(np.ones(200), np.r_[np.ones(100), np.zeros(100)], "greedy", 4)
    assert clear.significant and clear.difference == pytest.approx(0.5)
    assert clear.reference.low < 0.5 < clear.reference.high


# --- zsim tune -----------------------------------------------------------------------------------


def test_tune_writes_a_validated_bot_the_registry_plays(tmp_path: Path) -> None:
    out = tmp_path / "tune"
    result = _tune(["--out", str(out), "--trials", "3"])
    assert result.exit_code == 0, result.output
    assert "held out (4 games" in result.output
    study = optuna.load_study(study_name=search.STUDY_NAME, storage=search.storage_url(out))
    done = study.get_trials(states=(TrialState.COMPLETE, TrialState.PRUNED))
    assert len(done) == 3
    assert [t.user_attrs[search.BOT] for t in done] == ["alchemist", "builder", "courtier"]
    best = max((t for t in done if t.state == TrialState.COMPLETE), key=lambda t: t.value)
    bot = resolve(str(out / "tuned.yaml"))
    assert bot.params == pytest.approx(search.params_of(best), abs=1e-4)
    # the winner's training share is the mean of its per-game shares, as the trials table says
    trials = pd.read_csv(out / "trials.csv")
    assert trials.loc[trials["trial"] == best.number, "win_share"].item() == pytest.approx(
        np.mean(best.user_attrs[search.SHARES]))
    held = json.loads((out / "held_out.json").read_text())
    assert held["trial"] == best.number and held["result"]["tuned"]["games"] == 4
    page = (out / "index.html").read_text()
    assert "history.png" in page and "weights.png" in page
    assert (out / "history.png").stat().st_size > 1000
    assert not (out / "scratch").exists()


def test_tune_resumes_after_ctrl_c(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "tune"
    real_play = Arena.play
    calls = {"n": 0}

    def interrupted(self: Arena, *args: object, **kwargs: object) -> np.ndarray:
        calls["n"] += 1
        if calls["n"] == 12:  # trial 5 (the last hand-weighted bot), its second block
            raise KeyboardInterrupt
        return real_play(self, *args, **kwargs)

    monkeypatch.setattr(Arena, "play", interrupted)
    stopped = _tune(["--out", str(out), "--trials", "6"])
    assert stopped.exit_code == 130  # as zsim run's
    assert f"zsim tune --resume {out}" in stopped.output
    study = optuna.load_study(study_name=search.STUDY_NAME, storage=search.storage_url(out))
    states = [t.state for t in study.get_trials()]
    assert states == [TrialState.COMPLETE] * 5 + [TrialState.FAIL]
    first = study.get_trials()[0].user_attrs[search.SHARES]

    monkeypatch.setattr(Arena, "play", real_play)
    again = _tune(["--out", str(out), "--trials", "3"])
    assert again.exit_code == 1 and "--resume" in again.output  # refuses to start over
    resumed = CliRunner().invoke(main, ["tune", "--resume", str(out), "--quiet", "--jobs", "1"])
    assert resumed.exit_code == 0, resumed.output
    study = optuna.load_study(study_name=search.STUDY_NAME, storage=search.storage_url(out))
    trials = study.get_trials()
    assert search.finished(study) == 6  # the budget given at the start is kept
    assert len(trials) == 7
    assert trials[0].user_attrs[search.SHARES] == first  # kept, not replayed
    replayed = trials[6]  # the interrupted trial again, from its first block
    assert replayed.params == trials[5].params
    assert replayed.state in (TrialState.COMPLETE, TrialState.PRUNED)
    assert replayed.user_attrs[search.BOT] == "mausoleum"
    assert len(replayed.user_attrs[search.SHARES]) == 8
    assert (out / "tuned.yaml").is_file()


def test_tune_resumes_after_kill_9_replaying_the_trial_that_was_running(tmp_path: Path) -> None:
    out = tmp_path / "tune"
    # As kill -9 would: the process ends in the middle of trial 5, nothing cleaned up.
    killed = ("import os\n"
              "from zsim.tuning.arena import Arena\n"
              "real, calls = Arena.play, [0]\n"
              "def play(self, *args, **kwargs):\n"
              "    calls[0] += 1\n"
              "    if calls[0] == 12:\n"
              "        os._exit(137)\n"
              "    return real(self, *args, **kwargs)\n"
              "Arena.play = play\n"
              "from zsim.cli import main\n"
              f"main(['tune', '--out', {str(out)!r}, '--trials', '6', *{SMALL!r}])\n")
    assert subprocess.run([sys.executable, "-c", killed]).returncode == 137
    study = optuna.load_study(study_name=search.STUDY_NAME, storage=search.storage_url(out))
    assert study.get_trials()[5].state == TrialState.RUNNING
    resumed = CliRunner().invoke(main, ["tune", "--resume", str(out), "--quiet", "--jobs", "1"])
    assert resumed.exit_code == 0, resumed.output
    trials = optuna.load_study(study_name=search.STUDY_NAME,
                               storage=search.storage_url(out)).get_trials()
    assert trials[6].params == trials[5].params and trials[6].user_attrs[search.BOT] == "mausoleum"
    assert len(trials[6].user_attrs[search.SHARES]) == 8


def test_a_study_whose_rules_changed_is_not_resumed(tmp_path: Path) -> None:
    out = tmp_path / "tune"
    assert _tune(["--out", str(out), "--trials", "1"]).exit_code == 0
    study = optuna.load_study(study_name=search.STUDY_NAME, storage=search.storage_url(out))
    setup = study.user_attrs[search.SETUP]
    assert setup["digest"]
    study.set_user_attr(search.SETUP, {**setup, "experiment": {
        **setup["experiment"], "variants": {"rules.palace_vp": "8"}}})  # as if edited since
    result = CliRunner().invoke(main, ["tune", "--resume", str(out), "--jobs", "1"])
    assert result.exit_code == 1 and "changed since the study started" in result.output


def test_tune_refuses_bad_input_with_one_line() -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["tune", "--out", "x", "--field", "gredy", "--jobs", "1"])
    assert result.exit_code != 0 and "unknown strategy 'gredy'" in result.output
    result = runner.invoke(main, ["tune", "--out", "x", "--variant", "foo.bar=1"])
    assert result.exit_code != 0 and "'foo.bar'" in result.output
    result = runner.invoke(main, ["tune", "--resume", "no-such-dir"])
    assert result.exit_code != 0 and "not a directory of zsim tune" in result.output
    result = runner.invoke(main, ["tune"])
    assert result.exit_code != 0 and "--out DIR" in result.output
    for players in ("0", "7"):
        result = runner.invoke(main, ["tune", "--out", "x", "--players", players])
        assert result.exit_code == 2
        assert f"Invalid value for '--players' / '-n': {players} is not in the range " \
            "2<=x<=4" in result.output


# --- zsim exploit ----------------------------------------------------------------------------


def test_exploit_tunes_under_each_rule_set(tmp_path: Path) -> None:
    out = tmp_path / "exploit"
    result = CliRunner().invoke(main, ["exploit", "default", "rules.palace_vp=8", "--out",
                                       str(out), "--trials", "2", *SMALL])
    assert result.exit_code == 0, result.output
    table = pd.read_csv(out / "exploit.csv")
    assert list(table["rule_set"]) == ["base", "rules.palace_vp=8"]
    assert list(table["variants"].fillna("")) == ["", "rules.palace_vp=8"]
    assert (table["fair"] == 0.5).all()
    assert (table["excess"] == table["win_share"] - 0.5).all()
    held = json.loads((out / "rules.palace_vp=8" / "held_out.json").read_text())
    assert table.loc[1, "win_share"] == pytest.approx(held["result"]["tuned"]["share"])
    weights = pd.read_csv(out / "weights.csv", index_col=0)
    assert list(weights.columns) == ["base", "rules.palace_vp=8"]
    assert "patience" in weights.index
    assert "under rules.palace_vp=8 a tuned bot wins" in result.output
    bot = yaml.safe_load((out / "rules.palace_vp=8" / "tuned.yaml").read_text())
    assert "rules.palace_vp=8" in bot["description"]


# --- zsim balance ------------------------------------------------------------------------------


def test_ranges_parse_and_refine() -> None:
    axis = parse_range("rules.palace_vp=4..10")
    assert axis.integer and axis.grid(4) == [4, 6, 8, 10]
    assert refine(axis, [4, 6, 8, 10], 6, 2) == [5, 7]
    assert refine(axis, [4, 5, 6], 5, 2) == []  # every integer around it is played
    assert parse_range("x=0.5..1").grid(3) == [0.5, 0.75, 1.0]
    for bad, message in [("x=3..3", "empty range"), ("x=a..4", "not a number"),
                         ("x4..5", "KEY=LOW..HIGH")]:
        with pytest.raises(BalanceError, match=message):
            parse_range(bad)


@pytest.fixture
def two_bots(tmp_path: Path) -> Path:
    path = tmp_path / "two.yaml"
    path.write_text(yaml.safe_dump({"games": 8, "players": [2], "strategies":
                                    ["greedy", "builder"], "seed": 3}))
    return path


def test_balance_finds_the_value_with_the_smallest_spread(tmp_path: Path,
                                                          two_bots: Path) -> None:
    out = tmp_path / "balance"
    result = CliRunner().invoke(main, ["balance", "rules.palace_vp=5..7", "--experiment",
                                       str(two_bots), "--out", str(out), "--points", "2",
                                       "--rounds", "1", "--jobs", "1", "--quiet"])
    assert result.exit_code == 0, result.output
    curve = pd.read_csv(out / "balance.csv")
    assert sorted(curve["rules.palace_vp"].unique()) == [5, 6, 7]  # 6 from the refinement
    for value, rows in curve.groupby("rules.palace_vp"):
        players = pd.read_parquet(out / "runs" / f"rules.palace_vp={value}" / "players.parquet")
        rates = players.groupby("strategy")["win_share"].mean()
        assert rows["objective"].iloc[0] == pytest.approx(rates.max() - rates.min())
        assert rows.set_index("strategy")["win_rate"].to_dict() == pytest.approx(
            rates.to_dict())
    per_value = curve.drop_duplicates("rules.palace_vp")
    best = per_value[per_value["best"]]
    assert best["objective"].item() == per_value["objective"].min()
    assert f"recommended rules.palace_vp={best['rules.palace_vp'].item()}" in result.output
    assert (out / "balance.png").stat().st_size > 1000


def test_balance_refuses_bad_input(tmp_path: Path, two_bots: Path) -> None:
    runner = CliRunner()
    base = ["--experiment", str(two_bots), "--out", str(tmp_path / "b"), "--jobs", "1"]
    result = runner.invoke(main, ["balance", "rules.palace_vp=5..5", *base])
    assert result.exit_code != 0 and "empty range" in result.output
    result = runner.invoke(main, ["balance", "foo.bar=1..2", *base])
    assert result.exit_code != 0 and "'foo.bar'" in result.output
    result = runner.invoke(main, ["balance", "rules.palace_vp=5..7", "--target",
                                  "gredy=0.5", *base])
    assert result.exit_code != 0 and "'gredy' is not in the field" in result.output
    result = runner.invoke(main, ["balance", "rules.palace_vp=5..7", "--target", "greedy",
                                  *base])
    assert result.exit_code != 0 and "STRATEGY=SHARE" in result.output
    assert not (tmp_path / "b" / "runs").exists()  # refused before any game
