"""``--isolate``: a strategy in a process of its own, seeing its seat's table only.

An isolated bot must play exactly as it does in the game's process when it is honest (its RNG
goes there and back), and whatever it does in its process (writing into the tables, the
options, eating memory, sleeping through its limit) must either change nothing or fail only
its own games, naming it, while the run goes on.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.test_runner import assert_same_tables, tables
from zsim.cli import main
from zsim.runner import Experiment, ExperimentError, sandbox
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
    """In namespaces it cannot even see its worker (its parent is outside: ``getppid`` is 0,
    and signal 0 kills its own group), so it kills itself; elsewhere it kills its worker, which
    the run replaces. Either way its games fail naming it, and the run goes on."""
    killer = f"{bots}:KillsParent"
    _run(tmp_path / "run", [killer, "random"], [killer], games=3, max_failures=3)
    failures = _failures(tmp_path / "run")
    assert len(failures) == 3 and {f["strategy"] for f in failures} == {killer}
    if sandbox.sandboxed():
        assert all(f["error"].startswith("IsolatedStrategyError: the process of isolated "
                                         f"strategy '{killer}' died") for f in failures)
    else:
        assert all(f["decision"] == "start_tile" and f["error"].startswith("ProcessDied")
                   and "killed by SIGKILL" in f["error"] for f in failures)


ESCAPES = '''
import os, socket, time
from pathlib import Path
from zsim.strategies.random_bot import RandomStrategy


class Escaper(RandomStrategy):
    """Tries, at its first decision of each game, every way out of its sandbox: a process left
    behind in a session of its own, the run directory, the network, the run's processes, a
    large file, a file outside its scratch directory; raises to say what got through, else
    plays at random."""

    def choose(self, view, decision):
        if not view.memo:
            view.memo["tried"] = True
            run = Path(os.environ["ZSIM_TEST_RUN"])
            through = []
            try:
                if os.fork() == 0:
                    os.setsid()
                    time.sleep(60)
                    os._exit(0)
            except OSError:
                pass
            for name in ("planted", "chunks/planted"):
                try:
                    (run / name).write_text("x")
                    through.append(f"planted {name}")
                except OSError:
                    pass
            try:
                if os.listdir(run):
                    through.append("saw the run directory")
            except OSError:
                pass
            try:
                socket.create_connection(("127.0.0.1", int(os.environ["ZSIM_TEST_PORT"])), 2)
                through.append("connected")
            except OSError:
                pass
            try:
                os.kill(int(os.environ["ZSIM_TEST_RUN_PID"]), 0)
                through.append("sees the run's process")
            except OSError:
                pass
            try:
                with open("big", "wb") as big:
                    big.write(bytes(100 * 1024 * 1024))
                through.append("wrote 100 MiB")
            except OSError:
                pass
            try:
                Path(os.environ["ZSIM_TEST_OUTSIDE"]).write_text("x")
                through.append("wrote outside its scratch directory")
            except OSError:
                pass
            if through:
                raise RuntimeError(", ".join(through))
        return super().choose(view, decision)
'''


BREEDER = '''
import os, time
from zsim.strategies.random_bot import RandomStrategy


class Breeder(RandomStrategy):
    """Starts a process in a session of its own, and another that leaves it an orphan, at its
    first decision of each game, after checking that none is left from the last game (it is
    process 1 of its namespace: every process of it is its child, or an orphan it adopted)."""

    def choose(self, view, decision):
        if not view.memo:
            view.memo["bred"] = True
            try:
                os.waitpid(-1, os.WNOHANG)
                raise RuntimeError("a process is left from the last game")
            except ChildProcessError:
                pass
            if os.fork() == 0:
                os.setsid()
                if os.fork() == 0:  # its parent exits: an orphan, in a session of its own
                    time.sleep(60)
                os._exit(0)
            time.sleep(0.2)
        return super().choose(view, decision)
'''


def _isolated_processes() -> list[int]:
    import psutil

    found = []
    for process in psutil.process_iter(["cmdline"]):
        if any("zsim.runner.isolate import serve" in part
               for part in process.info["cmdline"] or ()):
            found.append(process.pid)
    return found


@pytest.mark.skipif(not sandbox.sandboxed(), reason="no user namespaces on this system")
def test_an_isolated_bot_cannot_leave_processes_nor_reach_the_run_network_or_files(
        tmp_path, monkeypatch):
    import socket

    bots = tmp_path / "escapes.py"
    bots.write_text(ESCAPES)
    out, outside = tmp_path / "run", tmp_path / "outside"
    listener = socket.create_server(("127.0.0.1", 0))
    monkeypatch.setenv("ZSIM_TEST_RUN", str(out))
    monkeypatch.setenv("ZSIM_TEST_OUTSIDE", str(outside))
    monkeypatch.setenv("ZSIM_TEST_PORT", str(listener.getsockname()[1]))
    monkeypatch.setenv("ZSIM_TEST_RUN_PID", str(os.getpid()))
    before = set(_isolated_processes())
    escaper = f"{bots}:Escaper"
    _run(out, [escaper, "random"], [escaper], games=3)
    listener.close()
    assert not _failures(out)
    assert not (out / "planted").exists() and not (out / "chunks" / "planted").exists()
    assert not outside.exists()
    time.sleep(1)
    assert set(_isolated_processes()) <= before  # none left behind, in a session or not


@pytest.mark.skipif(not sandbox.sandboxed(), reason="no user namespaces on this system")
def test_what_an_isolated_bot_starts_in_a_game_ends_with_the_game(tmp_path, monkeypatch):
    """What the bot starts in a game (a child in a session of its own, an orphan) is killed
    with the game: at its first decision of the next game it finds none left."""
    bots = tmp_path / "breeder.py"
    bots.write_text(BREEDER)
    breeder = f"{bots}:Breeder"
    _run(tmp_path / "run", [breeder, "random"], [breeder], games=3)
    assert not _failures(tmp_path / "run")
    assert not list(Path(tempfile.gettempdir()).glob("zsim-run-*/zsim-isolated-*"))


def test_an_isolated_bot_plays_in_its_own_session_without_the_workers_descriptors(tmp_path,
                                                                                  monkeypatch):
    """Seen from inside: its process group and session are its own, its working directory is
    a fresh scratch one, and it holds no descriptor beyond its socket and /dev/null."""
    bots = tmp_path / "probe.py"
    bots.write_text(PROBE)
    seen = tmp_path / "seen.json"
    monkeypatch.setenv("ZSIM_TEST_SEEN", str(seen))
    probe = f"{bots}:Probe"
    _run(tmp_path / "run", [probe, "random"], [probe], games=1, max_failures=1)
    failures = _failures(tmp_path / "run")
    assert len(failures) == 1 and "RuntimeError: " in failures[0]["error"]
    found = json.loads(failures[0]["error"].split("RuntimeError: ", 1)[1])
    assert (found["session"] == found["pid"] and found["group"] == found["pid"]) or \
        found["pid"] == 1
    assert found["cwd"].startswith(tempfile.gettempdir()) and "zsim-isolated-" in found["cwd"]
    assert found["cwd"] != os.getcwd()
    assert len(found["descriptors"]) <= 5  # 0, 1, 2 on /dev/null, the socket, the listing
    assert found["nofile"] == sandbox.OPEN_FILES and found["fsize"] == sandbox.FILE_MIB << 20


PROBE = '''
import json, os, resource
from zsim.strategies.random_bot import RandomStrategy


class Probe(RandomStrategy):
    def choose(self, view, decision):
        raise RuntimeError(json.dumps({
            "pid": os.getpid(), "session": os.getsid(0), "group": os.getpgid(0),
            "cwd": os.getcwd(), "descriptors": sorted(map(int, os.listdir("/proc/self/fd"))),
            "nofile": resource.getrlimit(resource.RLIMIT_NOFILE)[0],
            "fsize": resource.getrlimit(resource.RLIMIT_FSIZE)[0]}))
'''


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


def test_without_namespaces_an_isolated_bot_still_plays_the_same_games(tmp_path, monkeypatch):
    """Where no namespace can be made, the isolated process has its session, scratch directory
    and limits only, and an honest bot plays as in the game's process."""
    monkeypatch.setattr(sandbox, "_prefix", [])
    _run(tmp_path / "in", ["greedy", "random"], [], games=2)
    _run(tmp_path / "out", ["greedy", "random"], ["greedy"], games=2)
    assert_same_tables(tmp_path / "in", tmp_path / "out")


def test_isolate_all_isolates_every_strategy_of_a_run_and_of_a_tournament(tmp_path):
    experiment = parse_experiment({"strategies": ["random", "greedy"], "isolate": ["all"]}, "x")
    assert experiment.isolated() == ["random", "greedy"]
    result = CliRunner().invoke(main, ["tournament", "-s", "random", "-s", "greedy", "-n", "2",
                                       "--games", "2", "--isolate", "all", "--jobs", "1",
                                       "--quiet", "--out", str(tmp_path / "t")])
    assert result.exit_code == 0, result.output
    manifest = json.loads((tmp_path / "t" / "run.json").read_text())
    assert manifest["experiment"]["isolate"] == ["all"]
    refused = CliRunner().invoke(main, ["run", "--games", "2", "-n", "2", "-s", "greedy", "-s",
                                        "mcts", "--isolate", "all", "--quiet",
                                        "--out", str(tmp_path / "r")])
    assert refused.exit_code == 1 and "mcts cannot be isolated" in refused.output


def test_isolate_all_plays_the_same_games(tmp_path):
    _run(tmp_path / "in", ["greedy", "random"], [], games=2)
    _run(tmp_path / "out", ["greedy", "random"], ["all"], games=2)
    assert_same_tables(tmp_path / "in", tmp_path / "out")
