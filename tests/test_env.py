"""The environments of ``zsim.env``: each passes its library's own checker and plays whole
games, and what they play is zsim's game."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")
pyspiel = pytest.importorskip("pyspiel")

import gymnasium  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from open_spiel.python.algorithms import evaluate_bots, mcts  # noqa: E402
from open_spiel.python.bots import uniform_random  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

from zsim.encode.codec import UnknownAction  # noqa: E402
from zsim.env import openspiel_game  # noqa: E402
from zsim.env.episode import final_rewards  # noqa: E402
from zsim.env.gym_env import ENV_ID, ZsimEnv  # noqa: E402
from zsim.env.pettingzoo_env import ZsimAEC  # noqa: E402
from zsim.game import Game  # noqa: E402


def test_pettingzoo_api_test_passes():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its notes on dict observations with action masks
        api_test(ZsimAEC(players=3, render_mode="ansi"), num_cycles=200)


def random_aec_game(env: ZsimAEC, seed: int) -> dict[str, float]:
    """A whole game through the AEC loop, each agent picking a legal action at random."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _ = env.last()
        totals[agent] += reward
        if termination or truncation:
            env.step(None)
            continue
        assert observation["action_mask"].any()
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    return totals


def test_a_pettingzoo_game_is_a_zsim_game_and_pays_the_margin(box):
    env = ZsimAEC(players=2)
    totals = random_aec_game(env, 5)
    result = env.episode.game.result()
    assert list(totals.values()) == final_rewards(result, "margin")
    vp = [s["vp_total"] for s in result.scores]
    assert totals["player_0"] == vp[0] - vp[1] == -totals["player_1"]
    # the same seed, the same game
    assert random_aec_game(ZsimAEC(players=2), 5) == totals
    wins = random_aec_game(ZsimAEC(players=2, reward="win"), 5)
    assert sorted(wins.values()) in ([0.0, 1.0], [0.5, 0.5])


def test_only_the_seat_asked_has_legal_actions():
    env = ZsimAEC(players=3)
    env.reset(seed=2)
    for _ in range(30):
        asked = env.agent_selection
        masks = {agent: env.observe(agent)["action_mask"] for agent in env.agents}
        assert masks[asked].sum() == len(env.episode.decision.options)
        assert all(not mask.any() for agent, mask in masks.items() if agent != asked)
        env.step(int(np.flatnonzero(masks[asked])[0]))


def test_gymnasium_check_env_passes():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the observation's unbounded top
        check_env(ZsimEnv(opponents=["greedy"]), skip_render_check=True)
        check_env(gymnasium.make(ENV_ID, opponents=["random", "basic"]).unwrapped,
                  skip_render_check=True)


def test_a_gymnasium_episode_against_strategies_is_their_game():
    env = ZsimEnv(opponents=["greedy"], seat=1)
    observation, _ = env.reset(seed=11)
    rng = np.random.default_rng(0)
    reward, done, steps = 0.0, False, 0
    while not done:
        legal = np.flatnonzero(observation["action_mask"])
        assert len(legal) == len(env.episode.decision.options) and env.episode.decision.seat == 1
        observation, reward, done, truncated, _ = env.step(int(rng.choice(legal)))
        assert not truncated
        steps += 1
    result = env.episode.game.result()
    assert result.strategies == ["greedy", "outside"]
    vp = [s["vp_total"] for s in result.scores]
    assert reward == vp[1] - vp[0] and steps > 30


def test_an_illegal_action_is_refused_without_moving_the_game():
    env = ZsimEnv(opponents=["random"], max_illegal=3)
    observation, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    before = env.episode.game.to_text()
    for i in range(3):
        observation, reward, done, truncated, info = env.step(illegal)
        assert reward == -1.0 and info["illegal"] and not done and truncated == (i == 2)
    assert env.episode.game.to_text() == before
    strict = ZsimEnv(opponents=["random"], illegal="raise")
    strict.reset(seed=1)
    with pytest.raises(UnknownAction):
        strict.step(illegal)


def test_openspiel_mcts_and_evaluate_bots_play_whole_games():
    game = pyspiel.load_game(openspiel_game.SHORT_NAME, {"players": 2, "seed": 3})
    rng = np.random.RandomState(0)
    bots = [mcts.MCTSBot(game, 2.0, 2, mcts.RandomRolloutEvaluator(1, rng), random_state=rng),
            uniform_random.UniformRandomBot(1, rng)]
    for _ in range(2):
        returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
        assert len(returns) == 2 and returns[0] == -returns[1] and returns[0] != 0


def test_openspiel_states_are_zsim_games():
    game = pyspiel.load_game(openspiel_game.SHORT_NAME, {"players": 3, "reward": "win"})
    state = game.new_initial_state()
    assert game.num_distinct_actions() == state.episode.codec.size
    rng = random.Random(4)
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal == sorted(legal) and state.current_player() == state.episode.decision.seat
        if len(state.history()) == 40:
            clone = state.clone()  # Game.fork(): the same game, apart
            assert clone.history() == state.history() and clone.episode is not state.episode
            assert clone.episode.game.to_text() == state.episode.game.to_text()
            seat = state.current_player()
            other = state.resample_from_infostate(seat, random.Random(9).random)
            assert np.array_equal(other.episode.observation(seat),
                                  state.episode.observation(seat))
            # the draw decks (hidden from everyone) are dealt again
            assert other.episode.game.state.decks != state.episode.game.state.decks
        state.apply_action(rng.choice(legal))
    returns = state.returns()
    assert sum(returns) == pytest.approx(1.0) and max(returns) > 0
    # the same answers to the same seed in the engine itself: the same game
    assert state.episode.game.result().scores == replay(state)


def replay(state) -> list:
    game = Game(state.episode.box, [None] * 3, state.episode.game.seed)
    codec = state.episode.codec
    for action in state.history():
        decision = game.pending()
        game.answer(codec.option(decision, action))
    return game.result().scores


def test_a_bad_reward_or_table_is_refused():
    with pytest.raises(ValueError, match="reward 'vp'"):
        ZsimAEC(reward="vp")
    with pytest.raises(ValueError, match="opponents"):
        ZsimEnv(opponents=["random"] * 4)
    with pytest.raises(ValueError, match="seat 2"):
        ZsimEnv(opponents=["random"], seat=2)


# --- OpenSpiel's conventions ---------------------------------------------------------------


def spiel(players: int = 2, reward: str = "margin", seed: int = 3):
    return pyspiel.load_game(openspiel_game.SHORT_NAME,
                             {"players": players, "reward": reward, "seed": seed})


@pytest.mark.parametrize(("players", "reward"), [(2, "margin"), (3, "win")])
def test_openspiel_random_sim_test_passes_with_serialization(players: int, reward: str):
    pyspiel.random_sim_test(spiel(players, reward), num_sims=1, serialize=True, verbose=False)


def test_openspiel_utility_types_and_bounds_follow_the_reward():
    kinds = pyspiel.GameType.Utility
    assert spiel(2).get_type().utility == kinds.ZERO_SUM and spiel(2).utility_sum() == 0.0
    assert spiel(3).get_type().utility == kinds.GENERAL_SUM
    win = spiel(4, "win")
    assert win.get_type().utility == kinds.CONSTANT_SUM and win.utility_sum() == 1.0
    assert (win.min_utility(), win.max_utility()) == (0.0, 1.0)
    margin = spiel(2)
    assert margin.max_utility() == -margin.min_utility() > 314  # a margin a real game reached


def test_openspiel_new_initial_state_is_the_seed_and_clones_draw_nothing():
    game = spiel(2, seed=5)
    first = game.new_initial_state()
    start = first.episode.game.to_text()
    rng = random.Random(0)
    for _ in range(25):
        first.apply_action(rng.choice(first.legal_actions()))
        first.clone()
    game.observation_tensor_shape()
    game.information_state_tensor_shape()
    again = game.new_initial_state()
    assert again.episode.game.seed == 5 and again.episode.game.to_text() == start
    assert game.new_initial_state("8").episode.game.seed == 8
    # a position text is a state too, standing where the text stands
    text = first.episode.game.to_text()
    assert game.new_initial_state(text).episode.game.to_text() == text


def test_openspiel_clone_is_a_fork_that_plays_on_alike():
    game = spiel(3, "win")
    state = game.new_initial_state()
    rng = random.Random(2)
    for _ in range(60):
        state.apply_action(rng.choice(state.legal_actions()))
    clone = state.clone()
    assert clone.history() == state.history() and str(clone) == str(state)
    assert clone.episode.game is not state.episode.game
    assert clone.information_state_string(1) == state.information_state_string(1)
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
        clone.apply_action(action)
    assert clone.returns() == state.returns()


def test_openspiel_serialization_keeps_the_position_and_its_random_state():
    game = spiel(2)
    state = game.new_initial_state()
    rng = random.Random(6)
    for _ in range(45):
        state.apply_action(rng.choice(state.legal_actions()))
    text = pyspiel.serialize_game_and_state(game, state)
    _, copy = pyspiel.deserialize_game_and_state(text)
    assert copy.history() == state.history() and str(copy) == str(state)
    assert copy.information_state_string(0) == state.information_state_string(0)
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
        copy.apply_action(action)
    assert copy.returns() == state.returns()


def test_openspiel_rng_state_reads_and_sets_what_later_chances_draw():
    state = spiel(2).new_initial_state()
    saved = state.get_rng_state()
    other = state.clone()
    other.set_rng_state(saved)
    assert other.get_rng_state() == saved
    assert other.episode.game.to_text() == state.episode.game.to_text()


def test_openspiel_information_state_has_perfect_recall():
    game = spiel(2)
    rng = random.Random(3)
    base = game.new_initial_state()
    while base.legal_actions() and len(base.legal_actions()) < 3:
        base.apply_action(base.legal_actions()[0])
    seat = base.current_player()
    first, second = base.clone(), base.clone()
    first.apply_action(base.legal_actions()[0])
    second.apply_action(base.legal_actions()[1])
    assert first.information_state_string(seat) != second.information_state_string(seat)
    assert (first.information_state_tensor(seat) != second.information_state_tensor(seat))
    # what the seat sees now and its own actions, nothing else: a determinised fork of the
    # position gives it the same information state, the hidden cards redealt
    for _ in range(30):
        first.apply_action(rng.choice(first.legal_actions()))
    asked = first.current_player()
    other = first.resample_from_infostate(asked, random.Random(1).random)
    assert other.information_state_string(asked) == first.information_state_string(asked)
    assert other.information_state_tensor(asked) == first.information_state_tensor(asked)
    assert other.legal_actions() == first.legal_actions()
    assert other.episode.game.state.decks != first.episode.game.state.decks
    view = first.episode.game.view(asked)
    from zsim.encode.observation import observe

    assert np.array_equal(np.asarray(first.observation_tensor(asked), np.float32),
                          observe(view, first.episode.decision.kind))


class Flat(mcts.Evaluator):
    """No rollout: every position is worth nothing, every option as likely (a quick test of
    the search's bookkeeping over whole games)."""

    def evaluate(self, state):
        return [0.0] * state.num_players()

    def prior(self, state):
        legal = state.legal_actions()
        return [(action, 1.0 / len(legal)) for action in legal]


@pytest.mark.parametrize("players", [2, 3])
def test_openspiel_ismcts_plays_whole_games(players: int):
    from open_spiel.python.algorithms import ismcts

    game = spiel(players, "win", seed=players)
    rng = np.random.RandomState(players)
    bots = [ismcts.ISMCTSBot(game, Flat(), 2.0, 4, random_state=rng),
            *[uniform_random.UniformRandomBot(seat, rng) for seat in range(1, players)]]
    state, searched = game.new_initial_state(), 0
    while not state.is_terminal():  # (ISMCTSBot cannot restart_at, as evaluate_bots asks)
        seat = state.current_player()
        searched += seat == 0 and len(state.legal_actions()) > 1
        state.apply_action(bots[seat].step(state))
    assert sum(state.returns()) == pytest.approx(1.0) and searched > 30


def test_openspiel_paired_evaluations_play_the_same_deal_and_repeat():
    game = spiel(2, seed=12)

    def evaluate(searching: bool, seed: int) -> tuple[list[float], list[int], str]:
        rng = np.random.RandomState(seed)
        first = (mcts.MCTSBot(game, 2.0, 3, Flat(), random_state=rng) if searching
                 else uniform_random.UniformRandomBot(0, rng))
        state = game.new_initial_state()
        deal = state.episode.game.to_text()
        returns = evaluate_bots.evaluate_bots(state, [first, uniform_random.UniformRandomBot(
            1, rng)], rng)
        return returns, state.history(), deal

    searched, plain = evaluate(True, 0), evaluate(False, 0)
    assert searched[2] == plain[2]  # the same deal, whoever plays it
    assert evaluate(True, 0) == searched  # and the same game again


def test_openspiel_margin_bound_holds_over_the_recorded_games():
    """Every seat's margin in the CI baseline's games (2 and 4 players, the default lineup)
    lies within the declared utilities, with room to spare above the largest margin seen."""
    import pandas as pd

    from zsim.paths import configs_dir

    players = pd.read_parquet(configs_dir("baselines") / "ci.parquet")
    margins = [total - max(t for other, t in enumerate(game.vp_total) if other != seat)
               for _, game in players.sort_values("seat").groupby("game")
               for seat, total in enumerate(game.vp_total)]
    game = spiel(2)
    assert len(margins) == len(players) > 1000
    assert game.min_utility() <= min(margins) and max(margins) <= game.max_utility()
    assert game.max_utility() > 3 * max(margins)
