"""``zsim replay``: play one game of a finished (or interrupted) run again, narrated."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import click

from zsim.cli import play
from zsim.runner import ExperimentError, parse_experiment
from zsim.runner.boxfiles import run_box_digest
from zsim.runner.provenance import play_digest
from zsim.runner.writer import RUN_JSON, DamagedRun, check_tables, read_manifest, read_table
from zsim.strategies.registry import UnknownStrategy, resolve

if TYPE_CHECKING:
    from zsim.strategies.base import Strategy


@click.command("replay")
@click.argument("run_dir", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.option("--game", "game", type=click.IntRange(min=0), required=True,
              help="Game index (the 'game' column of the run's tables).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.option("--html", "html", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also write the game as a page to step through in a browser (offline).")
@click.pass_context
def command(ctx: click.Context, run_dir: Path, game: int, as_json: bool,
            html: Path | None) -> None:
    """Replay game GAME of the run in RUN_DIR from its seed, with the `zsim play` narration.

    The game is planned again from the run's experiment (seed, player count, seating), so
    failed games replay too, up to their failure.
    """
    path = run_dir / RUN_JSON
    if not path.is_file():
        raise click.ClickException(f"{run_dir}: no {RUN_JSON}, so not a zsim run directory")
    try:
        manifest = read_manifest(path)
        experiment = parse_experiment(manifest["experiment"], str(path))
    except (DamagedRun, ExperimentError) as error:
        raise click.ClickException(str(error)) from error
    if game >= experiment.games:
        raise click.ClickException(f"run has games 0..{experiment.games - 1}, not {game}")
    plan = experiment.schedule().plan(game)
    _check_recorded_seed(run_dir, manifest, game, plan.seed)
    if run_box_digest(experiment.box_dir(), experiment.variant_set().box) \
            != manifest["box_digest"]:
        click.echo(f"warning: the component files in {experiment.box_dir()} changed since "
                   f"the run; this replay follows the current rules", err=True)
    if manifest.get("play_digest") not in (None, _lineup_digest(experiment.strategies)):
        click.echo("warning: zsim's code or the lineup's bots changed since the run; this "
                   "replay plays with the current ones", err=True)
    variants = tuple(f"{k}={v}" for k, v in experiment.variants.items())
    if not as_json:
        seats = " ".join(f"-s {name}" for name in plan.strategies)
        variant_args = "".join(f" --variant {v}" for v in variants)
        click.echo(f"# game {game} of run {manifest['run_id']}; the same game: zsim play "
                   f"-n {plan.n_players} --seed {plan.seed} {seats}{variant_args}")
    ctx.invoke(play.command, players=plan.n_players, seed=plan.seed,
               strategy_names=plan.strategies, variants=variants,
               box_dir=str(experiment.box_dir()), as_json=as_json, html=html)


def _lineup_digest(names: list[str]) -> str | None:
    """The run's play digest as it would be now, or None when a bot is unknown (the replay
    itself then says which)."""
    try:
        # play_digest reads any seat's code, Li Si's too; its signature names Strategy alone
        return play_digest(cast("dict[str, Strategy]", {name: resolve(name) for name in names}))
    except UnknownStrategy:
        return None


def _check_recorded_seed(run_dir: Path, manifest: dict[str, Any], game: int, seed: int) -> None:
    """Guard against replaying the wrong game: the seed must match the games table's, which
    must be the run's own (``check_tables``) once the run is complete."""
    if not (run_dir / "games.parquet").exists():
        return  # an unfinished run: its tables are written at its end
    try:
        games = read_table(run_dir, "games", ["run_id", "game", "seed", "n_players", "failed"])
        if manifest["status"] == "complete":
            check_tables(run_dir, manifest, games)
    except DamagedRun as error:
        raise click.ClickException(str(error)) from None
    recorded = games.loc[games["game"] == game, "seed"].tolist()
    if recorded and recorded[0] != seed:
        raise click.ClickException(f"games.parquet records seed {recorded[0]} for game {game},"
                                   f" but the run's experiment gives {seed}")
