"""``zsim play``: one game, narrated turn by turn or printed as JSON."""

from __future__ import annotations

import json
from pathlib import Path

import click

from zsim.components import BoxError
from zsim.decisions import IllegalChoice
from zsim.game import GameResult, play_game
from zsim.lineup import LineupError, SeatedGame, seat_game
from zsim.options import OptionError
from zsim.rules.scoring import CATEGORIES
from zsim.strategies.human import HumanStrategy
from zsim.strategies.registry import UnknownStrategy
from zsim.viewer.page import write_page
from zsim.viewer.record import GameFailed, record_game


@click.command("play")
@click.option("--players", "-n", type=click.IntRange(2, 4), default=4, show_default=True,
              help="Number of players.")
@click.option("--seed", type=int, default=1, show_default=True, help="Game seed.")
@click.option("--strategy", "-s", "strategy_names", multiple=True,
              help="Strategy per seat, repeatable; the last one fills the remaining seats.")
@click.option("--variant", "variants", multiple=True, metavar="KEY=VALUE",
              help="A rule option (board=board2, mausoleum=advanced, court_reset=true), a box "
                   "value by key path (rules.palace_vp=8) or a variant .yaml file. Repeatable.")
@click.option("--box", "box_dir", type=click.Path(file_okay=False, exists=True),
              default=None, help="Component directory (default: configs/components).")
@click.option("--solo", is_flag=True, help="Play the solo mode: --strategy against Li Si.")
@click.option("--lisi", "lisi_level", type=click.IntRange(1, 4), default=1, show_default=True,
              help="Li Si's level with --solo.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.option("--html", "html", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also write the game as a page to step through in a browser (offline).")
def command(players: int, seed: int, strategy_names: tuple[str, ...], variants: tuple[str, ...],
            box_dir: str | None, solo: bool, lisi_level: int, as_json: bool,
            html: Path | None = None) -> None:
    """Play one game and narrate it (or print its result with --json; with --html, write it
    as a page to step through, and print the score sheet)."""
    if solo:
        players = 2
    try:
        seated = seat_game(strategy_names, players, seed, variants, box_dir, solo, lisi_level)
    except LineupError as error:
        raise click.BadParameter(str(error), param_hint="--strategy") from error
    except (BoxError, OptionError, UnknownStrategy) as error:
        raise click.ClickException(str(error)) from error
    strategies = seated.strategies
    try:
        if html is None:
            result = play_game(seated.box, strategies, seed, seated.options,
                               narrate=not as_json)
        else:
            result = _play_to_page(seated, html)
    except (IllegalChoice, OptionError) as error:
        raise click.ClickException(str(error)) from error
    if as_json:
        click.echo(json.dumps(result_json(result), indent=2))
    else:
        # A human saw the game live; with --html, the narration is on the page.
        if html is None and not any(isinstance(s, HumanStrategy) for s in strategies):
            for line in result.log or []:
                click.echo(line)
            click.echo()
        click.echo(score_table(result))


def _play_to_page(seated: SeatedGame, html: Path) -> GameResult:
    """Play the game with its step record and write the viewer page (``zsim.viewer``)."""
    try:
        result, record = record_game(seated)
    except GameFailed as failure:
        _write(failure.record, html)
        raise click.ClickException(f"the game failed ({failure}); {html} shows it up to the "
                                   f"failure") from failure.error
    _write(record, html)
    return result


def _write(record: dict, html: Path) -> None:
    try:
        write_page(record, html)
    except OSError as error:
        raise click.ClickException(f"{html}: cannot be written ({error.strerror})") from error
    click.echo(f"viewer: {html}", err=True)


def result_json(result: GameResult) -> dict:
    return {
        "seed": result.seed,
        "n_players": result.n_players,
        "setup": result.setup,
        "players": [
            {"seat": seat, "color": result.colours[seat], "strategy": result.strategies[seat],
             "rank": result.ranks[seat], "winner": seat in result.winners,
             **result.scores[seat]}
            for seat in range(result.n_players)
        ],
    }


def score_table(result: GameResult) -> str:
    """The final score sheet: one column per player, one row per category."""
    headers = [f"{result.colours[s]} ({result.strategies[s]})" for s in range(result.n_players)]
    width = max(len(h) for h in headers) + 2
    label = max(len(c) for c in CATEGORIES) + 2
    lines = ["".ljust(label) + "".join(h.rjust(width) for h in headers)]
    for category in (*CATEGORIES, "vp_total"):
        lines.append(category.ljust(label) + "".join(
            str(result.scores[s][category]).rjust(width) for s in range(result.n_players)))
    winners = ", ".join(headers[s] for s in result.winners)
    lines.append(f"Winner{'s (shared)' if len(result.winners) > 1 else ''}: {winners}")
    return "\n".join(lines)
