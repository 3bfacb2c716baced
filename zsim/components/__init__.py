"""The component box: every card, tile, board and rule number, loaded from YAML and validated."""

from zsim.components.box import Box
from zsim.components.loader import BoxError, check_box, default_box_dir, load_box

__all__ = ["Box", "BoxError", "check_box", "default_box_dir", "load_box"]
