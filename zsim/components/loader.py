"""Load the component box from a directory of YAML files and check it.

Designers edit these files by hand, so one run reports every problem at once, each naming the
file, the key path and the bad value (``cards.yaml: cards[17].trigger: 'hire3' is not a Court
action ...``). Checks come in three layers: YAML syntax and duplicate keys, the pydantic schema of
each file, then facts that span items or files (unique ids, card numbering, ability references,
enough components for every player count). The cross-file layer runs once every file is valid on
its own, because its messages would otherwise only echo the earlier ones.

The layers are modules of their own: ``reading`` (YAML and the lines of keys), ``messages``
(pydantic's errors in plain words), ``file_checks`` and ``cross_checks``; this module reads the
files in order, collects every problem and assembles the ``Box``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from zsim.components.box import Box
from zsim.components.cross_checks import Parts, cross_checks
from zsim.components.file_checks import file_checks
from zsim.components.files import FILES
from zsim.components.messages import validate
from zsim.components.overrides import apply as apply_overrides
from zsim.components.reading import Source, read_yaml
from zsim.components.readonly import FrozenMap
from zsim.errors import UserError
from zsim.paths import configs_dir


class BoxError(UserError):
    """The box could not be loaded; ``messages`` lists every problem found."""

    def __init__(self, messages: Sequence[str]) -> None:
        self.messages = list(messages)
        super().__init__("\n".join(self.messages))


def default_box_dir() -> Path:
    """The box shipped with the package (``zsim.paths``): ``configs/components``."""
    directory = configs_dir("components")
    if directory.is_dir():
        return directory
    raise BoxError([f"no default component box: {directory} does not exist (a broken install: "
                    "reinstall zsim, or pass a components directory explicitly)"])


def load_box(path: str | Path, overrides: Sequence[tuple[str, Any]] = ()) -> Box:
    """Load and validate the box in ``path``; raise :class:`BoxError` listing all problems.

    ``overrides`` are ``(key path, value)`` pairs applied to the YAML before validation (see
    :func:`zsim.components.overrides.apply`), so a variant is checked exactly like an edited file.
    """
    box, problems = _read_box(Path(path), overrides)
    if box is None:
        raise BoxError(problems)
    return box


def check_box(path: str | Path) -> list[str]:
    """Every problem with the box in ``path``; an empty list means it loads."""
    return _read_box(Path(path))[1]


def _read_box(directory: Path, overrides: Sequence[tuple[str, Any]] = ()
              ) -> tuple[Box | None, list[str]]:
    """Read every file, collect every problem, and build the Box only when there are none."""
    if not directory.is_dir():
        return None, [f"{directory}: not a directory"]
    problems: list[str] = []
    sources: dict[str, Source] = {}
    models: dict[str, Any] = {}
    documents: dict[str, dict[str, Any]] = {}
    for name in FILES:
        source, found = read_yaml(directory / name)
        problems += found
        if source is not None:
            documents[name] = source.data
            sources[name] = source
    problems += apply_overrides(documents, overrides)
    for name, model in FILES.items():
        source = sources.pop(name, None)
        if source is None:
            continue
        parsed, found = validate(source, model)
        problems += found
        if parsed is not None:
            problems += file_checks(source, parsed)
            sources[name], models[name] = source, parsed
    if problems:
        return None, problems
    parts = Parts(
        sources, models["board.yaml"], models["abilities.yaml"], models["cards.yaml"],
        models["alchemists.yaml"], models["tiles.yaml"], models["unification_boards.yaml"],
        models["mausoleum.yaml"], models["solo.yaml"],
    )
    problems = cross_checks(parts)
    if problems:
        return None, problems
    return _assemble(directory, parts, tuple(overrides)), []


def _assemble(directory: Path, parts: Parts, overrides: tuple[tuple[str, Any], ...]) -> Box:
    tiles = parts.tiles
    return Box(
        source=directory,
        board=parts.board,
        abilities=FrozenMap(parts.abilities.abilities),  # read-only, and picklable
        cards=tuple(sorted(parts.cards.cards, key=lambda card: card.number)),
        alchemist_cards=parts.alchemists.alchemist_cards,
        master_alchemists=parts.alchemists.master_alchemists,
        emperor_tiles=tiles.emperor_tiles,
        wall_tiles=tiles.wall_tiles,
        governor_tiles=tiles.governor_tiles,
        palace_tiles=tiles.palace_tiles,
        starting_tiles=tiles.starting_tiles,
        unification_boards=parts.boards.boards,
        mausoleum_tiles=parts.mausoleum.tiles,
        solo=parts.solo,
        overrides=overrides,
    )
