"""Where the built-in data lives: the ``configs/`` tree (the component box, experiments, bots
as YAML, variants, baselines), shipped inside the package.

The repository keeps ``configs/`` at its top, where designers edit it; ``zsim/configs`` links
to it there, and the build copies it into the package, so an installed wheel reads the same
files from any directory. A designer's own box is a directory named on the command line or in
an experiment, never looked up from the current directory.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

CONFIGS = Path(str(files("zsim") / "configs"))


def configs_dir(part: str) -> Path:
    """``configs/<part>`` of the built-in data."""
    return CONFIGS / part
