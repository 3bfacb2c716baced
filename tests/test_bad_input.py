"""Bad input of every kind gets one line naming the file and what is wrong, never a traceback:
YAML that is not UTF-8, a number of 5,000 digits, a FIFO or a device given as a file, a flag
given for a number, a position with impossible counts, a broken generator state or nesting
100,000 deep."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from zsim.cli import main
from zsim.components import BoxError, default_box_dir, load_box
from zsim.game import Game
from zsim.position import PositionError
from zsim.strategies.random_bot import RandomStrategy
from zsim.strategies.registry import UnknownStrategy, resolve

HUGE = "1" + "0" * 5000


def _one_line(result, *said: str) -> None:
    assert result.exit_code != 0, result.output
    assert "Traceback" not in result.output, result.output
    for text in said:
        assert text in result.output, result.output


@pytest.mark.parametrize(("text", "said"), [
    (b"games: \xff\xfe\n", "is not UTF-8 text"),
    (f"games: {HUGE}\n".encode(), "Exceeds the limit (4300 digits)"),
])
def test_a_bad_experiment_file_is_one_line(tmp_path, text, said):
    path = tmp_path / "exp.yaml"
    path.write_bytes(text)
    _one_line(CliRunner().invoke(main, ["run", str(path), "--out", str(tmp_path / "r")]),
              str(path), said)


@pytest.mark.parametrize("make", ["fifo", "device"])
def test_an_experiment_that_is_no_file_is_one_line(tmp_path, make):
    path = tmp_path / "exp.yaml"
    if make == "fifo":
        os.mkfifo(path)
    else:
        path = Path("/dev/zero")
    result = CliRunner().invoke(main, ["run", str(path), "--out", str(tmp_path / "r")])
    _one_line(result, f"{path} is {'a FIFO' if make == 'fifo' else 'a device'}")


@pytest.mark.parametrize(("variant", "said"), [
    (f"rules.palace_vp={HUGE}", "Exceeds the limit (4300 digits)"),
    ("rules.palace_vp=true", "palace_vp: expected a number, not true"),
])
def test_a_bad_variant_value_is_one_line(tmp_path, variant, said):
    result = CliRunner().invoke(main, ["run", "--games", "2", "-n", "2", "--variant", variant,
                                       "--seats", "random", "--out", str(tmp_path / "r")])
    _one_line(result, said)


def test_a_variant_file_that_is_not_utf8_is_one_line(tmp_path):
    path = tmp_path / "v.yaml"
    path.write_bytes(b"rules.palace_vp: \xff\n")
    result = CliRunner().invoke(main, ["run", "--games", "2", "-n", "2", "--variant", str(path),
                                       "--seats", "random", "--out", str(tmp_path / "r")])
    _one_line(result, str(path), "not UTF-8")


@pytest.mark.parametrize(("how", "said"), [
    ("fifo", "board.yaml: "), ("latin1", "is not UTF-8 text"), ("huge", "4300 digits"),
    ("flag", "palace_vp: expected a number, not true")])
def test_a_bad_box_file_says_what_it_is(tmp_path, how, said):
    box = tmp_path / "box"
    shutil.copytree(default_box_dir(), box)
    board = box / "board.yaml"
    text = board.read_text(encoding="utf-8")
    if how == "fifo":
        board.unlink()
        os.mkfifo(board)
        said = "board.yaml: " + str(board) + " is a FIFO (named pipe), not a YAML file"
    elif how == "latin1":
        board.write_bytes(text.encode() + b"\n# caf\xe9\n")
    elif how == "huge":
        board.write_text(text.replace("palace_vp: 6", f"palace_vp: {HUGE}"), encoding="utf-8")
    else:
        board.write_text(text.replace("palace_vp: 6", "palace_vp: true"), encoding="utf-8")
    with pytest.raises(BoxError) as error:
        load_box(box)
    assert said in str(error.value)
    assert "missing" not in str(error.value)


def test_a_bot_file_that_is_not_utf8_is_one_line(tmp_path):
    path = tmp_path / "bot.yaml"
    path.write_bytes(b"description: caf\xe9\n")
    with pytest.raises(UnknownStrategy, match="not UTF-8"):
        resolve(str(path))
    params = tmp_path / "params.yaml"
    params.write_bytes(b"walls: \xff\n")
    with pytest.raises(UnknownStrategy, match="not UTF-8"):
        resolve(f"greedy@{params}")


@pytest.fixture(scope="module")
def position() -> tuple[dict, object]:
    box = load_box(default_box_dir())
    return json.loads(Game(box, [RandomStrategy(), RandomStrategy()], 3).to_text()), box


def _with_player(data: dict, **fields: object) -> str:
    players = [dict(data["players"][0], **fields), data["players"][1]]
    return json.dumps(dict(data, players=players))


@pytest.mark.parametrize(("change", "said"), [
    (lambda d: _with_player(d, workers=[-3, 0, 0, 0, 0]), r"players\[0\]\.workers\[0\]: -3"),
    (lambda d: _with_player(d, tokens=[0, -1, 0]), r"players\[0\]\.tokens\[1\]: -1"),
    (lambda d: _with_player(d, vp={"vp_cards": 10 ** 40}), r"players\[0\]\.vp\['vp_cards'\]"),
    (lambda d: _with_player(d, ship=True), r"players\[0\]\.ship: True"),
    (lambda d: json.dumps(dict(d, rng=[3, [1, 2, 3], None])), "rng: expected"),
    (lambda d: json.dumps(dict(d, rng=[3, [2 ** 40] * 625, None])), "rng: expected"),
    (lambda d: "[" * 100_000 + "]" * 100_000, "nested too deeply"),
    (lambda d: '{"n_players": ' + HUGE + "}", "4300 digits"),
])
def test_a_position_that_cannot_be_is_refused_naming_the_key(position, change, said):
    data, box = position
    with pytest.raises(PositionError, match=said):
        Game.from_text(change(data), box)


def test_play_from_a_position_with_negative_workers_is_one_line(position, tmp_path):
    data, _ = position
    path = tmp_path / "p.json"
    path.write_text(_with_player(data, workers=[-3, 0, 0, 0, 0]))
    result = CliRunner().invoke(main, ["play", "-n", "2", "-s", "random", "--from", str(path)])
    _one_line(result, "players[0].workers[0]: -3")


def test_a_runs_table_or_an_experiment_given_as_a_baseline_is_one_line(tmp_path):
    out = tmp_path / "run"
    done = CliRunner().invoke(main, ["run", "--games", "2", "-n", "2", "-s", "random",
                                     "--seats", "random", "--quiet", "--out", str(out)])
    assert done.exit_code == 0, done.output
    table = CliRunner().invoke(main, ["regress", "--baseline", str(out / "players.parquet")])
    _one_line(table, "players.parquet is a table of a run, not a baseline")
    assert len(table.output.strip().splitlines()) == 1
    experiment = tmp_path / "exp.yaml"
    experiment.write_text("games: 10\nstrategies: [random]\n")
    said = CliRunner().invoke(main, ["regress", "--baseline", str(experiment)])
    _one_line(said, "exp.yaml is an experiment (it has no 'format' key)")
    assert len(said.output.strip().splitlines()) == 1
