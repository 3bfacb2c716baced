"""Win probabilities from a learned value model, as the game is played.

The value model (``zsim.learn.model``: ``zsim train``, the shipped ``configs/models/base-Np.npz``)
reads one seat's view of a position and the end-game scores as they stand, and gives that seat's
chance to win. Asked for every seat at a point of the game, it is a position estimator
(``zsim.experience.record.PositionEstimator``) for ``zsim run --trajectories value``: each seat's
chance after every turn and round, judged on the position itself rather than on the score alone
(the margin model of ``zsim.experience.winprob``). Each seat's chance is read from its own chair,
so the chances need not add up to one; they are divided by their sum, so that a point's chances
are a distribution like the margin model's.

Only player counts with a model have one (the package ships the two-player model); the others'
``p_win`` is left to the margin model once the run's tables are written. Valuing a position reads
only what each seat sees, and tells no one (the end-game scores are computed quietly), so the
games played are the same with or without it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from zsim.experience.record import PositionEstimator
    from zsim.game import Game

#: What filled ``p_win`` where the value model did (the trajectories file's metadata).
NAME = "value model: the shipped learned evaluation of each seat's view (configs/models)"


def available(n_players: int) -> bool:
    """Whether a value model is shipped for this player count."""
    from zsim.learn.model import default_path

    return default_path(n_players).is_file()


def estimator(game: Game) -> PositionEstimator | None:
    """The value model's estimator for ``game``'s player count, or None when none is shipped.
    A model trained on other rules than the game's (a variant) is used with one warning, as the
    value bot uses it (``zsim.learn.model.model_for``)."""
    if not available(game.n):
        return None
    from zsim.learn.features import inputs
    from zsim.learn.model import view_model

    model = view_model("", game.views[0])

    def chances(game: Game) -> list[float]:
        own = model.predict(np.stack([inputs(game, view) for view in game.views]))[:, 1]
        return [float(p) for p in own / own.sum()]

    return chances
