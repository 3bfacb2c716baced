"""zsim as a Gymnasium single-agent environment: one seat learns, zsim strategies play the
others.

``ZsimEnv(opponents=["greedy"], seat=0, reward="margin")``: the learner plays seat ``seat``
of a game of ``len(opponents) + 1`` players, the named strategies (any spec
``zsim.strategies.registry`` resolves, or Strategy instances) the other seats in order. Each
step answers one question of the learner's (an id of the action space,
``zsim.encode.codec``); the opponents then play until the learner is asked again or the game
ends. The observation is a dict: ``observation``, what the seat sees
(``zsim.encode.observation``), and ``action_mask``, 1 at the ids of the options offered. The
reward is 0 until the game ends, then the learner's final reward (``zsim.env.episode``).

An action that is not one of the options offered leaves the game where it stands: the step
returns ``illegal_reward`` (default -1) with ``info["illegal"] = True``, and the episode is
truncated after ``max_illegal`` of them in a row, so that an agent that ignores the mask (or
Gymnasium's own checker, which samples actions at random) cannot hang; with
``illegal="raise"`` such an action raises ``UnknownAction`` instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from zsim.components import Box
from zsim.encode.codec import UnknownAction
from zsim.env.episode import Episode, check_reward, default_box, seed_from
from zsim.strategies.base import Strategy
from zsim.strategies.registry import resolve


class ZsimEnv(gym.Env):
    metadata: dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012 (gymnasium's field)

    def __init__(self, opponents: Sequence[str | Strategy] = ("greedy",), seat: int = 0,
                 reward: str = "margin", box: Box | None = None,
                 illegal: str = "penalty", illegal_reward: float = -1.0, max_illegal: int = 100,
                 render_mode: str | None = None) -> None:
        players = len(opponents) + 1
        if not 2 <= players <= 4:
            raise ValueError(f"{len(opponents)} opponents: a game has 2 to 4 players")
        if not 0 <= seat < players:
            raise ValueError(f"seat {seat}: the learner sits at 0..{players - 1}")
        if illegal not in ("penalty", "raise"):
            raise ValueError(f"illegal={illegal!r}: 'penalty' or 'raise'")
        self.box = box or default_box()
        self.seat = seat
        self.reward_kind = check_reward(reward)
        self.opponents = [resolve(o) if isinstance(o, str) else o for o in opponents]
        self.illegal, self.illegal_reward, self.max_illegal = illegal, illegal_reward, max_illegal
        self.render_mode = render_mode
        self.episode = Episode(self.box, self._seats(), 0)
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(low=0.0, high=np.inf, shape=(self.episode.size,),
                                      dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(self.episode.codec.size,),
                                      dtype=np.int8),
        })
        self.action_space = spaces.Discrete(self.episode.codec.size)
        self._misses = 0

    def _seats(self) -> list[Any]:
        seats: list[Any] = list(self.opponents)
        seats.insert(self.seat, None)
        return seats

    def _observe(self) -> dict[str, np.ndarray]:
        return {"observation": self.episode.observation(self.seat),
                "action_mask": self.episode.mask(self.seat)}

    def _info(self) -> dict[str, Any]:
        decision = self.episode.decision
        return {"kind": decision.kind if decision is not None else None,
                "seed": self.episode.game.seed}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        self.episode = Episode(self.box, self._seats(), seed_from(self.np_random))
        self._misses = 0
        return self._observe(), self._info()

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool,
                                          dict[str, Any]]:
        episode = self.episode
        if episode.over:
            raise RuntimeError("the game is over: reset() starts another")
        try:
            episode.play(int(action))
        except UnknownAction:
            if self.illegal == "raise":
                raise
            self._misses += 1
            info = {**self._info(), "illegal": True}
            return (self._observe(), self.illegal_reward, False,
                    self._misses >= self.max_illegal, info)
        self._misses = 0
        reward = episode.rewards(self.reward_kind)[self.seat] if episode.over else 0.0
        return self._observe(), reward, episode.over, False, self._info()

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        decision = self.episode.decision
        if decision is None:
            return "the game is over"
        return f"seat {decision.seat} asked {decision.kind}: {len(decision.options)} options"


ENV_ID = "zsim/Zsim-v0"
if ENV_ID not in gym.registry:  # gymnasium.make("zsim/Zsim-v0", opponents=[...])
    gym.register(id=ENV_ID, entry_point="zsim.env.gym_env:ZsimEnv")
