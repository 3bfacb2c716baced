"""Does a refined turn scorer play the correction it was fitted to?

A further round of ``distilled`` (``python -m zsim.learn.distill --scorer POLICY --save-data
TURNS --out REFINED``) fits a linear correction of POLICY on the turns it recorded, then
re-expresses it as POLICY's phases with other weights and bonuses. This plays games of POLICY
in both seats and, at each of their turns, asks three choosers for their pick: POLICY itself,
the fitted correction (the ridge coefficients on TURNS, applied to the turn's features measured
at POLICY's weights, as the fit saw them) and the bot on REFINED. It prints how often each pair
agrees, by stage of the game, and how often REFINED's pick lies outside the options the fit was
made on (POLICY's favourites)::

    python benchmarks/scorer_agreement.py TURNS REFINED --games 6

A refined file that agrees with its correction at most turns plays what was validated; one
that agrees at half of them plays something else (docs/learning.md, "Expert iteration").
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np

from zsim.components import load_box
from zsim.components.loader import default_box_dir
from zsim.decisions import Decision
from zsim.game import play_game
from zsim.learn.distill import ALPHA, Rollouts, favourites, load_turns
from zsim.learn.policy import HOLDS, _rows, fit_coefficients
from zsim.strategies.distilled import DistilledStrategy, scorer_path
from zsim.strategies.heuristic import HeuristicStrategy, nothing_to_weigh
from zsim.view import PlayerView


class Probe(Rollouts):
    """POLICY's play, noting at each turn the three picks (no playouts)."""

    def __init__(self, seed: int, policy: str, coef: np.ndarray, refined: DistilledStrategy,
                 noted: list[tuple[int, bool, bool, bool, bool]]) -> None:
        super().__init__(seed, policy)
        self.coef, self.refined, self.noted = coef, refined, noted

    def choose_turn(self, view: PlayerView, decision: Decision) -> Any:
        if nothing_to_weigh(decision):
            return self.policy.choose_turn(view, decision)
        values, scores, x = self._measured(view, decision, HeuristicStrategy(**self.params))
        kept = favourites(values, scores, self.width)
        own = int(kept[0])
        fitted = int(kept[int(np.argmax(_rows(x[kept], view.turns_left) @ self.coef))])
        refined = int(favourites(*self.refined.values_and_scores(view, decision),
                                 self.width)[0])
        self.noted.append((view.turns_left, fitted == own, refined == fitted, refined == own,
                           refined in set(kept.tolist())))
        return self.policy.choose_turn(view, decision)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("turns", help="the turns the refined file was fitted on (.npz)")
    parser.add_argument("refined", help="the refined scorer file")
    parser.add_argument("--policy", default=str(scorer_path(2)),
                        help="the scorer that played the turns (default: the shipped one)")
    parser.add_argument("--alpha", type=float, default=ALPHA, help="the fit's ridge penalty")
    parser.add_argument("--hold", choices=HOLDS, default="none", help="the fit's --hold")
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--seed", type=int, default=7000)
    args = parser.parse_args()
    coef = fit_coefficients(load_turns(args.turns, 2), args.alpha, args.hold)
    refined = DistilledStrategy(scorer=args.refined)
    noted: list[tuple[int, bool, bool, bool, bool]] = []
    box = load_box(default_box_dir())
    for game in range(args.games):
        seats = [Probe(2 * game + s, args.policy, coef, refined, noted) for s in range(2)]
        play_game(box, list(seats), args.seed + game)
    a = np.array(noted, dtype=float)
    print(f"{len(a)} turns of {args.games} games of {args.policy}")
    print(f"{'turns left':<12}{'fit = policy':>14}{'refined = fit':>15}{'refined = policy':>18}"
          f"{'refined in kept':>17}")
    for label, low, high in (("24-30", 24, 99), ("12-23", 12, 24), ("0-11", 0, 12),
                             ("all", 0, 99)):
        rows = a[(a[:, 0] >= low) & (a[:, 0] < high)]
        if len(rows):
            print(f"{label:<12}" + "".join(f"{rows[:, k].mean():>{w}.0%}" for k, w in
                                           ((1, 14), (2, 15), (3, 18), (4, 17))))


if __name__ == "__main__":
    main()
