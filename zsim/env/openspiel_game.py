"""zsim as an OpenSpiel game, registered with ``pyspiel`` as ``python_zsim``.

``pyspiel.load_game("python_zsim", {"players": 2, "reward": "margin", "seed": 1})`` after
importing this module. The actions are the codec's ids (``zsim.encode.codec``),
``legal_actions()`` those of the question pending, ascending; ``apply_action`` is the engine
answering the question (``zsim.game.Game.answer``), on the game's suspended segment (nothing is
replayed, ``zsim.game``).

The conventions OpenSpiel's algorithms rely on:

- **A deal is a parameter.** ``new_initial_state()`` is the game of seed ``seed``, every time:
  the game object holds no random state, and nothing (a clone, a shape, a search) moves it.
  Every shuffle is drawn inside the state from its own RNG, seeded by ``seed``; so for fixed
  parameters the game is a function of the actions alone and OpenSpiel's chance mode is
  ``DETERMINISTIC`` (the hidden cards are hidden, not drawn later). Another deal is another
  ``seed`` (``load_game`` with it, or ``new_initial_state("17")``); ``new_initial_state(text)``
  also takes a position text (``Game.to_text``). ``state.get_rng_state()`` /
  ``set_rng_state(text)`` read and set the state's own random state (what every later chance
  draws). pyspiel 2.0.2 gives a Python game no way to answer C++'s ``GetRNGState``, which
  OpenSpiel's serialization asks of every sampled-stochastic game: a game declared so could
  never be serialized.
- **``clone()`` is ``Game.fork()``**: the same game, its random state included (the true
  decks: OpenSpiel's ``MCTSBot`` on clones searches the true hidden state). Cloning builds no
  new game and draws nothing. ``resample_from_infostate(player, sampler)`` is
  ``Game.fork(player, rng)``, every card the player cannot see redealt, standing at the same
  question (what ``ISMCTSBot`` asks for at its own questions).
- **Information state**: a player's observation now (``zsim.encode.observation``), the
  question it is asked (kind and legal ids) and every action it took, in order, as a string and
  as a tensor (the observation, then the player's action ids, ``(id + 1) / actions`` each, in
  ``MAX_GAME_LENGTH`` slots). The observation alone is ``observation_string`` / ``_tensor``.
- **Serialization**: ``serialize()`` / ``game.deserialize_state`` keep the position text, which
  carries the game's and the seats' random states, so a deserialized state plays on exactly as
  the original.
- **Utility**: ``margin`` (the seat's final VP minus the best of the others') is zero-sum at two
  players and general-sum above; ``win`` (the seat's share of the win) is constant-sum, summing
  to 1. The margin's bounds are ``±MARGIN_BOUND`` VP.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import numpy as np
import pyspiel

from zsim.encode.codec import codec
from zsim.env.episode import Episode, check_reward, default_box
from zsim.game import Game
from zsim.state import Stage

SHORT_NAME = "python_zsim"
MAX_GAME_LENGTH = 3000  # questions: far above any game's (a 4-player game asks about 400)
# The margin's bound, in VP: no proof from the box (a player's VP come from eleven categories,
# several scored by formulas over the table), but over three times the largest margin any game
# has shown (314, which broke the earlier bound of 300; the CI baseline's 2,000 games reach 151,
# which tests/test_env.py checks against it). A bound too wide costs OpenSpiel's algorithms
# nothing; one too narrow breaks its checks.
MARGIN_BOUND = 1000.0
DEFAULTS = {"players": 2, "reward": "margin", "seed": 1}
STAGES = {Stage.START: "start", Stage.ROUND: "round", Stage.TURNS: "turns",
          Stage.REWARDS: "rewards", Stage.OVER: "over"}


def game_type(utility: pyspiel.GameType.Utility) -> pyspiel.GameType:
    """The game's type with this utility (each loaded game states the one of its reward)."""
    return pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="Zhanguo: The First Empire (zsim)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=DEFAULTS,
    )


def utility_of(players: int, reward: str) -> tuple[pyspiel.GameType.Utility, float | None]:
    """OpenSpiel's utility type of a reward, and the sum of the players' returns it fixes."""
    if reward == "win":
        return pyspiel.GameType.Utility.CONSTANT_SUM, 1.0
    if players == 2:
        return pyspiel.GameType.Utility.ZERO_SUM, 0.0
    return pyspiel.GameType.Utility.GENERAL_SUM, None


class ZsimGame(pyspiel.Game):
    """The game of one player count, reward and deal, on the built-in box."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**DEFAULTS, **(params or {})}
        self.players = int(params["players"])
        if not 2 <= self.players <= 4:
            raise ValueError(f"players={self.players}: zsim plays 2 to 4")
        self.reward = check_reward(str(params["reward"]))
        self.seed = int(params["seed"])
        self.box = default_box()
        self.codec = codec(self.box, self.players)
        utility, total = utility_of(self.players, self.reward)
        low, high = ((-MARGIN_BOUND, MARGIN_BOUND) if self.reward == "margin" else (0.0, 1.0))
        info = pyspiel.GameInfo(
            num_distinct_actions=self.codec.size, max_chance_outcomes=0,
            num_players=self.players, min_utility=low, max_utility=high,
            utility_sum=total, max_game_length=MAX_GAME_LENGTH)
        super().__init__(game_type(utility), info, params)
        # the deal of ``seed`` at its first question: each initial state is a fork of it, and
        # an initial state not yet read observes what it shows (OpenSpiel asks a new initial
        # state for every tensor's shape)
        self.initial = Episode(self.box, [None] * self.players, self.seed)
        self.observation_size = self.initial.size
        self._initial_views: dict[int, np.ndarray] = {}

    def initial_observation(self, player: int) -> np.ndarray:
        """What ``player`` observes in the initial state (computed once)."""
        seen = self._initial_views.get(player)
        if seen is None:
            seen = self._initial_views[player] = self.initial.observation(player)
        return seen

    def new_initial_state(self, start: str | None = None) -> ZsimState:
        """The game of ``seed`` (nothing is set up until the state is first read, so that
        OpenSpiel's own ``clone``, which starts from a new initial state, costs no setup);
        ``start``: another seed, as digits, or a position text."""
        if start is None or not start.strip():
            return ZsimState(self, self.seed)
        if start.strip().isdigit():
            return ZsimState(self, int(start))
        state = ZsimState(self, self.seed)
        state._episode = Episode.of(Game.from_text(start, self.box))
        return state

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> ZsimObserver:
        recall = iig_obs_type is not None and bool(iig_obs_type.perfect_recall)
        return ZsimObserver(self, perfect_recall=recall)


class OwnActions(list[list[int]]):
    """Each player's actions so far, a list per seat: a deep copy (what OpenSpiel's ``clone``
    makes of a state's attributes) copies the lists, without ``copy.deepcopy``'s walk."""

    def __deepcopy__(self, memo: dict[int, Any]) -> OwnActions:
        return OwnActions([seat[:] for seat in self])


class ZsimState(pyspiel.State):
    """One game under way (an ``Episode``, made when first read) and each player's actions."""

    def __init__(self, game: ZsimGame, seed: int) -> None:
        super().__init__(game)
        self.reward = game.reward
        self._seed = seed
        self._players = game.players
        self._episode: Episode | None = None
        self._mine = OwnActions([] for _ in range(game.players))

    @property
    def episode(self) -> Episode:
        episode = self._episode
        if episode is None:
            start = self.get_game()
            episode = self._episode = (
                Episode.of(start.initial.game.fork()) if self._seed == start.seed
                else Episode(default_box(), [None] * self._players, self._seed))
        return episode

    def observation(self, player: int) -> np.ndarray:
        """What ``player`` observes now (an initial state not yet read: the game's initial
        observation, without setting the state up)."""
        if self._episode is None:
            start = self.get_game()
            if self._seed == start.seed:
                return start.initial_observation(player)
        return self.episode.observation(player)

    def current_player(self) -> int:
        decision = self.episode.decision
        return pyspiel.PlayerId.TERMINAL if decision is None else decision.seat

    def _legal_actions(self, player: int) -> list[int]:
        return self.episode.legal()

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal ids of ``player`` (by default the player to act), ascending: none for a
        player not asked. Answered here for Python callers, as OpenSpiel's own would, without
        its round trip through C++."""
        decision = self.episode.decision
        if decision is None or (player is not None and player != decision.seat):
            return []
        return self.episode.legal()

    def _apply_action(self, action: int) -> None:
        episode = self.episode
        assert episode.decision is not None, "the game is over"
        seat = episode.decision.seat
        episode.play(action)
        self._mine[seat].append(action)

    def _action_to_string(self, player: int, action: int) -> str:
        kind, option = self.episode.codec.decode(action)
        return f"{kind} {option}"

    def is_terminal(self) -> bool:
        return self.episode.over

    def returns(self) -> list[float]:
        if not self.episode.over:
            return [0.0] * self._players
        return self.episode.rewards(self.reward)

    # ``clone()`` is OpenSpiel's own: a new initial state (nothing set up: see
    # ``new_initial_state``) given a deep copy of this one's attributes, and a deep copy of an
    # ``Episode`` is ``Game.fork()`` (``Episode.__deepcopy__``). ``serialize()`` pickles the
    # attributes too: an ``Episode`` pickles as its position text (``Episode.__reduce__``).

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> ZsimState:
        """A game ``player_id`` cannot tell from this one: ``Game.fork(player_id, rng)``, every
        card it cannot see redealt, with ``rng`` seeded from ``probability_sampler``; its own
        actions are this state's."""
        rng = random.Random(int(probability_sampler() * 2**32))
        fork = Episode.of(self.episode.game.fork(player_id, rng))
        episode, self._episode = self._episode, None  # so that the clone forks nothing
        try:
            state = self.clone()
        finally:
            self._episode = episode
        state._episode = fork
        return state

    def get_rng_state(self) -> str:
        """The game's random state and its seats' (what every later chance draws), as the JSON
        of the position text's ``rng`` and ``strategy_rngs``."""
        position = json.loads(self.episode.game.to_text())
        return json.dumps({key: position[key] for key in ("rng", "strategy_rngs")})

    def set_rng_state(self, text: str) -> None:
        """Set what ``get_rng_state`` gave: the game becomes its position text with these
        random states (``Game.from_text``)."""
        position = json.loads(self.episode.game.to_text())
        position.update({key: value for key, value in json.loads(text).items()
                         if key in ("rng", "strategy_rngs")})
        self._episode = Episode.of(Game.from_text(json.dumps(position), default_box()))

    def __str__(self) -> str:
        game = self.episode.game
        decision = self.episode.decision
        where = (f"round {game.state.round} {STAGES[game.state.stage]} step {game.state.step}, "
                 + ("game over" if decision is None else
                    f"seat {decision.seat} asked {decision.kind}"))
        boards = "; ".join(f"seat {p.seat}: {p.vp_in_game} VP, cards " + ",".join(
            str(len(cards)) for cards in p.tableau) for p in game.state.players)
        return f"{where} | {boards} | {game.decisions} questions"


class ZsimObserver:
    """What a player observes (``zsim.encode.observation`` of its seat's view, the kind of the
    question when it is asked) and, with ``perfect_recall``, every action it took."""

    def __init__(self, game: ZsimGame, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.actions = float(game.codec.size)
        size = game.observation_size
        self.tensor = np.zeros(size + (MAX_GAME_LENGTH if perfect_recall else 0), np.float32)
        self.dict = {"observation": self.tensor[:size]}
        if perfect_recall:
            self.dict["actions"] = self.tensor[size:]

    def set_from(self, state: ZsimState, player: int) -> None:
        self.dict["observation"][:] = state.observation(player)
        if self.perfect_recall:
            mine = state._mine[player]
            actions = self.dict["actions"]
            actions.fill(0.0)
            actions[:len(mine)] = (np.asarray(mine, np.float32) + 1.0) / self.actions

    def string_from(self, state: ZsimState, player: int) -> str:
        seen = hashlib.blake2b(state.observation(player).tobytes(), digest_size=12)
        episode = state.episode
        decision = episode.decision
        text = f"p{player} seen {seen.hexdigest()}"
        if decision is not None and decision.seat == player:
            text += f" | asked {decision.kind} " + ",".join(map(str, episode.legal()))
        if self.perfect_recall:
            text += " | mine " + ",".join(map(str, state._mine[player]))
        return text


pyspiel.register_game(game_type(pyspiel.GameType.Utility.GENERAL_SUM), ZsimGame)
