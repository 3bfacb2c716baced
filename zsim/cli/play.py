"""``zsim play``: one game, narrated turn by turn or printed as JSON."""

from __future__ import annotations

import json

import click

from strategies.human import HumanStrategy
from strategies.registry import UnknownStrategy, resolve
from zsim.components import BoxError, default_box_dir
from zsim.decisions import IllegalChoice
from zsim.game import GameResult, play_game
from zsim.options import OptionError
from zsim.rules.scoring import CATEGORIES
from zsim.variants import parse as parse_variants


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
def command(players: int, seed: int, strategy_names: tuple[str, ...], variants: tuple[str, ...],
            box_dir: str | None, solo: bool, lisi_level: int, as_json: bool) -> None:
    """Play one game and narrate it (or print its result with --json)."""
    if solo:
        if len(strategy_names) > 1:
            raise click.BadParameter("the solo mode takes one --strategy", param_hint="--strategy")
        players = 2
        strategy_names = (*(strategy_names or ("random",)), f"lisi-{lisi_level}")
    try:
        chosen = parse_variants(variants)
        box = chosen.load_box(box_dir or default_box_dir())
        options = chosen.game_options()
        names = list(strategy_names) or ["random"]
        if len(names) > players:
            raise click.BadParameter(f"{len(names)} strategies for {players} players",
                                     param_hint="--strategy")
        names += [names[-1]] * (players - len(names))
        strategies = [resolve(name) for name in names]
        result = play_game(box, strategies, seed, options, narrate=not as_json)
    except (BoxError, OptionError, UnknownStrategy) as error:
        raise click.ClickException(str(error)) from error
    except IllegalChoice as error:
        raise click.ClickException(str(error)) from error
    if as_json:
        click.echo(json.dumps(result_json(result), indent=2))
    else:
        if not any(isinstance(s, HumanStrategy) for s in strategies):  # a human saw it live
            for line in result.log or []:
                click.echo(line)
            click.echo()
        click.echo(score_table(result))


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
