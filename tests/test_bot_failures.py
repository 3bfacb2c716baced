"""Whatever a strategy raises or does to its worker fails its own games, naming it, and never
stops the run nor misdirects it: ``KeyboardInterrupt``, ``GeneratorExit``, an exception whose
message cannot be read, one that would run code when unpickled, ``os.chdir``, closing the
worker's file descriptors."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from zsim.cli import main
from zsim.decisions import Decision, IllegalChoice
from zsim.runner import Experiment, processes
from zsim.runner.batch import RunFailed, start_run
from zsim.runner.worker import described
from zsim.strategies.random_bot import RandomStrategy
from zsim.view import PlayerView

BOTS = '''
import os
from zsim.strategies.random_bot import RandomStrategy


class Unreadable_(Exception):
    def __str__(self):
        return str(self)  # recurses


class Bot(RandomStrategy):
    """Plays as random does, and at its turn in round 2 does one bad thing."""

    def choose(self, view, decision):
        if decision.kind == "turn" and view.round == 2:
            self.bad(view)
        return super().choose(view, decision)


class Interrupts(Bot):
    def bad(self, view):
        raise KeyboardInterrupt


class ExitsGenerator(Bot):
    def bad(self, view):
        raise GeneratorExit


class Unreadable(Bot):
    def bad(self, view):
        raise Unreadable_()


class Moves(Bot):
    def bad(self, view):
        os.chdir(os.environ["ZSIM_TEST_ELSEWHERE"])


class Closes(Bot):
    def bad(self, view):
        os.closerange(3, 4096)
'''


@pytest.fixture
def bots(tmp_path: Path) -> Path:
    path = tmp_path / "bad_bots.py"
    path.write_text(BOTS)
    return path


def _run(tmp_path: Path, bot: str, *extra: str, out: str | None = None) -> tuple[Any, Path]:
    out_path = out or str(tmp_path / "run")
    result = CliRunner().invoke(main, ["run", "--games", "6", "-n", "2", "-s", bot, "-s",
                                       "random", "--jobs", "1", "--quiet", "--max-failures",
                                       "6", "--out", out_path, *extra])
    return result, Path(out_path)


def _failures(out: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (out / "failures.jsonl").read_text().splitlines()]


@pytest.mark.parametrize(("bot", "error"), [("Interrupts", "KeyboardInterrupt"),
                                            ("ExitsGenerator", "GeneratorExit"),
                                            ("Unreadable", "Unreadable_")])
def test_whatever_a_decision_raises_fails_its_game_naming_the_strategy(tmp_path, bots, bot,
                                                                      error):
    result, out = _run(tmp_path, f"{bots}:{bot}")
    assert result.exit_code == 0, result.output
    failures = _failures(out)
    assert len(failures) == 6
    assert {(f["strategy"], f["error"].split(":")[0], f["decision"]) for f in failures} == {
        (f"{bots}:{bot}", error, "turn")}
    assert json.loads((out / "run.json").read_text())["status"] == "complete"


def test_a_bot_that_changes_directory_does_not_move_the_run(tmp_path, bots, monkeypatch):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.setenv("ZSIM_TEST_ELSEWHERE", str(elsewhere))
    monkeypatch.chdir(tmp_path)
    result, _ = _run(tmp_path, f"{bots}:Moves", out="run")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "run" / "players.parquet").is_file()
    assert list(elsewhere.iterdir()) == []


def test_a_bot_that_closes_its_workers_descriptors_is_named(tmp_path, bots):
    result, out = _run(tmp_path, f"{bots}:Closes")
    assert result.exit_code == 0, result.output
    failures = _failures(out)
    assert len(failures) == 6
    for failure in failures:
        assert failure["strategy"] == f"{bots}:Closes" and failure["decision"] == "turn"
        assert "closed the worker's connection to the run" in failure["error"]


class Flag(Exception):
    """An exception that runs code where it is unpickled."""

    path = ""

    def __reduce__(self) -> Any:
        return (Path.touch, (Path(self.path),))


def test_an_error_of_a_worker_reaches_the_run_as_text_never_unpickled(tmp_path, monkeypatch):
    flag = tmp_path / "ran"
    Flag.path = str(flag)
    from zsim.runner import worker

    def fails(*args: Any) -> Any:
        raise Flag("from the worker")

    monkeypatch.setattr(worker, "played", fails)  # the workers are forks: they inherit it
    with pytest.raises(RunFailed, match=r"^Flag: from the worker; once that is fixed"):
        start_run(Experiment(games=4, players=[2], strategies=["random"], jobs=1),
                  tmp_path / "run")
    assert not flag.exists()


def test_a_full_disk_error_still_crosses_as_an_os_error():
    error = processes._error(json.loads(json.dumps(processes._error_text(
        OSError(28, "No space left on device", "/runs/x/chunk")))))
    assert isinstance(error, OSError) and error.errno == 28 and error.filename == "/runs/x/chunk"


class Recursive:
    def __repr__(self) -> str:
        return repr(self)


def test_an_answer_whose_repr_recurses_is_still_refused_naming_the_strategy():
    error = IllegalChoice("mine", Decision("turn", 1, [1, 2], {}), Recursive(), 5)
    assert "strategy 'mine' answered <a Recursive whose repr fails>" in str(error)
    assert "seat 1" in str(error)


def test_an_unreadable_message_is_described():
    class Bad(Exception):
        def __str__(self) -> str:
            raise ValueError

    assert described(Bad()) == "(a Bad whose message cannot be read)"
    assert len(described(RuntimeError("x" * 10_000))) < 2100


class Liar(RandomStrategy):
    def choose(self, view: PlayerView, decision: Decision) -> Any:
        return Recursive()


def test_in_a_run_an_answer_whose_repr_recurses_names_the_strategy(tmp_path):
    out = tmp_path / "run"
    start_run(Experiment(games=2, players=[2], strategies=["random", "liar"], jobs=1,
                         seats="fixed"), out, strategies={"liar": Liar()})
    failures = _failures(out)
    assert {(f["strategy"], f["seat"]) for f in failures} == {("liar", 1)}


@pytest.mark.parametrize("games", ["1000000000000000", str(10 ** 12)])
def test_more_games_than_a_run_can_plan_is_one_line_and_no_memory(tmp_path, games):
    result = CliRunner().invoke(main, ["run", "--games", games, "-n", "2", "-s", "random",
                                       "--quiet", "--out", str(tmp_path / "run")])
    assert result.exit_code == 1, result.output
    assert "key 'games'" in result.output and "more than a run plans" in result.output
    assert "Traceback" not in result.output and not (tmp_path / "run").exists()


def test_a_chunk_size_beyond_its_bound_is_refused():
    from zsim.runner import ExperimentError
    from zsim.runner.experiment import parse_experiment

    with pytest.raises(ExperimentError, match="chunk_size"):
        parse_experiment({"chunk_size": 10 ** 9}, "exp.yaml")


WHERE = '''
import os
from pathlib import Path
from zsim.strategies.random_bot import RandomStrategy


class Where(RandomStrategy):
    """Notes the process it plays in."""

    def choose(self, view, decision):
        Path(os.environ["ZSIM_TEST_WHERE"]).joinpath(str(os.getpid())).touch()
        return super().choose(view, decision)
'''


@pytest.mark.parametrize("jobs", [1, 2])
def test_dask_ships_a_bot_from_a_file_and_never_plays_in_the_runs_process(tmp_path, jobs,
                                                                         monkeypatch):
    pytest.importorskip("distributed")
    bot = tmp_path / "where.py"
    bot.write_text(WHERE)
    seen = tmp_path / "pids"
    seen.mkdir()
    monkeypatch.setenv("ZSIM_TEST_WHERE", str(seen))
    result = CliRunner().invoke(main, ["run", "--games", "4", "-n", "2", "-s", f"{bot}:Where",
                                       "-s", "random", "--backend", "dask", "-j", str(jobs),
                                       "--quiet", "--out", str(tmp_path / "run")])
    assert result.exit_code == 0, result.output
    assert "4 games, no failures" in result.output
    pids = {int(path.name) for path in seen.iterdir()}
    assert pids and os.getpid() not in pids
