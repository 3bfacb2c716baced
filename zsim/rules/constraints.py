"""Setup components forced into play or kept out: ``setup.force.KIND``, ``setup.exclude.KIND``.

A designer asking "what does Wall tile X do?" needs games with X in play and the same games
without it. Setup draws its components exactly as usual (the same random numbers, in the same
order); a constraint then only swaps a forced component into play, or an excluded one out, in
place of the one the shuffle put there. Two runs on common seeds, one forcing X and one
excluding it, therefore differ by X and the one component that stood in for it, and by what
play makes of that, which is what makes their paired difference a causal effect of X.

Every id and every combination is checked against the box and the player count before a game is
set up (``check``), so an impossible request (excluding more tiles than setup can spare, forcing
two boards) is refused with a message naming the key and the id instead of failing games.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final

from zsim.components.schema import COLOURS
from zsim.options import KINDS, OptionError

if TYPE_CHECKING:
    from zsim.components import Box
    from zsim.options import GameOptions
    from zsim.rules.tables import Tables
    from zsim.state import MausoleumSpot

BLANK_GOVERNOR: Final = "gov_blank"


def ids_of(options: GameOptions, mode: str, kind: str) -> frozenset[str]:
    return frozenset(i for m, k, ids in options.setup for i in ids if m == mode and k == kind)


# --- what each kind deals --------------------------------------------------------------------


def _pools(box: Box, t: Tables, n: int) -> dict[str, tuple[list[str], int]]:
    """Per kind: the ids setup deals from (one per copy) and how many of them go into play."""
    rules, wall = box.board.rules, box.board.wall
    bonus = [g.id for g in box.governor_tiles if g.ability is not None for _ in range(g.copies)]
    return {
        "board": ([b.id for b in box.unification_boards], 1),
        "wall_tiles": ([w.id for w in box.wall_tiles], wall.sites * wall.sections_per_site),
        "palace_tiles": ([p.id for p in box.palace_tiles for _ in range(p.copies)],
                         5 * rules.palace_spaces[n]),
        "governor_tiles": (bonus, rules.governor_tiles_with_bonus[n]),
        "emperor_tiles": ([e.id for e in box.emperor_tiles], rules.emperor_tiles[n]),
        "starting_tiles": ([s.id for s in box.starting_tiles for _ in range(s.copies)],
                           n * rules.starting_tiles_dealt),
        "master_alchemists": ([m.id for m in box.master_alchemists],
                              min(n, len(box.master_alchemists))),
        "colours": (list(COLOURS), n),
    }


def _mausoleum_spots(box: Box) -> dict[str, list[str]]:
    """Each spot binding of the grid and the conditions that can lie there (tiles of its kind)."""
    by_kind: dict[str, list[str]] = {}
    for tile in box.mausoleum_tiles:
        by_kind.setdefault(tile.kind, []).append(tile.condition)
    return {binding: by_kind.get(spot_kind(binding), [])
            for binding in (b for row in box.board.mausoleum.grid for b in row)}


def spot_kind(binding: str) -> str:
    """Which kind of Mausoleum tile a spot bound to ``binding`` takes."""
    return "elixir" if binding == "elixir" else "wall" if binding.startswith("site") else "region"


def check(box: Box, t: Tables, n: int, options: GameOptions) -> None:
    """Refuse unknown ids and constraints setup cannot meet with ``n`` players."""
    if not options.setup:
        return
    pools = _pools(box, t, n)
    for kind in KINDS:
        forced, excluded = ids_of(options, "force", kind), ids_of(options, "exclude", kind)
        if not forced and not excluded:
            continue
        key = f"setup.{'force' if forced else 'exclude'}.{kind}"
        if kind == "mausoleum_layout":
            _check_mausoleum(box, forced, excluded)
            continue
        ids = pools[kind][0] + ([BLANK_GOVERNOR] if kind == "governor_tiles" else [])
        for mode, chosen in (("force", forced), ("exclude", excluded)):
            unknown = sorted(chosen - set(ids))
            if unknown:
                raise OptionError(f"variant setup.{mode}.{kind}: unknown {KINDS[kind]} "
                                  f"{unknown[0]!r}; known: {', '.join(dict.fromkeys(ids))}")
        if both := sorted(forced & excluded):
            raise OptionError(f"variant {key}: {both[0]!r} is both forced and excluded")
        if kind == "governor_tiles":
            blanks = box.board.rules.governor_blank_tiles[n]
            if BLANK_GOVERNOR in forced and not blanks:
                raise OptionError(f"variant setup.force.{kind}: no blank Governor tile is laid "
                                  f"out with {n} players")
            if BLANK_GOVERNOR in excluded and blanks:
                raise OptionError(f"variant setup.exclude.{kind}: {n} players always lay out "
                                  f"{blanks} blank Governor tiles")
            forced, excluded = forced - {BLANK_GOVERNOR}, excluded - {BLANK_GOVERNOR}
        pool, in_play = pools[kind]
        left = sum(1 for i in pool if i not in excluded)
        if left < in_play:
            raise OptionError(
                f"variant setup.exclude.{kind}: setup lays out {in_play} of the {len(pool)} "
                f"{KINDS[kind]}s (copies counted) with {n} players; excluding "
                f"{', '.join(sorted(excluded))} leaves {left}")
        if len(forced) > in_play:
            raise OptionError(f"variant setup.force.{kind}: {len(forced)} forced, but only "
                              f"{in_play} {KINDS[kind]}(s) go into play with {n} players")


def _check_mausoleum(box: Box, forced: frozenset[str], excluded: frozenset[str]) -> None:
    spots = _mausoleum_spots(box)
    where: Counter[str] = Counter()
    what: Counter[str] = Counter()
    for mode, chosen in (("force", forced), ("exclude", excluded)):
        for item in sorted(chosen):
            binding, sep, condition = item.partition(":")
            if not sep or binding not in spots:
                raise OptionError(
                    f"variant setup.{mode}.mausoleum_layout: unknown Mausoleum layout "
                    f"{item!r}; expected SPOT:CONDITION with SPOT one of {', '.join(spots)}")
            if condition not in spots[binding]:
                raise OptionError(
                    f"variant setup.{mode}.mausoleum_layout: no tile with condition "
                    f"{condition!r} can lie on {binding}; possible: "
                    f"{', '.join(spots[binding])}")
            if mode == "force":
                where[binding] += 1
                what[condition] += 1
            elif len(spots[binding]) < 2:
                raise OptionError(f"variant setup.exclude.mausoleum_layout: {item!r} is the "
                                  f"only tile that can lie on {binding}")
    if twice := [b for b, k in where.items() if k > 1] + [c for c, k in what.items() if k > 1]:
        raise OptionError(f"variant setup.force.mausoleum_layout: {twice[0]} is forced twice")
    if both := sorted(forced & excluded):
        raise OptionError(f"variant setup.force.mausoleum_layout: {both[0]!r} is both forced "
                          "and excluded")


# --- applying constraints to what setup drew -------------------------------------------------


def settle(options: GameOptions, kind: str, order: list, in_play: int,
           name: Callable[[Any], str], from_end: bool = False) -> list:
    """``order`` as setup shuffled it, its first ``in_play`` items in play (the last ones when
    ``from_end``: setup pops them), with excluded items swapped out for the first usable item
    left out and forced items swapped in for the last item in play that is not forced.

    Without a constraint on ``kind`` the order is returned as it is, so unconstrained games are
    the games they always were.
    """
    forced, excluded = ids_of(options, "force", kind), ids_of(options, "exclude", kind)
    if not forced and not excluded:
        return order
    items = list(reversed(order) if from_end else order)
    for i in range(in_play):
        if name(items[i]) in excluded:
            j = next(j for j in range(in_play, len(items)) if name(items[j]) not in excluded)
            items[i], items[j] = items[j], items[i]
    for wanted in sorted(forced):
        if any(name(item) == wanted for item in items[:in_play]):
            continue
        j = next(j for j in range(in_play, len(items)) if name(items[j]) == wanted)
        i = next(i for i in reversed(range(in_play)) if name(items[i]) not in forced)
        items[i], items[j] = items[j], items[i]
    return items[::-1] if from_end else items


def settle_mausoleum(options: GameOptions, spots: Sequence[MausoleumSpot]) -> None:
    """Swap Mausoleum tiles between spots of one kind until every forced ``spot:condition``
    holds and no excluded one does."""
    forced = ids_of(options, "force", "mausoleum_layout")
    excluded = ids_of(options, "exclude", "mausoleum_layout")
    if not forced and not excluded:
        return
    fixed: set[int] = set()

    def replace(i: int, j: int) -> None:
        a, b = spots[i], spots[j]
        a.tile, b.tile, a.condition, b.condition = b.tile, a.tile, b.condition, a.condition

    def kind(i: int) -> str:
        return spot_kind(spots[i].binding)

    for item in sorted(forced):
        binding, _, condition = item.partition(":")
        i = next(i for i, s in enumerate(spots) if s.binding == binding)
        j = next(j for j, s in enumerate(spots) if s.condition == condition)
        if i != j:
            replace(i, j)
        fixed.add(i)
    for i, spot in enumerate(spots):
        if f"{spot.binding}:{spot.condition}" not in excluded:
            continue
        others = [j for j in [*range(i + 1, len(spots)), *range(i)]
                  if kind(j) == kind(i) and j not in fixed
                  and f"{spot.binding}:{spots[j].condition}" not in excluded
                  and f"{spots[j].binding}:{spot.condition}" not in excluded]
        if not others:
            raise OptionError(f"variant setup.exclude.mausoleum_layout: no other tile can take "
                              f"the place of {spot.binding}:{spot.condition}")
        replace(i, others[0])


def component_ids(box: Box, t: Tables, kind: str) -> list[str]:
    """Every id a constraint on ``kind`` can name, in box order (``SPOT:CONDITION`` pairs in
    grid order for the Mausoleum layout)."""
    if kind == "mausoleum_layout":
        return [f"{spot}:{c}" for spot, conditions in _mausoleum_spots(box).items()
                for c in conditions]
    ids = list(dict.fromkeys(_pools(box, t, 4)[kind][0]))
    return [*ids, BLANK_GOVERNOR] if kind == "governor_tiles" else ids
