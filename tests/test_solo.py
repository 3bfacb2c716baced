"""Solo mode: Li Si's action kinds and their fallbacks, his cards, his scoring, determinism."""

from __future__ import annotations

import pytest

from tests.conftest import Scripted
from zsim.components.schema import LiSiAction
from zsim.game import Game, play_game
from zsim.invariants import violations
from zsim.rules import lisi, mausoleum, scoring
from zsim.state import NO_ONE
from zsim.strategies.basic import BasicStrategy
from zsim.strategies.random_bot import RandomStrategy

CHU, WEI, ZHAO, QI, YAN = range(5)
LISI = 1


def solo_game(box, level=1, seed=0) -> Game:
    game = Game(box, [Scripted(), lisi.LiSiSeat(level)], seed)
    game.state.round = 1
    return game


def action(**fields) -> LiSiAction:
    return LiSiAction.model_validate({"number": 99, "use": "ongoing", **fields})


def spot_of(g, binding):
    return next(i for i, s in enumerate(g.state.mausoleum) if s.binding == binding)


def test_setup_follows_the_lisi_card(box):
    for card in box.solo.lisi_cards:
        g = solo_game(box, card.level)
        li = g.state.players[LISI]
        assert sorted(g.state.lisi.deck) == sorted(card.actions)
        assert g.state.turn_order.index(LISI) == card.turn_position - 1
        assert li.ship == card.ship
        assert li.entrance == g.rules.soldiers_unlocked_at_start + card.unlocked_soldiers


def test_unification_fills_from_chu_towards_the_rounds_region_then_goes_to_court(box):
    g = solo_game(box)
    li = g.state.players[LISI]
    g.state.round = 2
    g.state.hands[LISI] = [1, 41, 81, 2]
    for _ in range(4):
        lisi.unification(g, li, action(kind="unification"))
    assert li.tableau[CHU] == [2, 81, 41] and li.tableau[WEI] == [1]
    assert li.tokens == [1 + 1, 3, 2]  # Writing slot 1 and Wei slot 1, Currency 3, Laws 2
    g.state.hands[LISI] = [3, 4, 5]
    li.tableau[WEI] += [42, 82]
    before = li.tokens[:]
    lisi.unification(g, li, action(kind="unification"))
    assert g.state.court[-1] == 5 and li.tokens == [t + 1 for t in before]


@pytest.mark.parametrize("number", [4, 5])
def test_unification_cards_four_and_five_tuck_only_the_top_card(box, number):
    # RULINGS 27b: each of Li Si's Unification action cards places exactly one card
    g = solo_game(box)
    li = g.state.players[LISI]
    g.state.hands[LISI] = [1, 41]
    lisi.unification(g, li, lisi.action_card(g, number))
    assert li.tableau[CHU] == [41]


def test_elixir_unlocks_when_no_soldier_waits(box):
    g = solo_game(box)
    li = g.state.players[LISI]
    li.entrance, li.ship = 0, 2
    lisi.elixir(g, li, action(kind="elixir", steps=4))  # passes 3 and 6
    assert li.entrance == 2 and not li.tableau[CHU]


def test_elixir_places_alchemist_cards_while_a_soldier_waits(box):
    g = solo_game(box)
    li = g.state.players[LISI]
    li.entrance, li.ship = 1, 2
    lisi.elixir(g, li, action(kind="elixir", steps=4))
    assert len(li.tableau[CHU]) == 2 and li.entrance == 1


def test_double_symbol_with_one_spot_places_a_card_then_unlocks(box):
    g = solo_game(box)
    li = g.state.players[LISI]
    li.tableau[CHU] = [1, 2]
    li.entrance, li.ship, soldiers = 1, 2, li.soldiers
    lisi.elixir(g, li, action(kind="elixir", steps=4))
    assert len(li.tableau[CHU]) == 3 and li.soldiers == soldiers - 1


def test_governors_go_to_the_first_region_without_his_soldier(box):
    g = solo_game(box)
    li = g.state.players[LISI]
    g.state.mausoleum[spot_of(g, "chu")].slots[0] = LISI
    lisi.governor(g, li, action(kind="governor", regions=["chu", "wei", "zhao", "qi", "yan"],
                                pattern="first_bonus_left"))
    assert g.state.governor_count[WEI][LISI] == 1
    assert g.state.governor_slots[WEI][0][1] == LISI  # occupies the bonus slot, no bonus
    assert li.vp == {} and li.official_supply == [4, 4, 4]


def test_two_governors_take_bonus_slots_from_the_right_then_the_area(box):
    g = solo_game(box)
    li = g.state.players[LISI]
    lisi.governor(g, li, action(kind="governor", regions=["qi"], pattern="two_bonus_right"))
    assert g.state.governor_count[QI][LISI] == 2
    assert [holder for _, holder in g.state.governor_slots[QI]] == [LISI]  # one slot in 2p


def test_card_14_falls_back_to_a_region_whose_majority_is_not_won(box):
    g = solo_game(box)
    li = g.state.players[LISI]
    for region in ("chu", "wei", "zhao", "qi", "yan"):
        g.state.mausoleum[spot_of(g, region)].slots[0] = LISI
    g.state.governor_count[QI] = [0, 1]
    card = action(kind="governor", regions=["qi", "yan"], pattern="area", fallback="majority")
    lisi.governor(g, li, card)
    assert g.state.governor_count[YAN][LISI] == 1
    lisi.governor(g, li, action(kind="governor", regions=["qi"], pattern="area"))
    assert g.state.governor_count[QI][LISI] == 1  # no fallback: nothing happens


def test_palace_scores_six_takes_large_token_in_order_and_keeps_the_tile(box):
    g = solo_game(box)
    li = g.state.players[LISI]
    g.state.large_on_board = [1, 0, 1]
    tile = g.state.palace_tiles[ZHAO][0]
    lisi.palace(g, li, action(kind="palace", regions=["zhao"], tokens=["currency", "laws"],
                              take_tile=True))
    assert li.vp["vp_palaces"] == 6 and li.large == [0, 0, 1]
    assert g.state.lisi.palace_tiles == [(ZHAO, tile)]


def test_palace_fallback_to_the_first_region_when_every_tile_has_his_soldier(box):
    g = solo_game(box)
    li = g.state.players[LISI]
    for region in ("chu", "wei", "zhao", "qi", "yan"):
        g.state.mausoleum[spot_of(g, region)].slots[0] = LISI
    lisi.palace(g, li, action(kind="palace", regions=["wei", "chu"], tokens=["laws"]))
    assert li.palaces == g.rules.palaces
    lisi.palace(g, li, action(kind="palace", regions=["wei", "chu"], tokens=["laws"],
                              fallback="first_region"))
    assert g.state.palace_count[WEI][LISI] == 1


def test_wall_follows_site_priority_arrow_and_slot_pattern(box):
    g = solo_game(box)
    li = g.state.players[LISI]
    g.state.mausoleum[spot_of(g, "site2")].slots[0] = LISI
    card = action(kind="wall", sites=[2, 3], arrow="right", pattern="right_emperor")
    lisi.wall(g, li, card)  # site 2 has his soldier: site 3, right section (6th), right slot
    assert g.state.walls[5].slots == [NO_ONE, LISI]
    assert g.state.walls[5].emperor_tile == NO_ONE
    lisi.wall(g, li, card)  # already in that section: the other one of the site
    assert g.state.walls[4].slots == [NO_ONE, LISI]


def test_wall_fallback_builds_in_the_last_section_without_his_wall(box):
    g = solo_game(box)
    li = g.state.players[LISI]
    for site in ("site1", "site2", "site3"):
        g.state.mausoleum[spot_of(g, site)].slots[0] = LISI
    g.state.walls[5].slots = [NO_ONE, LISI]
    card = action(kind="wall", sites=[1], arrow="left", pattern="left", fallback="last_section")
    lisi.wall(g, li, card)
    assert g.state.walls[4].slots == [LISI, NO_ONE]


def test_one_time_cards_leave_the_game_and_ongoing_ones_return(box):
    g = solo_game(box, level=2)
    deck = g.state.lisi.deck
    one_time = [n for n in deck if lisi.action_card(g, n).use == "one_time"]
    g.state.hands[LISI] = list(range(1, 7))
    for _ in range(len(deck)):
        lisi.take_turn(g)
    assert sorted(g.state.lisi.removed) == sorted(one_time)
    lisi.end_round(g)
    assert len(g.state.lisi.deck) == 9 - len(one_time)
    assert not set(g.state.lisi.deck) & set(one_time)


def give_tokens(g, p, small: list[int], large: list[int]) -> None:
    """The player holds these tokens, taken from the supply and the board (none is made up)."""
    p.tokens, p.large = small[:], large[:]
    for suit in range(3):
        g.state.supply[suit] -= small[suit]
        g.state.large_on_board[suit] -= large[suit]


def test_he_spends_leftover_tokens_large_first_to_unlock(box):
    g = solo_game(box)
    li = g.state.players[LISI]
    give_tokens(g, li, small=[3, 2, 0], large=[0, 1, 0])
    entrance = li.entrance
    lisi.spend_leftover_tokens(g, li)
    assert li.entrance + sum(s.slots.count(LISI) for s in g.state.mausoleum) == entrance + 2
    assert li.large == [0, 0, 0] and sum(li.tokens) == 0


def test_his_five_tokens_with_a_large_one_unlock_only_one_soldier(box):
    # RULINGS 26a: Li Si pays 3 tokens per soldier, a large token counting as one (not two)
    g = solo_game(box)
    li = g.state.players[LISI]
    give_tokens(g, li, small=[2, 2, 0], large=[1, 0, 0])
    soldiers = li.soldiers
    lisi.spend_leftover_tokens(g, li)
    assert li.soldiers == soldiers - 1


def _lisi_meets_every_region_tile(g):
    """Li Si holds the Master Alchemist and a Palace and a Governor in every region, so he meets
    every Mausoleum condition but Council, Workforce (Officials and Workers he never has), Full
    and the Wall tiles'."""
    li = g.state.players[LISI]
    li.master_taken = True
    for r in range(5):
        g.state.palace_count[r][LISI] = 1
        g.state.governor_count[r][LISI] = 1
    return [i for i in range(9) if mausoleum.condition_met(g, li, i)]


@pytest.mark.parametrize("condition", ["council", "workforce"])
def test_he_never_meets_the_tiles_that_ask_for_officials_or_workers(box, condition):
    # the rulebook: he validates a tile as soon as he meets its condition, and he has no
    # Officials nor Workers: a Palace and a Governor in the region do not stand in for them
    g = solo_game(box)
    li = g.state.players[LISI]
    spot = next(i for i, s in enumerate(g.state.mausoleum) if s.condition == condition)
    where = g.state.mausoleum[spot].where
    g.state.palace_count[where][LISI] = 1
    g.state.governor_count[where][LISI] = 1
    li.entrance = 2
    lisi.validate(g, li)
    assert LISI not in g.state.mausoleum[spot].slots


def test_his_opponent_chooses_which_surplus_tile_he_validates(box):
    # RULINGS 27a: more conditions met than soldiers waiting: the human seat chooses
    g = solo_game(box)
    li = g.state.players[LISI]
    li.entrance = 1
    eligible = _lisi_meets_every_region_tile(g)
    g.strategies[0].script("lisi_soldier", eligible[-1])
    lisi.validate(g, li)
    assert LISI in g.state.mausoleum[eligible[-1]].slots


def test_by_default_his_opponent_gives_him_the_tile_that_scores_him_least(box):
    # RULINGS 27a, the base strategy's default: a tile where the opponent already stands gives
    # Li Si its second slot (5 VP) rather than a top slot (8 VP)
    g = Game(box, [BasicStrategy(), lisi.LiSiSeat(1)], 0)
    g.state.round = 1
    li = g.state.players[LISI]
    li.entrance = 1
    eligible = _lisi_meets_every_region_tile(g)
    taken = eligible[-1]
    g.state.mausoleum[taken].slots[0] = 0
    lisi.validate(g, li)
    assert g.state.mausoleum[taken].slots[1] == LISI


@pytest.mark.parametrize("top, bottom, human, lisi_vp", [
    ("A", "C", 5, 5),    # split ties
    ("B", "D", 0, 10),   # Li Si wins ties
])
def test_governor_lines_decide_ties_against_him(box, top, bottom, human, lisi_vp):
    g = solo_game(box)
    g.state.lisi.card = g.state.lisi.card.model_copy(
        update={"scoring_top": top, "scoring_bottom": bottom})
    g.state.governor_count[CHU] = [1, 1]
    assert scoring.majority_vp(g) == [human, lisi_vp]


@pytest.mark.parametrize("top, bottom, wall_vp, elixir_bonus", [
    ("A", "C", (2, 4), 0), ("B", "C", (4, 6), 0), ("C", "A", (5, 7), 0), ("D", "B", (3, 5), 2),
])
def test_scoring_cards_score_walls_by_tier_and_the_elixir_line(box, top, bottom, wall_vp,
                                                               elixir_bonus):
    g = solo_game(box)
    g.state.lisi.card = g.state.lisi.card.model_copy(
        update={"scoring_top": top, "scoring_bottom": bottom})
    li = g.state.players[LISI]
    g.state.walls[0].slots = [LISI, NO_ONE]
    g.state.walls[2].slots = [NO_ONE, LISI]
    assert [vp for _, _, vp in scoring.lisi_wall_vp(g, li)] == list(wall_vp)
    li.tableau[CHU] = [li.alchemist_supply[0]]
    li.ship = 15
    assert scoring.lisi_elixir_vp(g, li) == box.board.elixir.vp[15] + elixir_bonus


def test_his_palace_tiles_score_at_the_end(box):
    g = solo_game(box)
    li = g.state.players[LISI]
    kind = next(i for i, t in enumerate(box.palace_tiles) if t.ability == "palace_vp_writing")
    g.state.lisi.palace_tiles = [(CHU, kind)]
    li.tableau[CHU] = [1, 2]  # two Writing cards
    assert scoring.final_scores(g)[LISI]["vp_palace_tiles"] == 6


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_solo_games_are_deterministic_and_keep_the_invariants(box, level):
    def run(seed):
        game = Game(box, [RandomStrategy(), lisi.LiSiSeat(level)], seed, narrate=True)
        result = game.play()
        assert not violations(game.state, game.t)
        return result.log, result.scores

    assert run(5) == run(5)
    result = play_game(box, [lisi.LiSiSeat(level), RandomStrategy()], 9)
    assert result.strategies[0] == f"lisi-{level}"


def test_lisi_needs_a_two_seat_game(box):
    with pytest.raises(ValueError, match="2-seat"):
        Game(box, [RandomStrategy(), RandomStrategy(), lisi.LiSiSeat(1)], 0)


def test_every_activity_counter_is_named_as_its_players_table_column(box):
    """Counters are kept under their ``n_*`` column names: a counter named otherwise would be
    read as a setup column, null rather than 0 in the games that never counted it."""
    counters: set[str] = set()
    for seed, seats in enumerate([[RandomStrategy(), lisi.LiSiSeat(2)],
                                  [RandomStrategy() for _ in range(4)]]):
        result = play_game(box, seats, seed)
        counters.update(*result.stats)
        rows = result.player_rows()
        assert all(row.items() >= stats.items() for row, stats in zip(rows, result.stats,
                                                                       strict=True))
    assert all(name.startswith("n_") for name in counters), sorted(counters)
    assert {"n_walls", "n_ship", "n_soldiers_left", "n_rewards"} <= counters
    assert any(name.startswith("n_lisi_") for name in counters)
    assert any(name.startswith("n_cards_") for name in counters)
    assert any(name.startswith("n_court_") for name in counters)
