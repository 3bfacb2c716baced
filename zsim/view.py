"""What a strategy may look at: the table as a seated player sees it.

The view hands out the public parts of the state and the player's own hand; other hands are
seen only from the back (their suits), and the draw decks not at all. The objects returned are
the live ones, for speed: strategies read them and never change them (the engine owns them).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from zsim.rules import effects, mausoleum, turn
from zsim.rules.tables import Tables
from zsim.state import GameState, MausoleumSpot, PlayerState, WallSection

if TYPE_CHECKING:
    from zsim.game import Game


class PlayerView:
    __slots__ = ("_game", "memo", "rng", "seat")

    def __init__(self, game: Game, seat: int, rng: random.Random) -> None:
        self._game = game
        self.seat = seat
        self.rng = rng  # the strategy's own seeded RNG for this game
        # The seat's strategy may keep per-game memory here: a strategy instance plays many
        # games (and seats), so anything it remembers about one game belongs to that game's view.
        self.memo: dict = {}

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

    # --- read-only helpers for strategies' estimates (each wraps a rules function) -------------

    @property
    def turns_left(self) -> int:
        """Cards this player will still play: the hand plus the draws of the rounds to come."""
        game = self._game
        rules = game.rules
        per_round = 3 * rules.cards_per_suit_per_round
        return len(self.hand) + per_round * (rules.rounds - game.state.round)

    @property
    def log(self) -> list[str]:
        """The narration so far (empty unless the game is narrated); it tells public moves only."""
        return self._game.log or []

    def effect_vp(self, effect: object, here: int = -1, slot: int = 0, suit: int = -1) -> int:
        """VP one scoring effect step would give this player now, sitting in region ``here``."""
        return effects.effect_vp(self._game, self.me, effect,
                                 effects.Context(here, slot, suit, ""))

    @property
    def usable_mausoleum_slots(self) -> int:
        """Slots of each Mausoleum tile in use at this player count."""
        return mausoleum.usable_slots(self._game)

    def palace_regions(self) -> list[int]:
        """Regions where this player could build a Palace with a Court action now."""
        return turn.palace_regions(self._game, self.me)
