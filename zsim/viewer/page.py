"""The viewer page: one offline HTML file with the game's step record embedded as JSON.

The page's markup, style and script are the package file ``template.html`` with the board's
drawing, ``board.js``, inlined (SVG drawn by plain JavaScript, nothing fetched from anywhere; the
playtest app, ``zsim serve``, draws its board with the same file), so the page works from a
disk, an e-mail or a CI artifact with no server. The record goes into a
``<script type="application/json">`` element, with ``<`` escaped so that no text of the game can
close it.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

RECORD_SLOT = "__RECORD__"
TITLE_SLOT = "__TITLE__"
BOARD_SLOT = "__BOARD_JS__"


def template() -> str:
    return resources.files("zsim.viewer").joinpath("template.html").read_text(encoding="utf-8")


def board_script() -> str:
    """The board's drawing (``board.js``), shared with the playtest app (``zsim serve``)."""
    return resources.files("zsim.viewer").joinpath("board.js").read_text(encoding="utf-8")


def render(record: dict[str, Any], title: str | None = None) -> str:
    """The page for one game's record (``zsim.viewer.record``)."""
    data = json.dumps(record, separators=(",", ":")).replace("<", "\\u003c")
    meta = record["meta"]
    heading = title or f"Zhanguo game, seed {meta['seed']}, {meta['n_players']} players"
    page = template().replace(BOARD_SLOT, board_script())
    page = page.replace(TITLE_SLOT, heading.replace("&", "&amp;").replace("<", "&lt;"))
    return page.replace(RECORD_SLOT, data)


def write_page(record: dict[str, Any], path: str | Path, title: str | None = None) -> Path:
    """Write the page to ``path`` (its folder is created) and return the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render(record, title), encoding="utf-8")
    return path
