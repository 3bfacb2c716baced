"""Can a run's seating tell seat effects apart from lineup effects? Checks on the design alone.

A seat effect is only measurable when the same strategies sit in different seat orders: if a
lineup always sits in one order, whatever its players win in a seat is as much "who sat next to
whom" as "which seat". These checks look at seatings only (strategy names by seat, one tuple per
game), so ``zsim run`` can warn before playing and a report can refuse a seat conclusion from
the tables it reads, both with the same rule.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence

#: Games of a run looked at for the check; seatings repeat long before this many games.
CHECKED_GAMES = 5000


def seat_aliasing(seatings: Iterable[Sequence[str]]) -> str | None:
    """Why seat cannot be told apart from lineup in these games, or None when it can.

    Seat is aliased when every lineup mixing strategies that sat down more than once always sat
    in the same order (``fixed`` seats; ``rotate`` with more strategies than seats, which seats
    each window of the lineup in one order). Lineups seen once say nothing either way, and a
    lineup of one strategy has no order to vary.
    """
    orders: dict[tuple[int, tuple[str, ...]], set[tuple[str, ...]]] = defaultdict(set)
    counts: dict[tuple[int, tuple[str, ...]], int] = defaultdict(int)
    for seating in seatings:
        seated = tuple(seating)
        if len(set(seated)) < 2:
            continue
        key = (len(seated), tuple(sorted(seated)))
        orders[key].add(seated)
        counts[key] += 1
    repeated = [key for key, n in counts.items() if n > 1]
    if not repeated or any(len(orders[key]) > 1 for key in repeated):
        return None
    return (f"each of the {len(orders)} lineup(s) always sat in the same seat order, so a seat's "
            "win rate cannot be told apart from who sat there and next to whom")


def partial_block(games_of_count: int, block: int) -> str | None:
    """What a ``balanced`` run's last, incomplete block leaves unbalanced, or None."""
    complete, left = divmod(games_of_count, block)
    if not left:
        return None
    return (f"{games_of_count} games make {complete} complete block(s) of {block}; the last "
            f"{left} games are a partial block, where strategies and seats are balanced only "
            f"approximately (use a multiple of {block} games per player count for an exact "
            "balance)")
