"""``setup.force.KIND`` / ``setup.exclude.KIND``: setup deals what it is told, or refuses."""

from __future__ import annotations

import pytest

from zsim.components import default_box_dir, load_box
from zsim.game import Game
from zsim.options import GameOptions, OptionError
from zsim.strategies.base import Strategy
from zsim.strategies.registry import resolve

SEEDS = range(40)


@pytest.fixture(scope="module")
def box():
    return load_box(default_box_dir())


def _setups(box, variants: list[str], n: int = 4, seeds=SEEDS) -> list[dict]:
    options = GameOptions().with_variants(variants)
    bots = [resolve("random") for _ in range(n)]
    return [Game(box, bots, seed, options).setup for seed in seeds]


def _in_play(setup: dict, prefix: str) -> list[str]:
    """The ids in the setup columns starting with ``prefix`` (a card's name ends with its id)."""
    found = []
    for key, value in setup.items():
        if key.startswith(prefix) and value:
            found += [item.split()[-1] for item in str(value).split(",")]
    return found


@pytest.mark.parametrize("kind, prefix, component, n", [
    ("wall_tiles", "wall_tile_", "wall_pairs", 4),
    ("emperor_tiles", "emperor_tile_", "emp_wall", 2),
    ("governor_tiles", "governor_tiles_", "gov_calm_two_or_vp_alchemists", 2),
    ("palace_tiles", "palace_tiles_", "palace_laws", 2),
    ("master_alchemists", "master_alchemists", "master_2", 2),
    ("board", "unification_board", "board2", 4),
])
def test_forcing_and_excluding_a_component_over_many_seeds(box, kind, prefix, component, n):
    # 2-player setups leave all three copies of a Palace tile out about once in 45 games
    seeds = range(200) if kind == "palace_tiles" else SEEDS
    free = [component in _in_play(s, prefix) for s in _setups(box, [], n, seeds)]
    assert 0 < sum(free) < len(free)  # left alone, it is sometimes in play and sometimes not
    forced = _setups(box, [f"setup.force.{kind}={component}"], n)
    excluded = _setups(box, [f"setup.exclude.{kind}={component}"], n)
    assert all(component in _in_play(s, prefix) for s in forced)
    assert not any(component in _in_play(s, prefix) for s in excluded)
    # Everything else of the setup is drawn as before: only the swapped component differs.
    plain = _setups(box, [], n)
    for before, after in zip(plain, forced, strict=True):
        changed = {k for k in before if before[k] != after[k]}
        assert changed <= {k for k in before if k.startswith(prefix)}


class _Dealt(Strategy):
    """A random bot that notes the Starting tiles it is offered."""

    name = "dealt"

    def __init__(self) -> None:
        self.bot, self.offered = resolve("random"), []

    def choose(self, view, decision):
        if decision.kind == "start_tile":
            self.offered += decision.options
        return self.bot.choose(view, decision)


def _offered(box, variant: str, seed: int) -> set[str]:
    bots = [_Dealt() for _ in range(3)]
    Game(box, bots, seed, GameOptions().with_variants([variant])).play()
    return {box.starting_tiles[i].id for bot in bots for i in bot.offered}


def test_starting_tiles_forced_are_dealt_and_excluded_never_are(box):
    for seed in range(12):
        assert "start_ship_2" in _offered(box, "setup.force.starting_tiles=start_ship_2", seed)
        assert not {"start_ship_2", "start_unrest_hire"} & _offered(
            box, "setup.exclude.starting_tiles=start_ship_2,start_unrest_hire", seed)


def test_a_mausoleum_spot_condition_is_forced_or_excluded(box):
    forced = _setups(box, ["setup.force.mausoleum_layout=chu:governor",
                           "mausoleum=advanced"])
    assert all("chu:governor" in s["mausoleum_layout"].split("|") for s in forced)
    excluded = _setups(box, ["setup.exclude.mausoleum_layout=chu:governor"])
    assert not any("chu:governor" in s["mausoleum_layout"].split("|") for s in excluded)
    assert all(sorted(s["mausoleum_layout"].split("|")) != [] for s in excluded)


@pytest.mark.parametrize("variant, n, message", [
    ("setup.exclude.wall_tiles=wall_pair", 4, "unknown Wall tile 'wall_pair'; known: "),
    ("setup.force.board=board9", 4, "setup.force.board: unknown Unification board 'board9'"),
    ("setup.exclude.wall_tiles=wall_pairs,wall_workers", 4, "leaves 5"),
    ("setup.exclude.palace_tiles=palace_laws", 4, "setup lays out 15 of the 15"),
    ("setup.force.board=board1,board2", 4, "2 forced, but only 1"),
    ("setup.exclude.governor_tiles=gov_blank", 4, "always lay out 2 blank"),
    ("setup.force.governor_tiles=gov_blank", 3, "no blank Governor tile"),
    ("setup.exclude.mausoleum_layout=elixir:master_alchemist", 4, "only tile"),
    ("setup.force.mausoleum_layout=chu:high_wall", 4, "no tile with condition 'high_wall'"),
    ("setup.force.mausoleum_layout=moon:palace", 4, "unknown Mausoleum layout 'moon:palace'"),
])
def test_impossible_or_unknown_constraints_are_refused_naming_the_key_and_id(box, variant, n,
                                                                             message):
    with pytest.raises(OptionError, match=message.replace("(", r"\(")):
        _setups(box, [variant], n, seeds=[0])


@pytest.mark.parametrize("variant, message", [
    ("setup.force.walls=wall_pairs", "unknown component kind 'walls'; known: board"),
    ("setup.keep.board=board1", "expected setup.force.KIND or setup.exclude.KIND"),
    ("setup.force.board=", "no component id given"),
])
def test_malformed_keys_are_refused_before_any_box_is_read(variant, message):
    with pytest.raises(OptionError, match=message):
        GameOptions().with_variants([variant])


def test_zsim_run_refuses_a_bad_id_with_the_experiment_key(tmp_path):
    from click.testing import CliRunner

    from zsim.cli import main

    result = CliRunner().invoke(main, ["run", "--games", "4", "-s", "random", "--jobs", "1",
                                       "--quiet", "--variant",
                                       "setup.exclude.wall_tiles=wall_nope", "--out",
                                       str(tmp_path / "run")])
    assert result.exit_code == 1
    assert "key 'variants'" in result.output and "'wall_nope'" in result.output


def test_a_constraint_impossible_for_one_of_the_player_counts_is_refused_at_once(tmp_path):
    from zsim.runner.batch import start_run
    from zsim.runner.experiment import Experiment, ExperimentError

    experiment = Experiment(games=4, players=[2, 4], strategies=["random"], jobs=1,
                            variants={"setup.exclude.palace_tiles": "palace_laws"})
    with pytest.raises(ExperimentError, match="with 4 players"):
        start_run(experiment, tmp_path / "run")
    assert not (tmp_path / "run" / "players.parquet").exists()


def test_a_colour_and_its_alchemist_set_are_forced_or_kept_out(box):
    """Colours are dealt at random (RULINGS 27c); with fewer than four players a colour, and so
    its Alchemist set, can be forced into play or kept out."""
    from zsim.components.schema import COLOURS

    def dealt(variants: list[str]) -> list[list[str]]:
        options = GameOptions().with_variants(variants)
        games = [Game(box, [resolve("random"), resolve("random")], seed, options)
                 for seed in SEEDS]
        for game in games:  # each player holds the Alchemist set of the colour dealt
            for p in game.state.players:
                assert p.alchemist_supply == list(game.t.alchemist_sets[p.colour])
        return [[COLOURS[p.colour] for p in game.state.players] for game in games]

    free = dealt([])
    assert 0 < sum("Blue" in c for c in free) < len(free)
    assert all("Blue" in c for c in dealt(["setup.force.colours=Blue"]))
    assert not any("Blue" in c for c in dealt(["setup.exclude.colours=Blue"]))
    with pytest.raises(OptionError, match="excluding Blue leaves 3"):
        _setups(box, ["setup.exclude.colours=Blue"], 4, seeds=[0])
    with pytest.raises(OptionError, match=r"unknown colour .* 'Green'"):
        _setups(box, ["setup.force.colours=Green"], 2, seeds=[0])
