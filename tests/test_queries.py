"""The rules queries on constructed positions: each test asserts one rule fact.

The queries take plain data, so every position here is built on a copy of a set-up game's state
(as a strategy gets from its view) and the running game is never consulted.
"""

from __future__ import annotations

import pickle

import pytest

from zsim.rules import queries
from zsim.rules.tables import ACTION_INDEX
from zsim.state import NO_ONE

CHU, WEI, ZHAO, QI, YAN = range(5)
ALCH, ARCH, GEN = range(3)
RECRUIT, HIRE, ELIXIR, PALACE, GOVERNOR, WALL = range(6)


@pytest.fixture
def table(make_game):
    """(tables, rules, a copy of the state, seat 0 in that copy) of a 4-player game."""
    g = make_game()
    state = g.state.copy()
    return g.t, g.rules, state, state.players[0]


def cards_with(t, trigger: int, n: int) -> list[int]:
    """``n`` Unification cards whose printed trigger is ``trigger``."""
    found = [c for c in range(1, 121) if t.card_trigger[c] == trigger]
    return found[:n]


def ability_card(t, **wanted):
    """A card whose ability has an alternative with a step matching ``wanted``."""
    for c in range(1, len(t.card_ability)):
        ability = t.card_ability[c]
        if ability is not None and any(
                all(getattr(e, k, None) == v for k, v in wanted.items())
                for steps in ability.options for e in steps):
            return c
    raise AssertionError(f"no card ability with a step {wanted}")


# --- Unification and the Court actions ------------------------------------------------------


def test_a_region_takes_no_fourth_card_nor_a_card_whose_unrest_breaks_the_cap(table):
    # Rulebook, Unification action: at most three cards a region, the 2nd and 3rd raise Unrest
    # (by 1 and 2), and Unrest never goes past 3.
    _, rules, _, p = table
    p.tableau[CHU] = [1, 2, 3]
    p.tableau[WEI] = [4, 5]
    p.unrest[WEI] = 1  # a 3rd card would add 2: 3, still allowed
    p.tableau[ZHAO] = [6, 7]
    p.unrest[ZHAO] = 2  # a 3rd card would add 2: 4, refused
    p.tableau[QI] = [8]
    p.unrest[QI] = 3  # a 2nd card would add 1: 4, refused
    assert queries.unify_regions(rules, p) == [WEI, YAN]


def test_hiring_needs_a_general_and_room_for_one_more_unrest(table):
    # Court actions, Hire two Workers: a region with a General; refused when the +1 Unrest
    # would pass the cap.
    _, rules, _, p = table
    p.officials[CHU][GEN] = 1
    p.officials[WEI][GEN] = 1
    p.unrest[WEI] = 3
    p.officials[ZHAO][ARCH] = 1
    assert queries.hire_regions(rules, p) == [CHU]


def test_a_palace_needs_an_architect_two_workers_there_and_one_elsewhere(table):
    # Court actions, Build a Palace: spend two Workers of the region and one of another.
    _, rules, _, p = table
    p.officials[CHU][ARCH] = p.officials[WEI][ARCH] = 1
    p.workers[CHU] = 2
    p.workers[WEI] = 3
    assert queries.palace_regions(rules, p) == [CHU, WEI]  # each pays the other's Worker
    p.workers[WEI] = 1
    assert queries.palace_regions(rules, p) == [CHU]
    p.workers = [3, 0, 0, 0, 0]
    assert queries.palace_regions(rules, p) == []  # no Worker elsewhere to pay with
    p.palaces = 0
    assert queries.palace_regions(rules, p) == []  # every Palace is on the board


def test_a_governor_needs_one_official_of_each_type_in_the_region(table):
    # Court actions, Install a Governor: one Alchemist, one Architect and one General return.
    _, _, _, p = table
    p.officials[QI] = [1, 1, 1]
    p.officials[YAN] = [2, 2, 0]
    assert queries.governor_regions(p) == [QI]
    p.governors = 0
    assert queries.governor_regions(p) == []


def test_asked_for_the_first_region_only_the_region_queries_stop_at_the_first(table):
    # court_actions only asks whether there is a region: ``first`` gives the full list's head
    _, rules, _, p = table
    p.officials = [[1, 1, 1], [0, 1, 1], [1, 1, 1], [0, 0, 0], [0, 1, 1]]
    p.workers = [2, 2, 0, 0, 2]
    p.unrest = [3, 0, 0, 0, 0]
    queries_of_p = (lambda first: queries.hire_regions(rules, p, first=first),
                    lambda first: queries.palace_regions(rules, p, first=first),
                    lambda first: queries.governor_regions(p, first=first))
    for query, full in zip(queries_of_p, ([WEI, ZHAO, YAN], [CHU, WEI, YAN], [CHU, ZHAO]),
                           strict=True):
        assert query(False) == full
        assert query(True) == full[:1]
    p.officials = [[0, 0, 0]] * 5
    assert all(query(True) == [] for query in queries_of_p)


def test_a_court_action_is_offered_only_if_it_can_be_performed(table):
    # RULINGS 9: a Ship on the last space cannot Search; rulebook, Build 1 Wall: not with
    # every Wall on the board; Recruit needs an Official left in the supply.
    t, rules, state, p = table
    p.official_supply = [0, 0, 0]
    p.ship = len(t.box.board.elixir.vp) - 1
    p.walls = 0
    assert queries.ship_at_end(t, p)
    assert queries.court_actions(t, rules, state, p) == []
    p.ship -= 1
    p.walls = 1
    p.workers[CHU] = 1
    assert queries.court_actions(t, rules, state, p) == [ELIXIR, WALL]


def test_a_hand_with_no_legal_use_is_discarded(table):
    # RULINGS 25: no region can take the card and no Court action can be performed.
    t, rules, state, p = table
    state.hands[p.seat] = [10, 50]
    p.tableau = [[1, 2, 3] for _ in range(5)]
    p.official_supply = [0, 0, 0]
    p.ship = len(t.box.board.elixir.vp) - 1
    p.walls = 0
    assert queries.turn_options(t, rules, state, p) == [("discard", 10), ("discard", 50)]
    p.walls = 1
    p.workers[CHU] = 1
    assert queries.turn_options(t, rules, state, p) == [("court", 10, WALL),
                                                        ("court", 50, WALL)]


# --- which abilities fire --------------------------------------------------------------------


@pytest.mark.parametrize(("action", "lower"), [
    (RECRUIT, True), (ELIXIR, True), (GOVERNOR, True),
    (HIRE, False), (PALACE, False), (WALL, False),
])
def test_recruit_elixir_and_governor_fire_on_a_lower_number_the_others_on_a_higher(
        action, lower):
    # Rulebook, Activate card abilities: the card played must be lower (Recruit, Search,
    # Governor) or higher (Hire, Palace, Wall) than the card just below it on the Court.
    assert queries.activates(action, 30, 40, free=False) is lower
    assert queries.activates(action, 50, 40, free=False) is not lower
    # RULINGS 19: the first Court card (nothing below it) fires whatever its number
    assert queries.activates(action, 30, NO_ONE, free=True)
    assert queries.activates(action, 50, NO_ONE, free=True)


def test_the_court_top_is_the_last_card_played(table):
    _, _, state, _ = table
    state.court = []
    assert queries.court_top(state) == NO_ONE
    state.court = [12, 7]
    assert queries.court_top(state) == 7


def test_an_action_triggers_the_cards_showing_it_or_carrying_its_emperor_tile(table):
    # RULINGS 13: an Emperor tile on a card replaces the card's trigger; RULINGS 20: no card
    # of a region at Unrest 3 activates.
    t, rules, _, p = table
    recruit_cards = cards_with(t, RECRUIT, 3)
    wall_card = cards_with(t, WALL, 1)[0]
    p.tableau[CHU] = recruit_cards[:2]
    p.tableau[WEI] = [wall_card]
    p.tableau[ZHAO] = [recruit_cards[2]]
    p.unrest[ZHAO] = rules.unrest_cap
    p.emperor[recruit_cards[1]] = HIRE
    by = queries.triggered_cards(t, rules, p)
    assert by[RECRUIT] == [(CHU, recruit_cards[0])]
    assert by[HIRE] == [(CHU, recruit_cards[1])]
    assert by[WALL] == [(WEI, wall_card)]
    assert by[ELIXIR] == by[PALACE] == by[GOVERNOR] == []


def test_a_triggered_ability_is_offered_once_and_not_in_a_region_at_the_cap(table):
    # RULINGS 20: any subset of the matching abilities, each once; none in a region at
    # Unrest 3 (where, besides, its own Unrest cost could not be paid).
    t, rules, _, p = table
    card = ability_card(t, effect="raise_unrest", where="here")
    action = t.card_trigger[card]
    p.tableau[QI] = [card]
    assert queries.triggered_abilities(t, rules, p, action, set()) == [("ability", card)]
    assert queries.triggered_abilities(t, rules, p, action, {card}) == []
    p.unrest[QI] = rules.unrest_cap
    assert queries.triggered_abilities(t, rules, p, action, set()) == []


# --- room for cards, the Mausoleum ----------------------------------------------------------


def test_an_elixir_symbol_places_an_alchemist_card_only_by_an_alchemist_with_room(table):
    # Rulebook, Search for the Elixir: an Alchemist card goes to a region holding one of the
    # player's Alchemists; RULINGS 12: it counts towards the three cards of the region.
    _, rules, _, p = table
    p.officials[CHU][ALCH] = p.officials[ZHAO][ALCH] = 1
    p.officials[WEI][ARCH] = 1
    p.tableau[ZHAO] = [1, 2, 3]
    assert queries.elixir_card_regions(rules, p) == (CHU,)
    assert queries.with_room(rules, p, (WEI, ZHAO)) == (WEI,)


def test_a_soldier_may_go_where_it_is_not_yet_and_the_top_open_slot_is_usable(table):
    # RULINGS 10: three slots worth 8, 5, 3 taken top down, the third only with three or more
    # players; one soldier of a player per tile.
    t, _, state, p = table
    spots = state.mausoleum
    spots[0].slots[0] = p.seat
    spots[1].slots[0] = p.seat + 1
    spots[2].slots[:] = [p.seat + 1, p.seat + 2, p.seat + 3]
    spots[3].slots[:2] = [p.seat + 1, p.seat + 2]
    free = queries.free_spots(t, state, p)
    assert 0 not in free and 2 not in free
    assert {1, 3} <= set(free)
    state.n = 2  # with two players the third slot is not used
    free = queries.free_spots(t, state, p)
    assert 1 in free and 3 not in free


# --- what an ability costs -------------------------------------------------------------------


def test_unrest_costs_add_up_within_one_alternative(table):
    # Rulebook, Unrest: a region's Unrest never passes 3, so every increase of an alternative,
    # together, must fit.
    t, rules, _, p = table
    box = t.box
    steps = box.abilities["palace_unrest_vp_cards"].options[0]
    raises = [e for e in steps if e.effect == "raise_unrest"]
    assert raises  # the tile raises the Unrest of its region
    p.unrest[WEI] = rules.unrest_cap - sum(e.amount for e in raises)
    assert queries.costs_payable(rules, p, steps, WEI)
    p.unrest[WEI] += 1
    assert not queries.costs_payable(rules, p, steps, WEI)
    assert not queries.costs_payable(rules, p, steps, NO_ONE)  # no region to raise


def test_a_ship_move_cannot_be_chosen_at_the_end_of_the_route(table):
    # RULINGS 26d: a two-sided ability whose one side moves the Ship leaves only the other.
    t, rules, _, p = table
    ability = t.box.abilities["gov_vp_palaces_or_ship_3"]
    ship_side = next(i for i, steps in enumerate(ability.options)
                     if any(e.effect == "ship" for e in steps))
    assert queries.feasible_options(t, rules, p, ability, CHU) == [0, 1]
    p.ship = len(t.box.board.elixir.vp) - 1
    assert queries.feasible_options(t, rules, p, ability, CHU) == [1 - ship_side]


# --- Walls -------------------------------------------------------------------------------------


def test_a_wall_goes_on_an_open_slot_of_a_section_without_ones_own_wall(table):
    # Rulebook, Build 1 Wall: one Wall per player and section; RULINGS 7: a slot's tier is its
    # Worker cost, each Worker from a different region.
    _, _, state, p = table
    p.workers = [1, 1, 0, 0, 0]
    state.walls[0].slots[0] = p.seat
    state.walls[1].slots[0] = p.seat + 1
    slots = queries.wall_slots(state, p, free=False)
    assert all(s != 0 for s, _ in slots)  # our own Wall is there
    assert (1, 0) not in slots  # taken by someone else
    assert {state.walls[s].tiers[i] for s, i in slots} == {1, 2}
    free = queries.wall_slots(state, p, free=True)
    assert {state.walls[s].tiers[i] for s, i in free} == {1, 2, 3}  # a free Wall pays nothing
    assert set(slots) < set(free)
    assert queries.wall_slots(state, p, free=False, first=True) == slots[:1]
    p.walls = 0
    assert queries.wall_slots(state, p, free=True) == []
    assert queries.wall_slots(state, p, free=True, first=True) == []


def test_wall_workers_come_from_different_regions(table):
    # Court actions, Build a Wall: two or more Workers are paid from as many regions.
    _, _, _, p = table
    p.workers = [3, 0, 1, 0, 1]
    assert queries.wall_payments(p, 2) == [(CHU, ZHAO), (CHU, YAN), (ZHAO, YAN)]
    assert queries.wall_payments(p, 4) == []


def test_what_each_wall_tile_counts(table):
    # Appendix 2: regions with an Official of a type, with a Worker, with a Palace, with two
    # cards of one type (Alchemist cards are a type), and quadruplets of the four types.
    t, _, state, p = table
    writing, currency, laws = 1, 41, 81
    alchemist = t.alchemist_sets[0][0]
    p.officials = [[1, 0, 0], [1, 1, 0], [0, 0, 2], [0, 0, 0], [0, 0, 0]]
    p.workers = [0, 4, 1, 0, 0]
    state.palace_count[QI][p.seat] = 1
    state.palace_count[YAN][p.seat + 1] = 1
    p.tableau = [[writing, 2], [alchemist, alchemist + 1], [currency, laws, 3], [], []]
    counts = queries.wall_counts(t, state, p)
    assert counts == {"alchemist": 2, "architect": 1, "general": 1, "regions_with_workers": 2,
                      "regions_with_palace": 1, "regions_with_pair": 2, "quadruplets": 1}
    for tile in t.box.wall_tiles:
        for face in (tile.a, tile.b):
            assert queries.wall_key(face) in counts


# --- Officials and the queries' own contract ---------------------------------------------------


def test_officials_step_to_adjacent_regions_and_chu_and_yan_are_not_adjacent(table):
    # RULINGS 6: the regions form a chain Chu-Wei-Zhao-Qi-Yan.
    _, _, _, p = table
    p.officials = [[0, 0, 1], [0, 0, 0], [0, 0, 0], [0, 0, 0], [1, 0, 0]]
    assert sorted(queries.official_moves(p)) == [(ALCH, YAN, QI), (GEN, CHU, WEI)]


def test_the_queries_leave_what_they_are_given_unchanged(table):
    t, rules, state, p = table
    p.tableau[CHU] = cards_with(t, ACTION_INDEX["hire"], 2)
    p.officials[CHU] = [1, 1, 1]
    p.workers = [3, 1, 0, 0, 0]
    before = pickle.dumps(state)
    queries.turn_options(t, rules, state, p)
    queries.triggered_abilities(t, rules, p, HIRE, set())
    queries.wall_counts(t, state, p)
    queries.wall_slots(state, p, free=True)
    queries.official_moves(p)
    assert pickle.dumps(state) == before
