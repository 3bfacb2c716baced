"""Variants: rule options, box values by key path, and variant files."""

from __future__ import annotations

import pytest

from zsim.components import BoxError, default_box_dir
from zsim.game import play_game
from zsim.options import OptionError
from zsim.strategies.basic import BasicStrategy
from zsim.variants import parse


def test_options_and_box_paths_are_told_apart():
    chosen = parse(["court_reset=true", "rules.palace_vp=8",
                    "wall_tiles[wall_palaces].a.values=[3, 4, 5]"])
    assert chosen.game_options().court_reset is True
    box = chosen.load_box(default_box_dir())
    assert box.board.rules.palace_vp == 8
    assert next(t for t in box.wall_tiles if t.id == "wall_palaces").a.values == (3, 4, 5)


def test_a_palace_vp_change_shows_in_the_palace_category(box):
    changed = parse(["rules.palace_vp=8"]).load_box(default_box_dir())
    for seed in range(5):
        base = play_game(box, [BasicStrategy(), BasicStrategy()], seed)
        variant = play_game(changed, [BasicStrategy(), BasicStrategy()], seed)
        for before, after in zip(base.scores, variant.scores, strict=True):
            assert before["vp_palaces"] % 6 == 0 and after["vp_palaces"] % 8 == 0
    assert any(s["vp_palaces"] for s in variant.scores)


@pytest.mark.parametrize("entry, message", [
    ("rules.palace_vpx=1", "rules.palace_vpx: unknown key"),
    ("nothing.here=1", "no component file has a top-level key 'nothing'"),
    ("cards[999].trigger=wall", "has 120 items, no [999]"),
    ("cards[3].trigger=hire3", "cards[3].trigger: 'hire3' is not a Court action"),
    ("wall_tiles[no_such_tile].a.values=[1, 2, 3]", "no item with id 'no_such_tile'"),
])
def test_a_bad_box_path_or_value_is_refused_by_name(entry, message):
    with pytest.raises(BoxError, match=message.replace("[", r"\[").replace("]", r"\]")):
        parse([entry]).load_box(default_box_dir())


def test_variant_files_expand_to_their_entries(tmp_path):
    path = tmp_path / "v.yaml"
    path.write_text("description: test\nmausoleum: advanced\nrules.palace_vp: 7\n")
    chosen = parse([str(path)])
    assert chosen.game_options().mausoleum == "advanced"
    assert chosen.box == (("rules.palace_vp", 7),)
    with pytest.raises(OptionError, match="does not exist"):
        parse([str(tmp_path / "missing.yaml")])
    with pytest.raises(OptionError, match="not KEY=VALUE"):
        parse(["palace"])


def test_shipped_variant_files_load():
    for path in sorted((default_box_dir().parent / "variants").glob("*.yaml")):
        chosen = parse([str(path)])
        chosen.game_options()
        chosen.load_box(default_box_dir())


@pytest.mark.parametrize("entries, message", [
    (["rules.soldiers=0"], r"board.yaml: rules.soldiers: 0 soldiers per player, fewer than the 1 "
                           r"unlocked at the start \(rules.soldiers_unlocked_at_start\)"),
    (["rules.soldiers_unlocked_at_start=-1"], "rules.soldiers_unlocked_at_start: must be at "
                                              "least 0, got -1"),
    (["rules.large_token_value=0"], "rules.large_token_value: must be at least 1, got 0"),
    (["rules.starting_tiles_dealt=0"], "rules.starting_tiles_dealt: must be at least 1"),
    (["rules.small_tokens={2: -1, 3: 11, 4: 13}"], r"rules.small_tokens\[2\]: must be at least 0"),
    (["rules.hire_workers=-1"], "rules.hire_workers: must be at least 1"),
    (["rules.hire_workers=0"], "rules.hire_workers: must be at least 1, got 0"),
    (["rules.unlock_cost=0"], "rules.unlock_cost: must be at least 1, got 0"),
    (["rules.elixir_steps=0"], "rules.elixir_steps: must be at least 1, got 0"),
    (["rules.palace_vp=99999999999999999999999"],
     "rules.palace_vp: 99999999999999999999999 is out of range"),
    (["rules.extra_soldier_vp=[0, 1, 1000000000]"], "rules.extra_soldier_vp: 1000000000 is out"),
])
def test_variants_that_break_a_bound_of_the_rules_are_refused_by_key(entries, message):
    with pytest.raises(BoxError, match=message):
        parse(entries).load_box(default_box_dir())


def test_fewer_soldiers_are_played_when_none_is_unlocked_at_the_start(box):
    changed = parse(["rules.soldiers=0", "rules.soldiers_unlocked_at_start=0"]).load_box(
        default_box_dir())
    for seed in range(3):
        result = play_game(changed, [BasicStrategy(), BasicStrategy()], seed)
        assert all(row["vp_extra_soldiers"] == 0 for row in result.scores)


def test_a_per_player_count_table_given_as_a_variant_reads_back_with_number_keys():
    chosen = parse(["rules.small_tokens={2: 7, 3: 9, 4: 11}"])
    assert chosen.box == (("rules.small_tokens", {2: 7, 3: 9, 4: 11}),)
    again = parse(chosen.as_strings())  # as run.json keeps it
    assert again == chosen
    assert again.load_box(default_box_dir()).board.rules.small_tokens == {2: 7, 3: 9, 4: 11}
    assert parse(["rules.palace_vp=7", "cards[3].trigger=wall"]).as_strings() == [
        "rules.palace_vp=7", 'cards[3].trigger="wall"']  # as before: JSON where it reads back


BOMB = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join([f'*{chr(97 + i)}'] * 10)}]\n" for i in range(5))


def test_a_variant_file_whose_aliases_explode_is_refused_naming_it(tmp_path):
    path = tmp_path / "bomb.yaml"
    path.write_text(BOMB)  # a million values from six lines
    with pytest.raises(OptionError, match=f"variant file {path}: refused: its aliases expand"):
        parse([str(path)])
    with pytest.raises(OptionError, match="refused: its aliases expand"):
        parse(["rules.palace_vp=" + BOMB.replace("\n", ", ").join("{}")])
