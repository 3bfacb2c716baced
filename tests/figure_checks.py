"""Checks that look at a laid-out report figure as a reader would."""

from __future__ import annotations

import itertools
import math

from zsim.reports.model import Figure


def tick_label_clashes(figure: Figure) -> list[str]:
    """Neighbouring tick labels of one axis that overlap (unreadable, as "seat 0seat 1").

    Level labels must not overlap; rotated ones (whose upright boxes always overlap) must lie
    at least a line's height apart across their slant."""
    clashes = []
    dpi = figure.figure.dpi
    for ax in figure.figure.axes:
        for name, labels in (("x", ax.get_xticklabels()), ("y", ax.get_yticklabels())):
            shown = [label for label in labels if label.get_visible() and label.get_text()]
            for a, b in itertools.pairwise(shown):
                box_a, box_b = a.get_window_extent(), b.get_window_extent()
                angle = math.radians(a.get_rotation() % 180)
                if math.sin(angle) < 0.05:
                    clash = box_a.shrunk(0.98, 0.98).overlaps(box_b.shrunk(0.98, 0.98))
                else:
                    step = abs(box_b.x1 - box_a.x1) if name == "x" else abs(box_b.y1 - box_a.y1)
                    clash = step * math.sin(angle) < 1.2 * a.get_fontsize() * dpi / 72  # a line
                if clash:
                    clashes.append(f"{figure.slug}: {name} tick labels of "
                                   f"{ax.get_title()!r} overlap")
                    break
    return clashes
