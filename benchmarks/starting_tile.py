"""Why do the keepers of the Starting tile ``start_recruit_alchemist`` win so often?

Plays the default experiment's first ``--games`` games (its seats and seeds) and records, for
every player, when an Alchemist Official first stood on their board and where their Ship was
then: an Elixir symbol passed before that (spaces 3, 6, 9, 12, 15) could only unlock a soldier,
never place an Alchemist card. ``--early`` plays the same games with every bot changed in one
way only: while it has no Alchemist on its board it spends its turn on the Court action
*Recruit*, an Alchemist, where any card allows it. ``--variant`` plays another reading of the
rules (e.g. ``configs/variants/starting_tile_choice.yaml``). ``--strategy`` replaces the
lineup (e.g. ``mcts``). ``--keep``: every bot keeps ``start_recruit_alchemist`` whenever it is
dealt (the seats that keep it then, compared game by game with the same seats of a plain run,
say whether keeping it always beats the bots' own choice). One CSV row per player:

    python benchmarks/starting_tile.py --games 360 --out plain.csv
    python benchmarks/starting_tile.py --games 360 --early --out early.csv

Compare the keepers' win share in both files, game by game (the tile choices are the same:
they come before any turn).
"""

from __future__ import annotations

import argparse
from typing import Any

import pandas as pd

from zsim.game import Game
from zsim.runner.experiment import DEFAULT_EXPERIMENT, load_experiment
from zsim.strategies.registry import resolve
from zsim.variants import parse

RECRUIT = 0  # the Court action Recruit, in the order of ``zsim.rules.turn.PERFORM``
ALCHEMIST = 0  # the Official, in the order of ``zsim.components.schema.OFFICIALS``
KEPT = "start_recruit_alchemist"


def has_alchemist(player: Any) -> bool:
    return any(player.officials[r][ALCHEMIST] for r in range(len(player.officials)))


class FirstAlchemist:
    """Listens to turns: the round and Ship of each seat when an Alchemist first stood on its
    board (at the start of a turn)."""

    def __init__(self) -> None:
        self.first: dict[int, tuple[int, int]] = {}

    def event(self, game: Any, kind: str, data: dict[str, Any]) -> None:
        for player in game.state.players:
            if player.seat not in self.first and has_alchemist(player):
                self.first[player.seat] = (game.state.round, player.ship)


class EarlyAlchemist:
    """A bot that recruits an Alchemist before anything else, and otherwise plays as ``inner``."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.name = inner.name
        self.forks = getattr(inner, "forks", False)

    def choose(self, view: Any, decision: Any) -> Any:
        if not has_alchemist(view.me):
            if decision.kind == "turn":
                recruit = [o for o in decision.options if o[0] == "court" and o[2] == RECRUIT]
                if recruit:
                    return recruit[0]
            if decision.kind == "recruit":
                alchemist = [o for o in decision.options if o[0] == ALCHEMIST]
                if alchemist:
                    return alchemist[0]
        return self.inner.choose(view, decision)


class KeepAlchemistTile:
    """A bot that keeps ``start_recruit_alchemist`` whenever it is dealt, and otherwise plays
    as ``inner``: is keeping it always better than the bots' own choice?"""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.name = inner.name
        self.forks = getattr(inner, "forks", False)

    def choose(self, view: Any, decision: Any) -> Any:
        if decision.kind == "start_tile":
            tiles = view.tables.box.starting_tiles
            keep = [o for o in decision.options if tiles[o].id == KEPT]
            if keep:
                return keep[0]
        return self.inner.choose(view, decision)



def play(games: int, early: bool, variants: list[str], strategies: list[str] | None,
         keep: bool = False) -> pd.DataFrame:
    experiment = load_experiment(DEFAULT_EXPERIMENT)
    if strategies:
        experiment = experiment.with_overrides("command line", strategies=strategies)
    chosen = parse([*variants, *(f"{k}={v}" for k, v in experiment.variants.items())])
    box, options = chosen.load_box(experiment.box_dir()), chosen.game_options()
    schedule = experiment.schedule()
    rows = []
    for index in range(games):
        plan = schedule.plan(index)
        bots = [resolve(name) for name in plan.strategies]
        bots = [EarlyAlchemist(b) if early else b for b in bots]
        bots = [KeepAlchemistTile(b) if keep else b for b in bots]
        game = Game(box, bots, plan.seed, options)
        watch = FirstAlchemist()
        game.listen(watch, ("turn",))
        for row in game.play().player_rows():
            first = watch.first.get(row["seat"])
            rows.append({"game": index, "seat": row["seat"], "strategy": row["strategy"],
                         "start_tile": row.get("start_tile"), "win_share": row["win_share"],
                         "vp_total": row["vp_total"],
                         "alchemist_cards": row.get("n_alchemist_cards_placed") or 0,
                         "first_alchemist_round": first[0] if first else None,
                         "ship_at_first_alchemist": first[1] if first else None})
    return pd.DataFrame(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=360)
    parser.add_argument("--early", action="store_true")
    parser.add_argument("--keep", action="store_true",
                        help=f"every bot keeps {KEPT} whenever it is dealt")
    parser.add_argument("--variant", action="append", default=[])
    parser.add_argument("--strategy", action="append", default=None)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    table = play(args.games, args.early, args.variant, args.strategy, args.keep)
    table.to_csv(args.out, index=False)
    kept = table[table["start_tile"] == "start_recruit_alchemist"]
    others = table[table["start_tile"] != "start_recruit_alchemist"]
    missed = (others["ship_at_first_alchemist"].fillna(15) // 3).mean()
    print(f"{len(table)} players; keepers of start_recruit_alchemist win "
          f"{kept['win_share'].mean():.1%} of {len(kept)}, the others "
          f"{others['win_share'].mean():.1%}; the others pass {missed:.2f} of 5 Elixir symbols "
          "before their first Alchemist")


if __name__ == "__main__":
    main()
