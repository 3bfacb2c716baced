"""Arrow arrays from Python lists, built from numpy buffers.

Workers build every result table, and ``pa.array`` imports pandas on its first call (to check
whether its input is a pandas object): a fifth of a second more to start each worker. Building
from buffers needs neither pandas nor ``pyarrow.compute``. Only the types of the result tables
are handled: bool, int64, float64, string and null.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from itertools import chain
from typing import Any

import numpy as np
import pyarrow as pa

_NUMPY = {pa.bool_(): np.dtype(np.bool_), pa.int64(): np.dtype(np.int64),
          pa.float64(): np.dtype(np.float64)}


def arrays(columns: Mapping[str, list[Any]], types: Mapping[str, pa.DataType],
           repeat: np.ndarray | None = None) -> dict[str, pa.Array]:
    """Arrays of equally long columns (None is null); with ``repeat``, value i of each column
    comes ``repeat[i]`` times. Columns of one type are converted together and then sliced: a
    conversion costs mostly per call."""
    by_type: dict[pa.DataType, list[str]] = {}
    for name in columns:
        by_type.setdefault(types[name], []).append(name)
    built: dict[str, pa.Array] = {}
    for kind, names in by_type.items():
        values = list(chain.from_iterable(columns[name] for name in names))
        whole = array(values, kind, None if repeat is None else np.tile(repeat, len(names)))
        length = len(whole) // len(names)
        built.update((name, whole.slice(i * length, length)) for i, name in enumerate(names))
    return built


def array(values: list[Any], kind: pa.DataType, repeat: np.ndarray | None = None) -> pa.Array:
    """An Arrow array of ``kind`` (None is null); with ``repeat``, value i ``repeat[i]`` times."""

    def spread(per_value: np.ndarray) -> np.ndarray:
        return per_value if repeat is None else np.repeat(per_value, repeat)

    if kind == pa.string():
        return _strings(values, spread)
    if kind == pa.null():
        return pa.nulls(len(spread(np.empty(len(values), np.bool_))))
    dtype = _NUMPY[kind]
    validity = None
    if None in values:
        validity = _bitmap(spread(np.array([value is not None for value in values])))
        # a plain zero of the column's kind in the nulls' place: numpy's own scalars would make
        # np.array a slow, element-by-element conversion
        zero = dtype.type(0).item()
        values = [zero if value is None else value for value in values]
    data = np.array(values)
    if not np.can_cast(data.dtype, dtype, "same_kind"):
        raise TypeError(f"a {kind} column holds {data.dtype} values")
    data = spread(data.astype(dtype, copy=False))
    buffer = _bitmap(data) if kind == pa.bool_() else pa.py_buffer(data)
    return pa.Array.from_buffers(kind, len(data), [validity, buffer])


def _strings(values: list[Any], spread: Callable[[np.ndarray], np.ndarray]) -> pa.Array:
    """Ids and names repeat, so each distinct string is encoded once and the column's bytes
    are joined from those."""
    codes: dict[Any, int] = {}
    indices = spread(np.array([codes.setdefault(value, len(codes)) for value in values],
                              np.intp))
    if not all(isinstance(word, str) for word in codes if word is not None):
        raise TypeError("a string column holds other values")
    encoded = [b"" if word is None else word.encode() for word in codes]
    lengths = np.array([len(word) for word in encoded], np.int64)[indices]
    offsets = np.concatenate(([0], np.cumsum(lengths))).astype(np.int32)
    data = b"".join(map(encoded.__getitem__, indices.tolist()))
    validity = None
    if None in codes:
        validity = _bitmap(np.array([word is not None for word in codes])[indices])
    return pa.Array.from_buffers(pa.string(), len(indices),
                                 [validity, pa.py_buffer(offsets), pa.py_buffer(data)])


def _bitmap(flags: np.ndarray) -> pa.Buffer:
    return pa.py_buffer(np.packbits(flags.astype(np.bool_, copy=False), bitorder="little"))
