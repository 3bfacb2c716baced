"""Reading one YAML file of the box: the data, and the line of every key so that each message
can point into the file; syntax errors, duplicate keys and a top level that is no mapping are
reported here, before any schema is applied."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from zsim.yamlload import LOADER, AliasBomb, Unreadable, check_expansion, construct, read_text

PathKey = str | int
KeyPath = tuple[PathKey, ...]


@dataclass(frozen=True)
class Source:
    """One parsed YAML file, with the line of every key so messages can point into it."""

    name: str
    data: dict[str, Any]
    lines: dict[tuple[str, ...], int]

    def problem(self, path: KeyPath, text: str) -> str:
        """A message naming this file, the key path and (when known) its line."""
        where = f"{format_path(path)}: " if path else ""
        line = self._line(path)
        suffix = f" (line {line})" if line else ""
        return f"{self.name}: {where}{text}{suffix}"

    def _line(self, path: KeyPath) -> int | None:
        key = tuple(str(part) for part in path)
        while key:
            if key in self.lines:
                return self.lines[key]
            key = key[:-1]
        return None


def format_path(path: KeyPath) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def read_yaml(path: Path) -> tuple[Source | None, list[str]]:
    """Parse one file; report a missing file, a syntax error or a top level that is no mapping."""
    name = path.name
    if not path.exists():
        return None, [f"{name}: file is missing from {path.parent}"]
    try:
        text = read_text(path)
    except Unreadable as exc:
        return None, [f"{name}: {exc}"]
    except OSError as exc:
        return None, [f"{name}: cannot read {path}: {exc.strerror or exc}"]
    loader = LOADER(text)
    try:  # one parse: the node tree gives the lines, and the data is built from it
        root = loader.get_single_node()
        check_expansion(root)
        data = construct(loader, root)
    except (AliasBomb, Unreadable) as exc:
        return None, [f"{name}: {exc}"]
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        at = f"line {mark.line + 1}: " if mark else ""
        return None, [f"{name}: {at}YAML syntax error: {exc.problem or exc.context}"]
    except yaml.YAMLError as exc:
        return None, [f"{name}: YAML syntax error: {exc}"]
    finally:
        loader.dispose()
    if root is None or not isinstance(data, dict):
        found = "an empty file" if data is None else f"a {type(data).__name__}"
        return None, [f"{name}: expected a mapping of keys at the top level, found {found}"]
    lines: dict[tuple[str, ...], int] = {}
    duplicates: list[tuple[KeyPath, int]] = []
    _index_lines(root, (), lines, duplicates)
    source = Source(name, data, lines)
    problems = [
        source.problem(p, f"duplicate key (first given on line {first})") for p, first in duplicates
    ]
    return source, problems


def _index_lines(
    node: yaml.Node, path: KeyPath, lines: dict[tuple[str, ...], int],
    duplicates: list[tuple[KeyPath, int]],
) -> None:
    """Record the line of every key and list item, and every key given twice in one mapping
    (``yaml.safe_load`` would silently keep the last one)."""
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            child = (*path, str(key_node.value))
            key = tuple(str(part) for part in child)
            if key in lines:
                duplicates.append((child, lines[key]))
            else:
                lines[key] = key_node.start_mark.line + 1
            _index_lines(value_node, child, lines, duplicates)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            child = (*path, index)
            lines[tuple(str(part) for part in child)] = item.start_mark.line + 1
            _index_lines(item, child, lines, duplicates)
