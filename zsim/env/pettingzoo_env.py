"""zsim as a PettingZoo AEC environment: every seat is an agent, and the agent to act is the
seat the game asks.

``ZsimAEC(players=2, reward="margin")``: agents ``player_0``.. in seat order. An agent's
observation is a dict: ``observation``, what that seat sees (``zsim.encode.observation``:
float32), and ``action_mask``, an int8 vector over the whole action space
(``zsim.encode.codec``) that is 1 at the pending question's options when the agent is the one
asked, all 0 otherwise. A seat may be asked several questions in a row (a turn's action, then
what it activates...): ``agent_selection`` says who acts. Rewards are 0 until the game ends,
then every agent gets its final reward (``zsim.env.episode``: VP margin or win share).
``reset(seed=N)`` plays the game of seed N (the same seed, the same game).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from zsim.components import Box
from zsim.describe import describe, question
from zsim.env.episode import Episode, check_reward, default_box, seed_from


class ZsimAEC(AECEnv):
    metadata: ClassVar[dict[str, Any]] = {"name": "zsim_v0", "render_modes": ["ansi"],
                                          "is_parallelizable": False}

    def __init__(self, players: int = 2, reward: str = "margin", box: Box | None = None,
                 render_mode: str | None = None) -> None:
        super().__init__()
        self.box = box or default_box()
        self.reward_kind = check_reward(reward)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self.episode = Episode(self.box, [None] * players, 0)
        self.episode_seed = 0
        size, actions = self.episode.size, self.episode.codec.size
        space = spaces.Dict({
            "observation": spaces.Box(low=0.0, high=np.inf, shape=(size,), dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(actions,), dtype=np.int8),
        })
        self._observation_spaces = {agent: space for agent in self.possible_agents}
        self._action_spaces = {agent: spaces.Discrete(actions) for agent in self.possible_agents}
        self._rng = np.random.default_rng()

    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.episode_seed = seed if seed is not None else seed_from(self._rng)
        self.episode = Episode(self.box, [None] * len(self.possible_agents), self.episode_seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._select()

    def _select(self) -> None:
        decision = self.episode.decision
        if decision is not None:
            self.agent_selection = self.possible_agents[decision.seat]
            for agent in self.agents:
                self.infos[agent] = {"kind": decision.kind} if agent == self.agent_selection \
                    else {}

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        return {"observation": self.episode.observation(seat),
                "action_mask": self.episode.mask(seat)}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.episode.play(int(action))  # type: ignore[arg-type]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if self.episode.over:
            for agent_name, value in zip(self.possible_agents,
                                         self.episode.rewards(self.reward_kind), strict=True):
                self.rewards[agent_name] = value
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self._select()
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The question pending and its options in words (``ansi``)."""
        if self.render_mode is None:
            return None
        decision = self.episode.decision
        if decision is None:
            return "the game is over: " + ", ".join(
                f"{agent} {self.rewards[agent]:+g}" for agent in self.possible_agents)
        view = self.episode.game.views[decision.seat]
        lines = [f"{self.agent_selection}: {question(view, decision)}"]
        ids = self.episode.codec.legal(decision)
        lines += [f"  {action:>5}  {describe(view, decision, option)}"
                  for action, option in zip(ids, decision.options, strict=True)]
        return "\n".join(lines)

    def close(self) -> None:
        pass
