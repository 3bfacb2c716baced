"""Change any value of the box by its key path, before validation.

A path starts at a top-level key of one of the component files and walks down mappings (``.key``)
and lists (``[3]`` by position, ``[wall_architects]`` by an item's ``id``):

    rules.palace_vp=8
    wall_tiles[wall_palaces].a.values=[2, 3, 4]
    cards[16].trigger=wall
    boards[board1].aspects[0].rewards[4]=r_unlock_2

Values are read as YAML, so numbers, lists and strings need no quoting. The changed documents are
then validated like any edited file, so a bad value gets the usual message naming file and key.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import yaml

from zsim.yamlload import AliasBomb, Unreadable, safe_load

_PART = re.compile(r"\.?([A-Za-z_][\w-]*)|\[([^\]]+)\]")


def parse_value(text: str) -> Any:
    """A variant's value as YAML (``8`` is an int, ``[1, 2]`` a list, ``wall`` a string)."""
    try:
        return safe_load(text)
    except (AliasBomb, Unreadable):  # a bomb, or a value no program can hold: refused
        raise
    except yaml.YAMLError:
        return text


def split_path(path: str) -> list[str | int]:
    """``a.b[2][x]`` -> ``['a', 'b', 2, 'x']``; raises ValueError on anything else."""
    parts: list[str | int] = []
    position = 0
    for match in _PART.finditer(path):
        if match.start() != position:
            break
        key, index = match.groups()
        parts.append(key if key is not None else (int(index) if index.isdigit() else index))
        position = match.end()
    if position != len(path) or not parts or not isinstance(parts[0], str):
        raise ValueError(f"{path!r} is not a key path such as rules.palace_vp or cards[3].trigger")
    return parts


def apply(documents: dict[str, dict[str, Any]], overrides: Sequence[tuple[str, Any]]) -> list[str]:
    """Set each override in place in the parsed files; return one message per bad path."""
    problems = []
    for path, value in overrides:
        try:
            _set(documents, split_path(path), value)
        except (KeyError, IndexError, ValueError, TypeError) as error:
            problems.append(f"variant {path!r}: {error.args[0]}")
    return problems


def _set(documents: dict[str, dict[str, Any]], parts: list[str | int], value: Any) -> None:
    top = parts[0]
    owner = next((name for name, data in documents.items() if top in data), None)
    if owner is None:
        known = sorted(k for data in documents.values() for k in data if k not in
                       ("assumed", "reason"))
        raise KeyError(f"no component file has a top-level key {top!r}; known: "
                       f"{', '.join(known)}")
    node: Any = documents[owner]
    walked = owner
    for part in parts[:-1]:
        node = _child(node, part, walked)
        walked += f" > {part}"
    last = parts[-1]
    if isinstance(node, list):
        node[_list_index(node, last, walked)] = value
    elif isinstance(node, dict):
        node[last] = value  # a new key is allowed here; validation rejects unknown ones
    else:
        raise TypeError(f"{walked} is a single value, it has no {last!r}")


def _child(node: Any, part: str | int, walked: str) -> Any:
    if isinstance(node, dict):
        if part not in node:
            raise KeyError(f"{walked} has no key {part!r}; it has {', '.join(map(str, node))}")
        return node[part]
    if isinstance(node, list):
        return node[_list_index(node, part, walked)]
    raise TypeError(f"{walked} is a single value, it has no {part!r}")


def _list_index(items: list[Any], part: str | int, walked: str) -> int:
    if isinstance(part, int):
        if not 0 <= part < len(items):
            raise IndexError(f"{walked} has {len(items)} items, no [{part}]")
        return part
    for i, item in enumerate(items):
        if isinstance(item, dict) and str(item.get("id")) == part:
            return i
    raise KeyError(f"{walked} has no item with id {part!r}")
