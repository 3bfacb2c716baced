"""A value model: a seat's observation in, its expected final margin and chance to win out.

The model is a small multilayer perceptron (no hidden layer: a linear model) evaluated in plain
numpy, so that a bot playing on it needs nothing beyond zsim's own dependencies; ``zsim train``
fits it (``zsim.learn.fit``, the ``[learn]`` extra). The file is a NumPy ``.npz`` archive read
without pickle: the layers' arrays, the inputs' centring and scaling, and ``meta``, a JSON
record of what the model is for (the rules digest of the box, the variants and player count it
was trained on, the observation width) and how it was made and validated.

Using a model where it was not trained: another player count or observation width is refused
(``ModelError``, one line naming the file); other rules (the box's contents or its variants
differ) play on with one warning (``ModelMismatch``), since a designer's variant is exactly where
a strong bot is wanted, and the model's judgement there is an extrapolation worth flagging.
"""

from __future__ import annotations

import functools
import hashlib
import json
import warnings
import zipfile
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from zsim.errors import UserError
from zsim.paths import configs_dir

if TYPE_CHECKING:
    from zsim.components import Box
    from zsim.decisions import Decision
    from zsim.view import PlayerView

FORMAT = 1  # the file layout; a file of another is refused
MODELS_DIR = configs_dir("models")
P_FLOOR = 0.005  # win chances are kept within [P_FLOOR, 1 - P_FLOOR]


class ModelError(UserError, ValueError):
    """A model file that cannot be used here; the message names the file."""


class ModelMismatch(UserWarning):
    """A model used on other rules than it was trained on."""


@dataclass(frozen=True, eq=False)
class ValueModel:
    """The layers of a fitted model and what it was fitted for.

    ``predict`` centres and scales the observations, passes them through the hidden layers
    (ReLU) and the output layer, whose two columns are the final margin in VP (the seat's VP
    minus the best other player's) and the chance to win (a shared win counts as its share).
    """

    meta: dict[str, Any]
    mean: np.ndarray
    scale: np.ndarray
    weights: tuple[np.ndarray, ...]
    biases: tuple[np.ndarray, ...]
    source: str = field(default="(in memory)")

    @property
    def width(self) -> int:
        """How many values an observation must have."""
        return int(self.mean.shape[0])

    @functools.cached_property
    def _layers(self) -> tuple[tuple[np.ndarray, np.ndarray], ...]:
        """The layers with the centring and scaling folded into the first, so that a
        prediction is matrix products only (a search asks for thousands, often one at a time).
        """
        _single_threaded()
        w, b = self.weights[0], self.biases[0]
        first = ((self.scale[:, None] * w).astype(np.float32),
                 (b - (self.mean * self.scale) @ w).astype(np.float32))
        return (first, *zip(self.weights[1:], self.biases[1:], strict=True))

    def predict(self, observations: np.ndarray) -> np.ndarray:
        """(n, 2): each observation's expected final margin (VP) and chance to win."""
        x = np.asarray(observations, dtype=np.float32)
        layers = self._layers
        for w, b in layers[:-1]:
            x = x @ w
            x += b
            np.maximum(x, 0.0, out=x)
        w, b = layers[-1]
        x = x @ w
        x += b
        np.clip(x[:, 1], P_FLOOR, 1.0 - P_FLOOR, out=x[:, 1])
        return x

    def margin(self, observation: np.ndarray) -> float:
        """One observation's expected final margin, in VP."""
        return float(self.predict(observation[None, :])[0, 0])


def _single_threaded() -> None:
    """Keep numpy's BLAS to one thread in this process. zsim plays in parallel by processes;
    a BLAS spreading each small product over threads only fights them for the cores (on a busy
    two-core machine a batch of 16 positions took 60 times longer)."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - a dependency of zsim
        return
    threadpool_limits(limits=1, user_api="blas")


def save(model: ValueModel, path: Path) -> None:
    """Write ``model`` as an ``.npz`` archive (see the module docstring)."""
    arrays: dict[str, Any] = {"meta": np.frombuffer(json.dumps({**model.meta, "format": FORMAT},
                                               sort_keys=True).encode(), dtype=np.uint8),
              "mean": model.mean, "scale": model.scale}
    for i, (w, b) in enumerate(zip(model.weights, model.biases, strict=True)):
        arrays[f"w{i}"], arrays[f"b{i}"] = w, b
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as out:
        np.savez_compressed(out, **arrays)


def load(path: str | Path) -> ValueModel:
    """Read a model file; anything wrong with it is one ``ModelError`` naming the file."""
    path = Path(path)
    try:
        with np.load(path, allow_pickle=False) as archive:
            meta = json.loads(archive["meta"].tobytes().decode())
            if not isinstance(meta, dict) or meta.get("format") != FORMAT:
                raise ModelError(f"model file {path}: format {meta.get('format')!r} is not "
                                 f"{FORMAT}; rebuild it with zsim train")
            layers = sum(1 for name in archive.files if name.startswith("w"))
            weights = tuple(archive[f"w{i}"].astype(np.float32) for i in range(layers))
            biases = tuple(archive[f"b{i}"].astype(np.float32) for i in range(layers))
            mean = archive["mean"].astype(np.float32)
            scale = archive["scale"].astype(np.float32)
    except ModelError:
        raise
    except FileNotFoundError:
        raise ModelError(f"model file {path}: no such file") from None
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile,
            UnicodeDecodeError) as error:
        raise ModelError(f"model file {path}: cannot read it as a zsim value model "
                         f"({type(error).__name__}: {error})") from None
    shapes = [mean.shape[0], *(w.shape[1] for w in weights)]
    if (not weights or any(w.shape[0] != s for w, s in zip(weights, shapes, strict=False))
            or shapes[-1] != 2 or scale.shape != mean.shape
            or any(b.shape != (w.shape[1],) for w, b in zip(weights, biases, strict=True))):
        raise ModelError(f"model file {path}: its layers do not fit together (a damaged or "
                         f"foreign file); rebuild it with zsim train")
    return ValueModel(meta, mean, scale, weights, biases, str(path))


def default_path(n_players: int) -> Path:
    """The model shipped for the base game at ``n_players``."""
    return MODELS_DIR / f"base-{n_players}p.npz"


@functools.lru_cache(maxsize=8)
def rules_digest(box: Box) -> str:
    """A digest of a loaded box's contents, variants applied: what a model was trained on.
    (A run's ``box_digest`` digests the files and variants named; a bot sees only the box.)"""
    text = repr([getattr(box, f.name) for f in fields(box) if f.name != "source"])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


_LOADED: dict[tuple[str, int, int], ValueModel] = {}
_WARNED: set[tuple[str, str]] = set()


def model_for(spec: str, box: Box, n_players: int, width: int) -> ValueModel:
    """The model a bot plays with (``spec``: a file, or "" for the default of the player
    count), checked against the game: refused for another player count or observation width,
    played with a warning on other rules."""
    path = str(Path(spec) if spec else default_path(n_players))
    key = (path, n_players, width)
    model = _LOADED.get(key)
    if model is None:
        if not spec and not Path(path).is_file():
            raise ModelError(f"no value model is shipped for {n_players} players ({path}); "
                             f"train one with zsim train and pass it as model='FILE'")
        model = load(path)
        trained = model.meta.get("n_players")
        if trained != n_players:
            raise ModelError(f"model file {path}: trained for {trained} players, not the "
                             f"{n_players} of this game")
        if model.width != width:
            raise ModelError(f"model file {path}: reads observations of {model.width} values, "
                             f"this encoding makes {width}; retrain it with zsim train")
        _LOADED[key] = model
    digest = rules_digest(box)
    if model.meta.get("rules_digest") != digest and (path, digest) not in _WARNED:
        _WARNED.add((path, digest))
        variants = ", ".join(model.meta.get("variants") or []) or "none"
        warnings.warn(f"model file {path}: trained on other rules (box "
                      f"{model.meta.get('rules_digest')}, variants: {variants}) than this "
                      f"game's (box {digest}); its values are an extrapolation here",
                      ModelMismatch, stacklevel=2)
    return model


def view_model(spec: str, view: PlayerView) -> ValueModel:
    """The model for the game a view sees; refused if it reads another observation layout
    (the encoding changed since it was trained)."""
    from zsim.encode.observation import layout
    from zsim.learn.features import width

    n = view.n_players
    encoding = layout(view.tables, n)
    model = model_for(spec, view.tables.box, n, encoding.size + width(n))
    if model.meta.get("observation") not in (None, encoding.version):
        raise ModelError(f"model file {model.source}: trained on observation layout "
                         f"{model.meta['observation']}, this encoding is {encoding.version}; "
                         f"retrain it with zsim train")
    return model


def leaf_value(spec: str, view: PlayerView) -> Any:
    """A search's leaf evaluation on the model: the expected final margin of the searching
    seat, read from its own view of the fork where the fork stopped."""
    from zsim.learn.features import inputs

    model = view_model(spec, view)

    def evaluate(fork: Any, seen: PlayerView, decision: Decision) -> float:
        return model.margin(inputs(fork, seen))

    return evaluate
