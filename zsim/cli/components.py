"""``zsim components``: check and summarise a component box without running a game.

A designer who edits the YAML runs ``zsim components check`` to see every mistake at once, and
``zsim components show`` to see what the box holds and how much of it is still assumed. The
built-in box is package data; ``zsim components export DIR`` writes it out as YAML to edit, and
commands take that directory where they take a box (``--box DIR``, an experiment's ``box:``).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterable
from pathlib import Path

import click

from zsim.components import Box, BoxError, default_box_dir, load_box
from zsim.components.schema import Assumable, KeyedAssumptions

_DIR = click.argument(
    "directory", required=False, type=click.Path(file_okay=False, path_type=Path)
)


@click.group("components")
def command() -> None:
    """Check or summarise the component box (configs/components)."""


@command.command("check")
@_DIR
def check(directory: Path | None) -> None:
    """Validate every file of the box; print each problem and exit 1 if there are any."""
    box = _load_or_exit(directory)
    counts = ", ".join(f"{copies} {name}" for name, _, copies, _ in _rows(box))
    click.echo(f"OK: {box.source} ({counts})")


@command.command("show")
@_DIR
def show(directory: Path | None) -> None:
    """Print how many components of each kind the box holds and how many are assumed."""
    box = _load_or_exit(directory)
    click.echo(f"Component box: {box.source}")
    click.echo(f"{'kind':<24}{'entries':>8}{'copies':>8}{'assumed':>9}")
    for name, entries, copies, assumed in _rows(box):
        click.echo(f"{name:<24}{entries:>8}{copies:>8}{assumed:>9}")
    board = box.board
    board_parts = (board, board.elixir, board.wall, board.mausoleum, board.rules)
    keys = sum(1 for part in board_parts for name in type(part).model_fields  # its own keys
               if name != "assumed" and not isinstance(getattr(part, name), KeyedAssumptions))
    marked = sum(len(part.assumed) for part in board_parts)
    click.echo(f"{'board keys':<24}{keys:>8}{'':>8}{marked:>9}")


@command.command("export")
@click.argument("directory", type=click.Path(path_type=Path))
def export(directory: Path) -> None:
    """Write the built-in box to DIRECTORY (new or empty) as YAML files to edit."""
    if directory.exists() and (not directory.is_dir() or any(directory.iterdir())):
        raise click.ClickException(f"{directory}: exists and is not an empty directory "
                                   "(the built-in box is written to a new one)")
    source = default_box_dir()
    directory.mkdir(parents=True, exist_ok=True)
    files = sorted(source.glob("*.yaml"))
    for path in files:
        shutil.copyfile(path, directory / path.name)
    click.echo(f"wrote the built-in box to {directory} ({len(files)} files); check an edit with "
               f"zsim components check {directory}")


def _load_or_exit(directory: Path | None) -> Box:
    """Load the box, or print every problem (to stderr) and exit with status 1."""
    try:
        return load_box(directory if directory is not None else default_box_dir())
    except BoxError as error:
        for message in error.messages:
            click.echo(message, err=True)
        count = len(error.messages)
        click.echo(f"{count} problem{'s' if count != 1 else ''} found", err=True)
        click.get_current_context().exit(1)


def _rows(box: Box) -> list[tuple[str, int, int, int]]:
    """(kind, entries, copies counting duplicates, entries marked assumed) per component kind."""
    kinds: list[tuple[str, tuple[Assumable, ...]]] = [
        ("abilities", tuple(box.abilities.values())),
        ("cards", box.cards),
        ("alchemist cards", box.alchemist_cards),
        ("master alchemists", box.master_alchemists),
        ("emperor tiles", box.emperor_tiles),
        ("wall tiles", box.wall_tiles),
        ("governor tiles", box.governor_tiles),
        ("palace tiles", box.palace_tiles),
        ("starting tiles", box.starting_tiles),
        ("unification boards", box.unification_boards),
        ("mausoleum tiles", box.mausoleum_tiles),
    ]
    return [(name, len(items), _copies(items), _assumed(items)) for name, items in kinds]


def _copies(items: Iterable[Assumable]) -> int:
    return sum(getattr(item, "copies", 1) for item in items)


def _assumed(items: Iterable[Assumable]) -> int:
    return sum(item.assumed for item in items)
