"""A simple default player: take whatever scores the most VP right now, else play at random."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from zsim.decisions import Decision
from zsim.kinds import ACCEPT, STOP, Activation, Court
from zsim.rules.queries import PALACE
from zsim.strategies.base import Strategy
from zsim.view import PlayerView


def best(view: PlayerView, options: list, value: Callable[[Any], float]) -> Any:
    """The option of highest value; ties are broken with the seat's RNG."""
    scored = [(value(o), i) for i, o in enumerate(options)]
    top = max(v for v, _ in scored)
    tied = [options[i] for v, i in scored if v == top]
    return tied[view.rng.randrange(len(tied))]


class BasicStrategy(Strategy):
    name = "basic"
    description = "takes the option with the best immediate VP, random otherwise"

    def choose_turn(self, view: PlayerView, decision: Decision) -> Any:
        palace_vp = view.tables.rules.palace_vp
        return best(view, decision.options,
                    lambda o: palace_vp if type(o) is Court and o.action == PALACE else 0)

    def choose_activate(self, view: PlayerView, decision: Decision) -> Any:
        return best(view, decision.options, lambda o: self._ability_value(view, o))

    choose_next_ability = choose_activate

    def _ability_value(self, view: PlayerView, option: Any) -> float:
        if type(option) is Activation:
            return view.card_ability_vp(option.card) + 0.5  # any ability beats doing nothing
        return 0

    def choose_soldier(self, view: PlayerView, decision: Decision) -> Any:
        spots = [o for o in decision.options if o != STOP]
        return spots[view.rng.randrange(len(spots))]

    def choose_reward(self, view: PlayerView, decision: Decision) -> Any:
        return ACCEPT

    def choose_palace_tile(self, view: PlayerView, decision: Decision) -> Any:
        tiles = view.tables.box.palace_tiles
        region = decision.context["region"]
        return best(view, decision.options,
                    lambda kind: view.option_vp(tiles[kind].ability, 0, region))

    def choose_bonus(self, view: PlayerView, decision: Decision) -> Any:
        ability = decision.context["ability"]
        return best(view, decision.options, lambda o: view.option_vp(ability, o))
