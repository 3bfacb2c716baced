"""``zsim play``: one game, narrated turn by turn or printed as JSON; or a game continued from a
position text (``--from``), or what bots would answer there (``--ask``)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import click

from zsim.components import Box, BoxError, default_box_dir, load_box
from zsim.components.schema import COLOURS
from zsim.consult import blame
from zsim.decisions import IllegalChoice
from zsim.describe import describe, question
from zsim.game import NOT_OFFERED, Game, GameResult, as_offered, play_game
from zsim.learn.model import ModelError
from zsim.lineup import LineupError, SeatedGame, lineup, seat_game
from zsim.options import OptionError
from zsim.position import PositionError, box_of
from zsim.rules.lisi import LiSiSeat
from zsim.rules.scoring import CATEGORIES
from zsim.strategies.human import HumanStrategy
from zsim.strategies.registry import UnknownStrategy, resolve
from zsim.variants import parse as parse_variants
from zsim.viewer.page import write_page
from zsim.viewer.record import GameFailed, record_game, strategy_values

SHOWN = 12  # options listed with their values by --ask, the best first


@click.command("play")
@click.option("--players", "-n", type=click.IntRange(2, 4), default=4, show_default=True,
              help="Number of players.")
@click.option("--seed", type=int, default=1, show_default=True, help="Game seed.")
@click.option("--strategy", "-s", "strategy_names", multiple=True,
              help="Strategy per seat, repeatable; the last one fills the remaining seats.")
@click.option("--variant", "variants", multiple=True, metavar="KEY=VALUE|NAME",
              help="A rule option (board=board2, mausoleum=advanced, court_reset=true), a box "
                   "value by key path (rules.palace_vp=8), a variant .yaml file or a shipped "
                   "variant's name (`zsim variants`). Repeatable. With --from, the position's "
                   "own variant is kept.")
@click.option("--box", "box_dir", type=click.Path(file_okay=False, exists=True),
              default=None, help="A component box of your own (default: the built-in one; "
                                 "with --from, the one the position names).")
@click.option("--solo", is_flag=True, help="Play the solo mode: --strategy against Li Si.")
@click.option("--lisi", "lisi_level", type=click.IntRange(1, 4), default=1, show_default=True,
              help="Li Si's level with --solo.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.option("--html", "html", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also write the game as a page to step through in a browser (offline).")
@click.option("--from", "from_file", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help="Start from a position text (JSON, docs/research.md) instead "
                                 "of a new game: --strategy takes its seats.")
@click.option("--ask", "ask", multiple=True, metavar="BOT",
              help="With --from: print what each named bot answers to the position's question, "
                   "and its value of each option when it gives them. Repeatable.")
def command(players: int, seed: int, strategy_names: tuple[str, ...], variants: tuple[str, ...],
            box_dir: str | None, solo: bool, lisi_level: int, as_json: bool,
            html: Path | None = None, from_file: Path | None = None,
            ask: tuple[str, ...] = ()) -> None:
    """Play one game and narrate it (or print its result with --json; with --html, write it
    as a page to step through, and print the score sheet)."""
    if from_file is not None:
        if html is not None or solo:
            raise click.UsageError("--from continues the position's own game: it takes neither "
                                   "--html nor --solo")
        _from_position(from_file, strategy_names, variants, box_dir, as_json, ask)
        return
    if ask:
        raise click.UsageError("--ask answers the question of a position: give it --from FILE")
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
    except (IllegalChoice, OptionError, ModelError) as error:
        raise click.ClickException(str(error)) from error
    except (click.ClickException, click.exceptions.Abort):
        raise  # the page's own message, written; or the human seat left the game
    except Exception as error:
        raise failed(error, strategies) from error
    if as_json:
        click.echo(json.dumps(result_json(result), indent=2))
    else:
        # A human saw the game live; with --html, the narration is on the page.
        if html is None and not any(isinstance(s, HumanStrategy) for s in strategies):
            for line in result.log or []:
                click.echo(line)
            click.echo()
        click.echo(score_table(result))


def _from_position(path: Path, names: tuple[str, ...], variants: tuple[str, ...],
                   box_dir: str | None, as_json: bool, ask: tuple[str, ...]) -> None:
    """Continue the game of a position text with the named strategies, narrated (or say what
    bots would answer its question)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise click.ClickException(f"{path}: cannot be read ({error})") from error
    try:
        box = position_box(text, variants, box_dir)
        game = Game.from_text(text, box, narrate=not as_json)
    except PositionError as error:
        raise click.ClickException(f"{path}: {error}") from error
    except (BoxError, OptionError) as error:
        raise click.ClickException(f"{path}: {error}") from error
    if ask:
        _ask(game, ask, path)
        return
    try:
        seats = [resolve(name) for name in lineup(names, game.n)]
    except LineupError as error:
        raise click.BadParameter(str(error), param_hint="--strategy") from error
    except UnknownStrategy as error:
        raise click.ClickException(str(error)) from error
    told = len(game.log or [])
    try:
        result = game.play(seats)  # type: ignore[arg-type]
    except IllegalChoice as error:
        raise click.ClickException(str(error)) from error
    except Exception as error:
        raise failed(error, seats) from error
    if as_json:
        click.echo(json.dumps(result_json(result), indent=2))
        return
    if not any(isinstance(s, HumanStrategy) for s in seats):
        for line in (result.log or [])[told:]:
            click.echo(line)
        click.echo()
    click.echo(score_table(result))


def position_box(text: str, variants: Sequence[str], box_dir: str | None) -> Box:
    """The box a position plays on under: the one it names (``zsim.position.box_of``: a box of
    one's own, the box values its game changed), or, for a position that names none, the
    built-in box with ``--variant``'s values. A game under way keeps its rules: ``--variant``
    is refused for a position that names its box, and a rule option always (the position's
    ``variants`` give them); a box folder that is not here needs ``--box``."""
    chosen = parse_variants(variants)
    if chosen.options:
        raise OptionError(f"--variant {chosen.options[0]}: a position keeps the rule options "
                          "it was played with (its \"variants\"); edit them there")
    folder, named = box_of(text)
    if named and chosen.box:
        raise OptionError(f"--variant {chosen.as_strings()[0]}: the position was played with "
                          f"{', '.join(named)} and keeps them")
    if box_dir is None and folder is not None:
        if not Path(folder).is_dir():
            raise OptionError(f"the position was played with the box in {folder}, which is not "
                              "here: give its folder with --box DIR")
        box_dir = folder
    pairs = parse_variants(named).box if named else chosen.box
    return load_box(Path(box_dir) if box_dir else default_box_dir(), pairs)


def _ask(game: Game, specs: tuple[str, ...], path: Path) -> None:
    """Each bot's answer to the position's question, asked on a copy of the game of its own
    (the same table, the same seat's RNG), with its value of every option where it gives them.
    """
    decision = game.pending()
    if decision is None:
        raise click.ClickException(f"{path}: the game is over: there is no question to ask")
    view = game.views[decision.seat]
    words = [describe(view, decision, option) for option in decision.options]
    colour = COLOURS[game.state.players[decision.seat].colour]
    click.echo(f"seat {decision.seat} ({colour}), round {game.state.round}: "
               f"{question(view, decision)}")
    for spec in specs:
        try:
            bot = resolve(spec)
        except UnknownStrategy as error:
            raise click.ClickException(str(error)) from error
        if isinstance(bot, LiSiSeat):
            raise click.ClickException(f"strategy {spec!r}: Li Si's seat plays from its own "
                                       "deck and answers no question")
        fork = game.fork()
        asked = fork.pending()
        assert asked is not None
        mine = fork.views[decision.seat]
        values = strategy_values(bot, mine, asked)
        given = bot.choose(mine, asked)
        choice = as_offered(given, asked.options)
        if choice is NOT_OFFERED:
            raise click.ClickException(f"strategy {spec!r} answered {given!r}, which is not "
                                       "one of the options")
        chosen = asked.options.index(choice)
        click.echo(f"\n{spec}: {words[chosen]}")
        if values is not None:
            scores = [-1e9 if v is None else v for v in values]
            ranked = sorted(range(len(words)), key=lambda i: -scores[i])
            for i in ranked[:SHOWN]:
                value = "      -" if values[i] is None else f"{values[i]:7.2f}"
                mark = "*" if i == chosen else " "
                click.echo(f"  {mark} {value}  {words[i]}")
            if len(ranked) > SHOWN:
                click.echo(f"    ... and {len(ranked) - SHOWN} more options")
            if scores[chosen] < max(scores):
                click.echo(f"  (* is {spec}'s answer, below its best value listed: the values "
                           "are the estimates it noted while weighing the options; a search "
                           "bot answers by what its search found, not by them)")


def failed(error: Exception, strategies: Sequence[object]) -> click.ClickException:
    """One line for a game that stopped on an error: the strategy, its seat and the decision
    kind it failed at (as ``zsim run`` records them in failures.jsonl), or the engine's own
    failure; the traceback was of no use to a designer trying a bot."""
    seat, kind = blame(error)
    what = f"{type(error).__name__}: {error}"
    if seat is None:
        return click.ClickException(f"the game failed: {what}")
    name = getattr(strategies[seat], "name", type(strategies[seat]).__name__)
    at = f" at a {kind!r} decision" if kind else ""
    return click.ClickException(f"strategy {name!r} (seat {seat}) failed{at}: {what}")


def _play_to_page(seated: SeatedGame, html: Path) -> GameResult:
    """Play the game with its step record and write the viewer page (``zsim.viewer``)."""
    try:
        result, record = record_game(seated)
    except GameFailed as failure:
        _write(failure.record, html)
        if isinstance(failure.error, click.exceptions.Abort):
            raise failure.error from None  # the human seat left: the page shows it so far
        message = failed(failure.error, seated.strategies).message
        raise click.ClickException(f"{message}; {html} shows the game up to the failure") \
            from failure.error
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
