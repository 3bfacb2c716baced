"""zsim as an OpenSpiel game, registered with ``pyspiel`` as ``python_zsim``.

``pyspiel.load_game("python_zsim", {"players": 2, "reward": "margin", "seed": 1})`` after
importing this module. A sequential game of imperfect information whose chance is *sampled*:
every shuffle is drawn inside the game (at setup, and for Li Si), so a state has no chance node
and ``apply_action`` is the engine answering the question (``zsim.game.Game.answer``). The
actions are the codec's ids (``zsim.encode.codec``), ``legal_actions()`` those of the
question pending, ascending. ``clone()`` is ``Game.fork()`` (the same game, its random state
included), ``resample_from_infostate(player, sampler)`` is ``Game.fork(player, rng)`` (every
card the player cannot see redealt), which is what information-set searches ask for. Returns
are the final rewards of ``zsim.env.episode`` (VP margin, or win share), 0 before the end.

Each ``new_initial_state()`` deals the next game of the ``seed`` parameter's sequence (seed,
seed + 1, ...), so that ``evaluate_bots`` over many games plays many deals.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel

from zsim.encode.codec import codec
from zsim.env.episode import Episode, check_reward, default_box
from zsim.rules.common import REGION_NAMES

SHORT_NAME = "python_zsim"
MAX_GAME_LENGTH = 3000  # questions: far above any game's (a 4-player game asks about 400)
DEFAULTS = {"players": 2, "reward": "margin", "seed": 1}

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Zhanguo: The First Empire (zsim)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULTS,
)


class ZsimGame(pyspiel.Game):
    """The game of one player count and reward, on the built-in box."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**DEFAULTS, **(params or {})}
        self.players = int(params["players"])
        self.reward = check_reward(str(params["reward"]))
        self.box = default_box()
        self.codec = codec(self.box, self.players)
        self._next_seed = int(params["seed"])
        episode = Episode(self.box, [None] * self.players, self._next_seed)
        low, high = (-300.0, 300.0) if self.reward == "margin" else (0.0, 1.0)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.codec.size, max_chance_outcomes=0,
            num_players=self.players, min_utility=low, max_utility=high,
            utility_sum=None, max_game_length=MAX_GAME_LENGTH)
        super().__init__(_GAME_TYPE, info, params)
        self.observation_size = episode.size

    def new_initial_state(self) -> ZsimState:
        seed, self._next_seed = self._next_seed, self._next_seed + 1
        return ZsimState(self, Episode(self.box, [None] * self.players, seed))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> ZsimObserver:
        return ZsimObserver(self)


class ZsimState(pyspiel.State):
    """One game under way (``Episode``)."""

    def __init__(self, game: ZsimGame, episode: Episode) -> None:
        super().__init__(game)
        self.episode = episode
        self.reward = game.reward

    def current_player(self) -> int:
        decision = self.episode.decision
        return pyspiel.PlayerId.TERMINAL if decision is None else decision.seat

    def _legal_actions(self, player: int) -> list[int]:
        return self.episode.legal()

    def _apply_action(self, action: int) -> None:
        self.episode.play(action)

    def _action_to_string(self, player: int, action: int) -> str:
        kind, option = self.episode.codec.decode(action)
        return f"{kind} {option}"

    def is_terminal(self) -> bool:
        return self.episode.over

    def returns(self) -> list[float]:
        if not self.episode.over:
            return [0.0] * self.episode.game.n
        return self.episode.rewards(self.reward)

    # ``clone()`` is OpenSpiel's own: it copies the history and deep-copies this object's
    # attributes, and a deep copy of an ``Episode`` is ``Game.fork()`` (``Episode.__deepcopy__``).

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> ZsimState:
        """A game ``player_id`` cannot tell from this one: ``Game.fork(player_id, rng)``, every
        card it cannot see redealt, with ``rng`` seeded from ``probability_sampler``."""
        rng = random.Random(int(probability_sampler() * 2**32))
        state = self.clone()
        state.episode = Episode.of(self.episode.game.fork(player_id, rng))
        return state

    def __str__(self) -> str:
        state = self.episode.game.state
        decision = self.episode.decision
        where = f"round {state.round}, " + ("game over" if decision is None else
                                            f"seat {decision.seat} asked {decision.kind}")
        boards = "; ".join(f"seat {p.seat}: {p.vp_in_game} VP, cards " + ",".join(
            str(len(p.tableau[r])) for r in range(len(REGION_NAMES))) for p in state.players)
        return f"{where} | {boards}"


class ZsimObserver:
    """What a player observes: ``zsim.encode.observation`` of its seat's view (the kind of the
    question when it is asked)."""

    def __init__(self, game: ZsimGame) -> None:
        self.tensor = np.zeros(game.observation_size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: ZsimState, player: int) -> None:
        self.tensor[:] = state.episode.observation(player)

    def string_from(self, state: ZsimState, player: int) -> str:
        decision = state.episode.decision
        asked = decision is not None and decision.seat == player
        return f"seat {player}: {state!s}" + (f" | options {len(decision.options)}"
                                                 if asked and decision is not None else "")


pyspiel.register_game(_GAME_TYPE, ZsimGame)
