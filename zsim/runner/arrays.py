"""Arrow arrays from Python lists, built from numpy buffers.

Workers build every result table, and ``pa.array`` imports pandas on its first call (to check
whether its input is a pandas object): a fifth of a second more to start each worker. Building
from buffers needs neither pandas nor ``pyarrow.compute``. Only the types of the result tables
are handled: bool, int64, float64, string and null.
"""

from __future__ import annotations

from collections.abc import Mapping
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
    conversion costs mostly per call. Columns with nulls go together apart from those
    without, so that only they take the slower way of nulls."""
    groups: dict[tuple[pa.DataType, bool], list[str]] = {}
    for name, values in columns.items():
        groups.setdefault((types[name], None in values), []).append(name)
    built: dict[str, pa.Array] = {}
    for (kind, _), names in groups.items():
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
        return _strings(values, repeat)
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


def _strings(values: list[Any], repeat: np.ndarray | None) -> pa.Array:
    """The column's bytes are its strings joined and encoded at once, and its offsets the
    running sum of their lengths: a few calls into C for the whole column, where a Python step
    per value took twice the time (a null is an empty string there)."""
    present = None
    if None in values:
        present = np.array([value is not None for value in values])
        values = [value if value is not None else "" for value in values]
    if repeat is not None:
        values = np.repeat(np.array(values, dtype=object), repeat).tolist()
        present = None if present is None else np.repeat(present, repeat)
    try:
        text = "".join(values)
    except TypeError:
        raise TypeError("a string column holds other values") from None
    data = text.encode()
    # in ASCII a character is a byte: the lengths in characters are those in bytes
    lengths = (np.fromiter(map(len, values), np.int64, len(values)) if len(data) == len(text)
               else np.array([len(value.encode()) for value in values], np.int64))
    offsets = np.zeros(len(values) + 1, np.int32)
    np.cumsum(lengths, out=offsets[1:])
    return pa.Array.from_buffers(pa.string(), len(values), [
        None if present is None else _bitmap(present), pa.py_buffer(offsets),
        pa.py_buffer(data)])


def _bitmap(flags: np.ndarray) -> pa.Buffer:
    return pa.py_buffer(np.packbits(flags.astype(np.bool_, copy=False), bitorder="little"))
