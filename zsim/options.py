"""Rule variants a game can be played with, and their ``KEY=VALUE`` parsing for the CLI."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from zsim.errors import UserError

SETUP_PREFIX = "setup."  # keys of setup constraints: setup.force.KIND, setup.exclude.KIND

#: The component kinds a constraint can name, and what one of them is called.
KINDS = {
    "board": "Unification board",
    "wall_tiles": "Wall tile",
    "palace_tiles": "Palace tile",
    "governor_tiles": "Governor tile",
    "emperor_tiles": "Emperor tile",
    "starting_tiles": "Starting tile",
    "master_alchemists": "Master Alchemist",
    "mausoleum_layout": "Mausoleum layout (spot:condition)",
    "colours": "colour (and its Alchemist set)",
}
MODES = ("force", "exclude")


class OptionError(UserError, ValueError):
    """A variant key or value that does not exist."""


@dataclass(frozen=True)
class GameOptions:
    """Variants of the rules (see docs/assumptions.md).

    board: which Unification board rewards are used: 'random' draws one per game.
    mausoleum: 'basic' keeps the printed spot layout; 'advanced' shuffles the spot bindings.
    court_reset: clear the Court pile every round (then each round's first Court card is free).
    setup: components forced into play or kept out of it, as (mode, kind, ids) triples from
        ``setup.force.KIND=ID,...`` and ``setup.exclude.KIND=ID,...`` (zsim.rules.constraints).
    """

    board: str = "random"
    mausoleum: str = "basic"
    court_reset: bool = False
    setup: tuple[tuple[str, str, tuple[str, ...]], ...] = ()

    def with_variants(self, pairs: list[str] | tuple[str, ...]) -> GameOptions:
        """Apply ``KEY=VALUE`` strings, validating each key and value."""
        changes: dict[str, Any] = {}  # each value of its field's type (_parse)
        known = {f.name for f in fields(self)} - {"setup"}
        constraints = {(mode, kind): ids for mode, kind, ids in self.setup}
        for pair in pairs:
            key, sep, value = pair.partition("=")
            key = key.strip()
            if not sep:
                raise OptionError(f"variant {pair!r} is not KEY=VALUE")
            if key.startswith(SETUP_PREFIX):
                mode, kind, ids = parse_key(key, value)
                constraints[mode, kind] = ids
                changes["setup"] = tuple((m, k, i) for (m, k), i in sorted(constraints.items()))
                continue
            if key not in known:
                raise OptionError(
                    f"unknown variant {key!r}; known: {', '.join(sorted(known))}")
            changes[key] = _parse(key, value.strip())
        return replace(self, **changes)


def _parse(key: str, value: str) -> object:
    if key == "court_reset":
        lowered = value.lower()
        if lowered in ("1", "true", "yes", "on"):
            return True
        if lowered in ("0", "false", "no", "off"):
            return False
        raise OptionError(f"variant court_reset={value!r}: expected true or false")
    if key == "mausoleum" and value not in ("basic", "advanced"):
        raise OptionError(f"variant mausoleum={value!r}: expected basic or advanced")
    return value


def parse_key(key: str, value: str) -> tuple[str, str, tuple[str, ...]]:
    """``setup.MODE.KIND`` and a comma-separated list of ids, checked for form only."""
    parts = key.split(".")
    if len(parts) != 3 or parts[1] not in MODES:
        raise OptionError(f"variant {key!r}: expected setup.force.KIND or setup.exclude.KIND")
    if parts[2] not in KINDS:
        raise OptionError(f"variant {key}: unknown component kind {parts[2]!r}; known: "
                          f"{', '.join(KINDS)}")
    ids = tuple(dict.fromkeys(v.strip() for v in value.split(",") if v.strip()))
    if not ids:
        raise OptionError(f"variant {key}: no component id given")
    return parts[1], parts[2], ids
