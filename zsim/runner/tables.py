"""The result tables' columns, and how rows become Arrow tables with one stable schema.

Each table has fixed leading columns with explicit types. Whatever else the engine reports
(``n_*`` activity counters, which vary from game to game, and setup features) follows: counters
sorted by name and filled with 0 where a chunk never saw them, then the other columns sorted by
name and filled with nulls. The same order is produced for any chunking, so the consolidated
tables do not depend on how the run was split.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from zsim.rules.scoring import CATEGORIES

_S, _I, _B, _F = pa.string(), pa.int64(), pa.bool_(), pa.float64()

BASE: dict[str, pa.Schema] = {
    "players": pa.schema(
        [("run_id", _S), ("game", _I), ("seed", _I), ("n_players", _I), ("seat", _I),
         ("strategy", _S), ("vp_total", _I), ("rank", _I), ("winner", _B), ("win_share", _F)]
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
}
TABLES = tuple(BASE)
TIMING_COLUMNS = ("duration_s",)


def _extra_order(name: str) -> tuple[bool, str]:
    return (not name.startswith("n_"), name)


def _fill(name: str) -> Any:
    return 0 if name.startswith("n_") else None


def build(table: str, rows: list[dict[str, Any]]) -> pa.Table:
    """Rows (dicts) to an Arrow table: base columns typed, extra columns typed from their
    first value. Arrow converts the rows in C++; this matters, as a chunk has thousands."""
    base = BASE[table]
    extras = sorted(set().union(*rows) - set(base.names), key=_extra_order)
    schema = pa.schema([*base, *(pa.field(name, _extra_type(name, rows)) for name in extras)])
    built = pa.Table.from_pylist(rows, schema=schema)
    for name in extras:
        column = built[name]
        if name.startswith("n_") and column.null_count:
            built = built.set_column(built.schema.get_field_index(name), name,
                                     pc.fill_null(column, 0))
    return built


_SCALARS = {bool: pa.bool_(), int: pa.int64(), float: pa.float64(), str: pa.string()}


def _extra_type(name: str, rows: list[dict[str, Any]]) -> pa.DataType:
    if name.startswith("n_"):
        return pa.int64()
    value = next((v for row in rows if (v := row.get(name)) is not None), None)
    if value is None:
        return pa.null()
    return _SCALARS.get(type(value)) or pa.array([value]).type


def unified_schema(table: str, schemas: Iterable[pa.Schema]) -> pa.Schema:
    """The schema of a whole table: base columns, then every extra column any chunk has."""
    base = BASE[table]
    merged = pa.unify_schemas([base, *schemas], promote_options="permissive")
    extras = sorted(set(merged.names) - set(base.names), key=_extra_order)
    return pa.schema([merged.field(name) for name in (*base.names, *extras)])


def conform(chunk: pa.Table, schema: pa.Schema) -> pa.Table:
    """Bring one chunk to the whole table's schema, filling the columns it never saw."""
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
