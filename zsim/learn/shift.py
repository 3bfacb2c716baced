"""A scorer's weights shifted by hand: the same phases and bonuses, some categories' weights
moved by a fixed amount in every phase (never below 0), written as a new scorer file.

Why: the fit of a first round sets some categories to 0 in the early phases (at four players
the Unification rewards, the Governor majorities and the Mausoleum), where the playouts it
learned from could not show their worth; a shift measured on fresh games can put that back.
It is what a style does at play time (``DistilledStrategy.phase_params``: a weight ``w`` given
to the bot shifts the learned one by ``w - 1``), made a shipped scorer so that a plain
``distilled`` plays it. The ``fitted`` record keeps the base file's record, the shift and the
command::

    python -m zsim.learn.shift configs/models/distilled-4p.yaml --by rewards=1.2 \\
        --by turn_order=0.5 --by vp=0.2 --name rewards \\
        --out configs/models/distilled-4p-rewards.yaml
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

from zsim.learn.policy import CATEGORIES, Phase, ScorerError, ScorerFile, load_scorer, save_scorer


def shifted(scorer: ScorerFile, by: dict[str, float]) -> list[Phase]:
    """``scorer``'s phases with each category of ``by`` moved by its amount, never below 0."""
    return [phase.model_copy(update={"weights": {
        k: max(0.0, round(v + by.get(k, 0.0), 4)) for k, v in phase.weights.items()}})
        for phase in scorer.phases]


def parse_by(items: list[str]) -> dict[str, float]:
    """``KEY=AMOUNT`` items, each a category of the heuristic's weights; ValueError naming the
    item otherwise."""
    by: dict[str, float] = {}
    for item in items:
        key, sep, amount = item.partition("=")
        if not sep or key not in CATEGORIES:
            raise ValueError(f"--by {item!r}: expected CATEGORY=AMOUNT, CATEGORY one of "
                             f"{', '.join(CATEGORIES)}")
        try:
            by[key] = float(amount)
        except ValueError:
            raise ValueError(f"--by {item!r}: {amount!r} is not a number") from None
    return by


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scorer", type=Path, help="the scorer file to shift")
    parser.add_argument("--by", action="append", default=[], metavar="CATEGORY=AMOUNT",
                        help="a category's shift, in every phase (repeat)")
    parser.add_argument("--name", default="", help="the name recorded (`scorer=NAME`)")
    parser.add_argument("--out", type=Path, required=True, help="the scorer file to write")
    args = parser.parse_args(argv)
    given = sys.argv[1:] if argv is None else argv
    try:
        base, by = load_scorer(args.scorer), parse_by(args.by)
    except (ScorerError, ValueError) as bad:
        parser.error(str(bad))
    fitted = {"command": shlex.join(["python", "-m", "zsim.learn.shift", *given]),
              "base": str(args.scorer), "shift": by, "base_fitted": base.fitted}
    if args.name:
        fitted["name"] = args.name
    save_scorer(base.model_copy(update={"phases": shifted(base, by), "fitted": fitted}),
                args.out)
    print(f"{args.scorer} shifted by {by}: written to {args.out}")


if __name__ == "__main__":
    main()
