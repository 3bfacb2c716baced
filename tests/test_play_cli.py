"""``zsim play`` through click's test runner."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from zsim.cli import main
from zsim.rules.scoring import CATEGORIES


@pytest.mark.parametrize("n", [2, 3, 4])
def test_play_json_has_every_category_summing_to_the_total(n):
    out = CliRunner().invoke(main, ["play", "-n", str(n), "--seed", "5", "-s", "basic",
                                    "-s", "random", "--json"])
    assert out.exit_code == 0, out.output
    result = json.loads(out.output)
    assert [p["strategy"] for p in result["players"]] == ["basic"] + ["random"] * (n - 1)
    for player in result["players"]:
        assert sum(player[c] for c in CATEGORIES) == player["vp_total"]


def test_play_narrates_turns_and_prints_the_score_sheet():
    out = CliRunner().invoke(main, ["play", "-n", "2", "--seed", "3"])
    assert out.exit_code == 0, out.output
    assert "=== Round 1 ===" in out.output and "=== Round 5 ===" in out.output
    assert "at Court" in out.output or "tucks" in out.output
    assert "vp_total" in out.output and "Winner" in out.output


def test_play_json_is_reproducible():
    args = ["play", "-n", "3", "--seed", "11", "--json"]
    assert CliRunner().invoke(main, args).output == CliRunner().invoke(main, args).output


@pytest.mark.parametrize("args, message", [
    (["--variant", "colour=red"], "no component file has a top-level key 'colour'"),
    (["--variant", "court_reset=maybe"], "expected true or false"),
    (["--variant", "board=board9"], "board='board9'"),
    (["--variant", "mausoleum"], "not KEY=VALUE"),
    (["--variant", "rules.palace_vp=lots"], "rules.palace_vp: Input should be a valid integer"),
    (["-s", "nobody"], "unknown strategy 'nobody'"),
    (["-n", "2", "-s", "random", "-s", "random", "-s", "random"], "3 strategies for 2"),
])
def test_play_refuses_bad_input_with_a_clear_message(args, message):
    out = CliRunner().invoke(main, ["play", *args])
    assert out.exit_code != 0
    assert message in out.output


@pytest.mark.parametrize("level", [1, 4])
def test_play_solo_against_lisi(level):
    out = CliRunner().invoke(main, ["play", "--solo", "--lisi", str(level), "-s", "greedy",
                                    "--seed", "2", "--json"])
    assert out.exit_code == 0, out.output
    players = json.loads(out.output)["players"]
    assert [p["strategy"] for p in players] == ["greedy", f"lisi-{level}"]
    for player in players:
        assert sum(player[c] for c in CATEGORIES) == player["vp_total"]


BOOM = "tests.test_runner:Boom"  # raises RuntimeError("boom") at its first question


def test_play_names_the_strategy_that_failed_in_one_line():
    out = CliRunner().invoke(main, ["play", "-n", "2", "-s", BOOM, "-s", "random"])
    assert out.exit_code == 1
    assert out.output.strip().splitlines() == [
        f"Error: strategy '{BOOM}' (seat 0) failed at a 'start_tile' decision: "
        "RuntimeError: boom"]


def test_replay_of_a_game_a_strategy_failed_names_it_in_one_line(tmp_path):
    run = tmp_path / "run"
    played = CliRunner().invoke(main, ["run", "--games", "1", "-n", "2", "-s", BOOM, "-s",
                                       "random", "--jobs", "1", "--max-failures", "1",
                                       "--out", str(run), "--quiet"])
    assert played.exit_code == 0, played.output
    failure = json.loads((run / "failures.jsonl").read_text().splitlines()[0])
    out = CliRunner().invoke(main, ["replay", str(run), "--game", "0"])
    assert out.exit_code == 1
    assert out.output.strip().splitlines()[-1] == (
        f"Error: strategy '{BOOM}' (seat {failure['seat']}) failed at a "
        f"'{failure['decision']}' decision: {failure['error']}")



@pytest.mark.parametrize("args", [["-s", "lisi-1", "-s", "lisi-2"],
                                  ["-n", "3", "-s", "lisi-1", "-s", "random"]])
def test_li_si_out_of_a_two_seat_game_is_refused_in_one_line(args):
    out = CliRunner().invoke(main, ["play", *args])
    assert out.exit_code == 2
    assert "Error: Invalid value for --strategy: lisi-1: Li Si plays only in a 2-seat game " \
           "against one player" in out.output
    assert "Traceback" not in out.output
