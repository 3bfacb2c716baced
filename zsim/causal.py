"""Causal effects of setup components: each one forced into play against kept out, paired.

For a component X, two batches share every game seed: one with ``setup.force.KIND=X``, one with
``setup.exclude.KIND=X``. Setup draws the same random numbers in both and only swaps X in or out
(``zsim.rules.constraints``), so game *i* of one batch and game *i* of the other differ by X and
what play makes of it. Their game-by-game difference is the effect of having X in play, on each
strategy's win rate and on the mean VP of the players (``zsim.compare`` does the pairing).
"""

from __future__ import annotations

import pandas as pd

from zsim.compare import paired_differences
from zsim.options import KINDS
from zsim.stats import holm

ALPHA = 0.05
ALL_PLAYERS = "all players"
#: The metrics an effect is reported on: each strategy's win rate and mean VP, and the mean VP
#: of every player of the game.
SHOWN = ("win_share", "vp_total")


def component_effect(excluded: pd.DataFrame, forced: pd.DataFrame,
                     resamples: int = 999) -> pd.DataFrame:
    """Paired differences (forced minus excluded) of one component's two batches: per player
    count and strategy on win rate and VP, and on the mean VP of all players."""
    per_strategy = paired_differences(excluded, forced, resamples)
    everyone = paired_differences(excluded.assign(strategy=ALL_PLAYERS),
                                  forced.assign(strategy=ALL_PLAYERS), resamples)
    table = pd.concat([per_strategy[per_strategy["metric"].isin(SHOWN)],
                       everyone[everyone["metric"] == "vp_total"]], ignore_index=True)
    return table.rename(columns={"base": "excluded", "variant": "forced"}).drop(
        columns=["adjusted", "significant"])


def family_name(kind: str) -> str:
    """The one question every test of a ``zsim effects KIND`` table answers together."""
    return f"what each {KINDS.get(kind, kind)} does"


def causal_table(effects: dict[str, pd.DataFrame], kind: str = "") -> pd.DataFrame:
    """One table of every component's effects, Holm-adjusted over this table: one family, the
    question "what does each component of this kind do?", named in ``family`` with its number
    of tests in ``family_tests`` (so the table and its adjusted p-values agree)."""
    table = pd.concat([t.assign(component=c) for c, t in effects.items()], ignore_index=True)
    table = table[["component", *[c for c in table.columns if c != "component"]]]
    table["family"] = family_name(kind)
    table["family_tests"] = int(table["pvalue"].notna().sum()) if len(table) else 0
    table["adjusted"] = holm(table["pvalue"]) if len(table) else []
    table["significant"] = table["adjusted"] < ALPHA
    return table
