"""``zsim rate RUN_DIR...``: a Plackett–Luce rating for every strategy, per player count."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import click

if TYPE_CHECKING:
    import pandas as pd

    from zsim.ratings import Ladder, Ratings

F = TypeVar("F", bound=Callable[..., object])

_OUTPUTS = (
    click.option("--csv", "csv_path", type=click.Path(dir_okay=False, path_type=Path),
                 help="Also write the ratings table as CSV here."),
    click.option("--figure", "figure_path", type=click.Path(dir_okay=False, path_type=Path),
                 help="Also draw the ladder figure here (PNG, SVG or PDF, by the suffix)."),
    click.option("--json", "as_json", is_flag=True,
                 help="Print the ratings as JSON instead of the table."),
)


def rating_outputs(function: F) -> F:
    """Add --csv, --figure and --json to a command that ends with a rating."""
    for option in reversed(_OUTPUTS):
        function = option(function)
    return function


@click.command("rate")
@click.argument("run_dirs", nargs=-1, required=True,
                type=click.Path(file_okay=False, path_type=Path))
@rating_outputs
def command(run_dirs: tuple[Path, ...], csv_path: Path | None, figure_path: Path | None,
            as_json: bool) -> None:
    """Rate every strategy of RUN_DIR(s) (pooled) from the finishing orders of their games.

    A Plackett–Luce model per player count (statsmodels' conditional logit on the exploded
    ranking), ratings centred at 0 with 95% intervals; a gap d between two strategies is a
    probability 1/(1+exp(-d)) of finishing ahead in a two-player game. See docs/ratings.md.
    """
    from zsim.reports.loader import RunDirError, load_runs

    try:
        players = load_runs(list(run_dirs)).players
    except RunDirError as error:
        raise click.ClickException(str(error)) from error
    show_ratings(players, csv_path, figure_path, as_json)


def show_ratings(players: pd.DataFrame, csv_path: Path | None, figure_path: Path | None,
                 as_json: bool) -> Ratings:
    """Rate a players table and print, write and draw the result as the options ask."""
    from zsim.ratings import RatingError, rate

    try:
        ratings = rate(players)
    except RatingError as error:
        raise click.ClickException(str(error)) from error
    if csv_path is not None:
        try:
            ratings.table.to_csv(csv_path, index=False)
        except OSError as error:
            raise click.ClickException(f"--csv {csv_path}: cannot be written "
                                       f"({error.strerror or error})") from error
    if figure_path is not None:
        _draw(ratings, figure_path)
    if as_json:
        click.echo(json.dumps(_as_json(ratings), indent=2))
    else:
        click.echo(format_ratings(ratings))
    return ratings


def format_ratings(ratings: Ratings) -> str:
    """The ladders as terminal text: one block per player count, then how to read them."""
    blocks = [_format_ladder(ladder) for ladder in ratings.ladders]
    blocks += [f"skipped: {why}" for why in ratings.skipped]
    blocks.append("rating: Plackett-Luce strength on the natural-log scale, centred at 0 per "
                  "player count; a gap d is a chance 1/(1+exp(-d)) of finishing ahead in a "
                  "two-player game (0.5: 62%, 1: 73%, 2: 88%). Interval: 95%, from the model's "
                  "covariance. Shared ranks: the tied players finish together. "
                  "See docs/ratings.md.")
    return "\n\n".join(blocks)


def _format_ladder(ladder: Ladder) -> str:
    from zsim.ratings import percent_ahead, win_probability

    table = ladder.table
    shown = table.assign(
        rating=table["rating"].map(lambda v: f"{v:+.2f}"),
        interval=[f"[{low:+.2f}, {high:+.2f}]" for low, high in zip(
            table["low"], table["high"], strict=True)],
        win_rate=table["win_rate"].map(lambda v: f"{v:.1%}"),
        mean_rank=table["mean_rank"].map(lambda v: f"{v:.2f}"))
    shown = shown[["strategy", "rating", "interval", "games", "seats", "win_rate",
                   "mean_rank"]].rename(columns={"interval": "95% interval",
                                                 "win_rate": "win rate",
                                                 "mean_rank": "mean rank"})
    best, worst = table.iloc[0], table.iloc[-1]
    gap = best["rating"] - worst["rating"]
    head = (f"{ladder.n_players} players: {ladder.games} games "
            f"({ladder.tied_games} with a shared rank), {len(table)} strategies; "
            f"{best['strategy']} over {worst['strategy']}: gap {gap:.2f}, "
            f"{percent_ahead(win_probability(gap))} to finish ahead")
    steps = "; ".join(f"{g.higher} - {g.lower} {g.gap:.2f} [{g.low:+.2f}, {g.high:+.2f}]"
                      for g in ladder.gaps.itertuples())
    lines = [head, shown.to_string(index=False), f"gaps down the ladder (95%): {steps}"]
    lines += [f"note: {note}" for note in ladder.notes]
    return "\n".join(lines)


def _as_json(ratings: Ratings) -> dict:
    return {"ladders": [{"n_players": ladder.n_players, "games": ladder.games,
                         "tied_games": ladder.tied_games, "notes": ladder.notes,
                         "ratings": ladder.table.drop(columns="n_players").to_dict("records"),
                         "gaps": ladder.gaps.drop(columns="n_players").to_dict("records")}
                        for ladder in ratings.ladders],
            "skipped": ratings.skipped}


def _draw(ratings: Ratings, path: Path) -> None:
    import matplotlib

    from zsim.reports.common import STYLE
    from zsim.reports.ratings import ladder_figure

    with matplotlib.rc_context(STYLE):
        figure = ladder_figure(ratings).figure
        try:
            figure.savefig(path, dpi=130)
        except (OSError, ValueError) as error:
            raise click.ClickException(f"--figure {path}: cannot be written ({error})") \
                from error
