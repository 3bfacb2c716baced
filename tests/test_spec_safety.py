"""A strategy spec names a Strategy class and nothing else is ever called: wherever a spec is
read (the command line, an experiment file, ``zsim serve``'s new game and hint requests), a spec
naming any other callable (``os:system``) is refused in one line before it runs."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from serving import call, new_game, running

from zsim.cli import main
from zsim.strategies.registry import UnknownStrategy, parameters, resolve


def _command(flag: Path) -> str:
    """A spec that, were it called, would create ``flag``."""
    return f"os:system(command='touch {flag}')"


@pytest.mark.parametrize("spec", [
    "os:system(command='touch {flag}')",
    "subprocess:call(args=['touch', '{flag}'])",
    "pathlib:Path(x='{flag}')",  # a class, but not a Strategy: not constructed either
    "builtins:exec(source='open(\"{flag}\", \"w\")')",
])
def test_a_spec_naming_anything_but_a_strategy_class_runs_nothing(tmp_path, spec):
    flag = tmp_path / "ran"
    with pytest.raises(UnknownStrategy, match=r"not a Strategy class.*nothing was called"):
        resolve(spec.format(flag=flag))
    with pytest.raises(UnknownStrategy, match="not a Strategy class"):
        parameters(spec.format(flag=flag))
    assert not flag.exists()


def test_a_function_in_a_bot_file_is_not_called(tmp_path):
    flag = tmp_path / "ran"
    bots = tmp_path / "bots.py"
    bots.write_text("from pathlib import Path\n\n"
                    f"def make(**kw):\n    Path({str(flag)!r}).write_text('x')\n")
    with pytest.raises(UnknownStrategy, match="is a function, not a Strategy class"):
        resolve(f"{bots}:make")
    assert not flag.exists()


def test_zsim_run_refuses_the_spec_in_one_line_and_runs_nothing(tmp_path):
    flag = tmp_path / "ran"
    result = CliRunner().invoke(main, ["run", "--games", "2", "-n", "2", "-s", "random",
                                       "-s", _command(flag), "--out", str(tmp_path / "run"),
                                       "--quiet"])
    assert result.exit_code != 0
    assert "not a Strategy class" in result.output and "Traceback" not in result.output
    assert not flag.exists() and not (tmp_path / "run").exists()


def test_an_experiment_file_naming_a_command_runs_nothing(tmp_path):
    flag = tmp_path / "ran"
    experiment = tmp_path / "exp.yaml"
    experiment.write_text(f"games: 2\nplayers: 2\nstrategies: [random, \"{_command(flag)}\"]\n")
    result = CliRunner().invoke(main, ["run", str(experiment), "--out", str(tmp_path / "run"),
                                       "--quiet"])
    assert result.exit_code != 0
    assert "not a Strategy class" in result.output and "Traceback" not in result.output
    assert not flag.exists()


def test_serve_new_game_and_hint_requests_naming_a_command_run_nothing(tmp_path):
    flag = tmp_path / "ran"
    with running(tmp_path / "games") as (base, _):
        status, answer = call(f"{base}/api/games", {"players": 2,
                                                    "seats": ["human", _command(flag)]})
        assert status == 400 and "not a Strategy class" in answer["error"]
        game = new_game(base, players=2, seats=["human", "random"], seed=5)
        status, answer = call(f"{base}/api/games/{game}/hint", {"bot": _command(flag)})
        assert status == 422 and "not a Strategy class" in answer["error"]
    assert not flag.exists()
