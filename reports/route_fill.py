"""When the Elixir route fills: most seats end on its last space (ruling 9a).

The route's length, its VP values and where its symbols sit are assumed (board.yaml,
``elixir``). On a route where nearly every Ship reaches the end, the Ship's position never
separates players and Elixir VP is the number of Alchemist cards times the last space's value,
so every Elixir finding is a finding about the assumed route. The summary says so, with the
share of seats on the last space per player count, and points at the variant file that reads
the route another way. A seat's final Ship space is the players table's ``n_ship``.
"""

from __future__ import annotations

import pandas as pd

from zsim.reports.assumed import Marker, reasons
from zsim.reports.loader import RunData, run_box
from zsim.reports.model import Point, Points

#: The route "fills" when more than this share of the seats end on its last space.
FILLS = 0.5
#: The assumed keys a filled route is a finding about.
ROUTE_KEYS = ("elixir.vp", "elixir.elixir_spaces")
TITLE = "Elixir route"


def route_ends(data: RunData) -> dict[str, int]:
    """The last space of the Elixir route each run played on (run id -> space); a run whose
    box cannot be read any more is left out."""
    ends = {}
    for run in data.runs:
        try:
            ends[run.run_id] = len(run_box(run).board.elixir.vp) - 1
        except (OSError, ValueError):  # BoxError and OptionError are ValueErrors
            continue
    return ends


def route_fill(data: RunData) -> pd.DataFrame:
    """Per player count and last space: seats, seats on the last space and their share, and
    whether the route fills (``FILLS``)."""
    players = data.players
    columns = ["n_players", "last_space", "seats", "on_last", "share", "fills"]
    if players.empty or "n_ship" not in players.columns:
        return pd.DataFrame(columns=columns)
    ends = players["run_id"].astype(str).map(route_ends(data))
    seats = players.assign(last_space=ends).dropna(subset=["last_space", "n_ship"])
    seats = seats.assign(on_last=seats["n_ship"] >= seats["last_space"])
    table = (seats.groupby(["n_players", "last_space"])["on_last"]
             .agg(seats="size", on_last="sum").reset_index())
    table["last_space"] = table["last_space"].astype(int)
    table["on_last"] = table["on_last"].astype(int)
    table["share"] = table["on_last"] / table["seats"]
    table["fills"] = table["share"] > FILLS
    return table[columns]


def points(data: RunData) -> Points:
    """One sentence per player count whose route fills, marked as a finding about the assumed
    route (with the reasons and the variant file that reads it another way)."""
    table = route_fill(data)
    filled = table[table["fills"]]
    items = []
    marker = Marker(data.assumed)
    for row in filled.itertuples(index=False):
        keys = " and ".join(ROUTE_KEYS)
        text = (f"The Elixir route fills at {row.n_players} players: {row.on_last:,} of "
                f"{row.seats:,} seats ({row.share:.0%}) end on its last space (space "
                f"{row.last_space}), so the Ship's position hardly separates players and Elixir "
                f"VP is about the number of Alchemist cards times the last space's value. A "
                f"finding about the assumed route ({keys}), not the printed game")
        found = marker.found(text)
        text = marker.marked(text) + (f" [{reasons(found)}]" if found else "")
        readings = sorted({p.name for k in ROUTE_KEYS for p in data.readings.get(k, [])})
        if readings:
            text += f"; the other reading: {', '.join(readings)}"
        items.append(Point(text + "."))
    if table.empty:
        empty = "These runs do not record where each Ship ended."
    else:
        shares = ", ".join(f"{r.share:.0%} at {r.n_players} players"
                           for r in table.itertuples(index=False))
        empty = f"The Elixir route does not fill: seats on its last space {shares}."
    return Points(TITLE, items, empty)
