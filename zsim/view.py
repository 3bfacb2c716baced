"""What a strategy may look at: the table as a seated player sees it.

The view hands out the public parts of the state and the player's own hand; other hands are
seen only from the back (their suits), and the draw decks not at all. The objects returned are
the live ones, for speed: strategies read them and never change them (the engine owns them).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from zsim.rules.tables import Tables
from zsim.state import GameState, MausoleumSpot, PlayerState, WallSection

if TYPE_CHECKING:
    from zsim.game import Game


class PlayerView:
    __slots__ = ("_game", "rng", "seat")

    def __init__(self, game: Game, seat: int, rng: random.Random) -> None:
        self._game = game
        self.seat = seat
        self.rng = rng  # the strategy's own seeded RNG for this game

    @property
    def tables(self) -> Tables:
        return self._game.t

    @property
    def n_players(self) -> int:
        return self._game.n

    @property
    def round(self) -> int:
        return self._game.state.round

    @property
    def me(self) -> PlayerState:
        return self._game.state.players[self.seat]

    @property
    def players(self) -> list[PlayerState]:
        return self._game.state.players

    @property
    def hand(self) -> list[int]:
        return self._game.state.hands[self.seat]

    def hand_backs(self, seat: int) -> tuple[int, int, int]:
        """How many Writing, Currency and Laws cards a player holds (the backs are public)."""
        card_type = self._game.t.card_type
        hand = self._game.state.hands[seat]
        return tuple(sum(1 for c in hand if card_type[c] == s) for s in range(3))  # type: ignore[return-value]

    @property
    def board(self) -> GameState:
        """The shared board. Read its public parts only: not ``hands`` nor ``decks``."""
        return self._game.state

    @property
    def walls(self) -> list[WallSection]:
        return self._game.state.walls

    @property
    def mausoleum(self) -> list[MausoleumSpot]:
        return self._game.state.mausoleum

    @property
    def court_top(self) -> int | None:
        court = self._game.state.court
        return court[-1] if court else None

    def card_ability_vp(self, card: int) -> int:
        """VP the best alternative of a tableau card's ability would score right now."""
        from zsim.rules import effects, turn

        game, p = self._game, self.me
        region, slot = turn.card_location(p, card)
        ctx = effects.Context(region, slot, game.t.card_type[card], "vp_cards")
        ability = game.t.card_ability[card]
        return max((effects.steps_vp(game, p, ability.options[i], ctx)
                    for i in effects.feasible_options(game, p, ability, ctx, full=False)),
                   default=0)

    def option_vp(self, ability_id: str, option: int, region: int = -1) -> int:
        """VP one alternative of a named ability would score now for this player."""
        from zsim.rules import effects

        game = self._game
        steps = game.t.box.abilities[ability_id].options[option]
        return effects.steps_vp(game, self.me, steps, effects.Context(region, 0, -1, ""))
