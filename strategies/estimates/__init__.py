"""What an option is worth, in end-game VP, as a seated player can estimate it.

The heuristic bots value every option of every decision with an ``Estimator`` built from the
player's view (and nothing else) for that decision or turn.

The model: VP scored at once count in full. Everything else is *progress towards goals* (a
Palace in a region, a Governor in a region, a Wall on a section, a soldier on a Mausoleum spot):
each goal has a value (the VP it will bring) and a distance (how many of this player's actions it
still needs: recruits, hires, Searches...). A goal is worth ``value * patience ** distance``
while the player has that many turns left, so a recruit or a hire is worth the distance it takes
off the goals it serves. End-game categories that grow with the state (Governor majorities, Walls
by their tile, Alchemist cards x Ship value, rows and columns of the Mausoleum, spare soldiers,
Unification rewards) are estimated from the current standing and how much of the game is left.
Abilities that will fire later, far from today's state (a card being tucked, a reward or Governor
bonus inside a goal's value), get flat-rate values (``static_value``), computed once per box.

Each estimate is multiplied by the weight of its category (``WEIGHTS``), so one model gives
differently minded bots. Tables are computed in bulk, lazily, at most once per decision: options
are valued by small deltas, never by copying the state.

The estimator is one chain of classes, a module per concern, each building on the ones above it:

- ``weights``: the weights of a bot and the model's fixed numbers;
- ``facts``: what a box gives once (per-box constants, flat-rate ability values, discounts);
- ``seat``: the seat's standing read from its view, Palace distances, Unrest;
- ``mausoleum``: the Mausoleum spots, their worth and their distance, a soldier's worth;
- ``walls``: what Walls pay per thing counted, open slots, a first Wall's extras;
- ``tokens``: this round's race for the Unification rewards, a token's worth;
- ``goals``: Palace tiles, and what one more Palace or Governor would bring;
- ``elixir``: the Ship's VP and moving it;
- ``pieces``: one more or one fewer Official or Worker in a region;
- ``actions``: building a Palace, a Governor or a Wall now;
- ``abilities``: resolving effect steps now;
- ``cards``: tucking or activating cards; ``Estimator``, the whole chain.

All are compiled with the engine (``setup.py``), so their calls to each other are native.
"""

from zsim.strategies.estimates.cards import Estimator
from zsim.strategies.estimates.facts import Facts, Statics, discounts, facts, statics
from zsim.strategies.estimates.weights import (
    ELIXIR,
    GOVERNOR,
    HIRE,
    PALACE,
    RECRUIT,
    WALL,
    WEIGHTS,
    Weights,
)

__all__ = ["ELIXIR", "GOVERNOR", "HIRE", "PALACE", "RECRUIT", "WALL", "WEIGHTS", "Estimator",
           "Facts", "Statics", "Weights", "discounts", "facts", "statics"]
