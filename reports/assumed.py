"""Components the rulebook does not print, marked wherever the report names them.

The box marks every value it had to assume (``assumed: true`` with a one-line reason; see
docs/assumptions.md). A finding about such a component is a finding about the project's reading
of the rules, not about the printed game, so every figure label, table row and finding that
names one carries ``MARK`` and the reason. Marking is one pass over the built sections, after
every section is built: a section (a new one too) needs to do nothing for its labels to be
marked, as long as it names components by their id.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

from matplotlib.ticker import FuncFormatter

from zsim.components import Box
from zsim.reports.model import Figure, Note, Section, Table
from zsim.variants import other_readings

MARK = "†"
MASTER_PREFIX = "Master Alchemist "  # how the games table names a Master Alchemist card
#: The kinds of component a report names by id, as (box attribute, what one is called).
NAMED = (("starting_tiles", "Starting tile"), ("wall_tiles", "Wall tile"),
         ("palace_tiles", "Palace tile"), ("governor_tiles", "Governor tile"),
         ("emperor_tiles", "Emperor tile"), ("master_alchemists", "Master Alchemist"),
         ("unification_boards", "Unification board"), ("mausoleum_tiles", "Mausoleum tile"),
         ("alchemist_cards", "Alchemist card"))


#: The rule option whose default is an assumption, as a report or a variant names it, and why.
DEFAULT_BOARD = ("board=random", "Which of the two Unification layouts is printed on the game "
                 "board is unknown, so by default each game draws one.")


def board_assumptions(box: Box) -> dict[str, str]:
    """Each assumed key of the board, by its key path (``elixir.vp``, ``rules.palace_spaces``;
    ``board.regions`` for a key at the top of board.yaml) -> why. Only the keys marked are
    listed: the numbers the rulebook prints (5 rounds, 6 VP a Palace...) are not."""
    board = box.board
    found = {f"board.{key}": why for key, why in board.assumed.items()}
    for section in ("elixir", "wall", "mausoleum", "rules"):
        for key, why in getattr(board, section).assumed.items():
            found[f"{section}.{key}"] = why
    return found


def solo_assumptions(box: Box) -> dict[str, str]:
    """Li Si's versions as the results name them (``lisi-1``...) -> why, with his readings of
    the Mausoleum tiles and his Alchemist set (rulings 27d-27f)."""
    solo = box.solo
    extra = [c.reason for c in solo.conditions if c.assumed]
    if solo.alchemists.assumed:
        extra.append(solo.alchemists.reason)
    return {f"lisi-{card.level}": "; ".join(dict.fromkeys(
        str(r) for r in ([card.reason] if card.assumed else []) + extra))
        for card in solo.lisi_cards if card.assumed or extra}


def assumed_components(box: Box) -> dict[str, str]:
    """Component id -> why it is assumed, for every component marked ``assumed`` itself or
    through its ability, and every assumed ability (rewards and card abilities are named by
    their ability id); the board's assumed keys by key path, Li Si's versions by name, and the
    default Unification board choice."""
    found: dict[str, str] = {**board_assumptions(box), **solo_assumptions(box)}
    found[DEFAULT_BOARD[0]] = DEFAULT_BOARD[1]
    for attribute, _ in NAMED:
        for item in getattr(box, attribute):
            reasons = [item.reason] if item.assumed else []
            ability = box.abilities.get(getattr(item, "ability", None) or "")
            if ability is not None and ability.assumed:
                reasons.append(ability.reason)
            if reasons:
                found[item.id] = "; ".join(dict.fromkeys(str(r) for r in reasons))
    for name, ability in box.abilities.items():
        if ability.assumed:
            found.setdefault(name, str(ability.reason))
    return found


def component_names(box: Box) -> dict[str, str]:
    """Display names for components whose id says little (``master_3``, recorded in the games
    table as ``Master Alchemist master_3``): the id and what the card does, from its
    ability's id."""
    names = {}
    for card in box.master_alchemists:
        shown = f"{card.id} ({card.ability.removeprefix('master_').replace('_', ' ')})"
        names[card.id] = names[f"{MASTER_PREFIX}{card.id}"] = shown
    return names


def variant_files(directory: Path, assumed: Mapping[str, str]) -> dict[str, list[Path]]:
    """Assumed component id -> the variant files that read it another way."""
    return {k: v for k, v in other_readings(directory).items() if k in assumed}


class Marker:
    """Finds the assumed components a text names and marks them."""

    def __init__(self, assumed: Mapping[str, str]) -> None:
        self.assumed = dict(assumed)
        ids = sorted(self.assumed, key=len, reverse=True)  # the longest id of a prefix wins
        self._pattern = re.compile(r"(?<![\w])(" + "|".join(map(re.escape, ids)) + r")(?![\w])"
                                   ) if ids else None

    def found(self, text: str) -> dict[str, str]:
        if self._pattern is None or not isinstance(text, str):
            return {}
        return {m: self.assumed[m] for m in dict.fromkeys(self._pattern.findall(text))}

    def marked(self, text: str) -> str:
        if self._pattern is None or not isinstance(text, str):
            return text
        return self._pattern.sub(lambda m: m.group(1) + MARK, text.replace(MARK, ""))


def reasons(found: Mapping[str, str]) -> str:
    """``† assumed: a (why); b (why)``."""
    return f"{MARK} assumed: " + "; ".join(f"{k} ({v.rstrip('.')})" for k, v in found.items())


def mark(sections: list[Section], assumed: Mapping[str, str]) -> None:
    """Mark every figure label, table row and comparison of ``sections`` that names an
    assumed component, in place."""
    marker = Marker(assumed)
    if not marker.assumed:
        return
    for section in sections:
        for block in section.blocks:
            if isinstance(block, Figure):
                _mark_figure(block, marker)
            elif isinstance(block, Table):
                _mark_table(block, marker)
            elif isinstance(block, Note):
                block.text = marker.marked(block.text)


def _mark_figure(figure: Figure, marker: Marker) -> None:
    named: dict[str, str] = {}
    for ax in figure.figure.axes:
        for axis, labels in ((ax.xaxis, ax.get_xticklabels()), (ax.yaxis, ax.get_yticklabels())):
            found = {k: v for label in labels for k, v in marker.found(label.get_text()).items()}
            if found:
                named.update(found)
                shown = axis.get_major_formatter()
                axis.set_major_formatter(FuncFormatter(
                    lambda x, pos, shown=shown: marker.marked(shown(x, pos))))
        for text in ax.texts:
            found = marker.found(text.get_text())
            if found:
                named.update(found)
                text.set_text(marker.marked(text.get_text()))
    for comparison in figure.comparisons:
        comparison.assumed = {**marker.found(comparison.label), **marker.found(comparison.claim)}
        named.update(comparison.assumed)
    if named:
        figure.caption = f"{figure.caption} {reasons(named)}."


def _mark_table(table: Table, marker: Marker) -> None:
    text = table.data.select_dtypes(include=["object", "string"])
    if text.empty or table.transposed:
        return
    rows = [{k: v for cell in row for k, v in marker.found(cell).items()}
            for row in text.itertuples(index=False)]
    if any(rows):
        table.data = table.data.assign(assumed=[
            "; ".join(f"{k}: {v}" for k, v in row.items()) for row in rows])
