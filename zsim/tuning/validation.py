"""The tuned bot on fresh seeds, against the best hand-weighted bot on the same seeds.

The study picks its winner as the best of many noisy estimates on its training games, so its
training win share is biased upwards (the winner's curse). Replaying the winner and the
reference on held-out blocks, which no trial played, gives unbiased shares; both play the same
held-out games, so their difference is paired game by game.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from zsim.stats import bootstrap_interval, paired_test, wilson_interval
from zsim.strategies.heuristic import HeuristicStrategy
from zsim.tuning.arena import Arena, Setup

CONFIDENCE = 0.95


@dataclass(frozen=True)
class Share:
    """A bot's win share in the candidate seat, with its Wilson interval."""

    name: str
    games: int
    share: float
    low: float
    high: float


@dataclass(frozen=True)
class HeldOut:
    """The tuned bot against the reference on the same held-out games."""

    tuned: Share
    reference: Share
    fair: float  # 1 / players: the share of a bot as strong as the field
    difference: float  # tuned - reference, paired
    low: float
    high: float
    pvalue: float  # Wilcoxon signed-rank on the per-game differences

    @property
    def significant(self) -> bool:
        return bool(self.low > 0)

    def as_dict(self) -> dict[str, Any]:
        return {"tuned": asdict(self.tuned), "reference": asdict(self.reference),
                "fair": self.fair, "difference": self.difference, "low": self.low,
                "high": self.high, "pvalue": self.pvalue, "significant": self.significant}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HeldOut:
        return cls(tuned=Share(**data["tuned"]), reference=Share(**data["reference"]),
                   fair=data["fair"], difference=data["difference"], low=data["low"],
                   high=data["high"], pvalue=data["pvalue"])

    def summary(self) -> str:
        t, r = self.tuned, self.reference
        verdict = "significantly above" if self.significant else (
            "significantly below" if self.high < 0 else "not significantly different from")
        return (f"held out ({t.games} games, fair share {self.fair * 100:.1f}%): "
                f"tuned {_pct(t)}; "
                f"{r.name} {_pct(r)}; difference {self.difference * 100:+.1f} points "
                f"[{self.low * 100:+.1f}, {self.high * 100:+.1f}]: the tuned bot is {verdict} "
                f"{r.name}")


def share(name: str, values: np.ndarray) -> Share:
    played = values[~np.isnan(values)]
    low, high = wilson_interval(float(played.sum()), played.size, CONFIDENCE)
    mean = float(played.mean()) if played.size else float("nan")
    return Share(name, int(played.size), mean, low, high)


def compare(tuned: np.ndarray, reference: np.ndarray, reference_name: str,
            players: int) -> HeldOut:
    """Shares of both, and their paired difference with a bootstrap interval."""
    both = ~np.isnan(tuned) & ~np.isnan(reference)
    diff = tuned[both] - reference[both]
    low, high = bootstrap_interval(diff, confidence=CONFIDENCE)
    return HeldOut(tuned=share("tuned", tuned), reference=share(reference_name, reference),
                   fair=1 / players, difference=float(diff.mean()) if diff.size else 0.0,
                   low=low, high=high, pvalue=paired_test(diff).pvalue)


def validate(arena: Arena, tuned: dict[str, float], reference_name: str,
             reference: dict[str, float]) -> HeldOut:
    blocks = arena.setup.held_out_blocks()
    mine = arena.play_blocks(HeuristicStrategy(**tuned), blocks, held_out=True)
    theirs = arena.play_blocks(HeuristicStrategy(**reference), blocks, held_out=True)
    return compare(mine, theirs, reference_name, arena.setup.players)


def _pct(s: Share) -> str:
    return f"{s.share * 100:.1f}% [{s.low * 100:.1f}, {s.high * 100:.1f}]"


def write_bot(path: Path, params: dict[str, float], setup: Setup, held_out: HeldOut) -> None:
    """The tuned bot as a ``configs/strategies/`` file: copy it there to make it a built-in."""
    against = ", ".join(setup.field)
    rules = ", ".join(f"{k}={v}" for k, v in setup.variants.items()) or "the base rules"
    t = held_out.tuned
    text = (f"# Tuned by `zsim tune` against {against} ({setup.players} players) under {rules}.\n"
            f"# Held-out win share {_pct(t)} over {t.games} games; {held_out.reference.name} "
            f"{_pct(held_out.reference)} on the same games.\n")
    bot = {"description": f"tuned against {against} under {rules}",
           "patience": round(params["patience"], 4),
           "weights": {k: round(v, 4) for k, v in params.items() if k != "patience"}}
    path.write_text(text + yaml.safe_dump(bot, sort_keys=False))
