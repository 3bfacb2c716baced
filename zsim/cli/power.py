"""``zsim power RUN_DIR [PAIRED_RUN_DIR]``: how many games detect a given shift."""

from __future__ import annotations

from pathlib import Path

import click

from zsim.power import ALPHA, POWER, VP_SHIFTS, WIN_SHIFTS


@click.command("power")
@click.argument("run_dir", type=click.Path(file_okay=False, path_type=Path))
@click.argument("paired_run_dir", required=False, type=click.Path(file_okay=False,
                                                                   path_type=Path))
@click.option("--win", "win_shifts", multiple=True, type=click.FloatRange(min=0, min_open=True),
              help=f"Win-rate shift to detect, in points (repeatable; default "
                   f"{', '.join(map(str, WIN_SHIFTS))}).")
@click.option("--vp", "vp_shifts", multiple=True, type=click.FloatRange(min=0, min_open=True),
              help=f"VP shift to detect (repeatable; default {', '.join(map(str, VP_SHIFTS))}).")
@click.option("--power", "power", type=click.FloatRange(0, 1, min_open=True, max_open=True),
              default=POWER, show_default=True, help="Chance of detecting the shift.")
@click.option("--alpha", type=click.FloatRange(0, 1, min_open=True, max_open=True),
              default=ALPHA, show_default=True, help="Significance level (two-sided).")
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Also write the table as CSV here.")
def command(run_dir: Path, paired_run_dir: Path | None, win_shifts: tuple[float, ...],
            vp_shifts: tuple[float, ...], power: float, alpha: float,
            csv_path: Path | None) -> None:
    """Games needed to detect a win-rate or VP shift at RUN_DIR's variance.

    Unpaired: two independent batches of that many games each. Paired: two batches on the
    same seeds (as compare and effects play them), measured when PAIRED_RUN_DIR holds the
    other batch of such a pair (e.g. a comparison's base and variant).
    """
    from zsim.power import games_needed
    from zsim.reports.loader import RunDirError, load_runs

    try:
        players = load_runs([run_dir]).players
        other = load_runs([paired_run_dir]).players if paired_run_dir else None
    except RunDirError as error:
        raise click.ClickException(str(error)) from error
    if players.empty:  # every game failed: there is no spread to measure
        raise click.ClickException(f"{run_dir}: no game finished, so there is no variance to "
                                   f"measure (see its failures.jsonl)")
    table = games_needed(players, other, win_shifts or WIN_SHIFTS, vp_shifts or VP_SHIFTS,
                         alpha, power)
    if csv_path is not None:
        table.to_csv(csv_path, index=False)
    shown = table.assign(metric=table["metric"].map({"win_share": "win rate",
                                                     "vp_total": "VP"}),
                         unpaired_games_per_batch=table["unpaired_games_per_batch"].astype("Int64"),
                         paired_games=table["paired_games"].astype("Int64"))
    columns = ["n_players", "strategy", "metric", "shift", "unit", "sd",
               "unpaired_games_per_batch"]
    if other is not None:
        columns += ["correlation", "paired_games"]
    click.echo(shown[columns].to_string(index=False, float_format=lambda v: f"{v:.3g}",
                                        na_rep="-"))
    click.echo(f"(two-sided test on per-game means, normal approximation, alpha {alpha}, "
               f"power {power}; games are "
               "whole games of the run)" + ("" if other is not None else
                                            "; give a second run on the same seeds "
                                            "for the paired figures"))
