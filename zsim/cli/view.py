"""``zsim view``: one game of a run as a page to step through in a browser."""

from __future__ import annotations

from pathlib import Path

import click

from zsim.cli import replay


@click.command("view")
@click.argument("run_dir", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.option("--game", "game", type=click.IntRange(min=0), required=True,
              help="Game index (the 'game' column of the run's tables).")
@click.option("--out", "out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="The page to write (default: RUN_DIR/view/game-GAME.html).")
@click.pass_context
def command(ctx: click.Context, run_dir: Path, game: int, out: Path | None) -> None:
    """Write game GAME of the run in RUN_DIR as one offline HTML page that steps through it
    decision by decision (the game is replayed from its seed, as by `zsim replay`)."""
    out = out or run_dir / "view" / f"game-{game}.html"
    ctx.invoke(replay.command, run_dir=run_dir, game=game, as_json=False, html=out)
