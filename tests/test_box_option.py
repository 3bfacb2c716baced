"""``--box DIR`` on the commands that play batches: a designer's own box, exported and edited,
is the one every batch of the command plays, and the run records it."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from zsim.cli import main
from zsim.components import default_box_dir

EXPERIMENT = "games: 4\nplayers: [2]\nstrategies: [greedy, random]\nseed: 5\n"


@pytest.fixture(scope="module")
def box(tmp_path_factory) -> Path:
    """The built-in box exported, with Palaces worth 9 VP instead of 6."""
    target = tmp_path_factory.mktemp("designer") / "box"
    assert CliRunner().invoke(main, ["components", "export", str(target)]).exit_code == 0
    board = target / "board.yaml"
    board.write_text(board.read_text().replace("palace_vp: 6", "palace_vp: 9"))
    return target


def played_with(run: Path, palace_vp: int, box: Path | None) -> None:
    recorded = json.loads((run / "run.json").read_text())["experiment"]["box"]
    if box is None:  # the built-in box, or no box named (the same thing)
        assert recorded is None or Path(recorded).resolve() == default_box_dir().resolve()
    else:
        assert recorded == str(box)
    players = pd.read_parquet(run / "players.parquet")
    assert players.n_palaces.sum() > 0
    assert (players.vp_palaces == palace_vp * players.n_palaces).all()


def test_compare_plays_both_sides_with_the_given_box(box, tmp_path):
    experiment = tmp_path / "small.yaml"
    experiment.write_text(EXPERIMENT)
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["compare", str(experiment), "rules.palace_vp=6", "--box",
                                       str(box), "--jobs", "1", "--quiet", "--out", str(out)])
    assert result.exit_code == 0, result.output
    played_with(out / "base", 9, box)  # the box's value
    played_with(out / "variant", 6, box)  # the variant applied to that box


def test_sweep_without_box_plays_the_built_in_one_and_with_it_the_given_one(box, tmp_path):
    experiment = tmp_path / "small.yaml"
    experiment.write_text(EXPERIMENT)
    for given, palace_vp in ((None, 6), (box, 9)):
        out = tmp_path / f"out-{palace_vp}"
        result = CliRunner().invoke(main, [
            "sweep", "court_reset=true,false", "--experiment", str(experiment), "--jobs", "1",
            "--quiet", "--out", str(out), *(["--box", str(given)] if given else [])])
        assert result.exit_code == 0, result.output
        for run in sorted(p for p in out.iterdir() if (p / "run.json").exists()):
            played_with(run, palace_vp, given)


@pytest.mark.parametrize("command", [["compare", "default", "rules.palace_vp=6"],
                                     ["sweep", "rules.palace_vp=4,8"], ["effects", "tiles"],
                                     ["balance", "rules.palace_vp=4..8"]])
def test_a_box_that_does_not_exist_is_refused_naming_it(command, tmp_path):
    missing = tmp_path / "nobox"
    result = CliRunner().invoke(main, [*command, "--box", str(missing), "--out",
                                       str(tmp_path / "out")])
    assert result.exit_code == 2
    assert "--box" in result.output and "nobox" in result.output and "does not exist" in \
        result.output


def test_a_broken_box_is_one_line_naming_its_file(box, tmp_path):
    broken = tmp_path / "broken"
    broken.mkdir()
    for path in box.glob("*.yaml"):
        (broken / path.name).write_text(path.read_text())
    (broken / "board.yaml").write_text("rules: [unclosed\n")
    experiment = tmp_path / "small.yaml"
    experiment.write_text(EXPERIMENT)
    result = CliRunner().invoke(main, ["compare", str(experiment), "rules.palace_vp=6", "--box",
                                       str(broken), "--jobs", "1", "--quiet", "--out",
                                       str(tmp_path / "out")])
    assert result.exit_code == 1
    assert "board.yaml" in result.output and "Traceback" not in result.output


def test_run_plays_the_given_box_and_resume_refuses_another(box, tmp_path):
    out = tmp_path / "run"
    result = CliRunner().invoke(main, ["run", "--games", "4", "-n", "2", "-s", "greedy", "-s",
                                       "random", "--jobs", "1", "--quiet", "--box", str(box),
                                       "--out", str(out)])
    assert result.exit_code == 0, result.output
    played_with(out, 9, box)
    again = CliRunner().invoke(main, ["run", "--resume", str(out), "--box", str(box)])
    assert again.exit_code == 2 and "--box cannot change it" in again.output
