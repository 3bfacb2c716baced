"""Unification tokens: this round's race for each suit's reward (how likely a token value wins
it, against the best rival's), and what a token carries beyond the round."""

from __future__ import annotations

import math

from zsim.strategies.estimates.walls import WallEstimates


class TokenEstimates(WallEstimates):
    __slots__ = ("_race", "_tokens")

    _race: list | None
    _tokens: dict[int, float]  # by k * 4 + suit

    def refresh(self) -> None:
        super().refresh()
        self._race = None
        self._tokens = {}

    def race(self) -> list[tuple[float, int, int, float]]:
        """Per suit: (reward value, my token value, best rival's, tie-break edge)."""
        if self._race is None:
            board, p, seat = self.board, self.p, self.seat
            large = self.f.large_token_value
            aspects = self.f.reward_aspects[board.reward_board]
            rnd = min(max(board.round, 1), self.f.rounds)
            order = board.turn_order
            me_first = order.index(seat)
            ability = self.st.ability
            race: list = [None, None, None]
            for s, rewards in aspects:
                value = self.w.rewards * ability[rewards[rnd - 1]]
                mine = p.tokens[s] + large * p.large[s]
                best, edge = 0, 0.4
                for q in board.players:
                    if q.seat != seat:
                        theirs = q.tokens[s] + large * q.large[s]
                        if theirs > best:
                            best = theirs
                        if theirs == mine and order.index(q.seat) < me_first:
                            edge = -0.4
                race[s] = (value, mine, best, edge)
            self._race = race
        return self._race

    def win_chance(self, s: int, value: int) -> float:
        """Chance that a token value of ``value`` in suit ``s`` wins this round's reward."""
        if value <= 0:
            return 0.0
        _, _, best, edge = (self._race or self.race())[s]
        tau = 0.5 + 2.0 * self.round_left
        return 1 / (1 + math.exp(-(value - best + edge) / tau))

    def token_gain(self, s: int, k: int) -> float:
        """``k`` more small tokens of suit ``s``."""
        if k <= 0:
            return 0.0
        key = k * 4 + s
        hit = self._tokens.get(key)
        if hit is None:
            reward, mine, _, _ = (self._race or self.race())[s]
            hit = reward * (self.win_chance(s, mine + k) - self.win_chance(s, mine))
            hit = self._tokens[key] = hit + k * self.token_carry()
        return hit

    def token_carry(self) -> float:
        """A token's worth beyond this round's race: later races and unlocking soldiers."""
        carry = 0.25 * self.w.rewards * self.frac
        if self.p.soldiers:
            carry += self.soldier_value() / (2 * self.f.unlock_cost)
        return carry

    def best_token(self, k: int) -> float:
        best = self.token_gain(0, k)
        for s in (1, 2):
            v = self.token_gain(s, k)
            if v > best:
                best = v
        return best
