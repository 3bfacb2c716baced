"""Where the project's data lives: the ``configs/`` tree at the top of the repository.

Designers edit those files in place, so they stay outside the package. An editable install or a
source checkout finds them next to the package; any other install finds them from the current
directory (run from the repository root).
"""

from __future__ import annotations

from pathlib import Path

import zsim

CANDIDATES = (Path(zsim.__file__).resolve().parent.parent / "configs", Path.cwd() / "configs")


def configs_dir(part: str) -> Path:
    """``configs/<part>``: the first candidate that has it, else the first (for messages)."""
    for root in CANDIDATES:
        if (root / part).is_dir():
            return root / part
    return CANDIDATES[0] / part
