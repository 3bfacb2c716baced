"""Rule corner cases, each a small constructed position asserting one rule of the rulebook."""

from __future__ import annotations

from zsim.components.schema import COLOURS
from zsim.game import play_game
from zsim.kinds import STOP, WORKER_MOVES
from zsim.rules import effects, mausoleum, pieces, queries, rewards, scoring, turn
from zsim.rules.tables import ACTION_INDEX
from zsim.state import NO_ONE
from zsim.strategies.random_bot import RandomStrategy

CHU, WEI, ZHAO, QI, YAN = range(5)
ALCH, ARCH, GEN = range(3)
WRITING, CURRENCY, LAWS = range(3)


def recruit(p, region, kind, n=1):
    p.official_supply[kind] -= n
    p.officials[region][kind] += n


def card_of(g, suit, trigger=None, exclude=()):
    """A Unification card of a suit (and trigger) taken out of its deck."""
    for c in g.state.decks[suit]:
        if c not in exclude and (trigger is None or g.t.card_trigger[c] == ACTION_INDEX[trigger]):
            g.state.decks[suit].remove(c)
            return c
    raise AssertionError("no such card in the deck")


# --- setup ----------------------------------------------------------------------------------


def test_colours_and_with_them_alchemist_sets_are_dealt_to_seats_at_random(make_game):
    # RULINGS 27c: each game deals the colours (and so the Alchemist sets) from its seed
    first_seat = set()
    for seed in range(12):
        g = make_game(seed=seed)
        first_seat.add(g.state.players[0].colour)
        for p in g.state.players:
            assert p.alchemist_supply == list(g.t.alchemist_sets[p.colour])
    assert len(first_seat) > 1


def test_a_game_records_each_players_colour(box):
    # RULINGS 27c: the colour is a setup feature of the players table
    result = play_game(box, [RandomStrategy() for _ in range(3)], seed=5)
    colours = [row["colour"] for row in result.player_rows()]
    assert len(set(colours)) == 3 and set(colours) <= set(COLOURS)


# --- Unification action and Unrest -----------------------------------------------------------


def test_second_and_third_card_raise_unrest_and_pay_one_two_three_tokens(make_game):
    g = make_game()
    p = g.state.players[0]
    for expected_unrest, expected_tokens in ((0, 1), (1, 3), (3, 6)):
        turn.unify(g, p, card_of(g, WRITING), CHU)
        assert p.unrest[CHU] == expected_unrest
        assert p.tokens[WRITING] == expected_tokens
    assert CHU not in queries.unify_regions(g.rules, p)  # three cards: the region is full


def test_unification_tokens_stop_at_an_exhausted_supply(make_game):
    g = make_game()
    p = g.state.players[0]
    turn.unify(g, p, card_of(g, LAWS), WEI)
    turn.unify(g, p, card_of(g, LAWS), WEI)
    g.state.supply[LAWS] = 2
    turn.unify(g, p, card_of(g, LAWS), WEI)  # the 3rd card would pay 3
    assert p.tokens[LAWS] == 3 + 2
    assert g.state.supply[LAWS] == 0
    turn.unify(g, p, card_of(g, LAWS), ZHAO)
    assert p.tokens[LAWS] == 5  # nothing left to take


def test_unrest_cap_blocks_a_card_that_would_push_unrest_over_three(make_game):
    g = make_game()
    p = g.state.players[0]
    turn.unify(g, p, card_of(g, WRITING), QI)
    turn.unify(g, p, card_of(g, WRITING), QI)
    p.unrest[QI] = 2  # the 3rd card would add 2
    assert QI not in queries.unify_regions(g.rules, p)
    p.unrest[QI] = 1
    assert QI in queries.unify_regions(g.rules, p)


def test_unrest_cap_blocks_hiring_and_unrest_costing_abilities(make_game):
    g = make_game()
    p = g.state.players[0]
    recruit(p, CHU, GEN)
    assert queries.hire_regions(g.rules, p) == [CHU]
    p.unrest[CHU] = 3
    assert queries.hire_regions(g.rules, p) == []
    ability = g.t.box.abilities["unrest_tokens_own"]
    ctx = effects.Context(CHU, 0, WRITING, "vp_cards")
    assert effects.feasible_options(g, p, ability, ctx, full=False) == []
    p.unrest[CHU] = 2
    assert effects.feasible_options(g, p, ability, ctx, full=False) == [0]


def test_hire_needs_a_general_and_raises_unrest(make_game):
    g = make_game()
    p = g.state.players[0]
    recruit(p, WEI, ARCH)
    assert ACTION_INDEX["hire"] not in queries.court_actions(g.t, g.rules, g.state, p)
    recruit(p, WEI, GEN, 2)
    assert ACTION_INDEX["hire"] in queries.court_actions(g.t, g.rules, g.state, p)
    turn.perform_hire(g, p)
    assert p.workers[WEI] == 2  # two Generals still hire two Workers
    assert p.unrest[WEI] == 1


# --- Palaces, Governors, Walls ---------------------------------------------------------------


def test_palace_pays_two_workers_there_and_one_elsewhere_takes_tile_and_large_token(make_game):
    g = make_game()
    p = g.state.players[0]
    recruit(p, ZHAO, ARCH)
    p.workers[ZHAO] = 2
    assert queries.palace_regions(g.rules, p) == []  # no Worker elsewhere
    p.workers[YAN] = 1
    assert queries.palace_regions(g.rules, p) == [ZHAO]
    tiles_before = len(g.state.palace_tiles[ZHAO])
    turn.perform_palace(g, p)
    assert p.workers == [0, 0, 0, 0, 0]
    assert g.state.palace_count[ZHAO][0] == 1 and p.palaces == g.rules.palaces - 1
    assert len(g.state.palace_tiles[ZHAO]) == tiles_before - 1
    assert p.vp["vp_palaces"] == g.rules.palace_vp
    assert sum(p.large) == 1 and sum(g.state.large_on_board) == 2


def test_palace_with_the_last_large_token_gone_and_no_tile_left(make_game):
    g = make_game()
    p = g.state.players[0]
    g.state.large_on_board = [0, 0, 0]
    g.state.palace_tiles[CHU] = []
    effects.build_palace(g, p, CHU, large_token=True)
    assert p.large == [0, 0, 0]
    assert p.vp == {"vp_palaces": g.rules.palace_vp}


def test_unrest_palace_tile_cannot_be_taken_at_unrest_three(make_game, box):
    g = make_game()
    p = g.state.players[0]
    unrest_tile = next(i for i, t in enumerate(box.palace_tiles)
                       if t.ability == "palace_unrest_vp_cards")
    g.state.palace_tiles[CHU] = [unrest_tile]
    p.unrest[CHU] = 3
    assert effects.palace_tile_options(g, p, CHU) == []
    p.unrest[CHU] = 2
    assert effects.palace_tile_options(g, p, CHU) == [unrest_tile]


def test_governor_needs_one_official_of_each_type_and_resets_unrest(make_game):
    g = make_game()
    p = g.state.players[0]
    recruit(p, QI, ALCH)
    recruit(p, QI, ARCH)
    assert queries.governor_regions(p) == []
    recruit(p, QI, GEN)
    recruit(p, QI, GEN)
    p.unrest[QI] = 2
    assert queries.governor_regions(p) == [QI]
    g.strategies[0].script("governor_slot", "area")
    turn.perform_governor(g, p)
    assert p.officials[QI] == [0, 0, 1]
    assert p.official_supply == [4, 4, 3]
    assert p.unrest[QI] == 0
    assert g.state.governor_count[QI][0] == 1
    assert all(holder == NO_ONE for _, holder in g.state.governor_slots[QI])


def test_governor_bonus_slot_is_taken_once_then_only_the_area_remains(make_game):
    g = make_game(n=2)
    a, b = g.state.players
    (slot,) = g.state.governor_slots[YAN]  # one bonus slot per region with 2 players
    g.strategies[0].script("governor_slot", 0)
    effects.install_governor(g, a, YAN)
    assert slot[1] == 0
    effects.install_governor(g, b, YAN)  # the only option left is the area: not even asked
    assert not g.strategies[1].offered("governor_slot")
    assert g.state.governor_count[YAN] == [1, 1]


def test_wall_workers_come_from_distinct_regions(make_game):
    g = make_game()
    p = g.state.players[0]
    p.workers[CHU] = 5
    # a single region with Workers pays only 1-Worker slots
    slots = queries.wall_slots(g.state, p, False)
    assert {g.state.walls[s].tiers[i] for s, i in slots} == {1}
    p.workers[YAN] = 1
    assert queries.wall_payments(p, 2) == [(CHU, YAN)]
    assert queries.wall_payments(p, 3) == []


def test_one_wall_per_section_per_player(make_game):
    g = make_game()
    p = g.state.players[0]
    p.workers = [1, 1, 1, 1, 1]
    pieces.build_wall(g, p, 0, 0)
    assert all(s != 0 for s, _ in queries.wall_slots(g.state, p, False))
    other = g.state.players[1]
    other.workers = [1, 1, 1, 1, 1]
    assert any(s == 0 for s, _ in queries.wall_slots(g.state, other, False))


def test_emperor_tile_goes_only_to_a_first_builder_with_a_tucked_card(make_game):
    g = make_game()
    section = next(i for i, w in enumerate(g.state.walls) if w.emperor_tile != NO_ONE)
    wall = g.state.walls[section]
    a, b = g.state.players[0], g.state.players[1]
    pieces.build_wall(g, a, section, 0)  # first builder, but no tableau card
    assert wall.first_builder == 0 and wall.emperor_tile != NO_ONE and not a.emperor
    turn.unify(g, b, card_of(g, CURRENCY), CHU)
    pieces.build_wall(g, b, section, 1)  # has a card but is not first
    assert wall.emperor_tile != NO_ONE and not b.emperor


def test_emperor_tile_needs_a_unification_action_not_just_an_alchemist_card(make_game):
    # RULINGS 26b: an Alchemist card on the board (e.g. from a Starting tile) is no Unification
    # action, so the first builder leaves the tile on the section
    g = make_game()
    section = next(i for i, w in enumerate(g.state.walls) if w.emperor_tile != NO_ONE)
    p = g.state.players[0]
    pieces.place_alchemist_card(g, p, p.alchemist_supply[0], CHU)
    pieces.build_wall(g, p, section, 0)
    assert not p.emperor and g.state.walls[section].emperor_tile != NO_ONE


def test_an_alchemist_card_may_receive_the_emperor_tile(make_game):
    # RULINGS 26b: once a Unification action is played, any tableau card may take the tile
    g = make_game()
    section = next(i for i, w in enumerate(g.state.walls) if w.emperor_tile != NO_ONE)
    p = g.state.players[0]
    alchemist = p.alchemist_supply[0]
    pieces.place_alchemist_card(g, p, alchemist, CHU)
    turn.unify(g, p, card_of(g, LAWS), WEI)
    g.strategies[0].script("emperor", alchemist)
    pieces.build_wall(g, p, section, 0)
    assert alchemist in p.emperor


def test_emperor_tile_changes_the_trigger_of_the_chosen_card(make_game):
    g = make_game()
    section = next(i for i, w in enumerate(g.state.walls) if w.emperor_tile != NO_ONE)
    action = ACTION_INDEX[g.t.box.emperor_tiles[g.state.walls[section].emperor_tile].action]
    p = g.state.players[0]
    card = card_of(g, WRITING)
    turn.unify(g, p, card, CHU)
    pieces.build_wall(g, p, section, 0)
    assert p.emperor == {card: action}
    assert g.state.walls[section].emperor_tile == NO_ONE


# --- activation -----------------------------------------------------------------------------


def _tableau_with(g, p, trigger, region=CHU):
    card = card_of(g, LAWS, trigger)
    turn.unify(g, p, card, region)
    return card


def test_first_court_card_activates_whatever_its_number(make_game):
    g = make_game()
    p = g.state.players[0]
    card = _tableau_with(g, p, "recruit")
    g.strategies[0].script("activate", "pass")
    turn.court_card(g, p, 120, ACTION_INDEX["recruit"])  # highest number, a 'lower' action
    assert ("ability", card) in g.strategies[0].offered("activate")[-1]


def test_lower_actions_need_a_lower_number_and_higher_actions_a_higher_one(make_game):
    g = make_game()
    p = g.state.players[0]
    recruit_card = _tableau_with(g, p, "recruit")
    g.state.court = [50]
    g.state.court_free = False
    g.strategies[0].script("activate", "pass", "pass")
    turn.court_card(g, p, 60, ACTION_INDEX["recruit"])  # 60 > 50: not in step
    assert ("ability", recruit_card) not in g.strategies[0].offered("activate")[-1]
    turn.court_card(g, p, 40, ACTION_INDEX["recruit"])  # 40 < 60: in step
    assert ("ability", recruit_card) in g.strategies[0].offered("activate")[-1]


def test_higher_action_activates_on_a_higher_number(make_game):
    g = make_game()
    p = g.state.players[0]
    hire_card = _tableau_with(g, p, "hire")
    recruit(p, WEI, GEN)
    g.state.court = [10]
    g.state.court_free = False
    g.strategies[0].script("activate", "pass")
    turn.court_card(g, p, 11, ACTION_INDEX["hire"])
    assert ("ability", hire_card) in g.strategies[0].offered("activate")[-1]


def test_no_activation_in_a_region_at_unrest_three(make_game):
    g = make_game()
    p = g.state.players[0]
    card = _tableau_with(g, p, "recruit", region=YAN)
    p.unrest[YAN] = 3
    assert queries.triggered_abilities(g.t, g.rules, p, ACTION_INDEX["recruit"], set()) == []
    p.unrest[YAN] = 2
    assert queries.triggered_abilities(g.t, g.rules, p, ACTION_INDEX["recruit"], set()) in (
        [("ability", card)], [])  # offered unless its own costs do not fit


def test_chu_and_yan_are_not_adjacent(make_game):
    g = make_game()
    p = g.state.players[0]
    recruit(p, CHU, GEN)
    recruit(p, YAN, ARCH)
    assert sorted(queries.official_moves(p)) == [(ARCH, YAN, QI), (GEN, CHU, WEI)]


# --- Elixir route ---------------------------------------------------------------------------


def test_a_move_crossing_two_elixir_symbols_pays_two_rewards(make_game):
    g = make_game()
    p = g.state.players[0]
    p.ship = 2
    pieces.move_ship(g, p, 4)  # passes 3 and reaches 6
    assert p.ship == 6
    assert len(g.strategies[0].offered("elixir")) + (p.entrance - 1) == 2
    assert p.entrance == 3  # with no Alchemist official both rewards unlock a soldier


def test_master_alchemist_taken_once(make_game):
    g = make_game()
    p = g.state.players[0]
    p.ship = 8
    available = len(g.state.master_available)
    pieces.move_ship(g, p, 1)
    assert p.master_taken and len(g.state.master_available) == available - 1
    p.ship = 8
    pieces.move_ship(g, p, 1)
    assert len(g.state.master_available) == available - 1


def test_end_of_the_elixir_route_wastes_movement_and_blocks_the_action(make_game):
    g = make_game()
    p = g.state.players[0]
    end = len(g.t.box.board.elixir.vp) - 1
    p.ship = end - 1
    pieces.move_ship(g, p, 3)
    assert p.ship == end
    assert ACTION_INDEX["elixir"] not in queries.court_actions(g.t, g.rules, g.state, p)
    ctx = effects.Context(NO_ONE, 0, WRITING, "vp_rewards")
    assert effects.feasible_options(g, p, g.t.box.abilities["r_ship_4"], ctx, full=True) == []


def test_a_two_sided_card_at_the_end_of_the_route_offers_only_its_other_side(make_game):
    # RULINGS 26d: "Hire 1 Worker in any region / Move your Ship 2 spaces" with the Ship on the
    # last space: only the hire may be chosen
    g = make_game()
    p = g.state.players[0]
    p.ship = len(g.t.box.board.elixir.vp) - 1
    ability = g.t.box.abilities["alch_hire_any_or_ship_2"]
    ctx = effects.Context(CHU, 0, 3, "vp_cards")
    assert effects.feasible_options(g, p, ability, ctx, full=False) == [0]


def test_moving_up_to_two_workers_moves_each_worker_once(make_game):
    # "Move up to 2 of your Workers to an adjacent region": two Workers, one step each; the
    # Worker that moved is not offered a second step
    g = make_game()
    p = g.state.players[0]
    p.workers = [1, 0, 0, 0, 0]
    seat = g._seats().strategies[0]
    first = WORKER_MOVES[CHU][WEI]
    seat.script("move_worker", first)
    ability = g.t.box.abilities["alch_unlock_or_move_workers_2"]
    effects.resolve_steps(g, p, ability.options[1], effects.Context(CHU, 0, 3, "vp_cards"))
    assert p.workers == [0, 1, 0, 0, 0]
    assert len(seat.offered("move_worker")) == 1  # nothing left to move: not asked again
    # with a Worker that has not moved in Wei, that one may still move, once
    p.workers = [1, 1, 0, 0, 0]
    seat.asked.clear()
    seat.script("move_worker", first, WORKER_MOVES[WEI][ZHAO])
    effects.resolve_steps(g, p, ability.options[1], effects.Context(CHU, 0, 3, "vp_cards"))
    assert p.workers == [0, 1, 1, 0, 0]
    second = seat.offered("move_worker")[1]
    assert {o.source for o in second if o != STOP} == {WEI}


def test_a_ship_card_does_not_activate_at_the_end_of_the_route(make_game):
    # RULINGS 26d: "Advance your Ship 1 space" cannot be chosen with the Ship on the last space
    g = make_game()
    p = g.state.players[0]
    card = next(c for c in g.state.decks[WRITING] if g.t.card_ability_id[c] == "ship_1")
    g.state.decks[WRITING].remove(card)
    turn.unify(g, p, card, CHU)
    p.ship = len(g.t.box.board.elixir.vp) - 1
    assert queries.triggered_abilities(g.t, g.rules, p, g.t.card_trigger[card], set()) == []


def _governor_tile(g, ability):
    return next(i for i, tile in enumerate(g.t.box.governor_tiles) if tile.ability == ability)


def test_a_governor_bonus_at_the_end_of_the_route_takes_the_other_side(make_game):
    # RULINGS 26d: "1 VP per Palace / Move your Ship 3 spaces" with the Ship on the last space
    # gives the Palace VP, even to a player who would rather move the Ship
    g = make_game(n=2)
    p = g.state.players[0]
    g.state.governor_slots[CHU] = [[_governor_tile(g, "gov_vp_palaces_or_ship_3"), NO_ONE]]
    g.state.palace_count[WEI][0] = 1
    p.ship = len(g.t.box.board.elixir.vp) - 1
    g.strategies[0].script("governor_slot", 0).script("bonus", 1)
    effects.install_governor(g, p, CHU)
    assert p.vp.get("vp_governor_tiles") == 1


def test_a_governor_bonus_cannot_be_skipped(make_game):
    # RULINGS 26c: on a bonus space the bonus is received; the owner only picks its side
    g = make_game(n=2)
    p = g.state.players[0]
    g.state.governor_slots[CHU] = [[_governor_tile(g, "gov_calm_two_or_vp_alchemists"), NO_ONE]]
    g.strategies[0].script("governor_slot", 0)
    effects.install_governor(g, p, CHU)
    assert g.strategies[0].offered("bonus") == [[0, 1]]


def test_elixir_reward_places_an_alchemist_card_only_where_an_alchemist_is(make_game):
    g = make_game()
    p = g.state.players[0]
    recruit(p, ZHAO, ALCH)
    p.soldiers = 0
    p.ship = 2
    pieces.move_ship(g, p, 1)
    (options,) = g.strategies[0].offered("elixir")
    assert {region for _, _, region in options} == {ZHAO}
    assert len(p.tableau[ZHAO]) == 1


# --- Mausoleum ------------------------------------------------------------------------------


def _spot(g, condition):
    return next(i for i, s in enumerate(g.state.mausoleum)
                if g.t.box.mausoleum_tiles[s.tile].condition == condition)


def test_soldiers_take_the_topmost_slot_and_one_per_tile_per_player(make_game):
    g = make_game(n=3)
    spot = _spot(g, "master_alchemist")
    values = g.t.box.board.mausoleum.slot_values
    for seat in range(3):
        p = g.state.players[seat]
        p.ship = g.t.box.board.elixir.master_alchemist_space  # the Elixir tile's condition
        assert mausoleum.eligible_spots(g, p) == [spot]
        mausoleum.place_soldier(g, p, spot)
        assert p.vp["vp_mausoleum"] == values[seat]
        p.entrance = 1
        assert mausoleum.eligible_spots(g, p) == []


def test_wall_conditions_read_only_the_sections_of_their_own_site(make_game):
    g = make_game()
    p = g.state.players[0]
    walls = g.state.walls
    site = walls[0].site
    here = [w for w in walls if w.site == site]
    other = next(w for w in walls if w.site != site)
    both, high, first = (mausoleum.CONDITIONS[c].met for c in
                         ("both_sections", "high_wall", "first_builder"))
    other.slots[other.tiers.index(max(other.tiers))] = 0  # a high Wall on another site
    other.first_builder = 0
    assert not (both(g, p, site) or high(g, p, site) or first(g, p, site))
    here[0].slots[0] = 0  # the lowest tier of one section here, built first
    here[0].first_builder = 0
    assert first(g, p, site) and not both(g, p, site) and not high(g, p, site)
    here[1].slots[here[1].tiers.index(max(here[1].tiers))] = 0  # the top tier of the other
    assert both(g, p, site) and high(g, p, site)
    q = g.state.players[1]
    assert not (both(g, q, site) or high(g, q, site) or first(g, q, site))


def test_no_third_slot_with_two_players(make_game):
    g = make_game(n=2)
    spot = _spot(g, "master_alchemist")
    for p in g.state.players:
        p.ship = g.t.box.board.elixir.master_alchemist_space  # the Elixir tile's condition
        mausoleum.place_soldier(g, p, spot)
    assert g.state.mausoleum[spot].slots[2] == NO_ONE
    assert g.t.mausoleum_slots[g.state.n] == 2  # the table the rules read


def test_mausoleum_rows_and_columns_score_ten_each(make_game):
    g = make_game()
    grid = g.state.mausoleum
    for i in (0, 1, 2, 3, 6):  # the top row and the left column
        grid[i].slots[0] = 0
    assert mausoleum.lines(g, 0) == 2
    assert scoring.final_scores(g)[0]["vp_mausoleum_lines"] == 2 * g.rules.mausoleum_line_vp


def test_extra_soldiers_score_two_five_nine(make_game):
    g = make_game()
    p = g.state.players[0]
    got = []
    for n in range(5):
        p.entrance = n
        got.append(scoring.extra_soldier_vp(g, p))
    assert got == [0, 2, 5, 9, 9]


# --- Unification rewards --------------------------------------------------------------------


def _reward_game(make_game, n=3):
    g = make_game(n=n)
    g.state.round = 1
    g.state.turn_order = list(range(n))
    g.state.marker_column = [NO_ONE] * n
    return g


def test_reward_tie_break_follows_the_turn_order_track(make_game):
    g = _reward_game(make_game)
    g.state.turn_order = [2, 0, 1]
    for p in g.state.players:
        p.tokens[WRITING] = 2
    rewards.award(g, WRITING, 0, "r_unlock_2")
    assert g.state.marker_column == [NO_ONE, NO_ONE, 0]
    assert g.state.players[2].tokens[WRITING] == 0
    assert g.state.players[0].tokens[WRITING] == 2


def test_a_passed_reward_goes_down_the_ranking(make_game):
    g = _reward_game(make_game)
    a, b, c = g.state.players
    a.tokens[CURRENCY] = 3
    b.large[CURRENCY] = 1  # worth 2
    c.tokens[CURRENCY] = 1
    g.state.large_on_board[CURRENCY] = 0
    g.strategies[0].script("reward", "pass")
    g.strategies[1].script("reward", "accept")
    rewards.award(g, CURRENCY, 1, "r_ship_4")
    assert g.state.marker_column == [NO_ONE, 1, NO_ONE]
    assert a.tokens[CURRENCY] == 3 and b.large[CURRENCY] == 0
    assert g.state.large_on_board[CURRENCY] == 1  # the large token goes back to the board
    assert b.ship == 4


def test_a_reward_that_cannot_be_taken_in_full_passes_down(make_game):
    g = _reward_game(make_game)
    a, b, _ = g.state.players
    a.tokens[LAWS], b.tokens[LAWS] = 4, 1
    a.official_supply[ARCH] = 1  # needs two Architects
    rewards.award(g, LAWS, 2, "r_recruit_2_architects_chu")
    assert g.state.marker_column == [NO_ONE, 2, NO_ONE]
    assert b.officials[CHU][ARCH] == 2


def test_new_turn_order_puts_reward_takers_last_by_slot(make_game):
    g = make_game(n=4)
    g.state.turn_order = [3, 1, 0, 2]
    g.state.marker_column = [2, NO_ONE, 0, NO_ONE]
    rewards.new_turn_order(g)
    assert g.state.turn_order == [3, 1, 2, 0]


def test_token_limits_return_large_tokens_and_keep_five_small(make_game):
    g = make_game()
    p = g.state.players[0]
    p.tokens = [4, 3, 0]
    g.state.supply[WRITING] -= 4
    g.state.supply[CURRENCY] -= 3
    p.large = [1, 0, 0]
    g.state.large_on_board = [0, 1, 1]
    g.strategies[0].script("discard_token", WRITING, WRITING)
    rewards.enforce_token_limits(g, p)
    assert p.tokens == [2, 3, 0] and p.large == [0, 0, 0]
    assert g.state.large_on_board == [1, 1, 1]


def test_two_tokens_unlock_nothing_even_with_a_large_one(make_game):
    # RULINGS 26a: a soldier costs 3 tokens; a large token is one token, not two
    g = make_game()
    p = g.state.players[0]
    p.tokens = [1, 0, 0]
    p.large = [0, 1, 0]
    assert rewards.unlock_payments(g, p) == []


def test_two_large_tokens_along_a_small_one_unlock_a_soldier(make_game):
    # RULINGS 26a: "large tokens along a small one" is 2 large + 1 small
    g = make_game()
    p = g.state.players[0]
    p.tokens = [1, 0, 0]
    p.large = [1, 1, 0]
    assert rewards.unlock_payments(g, p) == [(WRITING, WRITING + 3, CURRENCY + 3)]


def test_three_large_tokens_alone_unlock_a_soldier(make_game):
    # RULINGS 26a: a player holding only large tokens can unlock
    g = make_game()
    p = g.state.players[0]
    p.large = [1, 1, 1]
    assert rewards.unlock_payments(g, p) == [(WRITING + 3, CURRENCY + 3, LAWS + 3)]


def test_an_up_to_reward_can_be_accepted_with_no_alchemist_card_left(make_game):
    # RULINGS 26e: "Place up to two Alchemist cards" may place fewer, even none
    g = _reward_game(make_game)
    p = g.state.players[0]
    p.alchemist_supply = []
    ability = g.t.box.abilities["r_place_alchemist_up_to_2"]
    ctx = effects.Context(NO_ONE, 0, WRITING, "vp_rewards")
    assert effects.feasible_options(g, p, ability, ctx, full=True) == [0]


# --- end-game scoring -----------------------------------------------------------------------


def test_governor_majority_split_is_rounded_down(make_game):
    g = make_game(n=3)  # 15 VP per region
    g.state.governor_count[CHU] = [2, 2, 1]
    g.state.governor_count[WEI] = [0, 0, 1]
    assert scoring.majority_vp(g) == [7, 7, 15]


def test_elixir_scoring_multiplies_alchemist_cards_by_ship_value(make_game):
    g = make_game()
    p = g.state.players[0]
    pieces.place_alchemist_card(g, p, p.alchemist_supply[0], CHU)
    pieces.place_alchemist_card(g, p, p.alchemist_supply[0], WEI)
    p.ship = 15
    assert scoring.elixir_vp(g, p) == 2 * g.t.box.board.elixir.vp[15]


def test_ranks_share_first_place_on_a_tie():
    assert scoring.ranks([50, 70, 70, 10]) == [3, 1, 1, 4]


# --- rulings 9a, 10b, 13a: double Elixir symbols, the Elixir tile, Emperor tiles by their backs


def _double_symbol_game(n=2, seed=0):
    """A game on a route whose space 9 carries two Elixir symbols (ruling 9a)."""
    from tests.conftest import Scripted
    from zsim.components import default_box_dir, load_box
    from zsim.game import Game

    box = load_box(default_box_dir(), [("elixir.elixir_spaces", [3, 6, 9, 9, 12, 15])])
    return Game(box, [Scripted() for _ in range(n)], seed)


def test_a_double_elixir_symbol_resolves_twice_when_reached(make_game):
    # RULINGS 9a: a space listed twice carries two symbols; reaching it pays both
    g = _double_symbol_game()
    p = g.state.players[0]
    p.ship = 7
    entrance = p.entrance
    pieces.move_ship(g, p, 2)  # reaches 9: the Master Alchemist, then two Elixir rewards
    assert p.ship == 9 and p.master_taken
    assert p.entrance == entrance + 2  # no Alchemist Official: each symbol unlocks a soldier
    plain = make_game(n=2)  # the default route: one symbol on 9
    q = plain.state.players[0]
    q.ship, entrance = 7, q.entrance
    pieces.move_ship(plain, q, 2)
    assert q.entrance == entrance + 1


def test_a_double_elixir_symbol_resolves_twice_when_passed():
    g = _double_symbol_game()
    p = g.state.players[0]
    p.ship, entrance = 8, p.entrance
    p.officials[CHU][ALCH] = 1  # an Alchemist Official: each symbol offers a card or a soldier
    pieces.move_ship(g, p, 3)  # passes 9 (two symbols) to 11
    assert p.ship == 11 and len(g.strategies[0].offered("elixir")) == 2
    assert p.entrance == entrance + 2  # the first option, a soldier, both times


def test_the_route_counts_each_listing_of_a_space_as_one_symbol():
    g = _double_symbol_game()
    assert g.t.elixir_symbols[9] == 2 and g.t.elixir_symbols[3] == 1
    assert g.t.elixir_symbols[10] == 0 and len(g.t.elixir_symbols) == len(g.t.box.board.elixir.vp)


def test_the_elixir_tile_is_met_by_the_ship_on_the_master_space_with_no_card_left(make_game):
    # RULINGS 10b: the Ship reaching the Master Alchemist space meets the Elixir tile, whether
    # or not a Master Alchemist card was left to take
    g = make_game(n=2)
    p = g.state.players[0]
    spot = _spot(g, "master_alchemist")
    g.state.master_available.clear()
    p.ship = 6
    pieces.move_ship(g, p, 2)  # to 8: short of the space
    assert not mausoleum.condition_met(g, p, spot)
    pieces.move_ship(g, p, 3)  # passes 9 with no Master Alchemist card left
    assert not p.master_taken and p.ship == 11
    assert mausoleum.condition_met(g, p, spot)
    assert spot in mausoleum.eligible_spots(g, p)


def test_a_master_card_without_the_ship_on_the_space_does_not_meet_the_elixir_tile(make_game):
    g = make_game(n=2)
    p = g.state.players[0]
    pieces.gain_master(g, p, g.state.master_available[0])  # e.g. from a card ability
    assert p.ship < g.t.box.board.elixir.master_alchemist_space
    assert not mausoleum.condition_met(g, p, _spot(g, "master_alchemist"))


def test_emperor_tiles_lie_on_the_section_their_back_names(make_game):
    # RULINGS 13a, setup 4B: all six with 4 players, each on the section its back names
    for seed in range(6):
        g = make_game(n=4, seed=seed)
        for s, wall in enumerate(g.state.walls):
            assert wall.emperor_tile != NO_ONE
            assert g.t.box.emperor_tiles[wall.emperor_tile].section == s + 1


def test_with_fewer_players_discarded_emperor_tiles_leave_their_sections_empty(make_game):
    # setup 4B: 1 (3 players) or 2 (2 players) tiles are discarded at random; the others still
    # lie on their own sections
    for n, discarded in ((3, 1), (2, 2)):
        empty = set()
        for seed in range(30):
            g = make_game(n=n, seed=seed)
            tiles = [w.emperor_tile for w in g.state.walls]
            assert tiles.count(NO_ONE) == discarded
            for s, tile in enumerate(tiles):
                if tile == NO_ONE:
                    empty.add(s)
                else:
                    assert g.t.box.emperor_tiles[tile].section == s + 1
        assert len(empty) == len(g.state.walls)  # any section may be the empty one


def test_own_colour_tokens_are_performable_only_from_the_cards_own_suit(make_game):
    # a step giving tokens of the card's own colour needs that colour in supply, not any
    from zsim.components.schema import GainTokens

    g = make_game(n=2)
    p = g.state.players[0]
    steps = (GainTokens(effect="gain_tokens", color="own", count=2),)
    ctx = effects.Context(CHU, 0, CURRENCY, "vp_rewards")
    g.state.supply = [9, 1, 9]
    assert not effects.performable(g, p, steps, ctx)
    g.state.supply = [0, 2, 0]
    assert effects.performable(g, p, steps, ctx)
