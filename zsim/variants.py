"""``--variant`` values: rule options, box values by key path, and variant files.

One entry is ``KEY=VALUE``, the path of a variant file (YAML mapping of ``KEY: VALUE``), or the
name of a shipped one (``palace_vp_8``: configs/variants/, listed by ``zsim variants``). Keys
naming a :class:`GameOptions` field set that option; every other key is a key path into the
component box (:mod:`zsim.components.overrides`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import yaml

from zsim.components import Box, load_box
from zsim.components.overrides import parse_value
from zsim.options import SETUP_PREFIX, GameOptions, OptionError
from zsim.paths import shipped, unknown_name
from zsim.yamlload import AliasBomb, Unreadable, read_text, safe_load

OPTION_KEYS = frozenset(f.name for f in fields(GameOptions))
#: Keys of a variant file that describe it rather than change the game: what it is, and the
#: assumed components it gives another reading of (the report points at it from them).
ABOUT = ("description", OTHER_READING := "other_reading_of")


def other_readings(directory: Path) -> dict[str, list[Path]]:
    """Component id -> the variant files in ``directory`` that read it another way."""
    found: dict[str, list[Path]] = {}
    for path in sorted(directory.glob("*.yaml")):
        try:
            data = safe_load(read_text(path))
        except (OSError, yaml.YAMLError, AliasBomb):
            continue  # a broken variant file is reported when it is used, not here
        ids = data.get(OTHER_READING) if isinstance(data, dict) else None
        for component in ids if isinstance(ids, list) else []:
            found.setdefault(str(component), []).append(path)
    return found


@dataclass(frozen=True)
class Variants:
    """Parsed variants: rule options plus box overrides, in the order given."""

    options: tuple[str, ...] = ()  # "KEY=VALUE" strings for GameOptions
    box: tuple[tuple[str, Any], ...] = ()  # (key path, value) pairs

    def game_options(self) -> GameOptions:
        return GameOptions().with_variants(self.options)

    def load_box(self, box_dir: str | Path) -> Box:
        return load_box(box_dir, self.box)

    def as_strings(self) -> list[str]:
        """The variants as ``KEY=VALUE`` strings (for run.json and reports), each value read
        back as it was given (``parse_value``)."""
        return [*self.options, *(f"{k}={_text(v)}" for k, v in self.box)]


def played(options: GameOptions, box: Box) -> list[str]:
    """The variant a game is played under, as ``--variant`` strings: the rule options that
    differ from the defaults, then the box values changed (``Box.overrides``); empty for the
    rules as printed. A page shows it, so that a game is never taken for another's."""
    default = GameOptions()
    chosen = [f"{f.name}={_option_text(getattr(options, f.name))}" for f in fields(GameOptions)
              if f.name != "setup" and getattr(options, f.name) != getattr(default, f.name)]
    chosen += [f"setup.{mode}.{kind}={','.join(ids)}" for mode, kind, ids in options.setup]
    return [*chosen, *Variants(box=box.overrides).as_strings()]


def _option_text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _text(value: Any) -> str:
    """A value as YAML text that reads back equal: JSON where it does, which keeps the strings
    of existing runs; YAML's flow style otherwise, for mappings with number keys (a per-player-
    count table, ``{2: 9, 3: 11, 4: 13}``), which JSON would turn into strings."""
    text = json.dumps(value)
    if parse_value(text) == value:
        return text
    return yaml.safe_dump(value, default_flow_style=True, width=1_000_000).strip()


def parse(entries: Sequence[str]) -> Variants:
    """Split ``--variant`` entries; a variant file expands to its entries in file order."""
    options: list[str] = []
    box: list[tuple[str, Any]] = []
    for entry in entries:
        for key, value in _pairs(entry):
            if key in OPTION_KEYS or key.startswith(SETUP_PREFIX):
                options.append(f"{key}={value}")
            else:
                try:
                    parsed = parse_value(value) if isinstance(value, str) else value
                except (AliasBomb, Unreadable) as error:
                    raise OptionError(f"variant {key!r}: {error}") from None
                box.append((key, parsed))
    return Variants(tuple(options), tuple(box))


def _pairs(entry: str) -> list[tuple[str, Any]]:
    key, sep, value = entry.partition("=")
    if sep:
        if not key.strip():
            raise OptionError(f"variant {entry!r} has no key")
        return [(key.strip(), value.strip())]
    path = Path(entry)
    if path.suffix in (".yaml", ".yml"):
        return _file_pairs(path)
    named = shipped("variants", entry.strip())
    if named is not None:
        return _file_pairs(named)
    raise OptionError(f"variant {entry!r} is not KEY=VALUE, a variant .yaml file nor a shipped "
                      f"variant: {unknown_name('variants', entry.strip())} (`zsim variants`)")


def _file_pairs(path: Path) -> list[tuple[str, Any]]:
    if not path.is_file():
        raise OptionError(f"variant file {path} does not exist")
    try:
        data = safe_load(read_text(path))
    except OSError as error:
        raise OptionError(f"variant file {path}: cannot read: {error.strerror or error}"
                          ) from None
    except (AliasBomb, Unreadable) as error:
        raise OptionError(f"variant file {path}: {error}") from None
    except yaml.YAMLError as error:
        raise OptionError(f"variant file {path}: YAML syntax error: {error}") from error
    if not isinstance(data, dict):
        raise OptionError(f"variant file {path}: expected a mapping of KEY: VALUE")
    return [(str(k), v) for k, v in data.items() if k not in ABOUT]
