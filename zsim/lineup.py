"""One game set up from names, as ``zsim play`` and ``zsim.api.play`` take it.

Strategies by registry name (the last one fills the remaining seats), variants as ``KEY=VALUE``
strings or variant files, an optional component directory, and the solo mode against Li Si.
Both front ends call ``seat_game``, so a notebook and the command line play the same game for
the same arguments.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from zsim.components import Box, default_box_dir
from zsim.errors import UserError
from zsim.options import GameOptions
from zsim.strategies.registry import resolve
from zsim.variants import parse as parse_variants

if TYPE_CHECKING:
    from zsim.decisions import Player
    from zsim.rules.lisi import LiSiSeat


class LineupError(UserError, ValueError):
    """Strategies that do not fit the table (too many for the player count, solo misuse)."""


@dataclass
class SeatedGame:
    """What one game needs before it starts: the box, the options, the strategies, the seed."""

    box: Box
    options: GameOptions
    strategies: list[Player | LiSiSeat]
    seed: int


def lineup(names: Sequence[str], players: int, solo: bool = False,
           lisi_level: int = 1) -> list[str]:
    """The strategy of every seat: ``names`` with the last one repeated to fill the table; in
    the solo mode, the one strategy given (default random) against Li Si at ``lisi_level``."""
    if solo:
        if len(names) > 1:
            raise LineupError("the solo mode takes one strategy")
        return [*(names or ("random",)), f"lisi-{lisi_level}"]
    chosen = list(names) or ["random"]
    if len(chosen) > players:
        raise LineupError(f"{len(chosen)} strategies for {players} players")
    return chosen + [chosen[-1]] * (players - len(chosen))


def seat_game(names: Sequence[str], players: int = 4, seed: int = 1,
              variants: Sequence[str] = (), box_dir: str | Path | None = None,
              solo: bool = False, lisi_level: int = 1) -> SeatedGame:
    """Load the box with its variants and resolve the lineup. Raises ``BoxError``,
    ``OptionError``, ``UnknownStrategy`` or ``LineupError`` with a message naming the culprit."""
    seats = lineup(names, players, solo, lisi_level)
    chosen = parse_variants(variants)
    box = chosen.load_box(Path(box_dir) if box_dir else default_box_dir())
    strategies: list[Player | LiSiSeat] = [resolve(name) for name in seats]
    _check_lisi(seats, strategies)
    return SeatedGame(box=box, options=chosen.game_options(), strategies=strategies, seed=seed)


def _check_lisi(names: list[str], strategies: Sequence[object]) -> None:
    """Li Si plays one of two seats: refused here, by name, rather than when the game is set
    up (a traceback)."""
    from zsim.rules.lisi import LiSiSeat

    solo = [name for name, s in zip(names, strategies, strict=True) if isinstance(s, LiSiSeat)]
    if solo and (len(names) != 2 or len(solo) != 1):
        raise LineupError(f"{solo[0]}: Li Si plays only in a 2-seat game against one player "
                          f"(--solo, or -n 2 with one lisi-LEVEL); the lineup is "
                          f"{', '.join(names)}")
