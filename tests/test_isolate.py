"""``--isolate``: a strategy in a process of its own, seeing its seat's table only.

An isolated bot must play exactly as it does in the game's process when it is honest (its RNG
goes there and back), and whatever it does in its process (writing into the tables, the
options, eating memory, sleeping through its limit) must either change nothing or fail only
its own games, naming it, while the run goes on.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.test_runner import assert_same_tables, tables
from zsim.cli import main
from zsim.runner import Experiment, ExperimentError
from zsim.runner.batch import start_run
from zsim.runner.experiment import parse_experiment

BOTS = '''
import gc, os, signal, time
from zsim.game import Game
from zsim.strategies.base import Strategy
from zsim.strategies.random_bot import RandomStrategy


class RulesWriter(RandomStrategy):
    """Sets the Governor majority VP to 1000 in the tables it is shown (forcing its way past
    their read-only mapping), then plays at random."""

    def choose(self, view, decision):
        dict.__setitem__(view.tables.rules.governor_majority_vp, view.n_players, 1000)
        return super().choose(view, decision)


class FreeUnlock(Strategy):
    """Answers an unlock with a free one it appended to the options."""

    def choose_unlock(self, view, decision):
        decision.options.append(())
        return ()


class Hoarder(RandomStrategy):
    def choose(self, view, decision):
        view.memo.setdefault("hoard", []).append(bytearray(64 * 1024 * 1024))
        return super().choose(view, decision)


class Sleeper(RandomStrategy):
    def choose(self, view, decision):
        if not view.memo:
            view.memo["slept"] = True
            while True:
                try:
                    time.sleep(1)
                except BaseException:
                    pass
        return super().choose(view, decision)


class KillsParent(RandomStrategy):
    """Kills the process that started it: isolated, the worker playing its game."""

    def choose(self, view, decision):
        os.kill(os.getppid(), signal.SIGKILL)
        return super().choose(view, decision)


class Digger(RandomStrategy):
    """Looks through its process for games: it must find none with the real seed."""

    def choose(self, view, decision):
        seeds = {g.seed for g in gc.get_objects() if isinstance(g, Game)}
        if seeds - {0}:
            raise RuntimeError(f"found the real game: seeds {sorted(seeds)}")
        return super().choose(view, decision)
'''


@pytest.fixture
def bots(tmp_path: Path) -> Path:
    path = tmp_path / "bots.py"
    path.write_text(BOTS)
    return path


def _run(out: Path, lineup: list[str], isolate: list[str], **more) -> None:
    experiment = Experiment(games=more.pop("games", 6), players=[2], strategies=lineup, seed=3,
                            seats="rotate", jobs=1, chunk_size=3, isolate=isolate,
                            max_failures=more.pop("max_failures", 0), **more)
    start_run(experiment, out)


def _failures(out: Path) -> list[dict]:
    path = out / "failures.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_an_honest_bot_plays_the_same_games_isolated(tmp_path, bot):
    _run(tmp_path / "in", [bot, "random"], [])
    _run(tmp_path / "out", [bot, "random"], [bot])
    assert_same_tables(tmp_path / "in", tmp_path / "out")


def test_what_an_isolated_bot_writes_changes_nothing_of_the_game(tmp_path, bots):
    writer = f"{bots}:RulesWriter"
    _run(tmp_path / "random", ["random", "random"], [])
    _run(tmp_path / "writer", [writer, "random"], [writer])
    plain, written = tables(tmp_path / "random"), tables(tmp_path / "writer")
    assert plain["players"]["vp_total"].tolist() == written["players"]["vp_total"].tolist()
    assert not _failures(tmp_path / "writer")


def test_an_isolated_bot_answering_an_option_it_added_fails_its_games(tmp_path, bots):
    cheat = f"{bots}:FreeUnlock"
    _run(tmp_path / "run", [cheat, "random"], [cheat], max_failures=6)
    failures = _failures(tmp_path / "run")
    assert failures and all(f["strategy"] == cheat and f["decision"] == "unlock"
                            for f in failures)
    assert all(f["error"].startswith("IsolatedStrategyError") and "answered ()" in f["error"]
               and "not among the" in f["error"] for f in failures)


def test_an_isolated_bot_finds_no_real_game_in_its_process(tmp_path, bots):
    digger = f"{bots}:Digger"
    _run(tmp_path / "run", [digger, "random"], [digger], games=2)
    assert not _failures(tmp_path / "run")


def test_an_isolated_bot_over_its_memory_fails_its_games_and_the_run_goes_on(tmp_path, bots):
    hoarder = f"{bots}:Hoarder"
    _run(tmp_path / "run", [hoarder, "random"], [hoarder], isolate_memory=256, max_failures=6)
    failures = _failures(tmp_path / "run")
    assert len(failures) == 6
    assert {f["strategy"] for f in failures} == {hoarder}
    assert all("MemoryError" in f["error"] and "256 MiB" in f["error"] for f in failures)


def test_an_isolated_bot_that_will_not_answer_is_killed_at_the_decision_limit(tmp_path, bots):
    sleeper = f"{bots}:Sleeper"
    _run(tmp_path / "run", [sleeper, "random"], [sleeper], games=3, max_failures=3,
         decision_time_limit=0.5)
    failures = _failures(tmp_path / "run")
    assert len(failures) == 3 and {f["strategy"] for f in failures} == {sleeper}
    assert all(f["decision"] == "start_tile" for f in failures)


def test_an_isolated_bot_that_kills_its_worker_fails_its_games_and_the_run_goes_on(tmp_path,
                                                                                   bots):
    killer = f"{bots}:KillsParent"
    _run(tmp_path / "run", [killer, "random"], [killer], games=3, max_failures=3)
    failures = _failures(tmp_path / "run")
    assert len(failures) == 3 and {f["strategy"] for f in failures} == {killer}
    assert all(f["decision"] == "start_tile" and f["error"].startswith("ProcessDied")
               and "killed by SIGKILL" in f["error"] for f in failures)


@pytest.mark.parametrize("isolate, said", [
    ("builder", "isolate names 'builder', which is not in the lineup"),
    ("lisi-1", "lisi-1 cannot be isolated: it is Li Si's seat"),
    ("mcts", "mcts cannot be isolated: it searches forks of the game"),
])
def test_isolating_what_cannot_be_is_one_line(tmp_path, isolate, said):
    lineup = ["greedy", "lisi-1"] if isolate == "lisi-1" else ["greedy", "mcts"]
    result = CliRunner().invoke(main, [
        "run", "--games", "2", "-n", "2", *(a for s in lineup for a in ("-s", s)),
        "--isolate", isolate, "--out", str(tmp_path / "run"), "--quiet"])
    assert result.exit_code == 1, result.output
    assert said in result.output and "Traceback" not in result.output
    if isolate != "builder":  # the runner's own check names the option, not the default file
        assert "command line (--isolate)" in result.output and "default.yaml" not in result.output


def test_an_experiment_naming_an_isolated_bot_outside_its_lineup_is_refused():
    with pytest.raises(ExperimentError, match=r"^exp.yaml: .*isolate names 'x', which is not in "
                                              r"the lineup \(random\)"):
        parse_experiment({"strategies": ["random"], "isolate": ["x"]}, "exp.yaml")


def test_isolation_works_from_a_script_without_a_main_guard(tmp_path):
    """The isolated process is a fresh interpreter that never runs the caller's script again
    (as multiprocessing's spawn would, failing in a script with no ``__main__`` guard)."""
    script = tmp_path / "script.py"
    script.write_text(
        "from pathlib import Path\n"
        "from zsim.runner import Experiment\n"
        "from zsim.runner.batch import start_run\n"
        "report = start_run(Experiment(games=2, players=[2], strategies=['greedy', 'random'], "
        f"isolate=['greedy'], jobs=1), Path({str(tmp_path / 'run')!r}))\n"
        "print('played', report.played)\n")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "played 2" in done.stdout
    assert not _failures(tmp_path / "run")
