"""What the research interface costs: the codec (encode, decode, mask), the observation, one
step of each environment, a random game through each environment against the bare engine's
random game, positions as text; and the default lineup's engine speed.

CPU time (``time.process_time``), so a busy machine slows the figures little; say which build
ran (``zsim --version``): the figures are for the compiled engine unless it says otherwise.

    python benchmarks/research_costs.py                 # everything (about a minute)
    python benchmarks/research_costs.py --engine 120    # only the default lineup, 120 games
    python benchmarks/research_costs.py --spiel 20 --players 4   # OpenSpiel against in process

``--engine`` imports only what every version of zsim has, so the same file measures an older
tree for a before/after comparison (run it with that tree's interpreter, back to back).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any


def per_call(label: str, calls: list[Callable[[], Any]], repeat: int = 3) -> float:
    """The fastest of ``repeat`` passes over ``calls``, in µs per call."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        for call in calls:
            call()
        best = min(best, (time.process_time() - start) / len(calls))
    print(f"{label:<44} {best * 1e6:9.1f} µs")
    return best


def engine(games: int) -> float:
    """Engine games per CPU-second of the default experiment's first ``games`` games, as
    ``zsim bench`` plays them (a plain loop of ``play_game``, one process)."""
    from zsim.game import play_game
    from zsim.runner import DEFAULT_EXPERIMENT, load_experiment
    from zsim.runner.boxfiles import load_for_run
    from zsim.strategies.registry import resolve

    experiment = load_experiment(DEFAULT_EXPERIMENT)
    box, _, _ = load_for_run(experiment.box_dir(), experiment.variant_set().box)
    options = experiment.options()
    bots = {name: resolve(name) for name in experiment.strategies}
    schedule = experiment.schedule()
    plans = [schedule.plan(i) for i in range(games)]
    for plan in plans[:3]:  # warm the per-box caches
        play_game(box, [bots[n] for n in plan.strategies], plan.seed, options)
    start = time.process_time()
    for plan in plans:
        play_game(box, [bots[n] for n in plan.strategies], plan.seed, options)
    rate = games / (time.process_time() - start)
    print(f"{'default lineup, engine games/CPU-s':<44} {rate:9.2f}   ({games} games)")
    return rate


def decisions_of(box: Any, games: int) -> list[tuple[Any, Any]]:
    """(game at the question, decision) for every question of a few random 2-player games,
    each game forked at its question (so that it stays there)."""
    from zsim.game import Game

    found = []
    for seed in range(games):
        game, rng = Game(box, [None, None], seed), random.Random(seed)
        decision = game.pending()
        while decision is not None:
            found.append((game.fork(), decision))
            decision = game.answer(decision.options[rng.randrange(len(decision.options))])
    return found


def interface(box: Any) -> None:
    from zsim.encode.codec import codec
    from zsim.encode.observation import observe

    asked = decisions_of(box, 4)
    space = codec(box, 2)
    options = [(d.kind, o) for _, d in asked for o in d.options]
    ids = [space.encode(kind, o) for kind, o in options]
    print(f"{len(asked)} questions, {len(options)} options of 4 random 2-player games")
    per_call("encode (kind, option) -> id", [lambda k=k, o=o: space.encode(k, o)
                                             for k, o in options])
    per_call("decode id -> (kind, option)", [lambda a=a: space.decode(a) for a in ids])
    per_call("mask of a question", [lambda d=d: space.mask(d) for _, d in asked])
    turns = [(g, d) for g, d in asked if d.kind == "turn"]
    per_call(f"mask of a turn question ({sum(len(d.options) for _, d in turns) / len(turns):.0f}"
             " options)", [lambda d=d: space.mask(d) for _, d in turns])
    per_call("observe(view) at a question",
             [lambda g=g, d=d: observe(g.views[d.seat], d.kind) for g, d in asked])
    per_call("to_text at a question", [lambda g=g: g.to_text() for g, _ in asked[::10]])
    texts = [g.to_text() for g, _ in asked[::10]]
    from zsim.game import Game
    per_call("Game.from_text", [lambda t=t: Game.from_text(t, box) for t in texts])


def environments(box: Any, games: int) -> None:
    import numpy as np
    import pyspiel

    from zsim.env import openspiel_game  # (importing it registers the game)
    from zsim.env.gym_env import ZsimEnv
    from zsim.env.pettingzoo_env import ZsimAEC
    from zsim.game import play_game
    from zsim.strategies.random_bot import RandomStrategy

    def timed(label: str, play: Callable[[int], int]) -> float:
        start, steps = time.process_time(), 0
        for seed in range(games):
            steps += play(seed)
        seconds = time.process_time() - start
        print(f"{label:<44} {seconds / games * 1e3:9.1f} ms a game, "
              f"{seconds / steps * 1e6:7.1f} µs a step")
        return seconds / games

    def bare(seed: int) -> int:
        return play_game(box, [RandomStrategy(), RandomStrategy()], seed).decisions

    def petting(seed: int) -> int:
        env, rng, steps = ZsimAEC(players=2, box=box), np.random.default_rng(seed), 0
        env.reset(seed=seed)
        for _ in env.agent_iter():
            observation, _, done, truncated, _ = env.last()
            env.step(None if done or truncated else
                     int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            steps += 1
        return steps

    def gym(seed: int) -> int:
        env, rng, steps = ZsimEnv(opponents=["random"], box=box), np.random.default_rng(seed), 0
        observation, _ = env.reset(seed=seed)
        done = False
        while not done:
            observation, _, done, _, _ = env.step(
                int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            steps += 1
        return steps

    game = pyspiel.load_game(openspiel_game.SHORT_NAME, {"players": 2})

    def spiel(seed: int) -> int:
        state, rng, steps = game.new_initial_state(), random.Random(seed), 0
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        return steps

    base = timed("bare engine, random 2-player game", bare)
    for label, play in (("PettingZoo AEC, random agents", petting),
                        ("Gymnasium, random learner vs random", gym),
                        ("OpenSpiel, random actions", spiel)):
        seconds = timed(label, play)
        print(f"{'':<44} {seconds / base:9.1f} x the bare engine's game")


def spiel_rate(games: int, players: int) -> None:
    """Random games per CPU-second through OpenSpiel (``apply_action`` on a random legal id)
    and in process (``RandomStrategy`` in every seat), interleaved seed by seed."""
    import pyspiel

    from zsim.env import openspiel_game  # (importing it registers the game)
    from zsim.env.episode import default_box
    from zsim.game import play_game
    from zsim.strategies.random_bot import RandomStrategy

    box = default_box()
    spent = {"openspiel": 0.0, "in process": 0.0}
    for seed in range(games + 1):
        game = pyspiel.load_game(openspiel_game.SHORT_NAME, {"players": players, "seed": seed})
        start = time.process_time()
        state, rng = game.new_initial_state(), random.Random(seed)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        if seed:  # the first game of each warms the caches
            spent["openspiel"] += time.process_time() - start
        start = time.process_time()
        play_game(box, [RandomStrategy() for _ in range(players)], seed)
        if seed:
            spent["in process"] += time.process_time() - start
    for label, seconds in spent.items():
        print(f"{label + f', random {players}-player games/CPU-s':<44} {games / seconds:9.1f}")
    print(f"{'OpenSpiel / in process, CPU per game':<44} "
          f"{spent['openspiel'] / spent['in process']:9.2f}")


def spiel_calls() -> None:
    """OpenSpiel's own calls at a question of a 4-player game (120 random actions in)."""
    import pyspiel

    from zsim.env import openspiel_game  # (importing it registers the game)

    game = pyspiel.load_game(openspiel_game.SHORT_NAME, {"players": 4, "seed": 1})
    state, rng = game.new_initial_state(), random.Random(0)
    for _ in range(120):
        state.apply_action(rng.choice(state.legal_actions()))
    seat = state.current_player()

    def stepped() -> None:
        clone = state.clone()
        for _ in range(2):
            clone.apply_action(clone.legal_actions()[0])

    calls: list[tuple[str, Callable[[], Any]]] = [
        ("OpenSpiel clone()", state.clone),
        ("OpenSpiel clone() and two apply_action", stepped),
        ("OpenSpiel observation_tensor", lambda: state.observation_tensor(seat)),
        ("OpenSpiel information_state_string",
         lambda: state.information_state_string(seat)),
        ("OpenSpiel resample_from_infostate",
         lambda: state.resample_from_infostate(seat, random.Random(1).random)),
    ]
    for label, call in calls:
        per_call(label, [call] * 100)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", type=int, default=0, metavar="GAMES",
                        help="only the default lineup's engine speed, over GAMES games")
    parser.add_argument("--games", type=int, default=5, help="random games per environment")
    parser.add_argument("--spiel", type=int, default=0, metavar="GAMES",
                        help="only random games through OpenSpiel against in process")
    parser.add_argument("--players", type=int, default=4, help="players of --spiel's games")
    args = parser.parse_args()
    from zsim.engine_build import ENGINE

    print(f"engine: {ENGINE}")
    if args.engine:
        engine(args.engine)
        return
    if args.spiel:
        spiel_rate(args.spiel, args.players)
        return
    from zsim.components import default_box_dir, load_box

    box = load_box(default_box_dir())
    interface(box)
    environments(box, args.games)
    spiel_calls()
    engine(60)


if __name__ == "__main__":
    main()
