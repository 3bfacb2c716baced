"""The digest of what plays a run's games besides its experiment and component files: the code
of the engine and of the bots, and the bots of the lineup as configured.

A resume that played its remaining chunks with different code, or with a bot whose parameter
file was edited meanwhile, would leave two versions' games side by side in one set of tables
with nothing to tell them apart; the run's digest lets the resume refuse instead.

Covered: every Python source of the ``zsim`` package except the command line (which only turns
options into the experiment, itself recorded in run.json) and of the ``strategies`` package
(the compiled estimates are built from a source covered here), plus each lineup bot pickled,
which is its class and parameters. Not covered: the source of a bot class that lives outside
those packages.
"""

from __future__ import annotations

import hashlib
import pickle
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

import zsim
from zsim.runner.boxfiles import add_files

if TYPE_CHECKING:
    from zsim.rules.lisi import LiSiSeat
    from zsim.strategies.base import Strategy

_ROOT = Path(zsim.__file__).resolve().parent
# In a checkout ``zsim/strategies`` links to the repository's ``strategies/``, which ``rglob``
# does not follow: it is read as a tree of its own there
_BOTS = _ROOT / "strategies"
_PACKAGES = (_ROOT, _BOTS.resolve()) if _BOTS.is_symlink() else (_ROOT,)
_NOT_PLAYING = (_ROOT / "cli", _ROOT / "reports")


def play_digest(lineup: Mapping[str, Strategy | LiSiSeat]) -> str:
    """A digest of the code that plays games and of the lineup's bots (by lineup name)."""
    digest = hashlib.sha256()
    for package in _PACKAGES:
        add_files(digest, package.parent, (
            path for path in package.rglob("*.py")
            if not any(path.is_relative_to(skipped) for skipped in _NOT_PLAYING)))
    for name in sorted(lineup):
        digest.update(name.encode() + b"\0" + _bot_bytes(lineup[name]) + b"\0")
    return digest.hexdigest()[:16]


def _bot_bytes(bot: Strategy | LiSiSeat) -> bytes:
    """The bot pickled (its class by name, and its parameters); only the class's name for a
    bot that pickle cannot handle (say, a class defined inside a function of a script). An
    isolated bot is the bot it plays: isolating it changes where it plays, not how."""
    bot = getattr(bot, "isolated", bot)
    try:
        return pickle.dumps(bot)
    except (pickle.PicklingError, AttributeError, TypeError):
        kind = type(bot)
        return f"{kind.__module__}.{kind.__qualname__}".encode()
