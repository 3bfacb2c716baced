"""The result tables' columns, and how a chunk's rows become Arrow tables with one stable schema.

Each table has fixed leading columns with explicit types. Whatever else the engine reports
(``n_*`` activity counters, which vary from game to game, and setup features) follows: counters
sorted by name and filled with 0 where a chunk never saw them, then the other columns sorted by
name and filled with nulls. The same order is produced for any chunking, so the merged
tables do not depend on how the run was split.

A chunk's rows are turned into columns once, at its end (``Columns``), and the columns into Arrow
arrays by ``zsim.runner.arrays``, which workers can use without importing pandas.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from operator import itemgetter
from typing import Any

import numpy as np
import pyarrow as pa

from zsim.rules.scoring import CATEGORIES
from zsim.runner.arrays import arrays

_S, _I, _B, _F = pa.string(), pa.int64(), pa.bool_(), pa.float64()

BASE: dict[str, pa.Schema] = {
    "players": pa.schema(
        [("run_id", _S), ("game", _I), ("seed", _I), ("n_players", _I), ("seat", _I),
         ("strategy", _S), ("colour", _S), ("vp_total", _I), ("rank", _I), ("winner", _B),
         ("win_share", _F)]
        + [(category, _I) for category in CATEGORIES]),
    "games": pa.schema(
        [("run_id", _S), ("game", _I), ("seed", _I), ("n_players", _I), ("strategies", _S),
         ("failed", _B), ("error", _S), ("failed_strategy", _S), ("failed_seat", _I),
         ("failed_decision", _S), ("winners", _S), ("winner_strategies", _S),
         ("n_winners", _I), ("vp_best", _I), ("vp_margin", _I), ("decisions", _I),
         ("duration_s", _F)]),
    "walls": pa.schema(
        [("run_id", _S), ("game", _I), ("n_players", _I), ("seat", _I), ("strategy", _S),
         ("section", _I), ("tier", _I), ("vp", _I), ("tile", _S), ("face", _S)]),
    "rewards": pa.schema(
        [("run_id", _S), ("game", _I), ("n_players", _I), ("round", _I), ("aspect", _S),
         ("seat", _I), ("strategy", _S), ("reward", _S)]),
    "abilities": pa.schema(
        [("run_id", _S), ("game", _I), ("n_players", _I), ("round", _I), ("seat", _I),
         ("strategy", _S), ("source", _S), ("card", _S), ("suit", _S), ("trigger", _S),
         ("emperor", _B), ("ability", _S), ("option", _I), ("vp", _I)]),
    "tiles": pa.schema(
        [("run_id", _S), ("game", _I), ("n_players", _I), ("seat", _I), ("strategy", _S),
         ("kind", _S), ("tile", _S), ("region", _S), ("section", _I), ("round", _I)]),
    # the games' experience (zsim.experience.record), empty when a run records none
    "trajectories": pa.schema(
        [("run_id", _S), ("game", _I), ("n_players", _I), ("seat", _I), ("strategy", _S),
         ("round", _I), ("turn", _I), ("stage", _S), ("mover", _I), ("vp", _I),
         ("standing", _I), ("p_win", _F)]),
    "choices": pa.schema(
        [("run_id", _S), ("game", _I), ("n_players", _I), ("seat", _I), ("strategy", _S),
         ("kind", _S), ("asked", _I), ("forced", _I), ("options", _I), ("valued", _I),
         ("gap", _F), ("narrow", _F), ("spread", _F)]),
    "options": pa.schema(
        [("run_id", _S), ("game", _I), ("n_players", _I), ("seat", _I), ("strategy", _S),
         ("kind", _S), ("option", _S), ("offered", _I), ("chosen", _I)]),
    "kingmaking": pa.schema(
        [("run_id", _S), ("game", _I), ("n_players", _I), ("seat", _I), ("strategy", _S),
         ("round", _I), ("from_end", _I), ("options", _I), ("kept_winners", _S),
         ("outcomes", _I), ("could_win", _B), ("kingmaker", _B)]),
}
TABLES = tuple(BASE)


def _extra_order(name: str) -> tuple[bool, str]:
    return (not name.startswith("n_"), name)


def _fill(name: str) -> Any:
    return 0 if name.startswith("n_") else None


class Columns:
    """The rows of one table of a chunk: the records as given, turned into columns at the end.

    Records are mappings, or tuples of ``fields``. Values that all the rows of one ``add``
    share (ids, the game's setup) are kept once per call, not copied into every row, and
    repeated only in the Arrow column; so is the lineup that names each row's strategy.
    """

    def __init__(self, table: str, fields: Sequence[str] | None = None) -> None:
        self.base = BASE[table]
        self.fields = fields
        self._base_names = frozenset(self.base.names)
        self.records: list[Any] = []
        self.shared: list[Mapping[str, Any]] = []
        self.lineups: list[Sequence[str]] = []  # one per add, when the adds give one
        self.counts: list[int] = []

    def add(self, records: Sequence[Any], lineup: Sequence[str] | None = None,
            **shared: Any) -> None:
        """Append a row per record, each also getting the ``shared`` values, and with a
        ``lineup`` the strategy of its seat as its ``strategy``."""
        if records:
            self.records.extend(records)
            self.shared.append(shared)
            self.counts.append(len(records))
            if lineup is not None:
                self.lineups.append(lineup)

    def table(self) -> pa.Table:
        """The Arrow table: base columns typed, extra columns typed from their first value. A
        column that a row lacks is null there, or 0 for an extra ``n_*`` counter."""
        own = self._own_columns()
        shared = self._columns(self.shared)
        if not own.keys().isdisjoint(shared):
            raise ValueError(f"records repeat shared columns {sorted(own.keys() & shared)}")
        extras = sorted((own.keys() | shared.keys()) - self._base_names, key=_extra_order)
        schema = pa.schema([*self.base, *(
            pa.field(name, _extra_type(name, own[name] if name in own else shared[name]))
            for name in extras)])
        types = {field.name: field.type for field in schema}
        built = arrays(own, types)
        built.update(arrays(shared, types, repeat=np.array(self.counts)))
        return pa.Table.from_arrays(
            [built[field.name] if field.name in built
             else pa.nulls(len(self.records), field.type) for field in schema], schema=schema)

    def _own_columns(self) -> dict[str, list[Any]]:
        """The records' columns, and the strategy of each row's seat where a lineup was given."""
        if self.fields is None:
            own = self._columns(self.records)
        elif self.records:
            own = dict(zip(self.fields, map(list, zip(*self.records, strict=True)), strict=True))
        else:
            own = {}
        if self.lineups:
            if "strategy" in own:
                raise ValueError("records name their strategy and a lineup names it too")
            own["strategy"] = strategies = []
            seats, at = own["seat"], 0
            for lineup, count in zip(self.lineups, self.counts, strict=True):  # all adds or none
                strategies += map(lineup.__getitem__, seats[at:at + count])
                at += count
        return own

    def _columns(self, rows: list[Mapping[str, Any]]) -> dict[str, list[Any]]:
        """Rows to columns, a missing value filled in. Rows that all have the keys of the first
        (the setup that every row of a chunk shares, mostly) are read by one getter, without
        merging each into a template of every key."""
        if rows and len(first := rows[0]) > 1 and set(map(len, rows)) == {len(first)}:
            try:
                values = list(map(itemgetter(*first), rows))
            except KeyError:  # as many keys, but others
                pass
            else:
                return dict(zip(first, map(list, zip(*values, strict=True)), strict=True))
        template = {key: self._missing(key) for key in set().union(*rows)}
        transposed = zip(*[{**template, **row}.values() for row in rows], strict=True)
        return dict(zip(template, map(list, transposed), strict=True))

    def _missing(self, key: str) -> Any:
        return None if key in self._base_names else _fill(key)


_SCALARS = {bool: _B, int: _I, float: _F, str: _S}


def _extra_type(name: str, values: list[Any]) -> pa.DataType:
    if name.startswith("n_"):
        return _I
    value = next((v for v in values if v is not None), None)
    if value is None:
        return pa.null()
    kind = _SCALARS.get(type(value))
    if kind is None:
        raise TypeError(f"column {name!r}: {type(value).__name__} values are not supported")
    return kind


def unified_schema(table: str, schemas: Iterable[pa.Schema]) -> pa.Schema:
    """The schema of a whole table: base columns, then every extra column any chunk has."""
    base = BASE.get(table, pa.schema([]))  # a recorded table's columns are all its own
    merged = pa.unify_schemas([base, *schemas], promote_options="permissive")
    extras = sorted(set(merged.names) - set(base.names), key=_extra_order)
    return pa.schema([merged.field(name) for name in (*base.names, *extras)])


def conform(chunk: pa.Table, schema: pa.Schema) -> pa.Table:
    """Bring one chunk to the whole table's schema, filling the columns it never saw."""
    if chunk.schema.equals(schema):
        return chunk
    present = set(chunk.column_names)
    columns = []
    for field in schema:
        if field.name not in present:
            columns.append(pa.array([_fill(field.name)] * chunk.num_rows, type=field.type))
        elif chunk.schema.field(field.name).type != field.type:
            columns.append(chunk[field.name].cast(field.type))
        else:
            columns.append(chunk[field.name])
    return pa.Table.from_arrays(columns, schema=schema)
