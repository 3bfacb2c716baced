"""Read YAML that a user wrote, refusing documents whose aliases expand beyond reason.

An alias repeats an anchored node without copying it, so a few lines ("billion laughs": nine
aliases of nine aliases of ...) make a document of a billion values. PyYAML builds it sharing
the repeated objects, but whatever walks it afterwards (validation, ``str``, a JSON dump)
expands it, for minutes and gigabytes. Every YAML file zsim reads goes through
``check_expansion``, which counts the nodes of the document as expanded, cheaply (each distinct
node once), before anything is built from it.
"""

from __future__ import annotations

from typing import Any

import yaml

# Far above any real file (the largest component file has a few thousand nodes).
MAX_NODES = 100_000
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


def safe_load(text: str) -> Any:
    """``yaml.safe_load``, refusing alias bombs (``AliasBomb``, a ``yaml.YAMLError``)."""
    loader = LOADER(text)
    try:
        root = loader.get_single_node()
        check_expansion(root)
        return None if root is None else loader.construct_document(root)
    finally:
        loader.dispose()
