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
    """Rows (dicts) to an Arrow table: base columns typed, extra columns inferred."""
    base = BASE[table]
    extras = sorted({key for row in rows for key in row} - set(base.names), key=_extra_order)
    arrays = [pa.array([row.get(f.name) for row in rows], type=f.type) for f in base]
    arrays += [pa.array([row.get(name, _fill(name)) for row in rows]) for name in extras]
    return pa.Table.from_arrays(arrays, names=[*base.names, *extras])


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
