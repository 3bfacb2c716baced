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
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model

from zsim.decisions import Decision
from zsim.kinds import STOP
from zsim.rules.tables import ACTION_INDEX
from zsim.state import NO_ONE
from zsim.strategies import estimates
from zsim.strategies.base import Strategy
from zsim.strategies.estimates import WEIGHTS, turn
from zsim.view import PlayerView
from zsim.yamlload import safe_load

if TYPE_CHECKING:
    from zsim.strategies.estimates import Estimator

SURE_ABILITY = 3.0  # an ability worth this much beats any single move: skip weighing moves
TURN, CURRENT, UNCHANGED = "heuristic.turn", "heuristic.current", "heuristic.unchanged"
STATICS = "heuristic.statics"  # this game's flat-rate values for this bot's weights
VALUES = "heuristic.values"  # while ``option_values`` asks: each option's value, by option
FRESH = frozenset({"turn", "start_tile", "reward", "unlock", "discard_token",  # new estimator
                   "lisi_soldier"})
FIRST_QUESTION = {0: "recruit", 1: "hire", 3: "palace", 4: "governor", 5: "wall"}
DEFAULT_PATIENCE = 0.5

Params = create_model(  # every parameter of a heuristic bot, validated
    "Params",
    __config__=ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False),
    patience=(float, Field(DEFAULT_PATIENCE, gt=0, lt=1,
                           description="discount per action for goals not yet in reach")),
    **{key: (float, Field(1.0, ge=0, description=text)) for key, text in WEIGHTS.items()},
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


class BotError(ValueError):
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
        raw = safe_load(path.read_text())
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
    parent = path.with_name(f"{name}.yaml")
    if parent in seen:
        raise BotError(f"{path}: extends: {name!r} extends this bot in turn (a cycle)")
    if not parent.exists():
        raise BotError(f"{path}: extends: no bot {name!r} next to this file")
    return load_bot(parent, known, seen)[1]


def load_bots(directory: Path) -> dict[str, tuple[str, dict[str, float]]]:
    """Every bot file of a directory, by file stem: (description, parameters)."""
    return {path.stem: load_bot(path) for path in sorted(directory.glob("*.yaml"))}


def best(view: PlayerView, options: list, value: Callable[[Any], float]) -> Any:
    """The option of highest value; exact ties are broken with the seat's RNG."""
    top, tied = -math.inf, []
    shown = view.memo.get(VALUES)
    for option in options:
        v = value(option)
        if shown is not None:
            shown[option] = v
        if v > top:
            top, tied = v, [option]
        elif v == top:
            tied.append(option)
    return tied[0] if len(tied) == 1 else tied[view.rng.randrange(len(tied))]


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
        """Decide, sharing one estimator across the decisions of one turn.

        A turn is weighed with a fresh estimator; the questions that follow it in the same turn
        (the Court action's sub-choices, abilities, soldiers) reuse it, after a ``refresh`` of
        the fast-moving state unless nothing changed since the previous question. A turn,
        Phase 3 or setup question starts afresh.
        """
        memo = view.memo
        kind = decision.kind
        turn = memo.get(TURN)
        if kind in FRESH or turn is None or turn[0] != view.round:
            memo.pop(TURN, None)
            memo[CURRENT] = None
        else:
            est = turn[1]
            if memo.pop(UNCHANGED, None) != kind:
                est.refresh()
            memo[CURRENT] = est
        return super().choose(view, decision)

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

    def estimator(self, view: PlayerView) -> Estimator:
        """This decision's estimator (see ``choose``)."""
        est = view.memo.get(CURRENT)
        if est is None:
            st = view.memo.get(STATICS)
            if st is None:
                st = view.memo[STATICS] = estimates.statics(view.tables, self.weights)
            est = view.memo[CURRENT] = estimates.Estimator(view, self.weights, st)
        return est

    @staticmethod
    def unchanged(view: PlayerView, kind: str) -> None:
        """The next question, if it is a ``kind`` one, comes before anything changes."""
        view.memo[UNCHANGED] = kind

    # --- the turn -----------------------------------------------------------------------------

    def choose_turn(self, view: PlayerView, decision: Decision) -> Any:
        options = decision.options
        if nothing_to_weigh(decision):
            return options[view.rng.randrange(len(options))]
        est = self.estimator(view)
        choice = turn.best_turn(view, est, options, view.memo.get(VALUES))
        view.memo[TURN] = (view.round, est)
        if choice[0] == "court" and choice[2] in FIRST_QUESTION:
            self.unchanged(view, FIRST_QUESTION[choice[2]])
        return choice

    # --- Court actions and what they lead to --------------------------------------------------

    def choose_recruit(self, view: PlayerView, decision: Decision) -> Any:
        est = self.estimator(view)
        return best(view, decision.options, lambda o: est.official_value(*o))

    def choose_hire(self, view: PlayerView, decision: Decision) -> Any:
        est = self.estimator(view)
        rules = est.rules
        return best(view, decision.options,
                    lambda r: est.worker_value(r, rules.hire_workers)
                    - est.unrest_cost(r, rules.hire_unrest))

    def choose_palace(self, view: PlayerView, decision: Decision) -> Any:
        est = self.estimator(view)
        free = bool(decision.context.get("free"))
        return best(view, decision.options, lambda r: est.palace_value(r, free=free))

    def choose_palace_worker(self, view: PlayerView, decision: Decision) -> Any:
        est = self.estimator(view)
        return best(view, decision.options, lambda r: -est.worker_loss(r, 1))

    def choose_palace_tile(self, view: PlayerView, decision: Decision) -> Any:
        est = self.estimator(view)
        box, region = view.tables.box, decision.context["region"]
        return best(view, decision.options, lambda kind: est.steps_value(
            box.abilities[box.palace_tiles[kind].ability].options[0], region, 0, -1))

    def choose_large_token(self, view: PlayerView, decision: Decision) -> Any:
        est = self.estimator(view)
        large = est.rules.large_token_value
        return best(view, decision.options, lambda s: est.token_gain(s, large))

    def choose_governor(self, view: PlayerView, decision: Decision) -> Any:
        est = self.estimator(view)
        free = bool(decision.context.get("free"))
        return best(view, decision.options, lambda r: est.governor_value(r, free=free))

    def choose_governor_slot(self, view: PlayerView, decision: Decision) -> Any:
        est = self.estimator(view)
        box, region = view.tables.box, decision.context["region"]
        slots = view.board.governor_slots[region]

        def value(option: Any) -> float:
            if option == "area":
                return 0.0
            ability = box.governor_tiles[slots[option][0]].ability
            if ability is None:
                return 0.0  # a blank slot: the same as the area
            bonus = est.alternatives_value(box.abilities[ability].options, region, 0, -1)
            return est.w.governor_bonus * max(bonus, 0.0) + 0.5  # and denies it to the others

        return best(view, decision.options, value)

    def choose_bonus(self, view: PlayerView, decision: Decision) -> Any:
        est = self.estimator(view)
        ability = view.tables.box.abilities[decision.context["ability"]]
        return best(view, decision.options,
                    lambda o: est.steps_value(ability.options[o], -1, 0, -1))

    def choose_wall(self, view: PlayerView, decision: Decision) -> Any:
        est = self.estimator(view)
        free = bool(decision.context.get("free"))
        choice = best(view, decision.options, lambda o: est.wall_value(o[0], o[1], free=free))
        if not free:  # the Workers are chosen next, before anything changes
            self.unchanged(view, "wall_workers")
        return choice

    def choose_wall_workers(self, view: PlayerView, decision: Decision) -> Any:
        est = self.estimator(view)
        return best(view, decision.options,
                    lambda regions: -sum(est.worker_loss(r, 1) for r in regions))

    def choose_emperor(self, view: PlayerView, decision: Decision) -> Any:
        est = self.estimator(view)
        action = self._emperor_action(view)
        trigger = view.tables.card_trigger
        slots = {c: i for cards in view.me.tableau for i, c in enumerate(cards)}

        def value(card: int) -> float:  # the card's future firings, at its flat rate
            old = view.me.emperor.get(card, trigger[card])
            if old == action:
                return -1.0
            gain = est.activations(action) - 0.8 * est.activations(old)
            return est.st.card[card][slots[card]] * gain

        return best(view, decision.options, value)

    @staticmethod
    def _emperor_action(view: PlayerView) -> int:
        """The action of the Emperor tile being placed: the one on a section we just opened."""
        tiles = view.tables.box.emperor_tiles
        for section in view.walls:
            if section.first_builder == view.seat and section.emperor_tile != NO_ONE:
                return ACTION_INDEX[tiles[section.emperor_tile].action]
        return -1

    def choose_elixir(self, view: PlayerView, decision: Decision) -> Any:
        est = self.estimator(view)
        return best(view, decision.options, lambda o: est.soldier_value() if o == "soldier"
                    else est.alchemist_card_value(o[1], o[2]))

    def choose_master(self, view: PlayerView, decision: Decision) -> Any:
        est = self.estimator(view)
        slot = min(len(view.me.tableau[est.alchemist_home()]), 2)
        return best(view, decision.options, lambda card: est.future_card(card, slot))

    # --- activating abilities -----------------------------------------------------------------

    def choose_activate(self, view: PlayerView, decision: Decision) -> Any:
        est = self.estimator(view)
        options = decision.options
        abilities = [o for o in options if isinstance(o, tuple) and o[0] == "ability"]
        if max((est.card_value(o[1]) for o in abilities), default=0.0) > SURE_ABILITY:
            options = [*abilities, "pass"]  # no single move of an Official is worth that much

        def value(option: Any) -> float:
            if not isinstance(option, tuple):
                return 0.0
            if option[0] == "ability":
                return est.card_value(option[1])
            _, t, r, to = option
            return est.official_value(t, to) - est.official_loss(t, r)

        choice = best(view, options, value)
        if isinstance(choice, tuple) and choice[0] == "ability":
            self.unchanged(view, "ability_option")  # its alternative is asked before it resolves
        return choice

    choose_next_ability = choose_activate

    def choose_ability_option(self, view: PlayerView, decision: Decision) -> Any:
        est = self.estimator(view)
        context, box = decision.context, view.tables.box
        here, slot, suit = -1, 0, -1
        if "card" in context:
            card = context["card"]
            ability = view.tables.card_ability[card]
            suit = view.tables.card_type[card]
            for r, cards in enumerate(view.me.tableau):
                if card in cards:
                    here, slot = r, cards.index(card)
        elif "reward" in context:
            ability = box.abilities[context["reward"]]
            suit = context.get("suit", -1)
        else:
            tile = next(t for t in box.starting_tiles if t.id == context.get("starting_tile"))
            ability, here = box.abilities[tile.ability], 0
        return best(view, decision.options,
                    lambda i: est.steps_value(ability.options[i], here, slot, suit))

    # --- sub-choices of effects ---------------------------------------------------------------

    def choose_region(self, view: PlayerView, decision: Decision) -> Any:
        est = self.estimator(view)
        effect = decision.context.get("effect")
        if effect == "recruit":
            supply = view.me.official_supply
            return best(view, decision.options, lambda r: max(
                (est.official_value(t, r) for t in range(3) if supply[t]), default=0.0))
        if effect == "hire":
            return best(view, decision.options, lambda r: est.worker_value(r, 1))
        return best(view, decision.options, lambda r: est.unrest_relief(r, 1))

    def choose_official(self, view: PlayerView, decision: Decision) -> Any:
        est = self.estimator(view)
        region = decision.context["region"]
        return best(view, decision.options, lambda t: est.official_value(t, region))

    def choose_token(self, view: PlayerView, decision: Decision) -> Any:
        est = self.estimator(view)
        return best(view, decision.options, lambda s: est.token_gain(s, 1))

    def choose_move_official(self, view: PlayerView, decision: Decision) -> Any:
        est = self.estimator(view)
        return best(view, decision.options, lambda o: 0.0 if o == "stop" else
                    est.official_value(o[0], o[2]) - est.official_loss(o[0], o[1]))

    def choose_move_worker(self, view: PlayerView, decision: Decision) -> Any:
        est = self.estimator(view)
        return best(view, decision.options, lambda o: 0.0 if o == "stop" else
                    est.worker_value(o[1], 1) - est.worker_loss(o[0], 1))

    def choose_reset_unrest(self, view: PlayerView, decision: Decision) -> Any:
        est = self.estimator(view)
        unrest = view.me.unrest
        return best(view, decision.options, lambda r: 0.0 if r == "stop" else
                    est.unrest_relief(r, unrest[r]) + 0.01 * unrest[r])

    def choose_place_alchemist(self, view: PlayerView, decision: Decision) -> Any:
        est = self.estimator(view)
        return best(view, decision.options, lambda o: 0.0 if o == "stop" else
                    est.alchemist_card_value(o[0], o[1]))

    # --- the Mausoleum and Phase 3 ------------------------------------------------------------

    def choose_soldier(self, view: PlayerView, decision: Decision) -> Any:
        est = self.estimator(view)
        return best(view, decision.options, lambda o: 0.0 if o == STOP else est.spot_place(o))

    def choose_reward(self, view: PlayerView, decision: Decision) -> Any:
        est = self.estimator(view)
        context = decision.context
        ability = view.tables.box.abilities[context["reward"]]
        suit = context["suit"]
        gain = est.alternatives_value(ability.options, -1, 0, suit)
        spent = view.me.tokens[suit] * self._next_round_token(est)
        moved = est.w.turn_order * (1.0 if est.turns else 0.0)
        return "accept" if gain - spent - moved > 0 else "pass"

    @staticmethod
    def _next_round_token(est: Estimator) -> float:
        """A small token kept into the next round (large ones go back to the board anyway)."""
        return 0.5 * est.w.rewards if est.turns else 0.0

    def choose_unlock(self, view: PlayerView, decision: Decision) -> Any:
        est = self.estimator(view)
        p = view.me
        surplus = max(0, sum(p.tokens) - est.rules.small_token_keep)
        soldier = est.soldier_value()
        token = self._next_round_token(est)

        def value(option: Any) -> float:
            if option == STOP:
                return 0.0
            smalls = sum(1 for code in option if code < 3)
            return soldier - max(0, smalls - surplus) * token

        return best(view, decision.options, value)

    def choose_discard_token(self, view: PlayerView, decision: Decision) -> Any:
        tokens = view.me.tokens
        return best(view, decision.options, lambda s: -tokens[s])

    def choose_start_tile(self, view: PlayerView, decision: Decision) -> Any:
        est = self.estimator(view)
        box = view.tables.box
        return best(view, decision.options, lambda i: est.alternatives_value(
            box.abilities[box.starting_tiles[i].ability].options, 0, 0, -1))
