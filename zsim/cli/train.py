"""``zsim train``: self-play games, a value model fitted on their positions, and its validation."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import click

from zsim.variants import parse as parse_variants


@click.command("train")
@click.option("--out", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="Directory of the training: its games (games/), model.npz, validation.json "
                   "and calibration.png. Given again, an unfinished run of games is finished.")
@click.option("--games", type=click.IntRange(min=2), default=2000, show_default=True,
              help="Self-play games to play.")
@click.option("--players", "-n", type=click.IntRange(2, 4), default=2, show_default=True,
              help="Player count the model is for.")
@click.option("--strategy", "-s", "strategies", multiple=True,
              help="The self-play lineup, repeatable (default: the six heuristic bots, seated "
                   "at random). A stronger bot here is expert iteration.")
@click.option("--data", "data", multiple=True,
              type=click.Path(file_okay=False, exists=True, path_type=Path),
              help="Earlier run directories with positions (e.g. OUT/games of a previous "
                   "training) to fit on as well; repeatable.")
@click.option("--learner", type=click.Choice(["linear", "mlp"]), default="linear",
              show_default=True, help="The model fitted (linear: the better on held-out games "
                                      "so far, docs/learning.md).")
@click.option("--hidden", default="64", show_default=True,
              help="Hidden layer sizes of the mlp, comma-separated.")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
              help="Master seed of the games, and of the split and the fit.")
@click.option("--jobs", "-j", type=int, default=-1, show_default=True,
              help="Processes playing the games (-1 = all cores).")
@click.option("--variant", "variants", multiple=True, metavar="KEY=VALUE",
              help="Rule variant of the games, repeatable (the model records it).")
@click.option("--cards", is_flag=True,
              help="Let the model weigh single cards (which cards a tableau and the hand hold); "
                   "by default it ignores them, a noise a one-ply bot would choose by.")
@click.option("--install", is_flag=True,
              help="Also copy the model to the package's default for this player count "
                   "(configs/models/base-Np.npz): how the shipped models are rebuilt.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def command(out: Path, games: int, players: int, strategies: tuple[str, ...],
            data: tuple[Path, ...], learner: str, hidden: str, seed: int, jobs: int,
            variants: tuple[str, ...], cards: bool, install: bool, quiet: bool) -> None:
    """Play self-play games recording every seat's observations, fit a value model on them
    and validate it on held-out games against a baseline that knows only the scores."""
    from zsim.learn import train
    from zsim.learn.dataset import DatasetError
    from zsim.learn.model import default_path
    from zsim.options import OptionError
    from zsim.runner import ExperimentError
    from zsim.runner.batch import RunFailed, RunInterrupted
    from zsim.runner.writer import OutputError

    sizes = _hidden_sizes(hidden)
    try:
        spec = train.experiment(games, players, list(strategies or train.DEFAULT_LINEUP), seed,
                                jobs, parse_variants(variants).as_strings())
        run = train.play(out, spec, progress=not quiet and sys.stderr.isatty())
        trained = train.train([run, *data], out, players, learner, sizes, seed, cards=cards)
    except (ExperimentError, OptionError, OutputError, DatasetError, RunFailed) as error:
        raise click.ClickException(str(error)) from error
    except RunInterrupted as stop:
        click.echo(f"\n{stop}; finish it with: zsim train --out {out} (the same options)",
                   err=True)
        sys.exit(130)
    click.echo(train.report(trained))
    if install:
        target = default_path(players)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(trained.path, target)
        click.echo(f"installed as {target}")


def _hidden_sizes(hidden: str) -> tuple[int, ...]:
    """The mlp's layer sizes, refused before any game is played when one is not a whole
    number of at least 1 (the fit refused ``0,-3`` only once the games were played)."""
    try:
        sizes = tuple(int(size) for size in hidden.split(",") if size.strip())
    except ValueError:
        sizes = ()
    if not sizes or min(sizes) < 1:
        raise click.BadParameter(f"{hidden!r}: expected sizes like 64 or 128,32, each at "
                                 "least 1", param_hint="--hidden")
    return sizes
