"""The weighted heuristic: every option of every decision valued by ``Estimator`` x weights.

One class plays every heuristic bot. ``greedy`` is the default weights; the archetypes
(``builder``, ``governor``, ``alchemist``, ``courtier``, ``mausoleum``) are YAML files in
``configs/strategies/`` that raise the weight of their plan, so they share all the judgement and
differ only in what they care about most. A designer makes a new bot by writing such a file.

A bot file::

    description: one line shown by `zsim strategies`
    extends: greedy          # optional: start from another bot's weights
    patience: 0.5            # optional: discount per action for goals not yet in reach
    weights:                 # optional: only the weights that differ
      palaces: 1.6
    plays: distilled         # optional: the weights as shifts (less 1) of the learned
                             # scorer's (``distilled``); heuristic (the default) plays them as is
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model

from zsim.decisions import Decision
from zsim.errors import UserError
from zsim.strategies import estimates
from zsim.strategies.base import METHODS, Strategy
from zsim.strategies.estimates import WEIGHTS, choices, turn
from zsim.strategies.estimates.choices import VALUES, best
from zsim.strategies.estimates.questions import TURN, UNCHANGED, begin, current
from zsim.view import PlayerView
from zsim.yamlload import read_text, safe_load

if TYPE_CHECKING:
    from zsim.strategies.estimates import Estimator

FIRST_QUESTION = {0: "recruit", 1: "hire", 3: "palace", 4: "governor", 5: "wall"}
DEFAULT_PATIENCE = 0.5

# The largest weight: far above any useful one (they are about 1), and small enough that VP
# estimates times weights stay finite (weights of 1e308 added up to infinity, and every
# decision failed).
MAX_WEIGHT = 1e6
# typed Any: the keyword arguments of create_model also include its own settings (__doc__...)
WEIGHT_FIELDS: dict[str, Any] = {
    key: (float, Field(1.0, ge=0, le=MAX_WEIGHT, description=text))
    for key, text in WEIGHTS.items()}
Params = create_model(  # every parameter of a heuristic bot, validated
    "Params",
    __config__=ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False),
    patience=(float, Field(DEFAULT_PATIENCE, gt=0, lt=1,
                           description="discount per action for goals not yet in reach")),
    **WEIGHT_FIELDS,
)
PARAMETERS: dict[str, str] = {
    name: field.description or "" for name, field in Params.model_fields.items()
}


class BotFile(BaseModel):
    """The schema of a ``configs/strategies/*.yaml`` bot."""

    model_config = ConfigDict(extra="forbid")

    description: str
    extends: str | None = None
    patience: float | None = None
    weights: dict[str, float] = Field(default_factory=dict)
    plays: Literal["heuristic", "distilled"] = "heuristic"


class BotError(UserError, ValueError):
    """A bot file or a bot parameter that cannot be used; the message names the file and key."""


def check_params(params: dict[str, Any], where: str) -> dict[str, float]:
    """Validate parameters of the heuristic; ``where`` names their source in error messages."""
    unknown = sorted(set(params) - set(PARAMETERS))
    if unknown:
        raise BotError(f"{where}: unknown parameter {unknown[0]!r}; the heuristic's parameters "
                       f"are: {', '.join(PARAMETERS)}")
    try:
        return Params(**params).model_dump()
    except ValidationError as error:
        problem = error.errors()[0]
        key = ".".join(str(x) for x in problem["loc"])
        raise BotError(f"{where}: parameter {key!r}: {problem['msg']}") from None


def load_bot(path: Path, known: dict[str, tuple[str, dict[str, float]]] | None = None,
             seen: tuple[Path, ...] = ()) -> tuple[str, dict[str, float]]:
    """(description, parameters) of a bot file; ``extends`` is looked up in ``known`` first,
    then next to the file (``seen``: the files extending this one, to refuse cycles)."""
    try:
        raw = safe_load(read_text(path))
    except (OSError, yaml.YAMLError) as error:
        raise BotError(f"{path}: cannot read the bot: {error}") from None
    try:
        bot = BotFile.model_validate(raw if raw is not None else {})
    except ValidationError as error:
        problem = error.errors()[0]
        key = ".".join(str(x) for x in problem["loc"])
        raise BotError(f"{path}: {key}: {problem['msg']}") from None
    unknown = sorted(set(bot.weights) - set(WEIGHTS))
    if unknown:
        raise BotError(f"{path}: weights: unknown weight {unknown[0]!r}; known weights: "
                       f"{', '.join(WEIGHTS)}")
    params: dict[str, Any] = {}
    if bot.extends is not None:
        params.update(_parent(path, bot.extends, known or {}, (*seen, path)))
    params.update(bot.weights)
    if bot.patience is not None:
        params["patience"] = bot.patience
    return bot.description, check_params(params, str(path))


def _parent(path: Path, name: str, known: dict[str, tuple[str, dict[str, float]]],
            seen: tuple[Path, ...]) -> dict[str, float]:
    if name in known:
        return known[name][1]
    if not name or name in (".", "..") or any(c in name for c in "/\\\0"):
        raise BotError(f"{path}: extends: {name!r} is not a bot name: name a bot of "
                       f"{path.parent} by its file name without '.yaml' (no folders)")
    parent = path.with_name(f"{name}.yaml")
    if parent in seen:
        raise BotError(f"{path}: extends: {name!r} extends this bot in turn (a cycle)")
    if not parent.exists():
        raise BotError(f"{path}: extends: no bot {name!r} next to this file")
    return load_bot(parent, known, seen)[1]


def bot_plays(path: Path) -> str:
    """What a bot file's weights play on (``plays``): ``heuristic`` or ``distilled``. Read
    after ``load_bot`` has checked the file; it is the file's own key, not inherited, so that
    an archetype and the bot it extends may play on different bases."""
    raw = safe_load(path.read_text())
    return str(BotFile.model_validate(raw if raw is not None else {}).plays)


def load_bots(directory: Path) -> dict[str, tuple[str, dict[str, float]]]:
    """Every bot file of a directory, by file stem: (description, parameters)."""
    return {path.stem: load_bot(path) for path in sorted(directory.glob("*.yaml"))}


def nothing_to_weigh(decision: Decision) -> bool:
    """A turn question whose options are all discards: no card has a legal use."""
    return decision.options[0][0] == "discard"


class HeuristicStrategy(Strategy):
    """Values each option by immediate VP plus estimated end-game VP, weighted by category."""

    name = "heuristic"
    description = "weighted end-game value estimates (parameters: the weights)"

    def __init__(self, **params: float) -> None:
        self.params = check_params(params, f"strategy {self.name!r}")
        self.weights = estimates.Weights(self.params)  # compiled with the engine or not

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without the weights, which are rebuilt from the parameters on arrival (a
        compiled ``Weights`` cannot be pickled, and the worker may run the other build)."""
        state = self.__dict__.copy()
        del state["weights"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.weights = estimates.Weights(self.params)

    def choose(self, view: PlayerView, decision: Decision) -> Any:
        """Decide, sharing one estimator across the decisions of one turn
        (``zsim.strategies.estimates.questions``)."""
        kind = decision.kind
        begin(view, kind)
        # ``Strategy.choose``'s dispatch, here rather than through ``super()``: one Python call
        # less at each question of the bots the main job plays
        method = getattr(self, METHODS[kind], None)
        if method is None:
            return self.default(view, decision)
        return method(view, decision)

    def option_values(self, view: PlayerView, decision: Decision) -> list[float | None]:
        """What this bot thinks each option is worth (for the game viewer): the decision is
        weighed again, then the view's RNG and memory are put back as they were, so the game
        goes on exactly as without the question. None for an option it did not weigh."""
        rng, memo = view.rng.getstate(), dict(view.memo)
        shown: dict[Any, float] = {}
        view.memo[VALUES] = shown
        try:
            self.choose(view, decision)
        finally:
            view.rng.setstate(rng)
            view.memo.clear()
            view.memo.update(memo)
        return [shown.get(option) for option in decision.options]

    def keep_values(self, view: PlayerView) -> dict[Any, float]:
        """The dict into which this bot notes, from now on, the value it gives each option it
        weighs in ``view``'s game (by option; a reader empties it as it pleases). Noting costs a
        store per option and changes no choice: it is what ``option_values`` reads, without
        weighing the decision a second time (``zsim.experience.record`` measures how clear the
        bots' choices were with it)."""
        return view.memo.setdefault(VALUES, {})

    def estimator(self, view: PlayerView) -> Estimator:
        """This decision's estimator (``zsim.strategies.estimates.questions.current``)."""
        return current(view, self.weights)

    @staticmethod
    def unchanged(view: PlayerView, kind: str) -> None:
        """The next question, if it is a ``kind`` one, comes before anything changes."""
        view.memo[UNCHANGED] = kind

    # --- the turn -----------------------------------------------------------------------------

    def choose_turn(self, view: PlayerView, decision: Decision) -> Any:
        options = decision.options
        if nothing_to_weigh(decision):
            return options[view.rng.randrange(len(options))]
        est = current(view, self.weights)
        choice = turn.best_turn(view, est, options)
        view.memo[TURN] = (view.round, est)
        if choice[0] == "court" and choice[2] in FIRST_QUESTION:
            self.unchanged(view, FIRST_QUESTION[choice[2]])
        return choice

    # --- every other question: its options valued by ``estimates.choices`` ------------------

    def choose_recruit(self, view: PlayerView, decision: Decision) -> Any:
        options = decision.options
        return best(view, options, choices.recruit(current(view, self.weights), options))

    def choose_hire(self, view: PlayerView, decision: Decision) -> Any:
        options = decision.options
        return best(view, options, choices.hire(current(view, self.weights), options))

    def choose_palace(self, view: PlayerView, decision: Decision) -> Any:
        options, free = decision.options, bool(decision.context.get("free"))
        return best(view, options, choices.palace(current(view, self.weights), options, free))

    def choose_palace_worker(self, view: PlayerView, decision: Decision) -> Any:
        options = decision.options
        return best(view, options, choices.palace_worker(current(view, self.weights), options))

    def choose_palace_tile(self, view: PlayerView, decision: Decision) -> Any:
        options, region = decision.options, decision.context["region"]
        return best(view, options,
                    choices.palace_tile(view, current(view, self.weights), options, region))

    def choose_large_token(self, view: PlayerView, decision: Decision) -> Any:
        options = decision.options
        return best(view, options, choices.large_token(current(view, self.weights), options))

    def choose_governor(self, view: PlayerView, decision: Decision) -> Any:
        options, free = decision.options, bool(decision.context.get("free"))
        return best(view, options, choices.governor(current(view, self.weights), options, free))

    def choose_governor_slot(self, view: PlayerView, decision: Decision) -> Any:
        options, region = decision.options, decision.context["region"]
        return best(view, options,
                    choices.governor_slot(view, current(view, self.weights), options, region))

    def choose_bonus(self, view: PlayerView, decision: Decision) -> Any:
        options, ability = decision.options, decision.context["ability"]
        est = current(view, self.weights)
        return best(view, options, choices.bonus(view, est, options, ability))

    def choose_wall(self, view: PlayerView, decision: Decision) -> Any:
        options, free = decision.options, bool(decision.context.get("free"))
        choice = best(view, options, choices.wall(current(view, self.weights), options, free))
        if not free:  # the Workers are chosen next, before anything changes
            self.unchanged(view, "wall_workers")
        return choice

    def choose_wall_workers(self, view: PlayerView, decision: Decision) -> Any:
        options = decision.options
        return best(view, options, choices.wall_workers(current(view, self.weights), options))

    def choose_emperor(self, view: PlayerView, decision: Decision) -> Any:
        options = decision.options
        return best(view, options, choices.emperor(view, current(view, self.weights), options))

    def choose_elixir(self, view: PlayerView, decision: Decision) -> Any:
        options = decision.options
        return best(view, options, choices.elixir(current(view, self.weights), options))

    def choose_master(self, view: PlayerView, decision: Decision) -> Any:
        options = decision.options
        return best(view, options, choices.master(view, current(view, self.weights), options))

    def choose_activate(self, view: PlayerView, decision: Decision) -> Any:
        options, values = choices.activations(current(view, self.weights), decision.options)
        choice = best(view, options, values)
        if isinstance(choice, tuple) and choice[0] == "ability":
            self.unchanged(view, "ability_option")  # its alternative is asked before it resolves
        return choice

    choose_next_ability = choose_activate

    def choose_ability_option(self, view: PlayerView, decision: Decision) -> Any:
        options = decision.options
        est = current(view, self.weights)
        return best(view, options, choices.ability_option(view, est, options, decision.context))

    def choose_region(self, view: PlayerView, decision: Decision) -> Any:
        options, effect = decision.options, decision.context.get("effect")
        est = current(view, self.weights)
        return best(view, options, choices.region(view, est, options, effect))

    def choose_official(self, view: PlayerView, decision: Decision) -> Any:
        options, region = decision.options, decision.context["region"]
        return best(view, options, choices.official(current(view, self.weights), options, region))

    def choose_token(self, view: PlayerView, decision: Decision) -> Any:
        options = decision.options
        return best(view, options, choices.token(current(view, self.weights), options))

    def choose_move_official(self, view: PlayerView, decision: Decision) -> Any:
        options = decision.options
        return best(view, options, choices.move_official(current(view, self.weights), options))

    def choose_move_worker(self, view: PlayerView, decision: Decision) -> Any:
        options = decision.options
        return best(view, options, choices.move_worker(current(view, self.weights), options))

    def choose_reset_unrest(self, view: PlayerView, decision: Decision) -> Any:
        options = decision.options
        return best(view, options, choices.reset_unrest(view, current(view, self.weights), options))

    def choose_place_alchemist(self, view: PlayerView, decision: Decision) -> Any:
        options = decision.options
        return best(view, options, choices.place_alchemist(current(view, self.weights), options))

    def choose_soldier(self, view: PlayerView, decision: Decision) -> Any:
        options = decision.options
        return best(view, options, choices.soldier(current(view, self.weights), options))

    def choose_reward(self, view: PlayerView, decision: Decision) -> Any:
        context = decision.context
        return choices.reward(view, current(view, self.weights), context["reward"], context["suit"])

    def choose_unlock(self, view: PlayerView, decision: Decision) -> Any:
        options = decision.options
        return best(view, options, choices.unlock(view, current(view, self.weights), options))

    def choose_discard_token(self, view: PlayerView, decision: Decision) -> Any:
        tokens = view.me.tokens
        return best(view, decision.options, [float(-tokens[s]) for s in decision.options])

    def choose_start_tile(self, view: PlayerView, decision: Decision) -> Any:
        options = decision.options
        return best(view, options, choices.start_tile(view, current(view, self.weights), options))

