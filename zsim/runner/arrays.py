"""Arrow arrays from Python lists, built from numpy buffers.

Workers build every result table, and ``pa.array`` imports pandas on its first call (to check
whether its input is a pandas object): a fifth of a second more to start each worker. Building
from buffers needs neither pandas nor ``pyarrow.compute``. Only the types of the result tables
are handled: bool, int64, float64, string and null.

Most columns hold no null, so each conversion first assumes there is none and lets the
conversion itself find out: ``array.array`` refuses None (and any value not of the column's
type) and ``str.join`` refuses None, both at C speed. Looking for None first costs as much as
the conversion. Only a column that fails takes the slower way of nulls.
"""

from __future__ import annotations

from array import array as typed_array
from collections.abc import Callable, Mapping
from itertools import chain
from typing import Any

import numpy as np
import pyarrow as pa

_NUMPY = {pa.bool_(): np.dtype(np.bool_), pa.int64(): np.dtype(np.int64),
          pa.float64(): np.dtype(np.float64)}
_TYPECODES = {pa.int64(): "q", pa.float64(): "d"}  # array.array's, for its strict conversion


def arrays(columns: Mapping[str, list[Any]], types: Mapping[str, pa.DataType],
           repeat: np.ndarray | None = None) -> dict[str, pa.Array]:
    """Arrays of equally long columns (None is null); with ``repeat``, value i of each column
    comes ``repeat[i]`` times. Columns of one type are converted together and then sliced: a
    conversion costs mostly per call. A group with a null somewhere is split into the columns
    with nulls and those without, so that only the former take the slower way of nulls."""
    groups: dict[pa.DataType, list[str]] = {}
    for name in columns:
        groups.setdefault(types[name], []).append(name)
    built: dict[str, pa.Array] = {}
    for kind, names in groups.items():
        try:
            built.update(_together(columns, names, kind, repeat, _dense))
        except _HasNull:
            plain = [name for name in names if None not in columns[name]]
            nullable = [name for name in names if name not in plain]
            # ``array`` names a value of another type among the columns without nulls
            for part, convert in ((plain, array), (nullable, _with_nulls)):
                if part:
                    built.update(_together(columns, part, kind, repeat, convert))
    return built


class _HasNull(Exception):
    """A column assumed to hold no null holds one (or a value of another type)."""


def _together(columns: Mapping[str, list[Any]], names: list[str], kind: pa.DataType,
              repeat: np.ndarray | None,
              convert: Callable[[list[Any], pa.DataType, np.ndarray | None], pa.Array]
              ) -> dict[str, pa.Array]:
    values = list(chain.from_iterable(columns[name] for name in names))
    times = None if repeat is None else np.tile(repeat, len(names))
    whole = convert(values, kind, times)
    length = len(whole) // len(names)
    return {name: whole.slice(i * length, length) for i, name in enumerate(names)}


def array(values: list[Any], kind: pa.DataType, repeat: np.ndarray | None = None) -> pa.Array:
    """An Arrow array of ``kind`` (None is null); with ``repeat``, value i ``repeat[i]`` times.
    A value of another type is a TypeError."""
    try:
        return _dense(values, kind, repeat)
    except _HasNull:
        return _with_nulls(values, kind, repeat)


def _with_nulls(values: list[Any], kind: pa.DataType, repeat: np.ndarray | None) -> pa.Array:
    """``array`` the slower way, with a validity bitmap; a value of another type is a
    TypeError."""
    if kind == pa.null():
        return pa.nulls(len(values) if repeat is None else int(repeat.sum()))
    present = np.array([value is not None for value in values])
    if repeat is not None:
        present = np.repeat(present, repeat)
    validity = _bitmap(present)
    if kind == pa.string():
        try:
            return _strings([value if value is not None else "" for value in values], repeat,
                            validity)
        except TypeError:
            raise TypeError("a string column holds other values") from None
    dtype = _NUMPY[kind]
    # a plain zero of the column's kind in the nulls' place: numpy's own scalars would make
    # np.array a slow, element-by-element conversion
    zero = dtype.type(0).item()
    data = np.array([zero if value is None else value for value in values])
    if not np.can_cast(data.dtype, dtype, "same_kind"):
        raise TypeError(f"a {kind} column holds {data.dtype} values")
    return _numbers(data.astype(dtype, copy=False), kind, repeat, validity)


def _dense(values: list[Any], kind: pa.DataType, repeat: np.ndarray | None) -> pa.Array:
    """The array of values that hold no null; ``_HasNull`` when they do, or when a value is of
    another type (``array`` then says which)."""
    if kind == pa.string():
        try:
            return _strings(values, repeat, None)
        except TypeError:
            raise _HasNull from None
    if kind == pa.null():
        raise _HasNull  # nothing but nulls
    if kind == pa.bool_():  # few columns, and np.array would take None for False
        if None in values:
            raise _HasNull
        data = np.array(values)
        if data.dtype != np.bool_:
            raise _HasNull
        return _numbers(data, kind, repeat, None)
    try:  # refuses None, strings, and floats in an integer column
        data = np.frombuffer(typed_array(_TYPECODES[kind], values), _NUMPY[kind])
    except (TypeError, OverflowError):
        raise _HasNull from None
    return _numbers(data, kind, repeat, None)


def _numbers(data: np.ndarray, kind: pa.DataType, repeat: np.ndarray | None,
             validity: pa.Buffer | None) -> pa.Array:
    if repeat is not None:
        data = np.repeat(data, repeat)
    buffer = _bitmap(data) if kind == pa.bool_() else pa.py_buffer(data)
    return pa.Array.from_buffers(kind, len(data), [validity, buffer])


def _strings(values: list[str], repeat: np.ndarray | None,
             validity: pa.Buffer | None) -> pa.Array:
    """The column's bytes are its strings joined and encoded at once (a repeated string
    multiplied first), and its offsets the running sum of their lengths: a few calls into C
    for the whole column, where a Python step per value took twice the time. A value that is
    not a string is a TypeError."""
    text = "".join(values if repeat is None else map(str.__mul__, values, repeat.tolist()))
    data = text.encode()
    # in ASCII a character is a byte: the lengths in characters are those in bytes
    lengths = (np.fromiter(map(len, values), np.int64, len(values)) if len(data) == len(text)
               else np.array([len(value.encode()) for value in values], np.int64))
    if repeat is not None:
        lengths = np.repeat(lengths, repeat)
    offsets = np.zeros(len(lengths) + 1, np.int32)
    np.cumsum(lengths, out=offsets[1:])
    return pa.Array.from_buffers(pa.string(), len(lengths), [
        validity, pa.py_buffer(offsets), pa.py_buffer(data)])


def _bitmap(flags: np.ndarray) -> pa.Buffer:
    return pa.py_buffer(np.packbits(flags.astype(np.bool_, copy=False), bitorder="little"))
