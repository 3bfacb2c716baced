"""``zsim view``: one game of a run, or a saved playtest game, as a page to step through."""

from __future__ import annotations

from pathlib import Path

import click

from zsim.cli import replay


@click.command("view")
@click.argument("source", metavar="RUN_DIR|GAME.json",
                type=click.Path(exists=True, path_type=Path))
@click.option("--game", "game", type=click.IntRange(min=0), default=None,
              help="Game index (the 'game' column of the run's tables); for a run directory.")
@click.option("--out", "out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="The page to write (default: RUN_DIR/view/game-GAME.html, or GAME.html "
                   "beside a game file).")
@click.pass_context
def command(ctx: click.Context, source: Path, game: int | None, out: Path | None) -> None:
    """Write game GAME of the run in RUN_DIR, or the game saved in GAME.json by `zsim serve`,
    as one offline HTML page that steps through it decision by decision (a run's game is
    replayed from its seed, as by `zsim replay`; a saved game from its answers)."""
    if source.is_file():
        _saved_game(source, out or source.with_suffix(".html"))
        return
    if game is None:
        raise click.BadParameter("a run directory needs the game to show", param_hint="--game")
    out = out or source / "view" / f"game-{game}.html"
    ctx.invoke(replay.command, run_dir=source, game=game, as_json=False, html=out)


def _saved_game(path: Path, out: Path) -> None:
    """The page of a game saved by the playtest app (``zsim.serve.replay``)."""
    from zsim.components import BoxError
    from zsim.lineup import LineupError
    from zsim.options import OptionError
    from zsim.serve.replay import ReplayError, load, viewer_record
    from zsim.strategies.registry import UnknownStrategy
    from zsim.viewer.page import write_page

    try:
        record = viewer_record(load(path))
    except (ReplayError, BoxError, OptionError, UnknownStrategy, LineupError) as error:
        raise click.ClickException(str(error)) from error
    try:
        write_page(record, out)
    except OSError as error:
        raise click.ClickException(f"{out}: cannot be written ({error.strerror})") from error
    click.echo(f"viewer: {out}")
