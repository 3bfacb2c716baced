"""The weights of the heuristic and the fixed numbers of its model.

Every estimate is multiplied by the weight of its category (``WEIGHTS``), so one model gives
differently minded bots; ``patience`` discounts goals still some actions away. The other numbers
here are the model's own calibration, the same for every bot.
"""

from __future__ import annotations

from typing import Final

from zsim.components.schema import OFFICIALS
from zsim.rules.queries import ELIXIR, GOVERNOR, HIRE, PALACE, RECRUIT, WALL
from zsim.rules.tables import ALL_REGIONS, OFFICIAL_INDEX
from zsim.rules.valuer import FAR

# the Court actions, and the distance at which a goal is worth nothing
__all__ = ["ELIXIR", "FAR", "GOVERNOR", "HIRE", "PALACE", "RECRUIT", "WALL"]

ALCHEMIST_OFFICIAL: Final = OFFICIAL_INDEX["alchemist"]
ARCHITECT: Final = OFFICIAL_INDEX["architect"]
GENERAL: Final = OFFICIAL_INDEX["general"]
OFFICIAL_KEYS: Final = OFFICIALS  # Wall tiles counting each Official type, by type
REGIONS: Final = ALL_REGIONS
# cost of sitting at each Unrest level, before the weight
UNREST_LEVEL: Final = (0.0, 0.5, 1.4, 3.0)
ACTIVATIONS_PER_ROUND: Final = 0.9  # how often a tableau card fires per round left, on average
SEARCH_SHARE: Final = 0.15  # share of the turns left a plan-neutral player spends Searching
FUTURE_ALCHEMISTS: Final = 0.9  # share of the Alchemist cards still in reach that get placed
# a Worker's worth beyond the goals modelled (later Walls, moves), per frac
WORKER_SPARE: Final = 0.3
OFFICIAL_SPARE: Final = 0.2  # the same for an Official

# The weights of the heuristic, each the multiplier of one category of estimated VP.
WEIGHTS: Final[dict[str, str]] = {
    "vp": "VP scored at once by card abilities, bonuses and rewards",
    "palaces": "Palaces: their VP, their tiles and the steps towards them",
    "majority": "Governor majorities",
    "governor_bonus": "Governor tile bonuses",
    "walls": "Walls, by the VP their tile will pay at the end",
    "elixir": "Alchemist cards x Ship value",
    "mausoleum": "soldiers on Mausoleum tiles and their rows and columns",
    "soldiers": "spare soldiers at the Mausoleum entrance",
    "rewards": "chance of winning this round's Unification rewards x their value",
    "turn_order": "an early place in the turn order",
    "abilities": "future activations of tableau cards",
    "unrest": "the cost of Unrest",
}


class Weights:
    """Float attributes, one per ``WEIGHTS`` key, plus ``patience`` (the per-action discount of
    goals still some actions away) and ``resources`` (derived: Officials and Workers serve
    Palaces, Governors and Walls alike). The attributes are declared so that the compiled build
    can store them as plain doubles (a test holds them equal to ``WEIGHTS``)."""

    key: tuple[float, ...]
    patience: float
    resources: float
    vp: float
    palaces: float
    majority: float
    governor_bonus: float
    walls: float
    elixir: float
    mausoleum: float
    soldiers: float
    rewards: float
    turn_order: float
    abilities: float
    unrest: float

    def __init__(self, values: dict[str, float]) -> None:
        for key in ("patience", *WEIGHTS):
            setattr(self, key, float(values[key]))
        self.resources = (self.palaces + self.majority + self.walls) / 3
        self.key = tuple(float(values[k]) for k in ("patience", *WEIGHTS))
