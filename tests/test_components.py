"""The shipped component box loads with the right counts, and broken copies are reported
clearly: file, key path and bad value, through the library and through ``zsim components``."""

from __future__ import annotations

import shutil
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner, Result

from zsim.cli import main
from zsim.components import Box, BoxError, check_box, default_box_dir, load_box
from zsim.components.schema import COURT_ACTIONS, SUITS

CARD_ABILITIES = {
    "ship_1", "recruit_alchemist_here", "recruit_architect_here", "recruit_general_here",
    "move_worker_1", "move_officials_2", "calm_any_1", "token_any_1", "vp_alchemist_cards",
    "vp_governors", "vp_palaces", "vp_walls", "unrest_tokens_own", "unrest_hire_1",
    "unrest_vp_writing", "unrest_vp_currency", "unrest_vp_laws",
}


@pytest.fixture(scope="module")
def default_box() -> Box:
    return load_box(default_box_dir())


@pytest.fixture
def box_copy(tmp_path: Path) -> Path:
    """A writable copy of the default box."""
    target = tmp_path / "components"
    shutil.copytree(default_box_dir(), target)
    return target


def edit(directory: Path, name: str, change: Callable[[Any], Any]) -> None:
    """Apply ``change`` to the parsed YAML of one file and write it back."""
    path = directory / name
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")


def run_check(directory: Path) -> Result:
    return CliRunner().invoke(main, ["components", "check", str(directory)])


# --- the default box ----------------------------------------------------------------------


def test_cards_are_numbered_by_suit(default_box: Box) -> None:
    cards = default_box.cards
    assert [card.number for card in cards] == list(range(1, 121))
    for index, suit in enumerate(SUITS):
        block = cards[index * 40 : (index + 1) * 40]
        assert {card.suit for card in block} == {suit}


def test_each_trigger_appears_six_or_seven_times_per_suit(default_box: Box) -> None:
    for suit in SUITS:
        triggers = Counter(card.trigger for card in default_box.cards if card.suit == suit)
        assert set(triggers) == set(COURT_ACTIONS)
        assert all(count in (6, 7) for count in triggers.values()), (suit, triggers)


def test_each_card_ability_is_in_every_suit_with_several_triggers(default_box: Box) -> None:
    assert {card.ability for card in default_box.cards} == CARD_ABILITIES
    for ability in CARD_ABILITIES:
        cards = [card for card in default_box.cards if card.ability == ability]
        assert {card.suit for card in cards} == set(SUITS), ability
        assert len({card.trigger for card in cards}) >= 3, ability


def test_component_counts(default_box: Box) -> None:
    box = default_box
    sets = Counter(card.set for card in box.alchemist_cards)
    assert sets == {1: 5, 2: 5, 3: 5, 4: 5}
    assert len({card.ability for card in box.alchemist_cards}) == 19
    assert len(box.master_alchemists) == 5
    assert len(box.emperor_tiles) == 6
    assert {tile.action for tile in box.emperor_tiles} == set(COURT_ACTIONS)
    assert len(box.wall_tiles) == 7
    assert sum(tile.copies for tile in box.governor_tiles) == 12
    assert sum(tile.copies for tile in box.governor_tiles if tile.ability is None) == 2
    assert sum(tile.copies for tile in box.palace_tiles) == 15
    assert sum(tile.copies for tile in box.starting_tiles) == 10
    assert [board.id for board in box.unification_boards] == ["board1", "board2"]
    for board in box.unification_boards:
        assert sum(len(aspect.rewards) for aspect in board.aspects) == 15
    assert Counter(tile.kind for tile in box.mausoleum_tiles) == {
        "region": 5, "wall": 3, "elixir": 1,
    }


def test_board_aspect_orders(default_box: Box) -> None:
    orders = [[a.aspect for a in board.aspects] for board in default_box.unification_boards]
    assert orders == [["writing", "currency", "laws"], ["laws", "writing", "currency"]]


def test_every_referenced_ability_exists(default_box: Box) -> None:
    box = default_box
    named = [
        *(card.ability for card in box.cards),
        *(card.ability for card in box.alchemist_cards),
        *(card.ability for card in box.master_alchemists),
        *(tile.ability for tile in box.governor_tiles if tile.ability is not None),
        *(tile.ability for tile in box.palace_tiles),
        *(tile.ability for tile in box.starting_tiles),
        *(r for board in box.unification_boards for a in board.aspects for r in a.rewards),
    ]
    assert set(named) <= set(box.abilities)


def test_file_level_assumption_marks_each_item(default_box: Box) -> None:
    assert all(card.assumed and card.reason for card in default_box.cards)
    assert not any(board.assumed for board in default_box.unification_boards)


def test_check_box_is_empty_for_the_default_box() -> None:
    assert check_box(default_box_dir()) == []


# --- the CLI and broken boxes -----------------------------------------------------------------


def test_cli_check_accepts_the_default_box() -> None:
    result = CliRunner().invoke(main, ["components", "check"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("OK: ")
    assert "120 cards" in result.output


def test_cli_show_prints_a_summary() -> None:
    result = CliRunner().invoke(main, ["components", "show"])
    assert result.exit_code == 0, result.output
    assert "governor tiles" in result.output


def test_bad_trigger_names_file_path_and_value(box_copy: Path) -> None:
    edit(box_copy, "cards.yaml", lambda data: data["cards"][17].update(trigger="hire3"))
    result = run_check(box_copy)
    assert result.exit_code == 1
    assert "cards.yaml" in result.output
    assert "cards[17].trigger" in result.output
    assert "hire3" in result.output


def test_yaml_syntax_error_names_the_file(box_copy: Path) -> None:
    (box_copy / "tiles.yaml").write_text("emperor_tiles: [\n  - {id: x\n", encoding="utf-8")
    result = run_check(box_copy)
    assert result.exit_code == 1
    assert "tiles.yaml" in result.output
    assert "syntax" in result.output


def test_a_file_whose_aliases_explode_is_refused_in_one_line(box_copy: Path) -> None:
    # Nine levels of nine aliases: a billion values, built (shared) in no time, but expanded
    # by anything that walks them.
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join([f'*{chr(97 + i)}'] * 9)}]\n"
        for i in range(8))
    path = box_copy / "cards.yaml"
    path.write_text(path.read_text(encoding="utf-8") + bomb, encoding="utf-8")
    with pytest.raises(BoxError) as refused:
        load_box(box_copy)
    assert refused.value.messages == [
        "cards.yaml: refused: its aliases expand to more than 100,000 values (an alias bomb?)"]
    (box_copy / "tiles.yaml").write_text("emperor_tiles: &e [*e]\n", encoding="utf-8")
    assert "tiles.yaml: an alias refers to a node that contains it" in check_box(box_copy)


def test_missing_file_is_named(box_copy: Path) -> None:
    (box_copy / "mausoleum.yaml").unlink()
    result = run_check(box_copy)
    assert result.exit_code == 1
    assert "mausoleum.yaml" in result.output
    assert "missing" in result.output


def test_undefined_ability_is_named(box_copy: Path) -> None:
    edit(box_copy, "alchemists.yaml",
         lambda data: data["alchemist_cards"][2].update(ability="no_such_ability"))
    result = run_check(box_copy)
    assert result.exit_code == 1
    assert "alchemists.yaml: alchemist_cards[2].ability" in result.output
    assert "no_such_ability" in result.output


def test_assumed_without_reason_is_refused(box_copy: Path) -> None:
    edit(box_copy, "tiles.yaml", lambda data: data["emperor_tiles"][1].pop("reason"))
    messages = check_box(box_copy)
    assert any(m.startswith("tiles.yaml: emperor_tiles[1]") and "reason" in m
               for m in messages), messages


def test_a_board_key_is_assumed_by_name_with_its_reason(box_copy: Path) -> None:
    edit(box_copy, "board.yaml", lambda data: data["elixir"]["assumed"].update(vp=" "))
    edit(box_copy, "board.yaml", lambda data: data["rules"]["assumed"].update(no_such_rule="x"))
    messages = check_box(box_copy)
    assert any(m.startswith("board.yaml: elixir") and "'vp' needs a one-line reason" in m
               for m in messages), messages
    assert any(m.startswith("board.yaml: rules") and "'no_such_rule'" in m
               for m in messages), messages


def test_only_the_board_keys_the_rulebook_does_not_print_are_assumed(default_box: Box) -> None:
    # the rulebook prints 5 rounds, 6 VP a Palace, 10/15/20, 2/5/9 and 9/11/13: not assumed
    board = default_box.board
    for key in ("rounds", "palace_vp", "governor_majority_vp", "extra_soldier_vp",
                "small_tokens", "emperor_tiles", "mausoleum_line_vp", "unlock_cost"):
        assert key not in board.rules.assumed
    assert set(board.rules.assumed) == {"palace_spaces", "workforce_workers"}
    assert set(board.elixir.assumed) == {"vp", "elixir_spaces", "master_alchemist_space"}
    assert set(board.wall.assumed) == {"tiers"} and set(board.assumed) == {"regions"}
    assert set(board.mausoleum.assumed) == {"grid", "slot_values"}


def test_emperor_tiles_name_one_wall_section_each(box_copy: Path) -> None:
    # RULINGS 13a: the backs map tiles to sections, one tile per section
    edit(box_copy, "tiles.yaml", lambda data: data["emperor_tiles"][1].update(section=1))
    edit(box_copy, "tiles.yaml", lambda data: data["emperor_tiles"][2].update(section=9))
    messages = check_box(box_copy)
    assert any("2 Emperor tiles name section 1" in m for m in messages), messages
    assert any(m.startswith("tiles.yaml: emperor_tiles[2].section") and "1-6" in m
               for m in messages), messages


def test_all_problems_are_reported_together(box_copy: Path) -> None:
    edit(box_copy, "cards.yaml", lambda data: data["cards"][3].update(suit="poetry"))
    edit(box_copy, "tiles.yaml", lambda data: data["palace_tiles"][0].update(colour="red"))
    (box_copy / "abilities.yaml").unlink()
    with pytest.raises(BoxError) as caught:
        load_box(box_copy)
    text = "\n".join(caught.value.messages)
    assert "cards.yaml: cards[3].suit: 'poetry' is not a suit" in text
    assert "tiles.yaml: palace_tiles[0].colour: unknown key" in text
    assert "abilities.yaml: file is missing" in text


def test_unknown_top_level_key_is_reported(box_copy: Path) -> None:
    edit(box_copy, "mausoleum.yaml", lambda data: data.update(tilez=[]))
    assert any("mausoleum.yaml: tilez: unknown key" in m for m in check_box(box_copy))


def test_duplicate_yaml_key_is_reported_with_its_line(box_copy: Path) -> None:
    path = box_copy / "abilities.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(
        text + "  ship_1:\n    text: again\n    options: [[{effect: ship, steps: 2}]]\n",
        encoding="utf-8",
    )
    messages = check_box(box_copy)
    assert any(m.startswith("abilities.yaml: abilities.ship_1: duplicate key") for m in messages)


def test_duplicate_ids_and_card_numbers(box_copy: Path) -> None:
    edit(box_copy, "tiles.yaml", lambda data: data["wall_tiles"][1].update(id="wall_architects"))
    edit(box_copy, "cards.yaml", lambda data: data["cards"][5].update(number=3))
    messages = "\n".join(check_box(box_copy))
    assert "tiles.yaml: wall_tiles[1].id: 'wall_architects' is also used" in messages
    assert "cards.yaml: cards[5].number: number 3 is also used" in messages


def test_card_outside_its_suit_range(box_copy: Path) -> None:
    def swap_numbers(data: Any) -> None:
        data["cards"][0]["number"], data["cards"][119]["number"] = 120, 1

    edit(box_copy, "cards.yaml", swap_numbers)
    messages = "\n".join(check_box(box_copy))
    assert "cards[0].number: 120 is outside the writing range 1-40" in messages


def test_reward_may_not_use_here(box_copy: Path) -> None:
    def swap(data: Any) -> None:
        data["boards"][0]["aspects"][0]["rewards"][0] = "recruit_general_here"

    edit(box_copy, "unification_boards.yaml", swap)
    messages = "\n".join(check_box(box_copy))
    assert "boards[0].aspects[0].rewards[0]: ability 'recruit_general_here'" in messages
    assert "no region" in messages


def test_too_few_components_for_a_player_count(box_copy: Path) -> None:
    edit(box_copy, "tiles.yaml", lambda data: data["governor_tiles"][0].update(copies=1))
    messages = "\n".join(check_box(box_copy))
    assert "tiles.yaml: governor_tiles: 1 blank Governor tiles in the box" in messages


def test_player_count_tables_must_agree(box_copy: Path) -> None:
    edit(box_copy, "board.yaml", lambda data: data["wall"]["tiers"].update({3: [1, 2]}))
    messages = "\n".join(check_box(box_copy))
    assert "board.yaml: wall.tiers[3]: 3 players need 3 slots, found 2" in messages


@pytest.mark.parametrize("key", ["hire_workers", "unlock_cost", "elixir_steps"])
def test_a_rule_the_players_divide_by_may_not_be_0(box_copy: Path, key: str) -> None:
    edit(box_copy, "board.yaml", lambda data: data["rules"].update({key: 0}))
    result = run_check(box_copy)
    assert result.exit_code != 0
    assert f"board.yaml: rules.{key}: must be at least 1, got 0" in result.output
    assert "Traceback" not in result.output


def test_a_whole_number_beyond_the_bound_is_refused_naming_its_key(box_copy: Path) -> None:
    """A number too large for a 64-bit column played, then failed to be written."""
    def huge(data: Any) -> None:
        data["abilities"]["vp_governors"]["options"][0][0]["per"] = 10**23

    edit(box_copy, "abilities.yaml", huge)
    edit(box_copy, "board.yaml", lambda data: data["rules"]["small_tokens"].update({3: -10**9}))
    result = run_check(box_copy)
    assert result.exit_code != 0
    assert ("abilities.yaml: abilities.vp_governors.options[0][0].per: "
            f"{10**23} is out of range") in result.output
    assert f"board.yaml: rules.small_tokens: {-10**9} is out of range" in result.output
    assert "Traceback" not in result.output


def test_bad_effect_parameter_is_located(box_copy: Path) -> None:
    def bad(data: Any) -> None:
        data["abilities"]["ship_1"]["options"][0][0]["steps"] = "far"

    edit(box_copy, "abilities.yaml", bad)
    messages = "\n".join(check_box(box_copy))
    assert "abilities.yaml: abilities.ship_1.options[0][0].steps:" in messages
    assert "'far'" in messages


def test_alchemist_sets_share_their_triggers_and_ability_kinds(default_box: Box) -> None:
    # RULINGS 27c: the four colours' sets are as equal as the 19 abilities allow
    by_set: dict[int, list[Any]] = {}
    for card in default_box.alchemist_cards:
        by_set.setdefault(card.set, []).append(card)

    def profile(cards: list[Any]) -> tuple[tuple[str, ...], int, int]:
        abilities = [default_box.abilities[c.ability] for c in cards]
        scoring = sum(a.options[0][0].effect == "vp_per_region" for a in abilities)
        two_way = sum(len(a.options) == 2 for a in abilities)
        return tuple(sorted(c.trigger for c in cards)), scoring, two_way

    profiles = [profile(cards) for cards in by_set.values()]
    assert {(triggers, scoring) for triggers, scoring, _ in profiles} == {(profiles[0][0], 2)}
    assert sorted(two_way for _, _, two_way in profiles) == [1, 1, 2, 2]


def test_alchemist_sets_must_be_one_per_colour(box_copy: Path) -> None:
    edit(box_copy, "alchemists.yaml", lambda data: data["alchemist_cards"][0].update(set=5))
    messages = "\n".join(check_box(box_copy))
    assert "sets must be numbered 1..4, one per player colour" in messages


def test_the_built_in_box_exported_is_a_box_a_designer_can_edit_and_play(tmp_path: Path):
    target = tmp_path / "mybox"
    result = CliRunner().invoke(main, ["components", "export", str(target)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in target.glob("*.yaml")) == sorted(
        p.name for p in default_box_dir().glob("*.yaml"))
    # an edit takes effect in a game played with that box
    board = target / "board.yaml"
    board.write_text(board.read_text().replace("palace_vp: 6", "palace_vp: 9"))
    assert load_box(target).board.rules.palace_vp == 9
    played = CliRunner().invoke(main, ["play", "-n", "2", "-s", "greedy", "-s", "random",
                                       "--box", str(target), "--json"])
    assert played.exit_code == 0, played.output
    # a second export into the same (now full) directory is refused in one line
    again = CliRunner().invoke(main, ["components", "export", str(target)])
    assert again.exit_code == 1
    assert again.output.splitlines() == [
        f"Error: {target}: exists and is not an empty directory (the built-in box is written "
        "to a new one)"]
