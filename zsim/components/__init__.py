"""The component box: every card, tile, board and rule number, loaded from YAML and validated.

Only ``Box`` is imported up front: worker processes unpickle a loaded box and never read YAML,
so the loader (and the YAML parser) is imported on first use of its names.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from zsim.components.box import Box

if TYPE_CHECKING:
    from zsim.components.loader import BoxError, check_box, default_box_dir, load_box

_LOADER = ("BoxError", "check_box", "default_box_dir", "load_box")

__all__ = ["Box", "BoxError", "check_box", "default_box_dir", "load_box"]


def __getattr__(name: str) -> Any:
    if name not in _LOADER:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module("zsim.components.loader"), name)
