"""Fitting the turn scorer of ``distilled``: turns played out, and the scorer fitted on them.

``Rollouts`` plays as its policy does (the heuristic, or ``distilled`` on a scorer: the one to
improve) and notes, at each of its turns, the features of every option
(``zsim.learn.policy.features``) and what the policy's ``width`` favourite options are worth:
each is tried on the same ``deals`` redeals of the cards the seat cannot see (``view.fork``, so
it never sees them) and played to the end by the policy in every seat, and its worth is the mean
final margin (VP less the best other player's). Its own games are the policy's: the deals come
from an RNG of its own, and every valuation puts the view's RNG and memory back.

One code path for every player count (``--players``, 2 by default): every seat of the game
records, and the worth stays the final margin against the best other player at 3 and 4 players
too, because that is what decides a win there (a margin against the others' mean would credit a
move that helps the seat and the leader alike); the fitted record names the count.

Rebuild a shipped scorer (docs/learning.md; the ``fitted`` record of each file gives the exact
command and seeds it was made with)::

    python -m zsim.learn.distill --games 400 --jobs 2 --out configs/models/distilled-2p.yaml
    python -m zsim.learn.distill --players 3 --games 180 --jobs 2 \
        --out configs/models/distilled-3p.yaml
    python -m zsim.learn.distill --players 4 --games 200 --jobs 2 \
        --out configs/models/distilled-4p.yaml

``--scorer FILE`` plays (and plays out) with ``distilled`` on that scorer instead of the
heuristic, and is a further round of the same improvement: the options recorded are the ones
that scorer chooses among, measured at its own weights for the phase and with its bonuses in
their scores, its favourite first, and the fit corrects its phases (``refine_phases``) rather
than the heuristic's weights. (Fitted at the heuristic's weights instead, as the first round
is, turns played by a scorer gave a bot that lost 70% of its games to ``greedy``: the fit
corrected a heuristic that no longer played.) Turns kept from one policy are not pooled with
another's (``--data`` is refused).
"""

from __future__ import annotations

import argparse
import hashlib
import random
import shlex
import sys
from pathlib import Path
from typing import Any

import numpy as np

from zsim.decisions import Decision, Player
from zsim.learn.policy import (
    HOLDS,
    Turn,
    features,
    fit_coefficients,
    fit_scorer,
    gain,
    refine_phases,
    zeroed_bots,
    zeroed_values,
)
from zsim.rules.lisi import LiSiSeat
from zsim.strategies.heuristic import HeuristicStrategy, nothing_to_weigh
from zsim.strategies.search import Driver, play_out
from zsim.view import PlayerView

PHASES = (24, 18, 12, 6, 0)  # the turns left at which each phase of the shipped scorer starts
HORIZON = 0  # playouts run to the end (a short horizon biased the fit: docs/learning.md)
ALPHA = 300.0  # the ridge penalty (chosen on held-out games, docs/learning.md)


def _leave(view: PlayerView, decision: Decision, turns: int) -> None:
    """Below the option tried, every question goes to the policy."""
    return None


class Rollouts(HeuristicStrategy):
    """The policy, noting at each turn its options' features and their playout worth (see the
    module docstring). ``seed`` seeds the deals."""

    name = "rollouts"
    forks = True  # the engine keeps the snapshots a fork needs

    def __init__(self, seed: int, scorer: str = "", width: int = 6, deals: int = 2,
                 horizon: int = HORIZON) -> None:
        super().__init__()
        from zsim.strategies.distilled import DistilledStrategy

        self.policy: HeuristicStrategy = DistilledStrategy(scorer=scorer) if scorer else \
            HeuristicStrategy()
        self.rng = random.Random(seed)
        self.width, self.deals, self.horizon = width, deals, horizon
        # the heuristics with a weight at 0, by phase of the policy's scorer (None: no scorer)
        self.zeroed: dict[int | None, dict[str, HeuristicStrategy]] = {}
        self.turns: list[Turn] = []

    def choose_turn(self, view: PlayerView, decision: Decision) -> Any:
        play = self.policy.choose_turn
        if nothing_to_weigh(decision):
            return play(view, decision)
        judge = HeuristicStrategy(**self.params)
        values, scores, x = self._measured(view, decision, judge)
        order = favourites(values, scores, self.width)
        worth = np.zeros(len(order))
        for _ in range(self.deals):
            seed = self.rng.getrandbits(64)
            for j, i in enumerate(order):
                driver = Driver(view.seat, _leave, self.policy, judge, self.horizon,
                                first=decision.options[i])
                worth[j] += play_out(view, random.Random(seed), driver)
        self.turns.append((x, view.turns_left, order, worth / self.deals))
        return play(view, decision)

    def _measured(self, view: PlayerView, decision: Decision,
                  judge: HeuristicStrategy) -> tuple[list[float], list[float], np.ndarray]:
        """The options' values and scores as the policy weighs them, and their features
        measured at the policy's own weights (the heuristic's; a scorer's, at this phase, with
        its move bonuses in the scores), so that the fit corrects the policy that played.
        ``judge``: the heuristic on this bot's weights."""
        from zsim.strategies.distilled import DistilledStrategy

        key: int | None = None
        if isinstance(self.policy, DistilledStrategy):
            values, scores = self.policy.values_and_scores(view, decision)
            bot = self.policy.phase_bot(view)
            key = id(bot)  # the policy keeps its phases' bots as long as it lives
        else:
            bot = judge  # the heuristic, which the playouts are judged by too
            values = scores = [v or 0.0 for v in bot.option_values(view, decision)]
        zeroed = self.zeroed.get(key)
        if zeroed is None:
            zeroed = self.zeroed[key] = zeroed_bots(bot.params)
        x = features(view, decision, values, zeroed_values(view, decision, zeroed), scores)
        return values, scores, x


def favourites(values: list[float], scores: list[float], width: int) -> np.ndarray:
    """The indices of the policy's ``width`` favourite options by value (the options a scorer
    chooses among), its own favourite by score first: the options played out."""
    kept = np.argsort(-np.asarray(values), kind="stable")[:width]
    return kept[np.argsort(-np.asarray(scores)[kept], kind="stable")]


def record(seeds: list[int], scorer: str = "", width: int = 6, deals: int = 2,
           horizon: int = HORIZON, n_players: int = 2) -> list[Turn]:
    """The turns of ``Rollouts`` in every seat of ``n_players``-player games, one game per
    seed (seat ``s`` of game ``seed`` deals from ``seed * n_players + s``)."""
    from zsim.components import load_box
    from zsim.components.loader import default_box_dir
    from zsim.game import play_game

    box = load_box(default_box_dir())
    turns: list[Turn] = []
    for seed in seeds:
        seats = [Rollouts(seed * n_players + s, scorer, width, deals, horizon)
                 for s in range(n_players)]
        play_game(box, list[Player | LiSiSeat](seats), seed)
        turns.extend(t for s in seats for t in s.turns)
    return turns


def policy_digest(scorer: str) -> str:
    """What the turns were measured against: "greedy", or the digest of the scorer file whose
    bot played them (turns measured at another policy's weights cannot be pooled)."""
    if not scorer:
        return "greedy"
    return hashlib.sha256(Path(scorer).read_bytes()).hexdigest()[:16]


def save_turns(turns: list[Turn], path: Path, n_players: int = 2, policy: str = "greedy") -> None:
    """Recorded turns as one ``.npz`` archive (to fit again without playing again), with the
    player count of their games and the policy they were measured against."""
    np.savez_compressed(path, players=np.array(n_players), policy=np.array(policy),
                        x=np.concatenate([t[0] for t in turns]),
                        n=np.array([len(t[0]) for t in turns]),
                        left=np.array([t[1] for t in turns]),
                        order=np.concatenate([t[2] for t in turns]),
                        k=np.array([len(t[2]) for t in turns]),
                        worth=np.concatenate([t[3] for t in turns]))


def load_turns(path: Path, n_players: int | None = None,
               policy: str | None = None) -> list[Turn]:
    """The turns ``save_turns`` wrote; given ``n_players``, turns of games of another count
    are refused (an archive that does not say its count is taken as it is), and given
    ``policy`` (``policy_digest``), turns measured against another policy (an archive that does
    not say is the heuristic's)."""
    with np.load(path, allow_pickle=False) as d:
        recorded = int(d["players"]) if "players" in d else None
        if n_players is not None and recorded not in (None, n_players):
            raise ValueError(f"turns file {path}: recorded in {recorded}-player games, not "
                             f"{n_players}-player ones")
        played = str(d["policy"]) if "policy" in d else "greedy"
        if policy is not None and played != policy:
            raise ValueError(f"turns file {path}: measured against the policy {played}, not "
                             f"{policy} (--scorer): turns of two policies cannot be pooled")
        xs = np.split(d["x"], np.cumsum(d["n"])[:-1])
        orders = np.split(d["order"], np.cumsum(d["k"])[:-1])
        worths = np.split(d["worth"], np.cumsum(d["k"])[:-1])
        return [(x, int(left), o, w) for x, left, o, w in
                zip(xs, d["left"], orders, worths, strict=True)]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True, help="the scorer file to write")
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=2,
                        help="the player count of the games recorded and of the scorer")
    parser.add_argument("--games", type=int, default=400, help="games to record")
    parser.add_argument("--seed", type=int, default=300000, help="the first game's seed")
    parser.add_argument("--jobs", type=int, default=1, help="processes recording")
    parser.add_argument("--scorer", default="", help="play with distilled on this scorer")
    parser.add_argument("--data", type=Path, nargs="*", default=[],
                        help="turns recorded before (.npz) to fit on as well")
    parser.add_argument("--save-data", type=Path, help="keep the recorded turns here (.npz)")
    parser.add_argument("--alpha", type=float, default=ALPHA, help="the ridge penalty")
    parser.add_argument("--hold", choices=HOLDS, default="none",
                        help="what the fit leaves as the policy (the heuristic, or --scorer's) "
                             "has it: its own score's coefficient (score), and its weights too "
                             "(weights), so that the penalty shrinks towards the policy")
    parser.add_argument("--width", type=int, default=6, help="favourite options played out")
    parser.add_argument("--deals", type=int, default=2, help="deals per option played out")
    parser.add_argument("--horizon", type=int, default=HORIZON,
                        help="own turns a playout runs (0: to the end of the game)")
    args = parser.parse_args(argv)
    given = sys.argv[1:] if argv is None else argv
    command = shlex.join(["python", "-m", "zsim.learn.distill", *given])
    from joblib import Parallel, delayed

    from zsim.components import load_box
    from zsim.components.loader import default_box_dir
    from zsim.learn.model import rules_digest
    from zsim.learn.policy import ScorerError, ScorerFile, load_scorer, save_scorer

    if args.scorer:  # a policy for another count would fail in every game: refuse it now
        try:
            policy = load_scorer(args.scorer)
        except ScorerError as bad:
            parser.error(str(bad))
        if policy.n_players != args.players:
            parser.error(f"scorer file {args.scorer}: fitted for {policy.n_players} players, "
                         f"not the {args.players} of --players")
    played = policy_digest(args.scorer)
    earlier: list[Turn] = []  # read first: a wrong file is refused before any game is played
    for path in args.data:
        try:
            earlier.extend(load_turns(path, args.players, played))
        except ValueError as bad:
            parser.error(str(bad))
    seeds = list(range(args.seed, args.seed + args.games))
    chunks = [seeds[i::max(1, args.jobs * 4)] for i in range(max(1, args.jobs * 4))]
    parts = Parallel(n_jobs=args.jobs)(
        delayed(record)(c, args.scorer, args.width, args.deals, args.horizon, args.players)
        for c in chunks if c)
    turns = [t for part in parts for t in part]
    if args.save_data:
        save_turns(turns, args.save_data, args.players, played)
    turns.extend(earlier)
    starts = list(PHASES)
    held = turns[::5]  # every fifth turn held out to check the fit, then all fitted
    mean, error = gain(held, fit_coefficients([t for i, t in enumerate(turns) if i % 5],
                                              args.alpha, args.hold))
    base = HeuristicStrategy().params
    # a further round corrects the scorer that played; the first, the heuristic
    phases = (refine_phases(fit_coefficients(turns, args.alpha, args.hold), policy.phases, base)
              if args.scorer else fit_scorer(turns, starts, args.alpha, base, args.hold))
    scorer = ScorerFile(
        n_players=args.players, rules_digest=rules_digest(load_box(default_box_dir())),
        width=args.width,
        phases=phases,
        fitted={"command": command, "players": args.players, "turns": len(turns),
                "games": args.games, "seed": args.seed,
                "data": [str(path) for path in args.data],
                "policy": args.scorer or "greedy", "alpha": args.alpha, "hold": args.hold,
                "width": args.width,
                "deals": args.deals, "horizon": args.horizon,
                "held_out_gain_vp": round(mean, 3), "held_out_gain_se": round(error, 3)})
    save_scorer(scorer, args.out)
    print(f"{len(turns)} turns; held out ({len(held)}): the scorer's favourite plays out "
          f"{mean:+.2f} VP (± {error:.2f}) against the {'scorer' if args.scorer else 'heuristic'}"
          f" that played; written to {args.out}")


if __name__ == "__main__":
    main()
