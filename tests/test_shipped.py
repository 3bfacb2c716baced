"""Shipped data by name from any folder (``zsim.paths``, ``zsim variants``), the batch commands'
one vocabulary of options (``zsim.cli.batches``), and a missing extra as exit status 2."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from zsim import extras
from zsim.cli import NEEDS, main
from zsim.options import OptionError
from zsim.paths import configs_dir, said, shipped, shipped_names
from zsim.variants import parse
from zsim.whatif import base_experiment

BATCH_COMMANDS = ("run", "compare", "sweep", "effects", "balance")
SHARED = ("-n, --players", "-s, --strategy", "--variant", "--games", "--seed", "-j, --jobs",
          "-q, --quiet")


def test_shipped_files_are_named_by_name_and_paths_stay_paths(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no configs/ here: only the package's own data
    assert {"default"} <= set(shipped_names("experiments"))
    assert {"palace_vp_8", "starting_tile_choice"} <= set(shipped_names("variants"))
    assert shipped("baselines", "ci") == configs_dir("baselines") / "ci.yaml"
    assert shipped("variants", "palace_vp_8.yaml") is None  # a path is read as a path
    assert parse(["palace_vp_8"]).box == parse(["rules.palace_vp=8"]).box == (
        ("rules.palace_vp", 8),)
    assert base_experiment("default").name == "default"
    with pytest.raises(OptionError, match="did you mean palace_vp_8"):
        parse(["palace_vp8"])


def test_a_printed_path_is_said_so_that_it_runs_from_any_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert said(configs_dir("variants") / "starting_tile_choice.yaml") == "starting_tile_choice"
    assert said(configs_dir("baselines") / "ci.yaml") == "ci"
    assert said(tmp_path / "runs" / "x") == str(Path("runs") / "x")
    outside = tmp_path.parent / "elsewhere.yaml"
    assert said(outside) == str(outside.resolve())


def test_zsim_variants_lists_every_shipped_file_with_its_description():
    listed = CliRunner().invoke(main, ["variants", "--paths"])
    assert listed.exit_code == 0, listed.output
    for part in ("experiments", "variants", "baselines"):
        for name in shipped_names(part):
            assert f"  {name} " in listed.output
    assert "Palaces score 8 VP" in listed.output
    assert str(configs_dir("variants") / "palace_vp_8.yaml") in listed.output


@pytest.mark.parametrize("command", BATCH_COMMANDS)
def test_every_batch_command_takes_the_same_options(command):
    shown = CliRunner().invoke(main, [command, "--help"])
    assert shown.exit_code == 0, shown.output
    for option in SHARED:
        assert option in shown.output, (command, option)


def test_a_missing_extra_exits_2_before_any_game(monkeypatch, tmp_path):
    real = extras.importlib.util.find_spec
    monkeypatch.setattr(extras.importlib.util, "find_spec",
                        lambda name, *a: None if name == "statsmodels" else real(name, *a))
    for command in ("compare", "regress", "sweep"):
        args = {"compare": ["default", "palace_vp_8", "--out", str(tmp_path / "c")],
                "regress": ["--baseline", "ci"],
                "sweep": ["rules.palace_vp=6,8", "-n", "2", "--out", str(tmp_path / "s")]}
        done = CliRunner().invoke(main, [command, *args[command]])
        assert done.exit_code == 2, (command, done.output)
        assert "pip install 'zsim[report]'" in done.output
        assert not (tmp_path / "c").exists() and not (tmp_path / "s").exists()
    assert NEEDS["regress"] == "report"


@pytest.mark.slow
def test_a_two_player_sweep_needs_no_experiment_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    done = CliRunner().invoke(main, ["sweep", "rules.palace_vp=6,8", "-n", "2", "-s", "greedy",
                                     "-s", "random", "--games", "4", "-j", "1", "-q",
                                     "--out", "sweep"])
    assert done.exit_code == 0, done.output
    import pandas as pd

    table = pd.read_csv(tmp_path / "sweep" / "sweep.csv")
    assert set(table["n_players"]) == {2} and set(table["strategy"]) == {"greedy", "random"}
    assert set(table["games"]) == {4}


def test_the_variant_played_is_named_on_every_page():
    """The game viewer's record (the pages of `zsim view`, `play --html` and `serve`) names
    the variant: rule options that differ from the defaults, setup constraints, box values."""
    from zsim.game import Game
    from zsim.lineup import seat_game
    from zsim.viewer.record import game_meta

    seated = seat_game(["random"], 2, 3, ["palace_vp_8", "court_reset=true",
                                          "setup.force.board=board2"])
    game = Game(seated.box, seated.strategies, 3, seated.options)
    assert game_meta(game, None)["variants"] == [
        "court_reset=true", "setup.force.board=board2", "rules.palace_vp=8"]
    plain = seat_game(["random"], 2, 3)
    assert game_meta(Game(plain.box, plain.strategies, 3, plain.options), None)["variants"] == []


def test_ci_runs_the_whole_suite_as_the_readme_gives_it():
    """README gives a quick selection and the whole suite; CI (.ci/run) runs the whole one,
    with the command README gives, so the slow tests are never left out of CI."""
    root = Path(__file__).resolve().parents[1]
    readme = (root / "README.md").read_text(encoding="utf-8")
    ci = (root / ".ci" / "run").read_text(encoding="utf-8")
    assert 'pytest -m "not slow"' in readme
    whole = "python -m pytest -n auto"
    assert whole in readme and f"\n{whole}" in ci
    assert "-m" not in ci.split(f"\n{whole}")[1].splitlines()[0].split("#")[0]
