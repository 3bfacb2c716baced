"""Read YAML that a user wrote, refusing documents whose aliases expand beyond reason.

An alias repeats an anchored node without copying it, so a few lines ("billion laughs": nine
aliases of nine aliases of ...) make a document of a billion values. PyYAML builds it sharing
the repeated objects, but whatever walks it afterwards (validation, ``str``, a JSON dump)
expands it, for minutes and gigabytes. Every YAML file zsim reads goes through
``check_expansion``, which counts the nodes of the document as expanded, cheaply (each distinct
node once), before anything is built from it.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import yaml

# Far above any real file (the largest component file has a few thousand nodes).
MAX_NODES = 100_000
MAX_BYTES = 16 * 1024 * 1024  # of one YAML file: the largest shipped one is some 100 KiB
# libyaml's safe loader when PyYAML was built with it (several times faster), else the Python one.
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class AliasBomb(yaml.YAMLError):
    """A YAML document whose aliases expand to more than ``MAX_NODES`` nodes, or refer to
    themselves."""


def check_expansion(root: yaml.Node | None, limit: int = MAX_NODES) -> None:
    """Raise ``AliasBomb`` when ``root`` with its aliases expanded holds more than ``limit``
    nodes, or an alias inside the node it names."""
    sizes: dict[int, int] = {}
    busy: set[int] = set()

    def size(node: yaml.Node) -> int:
        key = id(node)
        if key in sizes:
            return sizes[key]
        if key in busy:
            raise AliasBomb("an alias refers to a node that contains it")
        busy.add(key)
        total = 1
        if isinstance(node, yaml.SequenceNode):
            total += sum(size(item) for item in node.value)
        elif isinstance(node, yaml.MappingNode):
            total += sum(size(k) + size(v) for k, v in node.value)
        busy.discard(key)
        if total > limit:
            raise AliasBomb(f"refused: its aliases expand to more than {limit:,} values "
                            f"(an alias bomb?)")
        sizes[key] = total
        return total

    if root is not None:
        try:
            size(root)
        except RecursionError:
            raise AliasBomb("refused: nested too deeply") from None


class DuplicateKey(yaml.YAMLError):
    """A key given twice in one mapping: ``yaml.safe_load`` keeps the last one silently, so
    ``games: 2`` then ``games: 3`` played 3 games with no word of the 2."""


def check_duplicates(root: yaml.Node | None) -> None:
    """Raise ``DuplicateKey`` naming the first key given twice in a mapping, with its lines."""
    seen: set[int] = set()
    todo = [root] if root is not None else []
    while todo:
        node = todo.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            first: dict[Any, int] = {}
            for key, value in node.value:
                name = key.value if isinstance(key, yaml.ScalarNode) else id(key)
                if name in first:
                    raise DuplicateKey(f"key {name!r} is given twice (lines {first[name]} and "
                                       f"{key.start_mark.line + 1})")
                first[name] = key.start_mark.line + 1
                todo.append(value)
        elif isinstance(node, yaml.SequenceNode):
            todo.extend(node.value)


class Unreadable(yaml.YAMLError):
    """A file that is no YAML text at all (not a regular file, not UTF-8, too large), or a
    value that cannot be built (a number of more digits than Python converts, a date that does
    not exist)."""


def safe_load(text: str) -> Any:
    """``yaml.safe_load``, refusing alias bombs (``AliasBomb``), keys given twice
    (``DuplicateKey``) and values that cannot be built (``Unreadable``), all
    ``yaml.YAMLError``."""
    loader = LOADER(text)
    try:
        root = loader.get_single_node()
        check_expansion(root)
        check_duplicates(root)
        return construct(loader, root)
    finally:
        loader.dispose()


def construct(loader: Any, root: yaml.Node | None) -> Any:
    """The document of ``root``; a value Python cannot build raises ``Unreadable``."""
    if root is None:
        return None
    try:
        return loader.construct_document(root)
    except (ValueError, OverflowError) as error:  # "Exceeds the limit (4300 digits)..."
        raise Unreadable(f"a value cannot be read: {str(error).split(';')[0]}") from None
    except RecursionError:
        raise Unreadable("refused: nested too deeply") from None


def read_text(path: Path) -> str:
    """The text of a YAML file a user names: a regular file (not a FIFO that would wait
    forever, nor a device such as /dev/zero that never ends) of at most ``MAX_BYTES`` of UTF-8
    text; ``Unreadable`` saying what it is otherwise, ``OSError`` when it cannot be read."""
    info = os.stat(path)
    if not stat.S_ISREG(info.st_mode):
        kind = ("a directory" if stat.S_ISDIR(info.st_mode) else
                "a FIFO (named pipe)" if stat.S_ISFIFO(info.st_mode) else
                "a device" if stat.S_ISCHR(info.st_mode) or stat.S_ISBLK(info.st_mode) else
                "a socket" if stat.S_ISSOCK(info.st_mode) else "not a file")
        raise Unreadable(f"{path} is {kind}, not a YAML file")
    if info.st_size > MAX_BYTES:
        raise Unreadable(f"{path} is {info.st_size:,} bytes, more than a YAML file of zsim "
                         f"({MAX_BYTES:,})")
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise Unreadable(f"{path} is not UTF-8 text (byte {error.start:,} cannot be read)"
                         ) from None
