"""``zsim report``: turn one or more run directories into an HTML report with figures and CSVs."""

from __future__ import annotations

import time
from pathlib import Path

import click


@click.command("report")
@click.argument("run_dirs", nargs=-1, required=True,
                type=click.Path(file_okay=False, path_type=Path))
@click.option("--out", type=click.Path(file_okay=False, path_type=Path),
              help="Output directory (default: RUN_DIR/report for a single run; required "
                   "for several).")
@click.option("--summary", "show_summary", is_flag=True,
              help="Also print the report's one-page summary in the terminal.")
def command(run_dirs: tuple[Path, ...], out: Path | None, show_summary: bool) -> None:
    """Write a report of RUN_DIR(s) (pooled) as index.html, figures/ and tables/.

    The page is self-contained (it works offline and can be mailed). Every figure is also
    written as PNG and SVG, every table as CSV. See docs/reports.md.
    """
    if out is None:
        if len(run_dirs) > 1:
            raise click.UsageError("--out is required when pooling several run directories")
        out = run_dirs[0] / "report"
    # Imported here: matplotlib, scipy and statsmodels would slow every other command's start.
    from zsim.reports.build import ReportOutputError, build_report
    from zsim.reports.loader import RunDirError

    started = time.perf_counter()
    try:
        built = build_report(list(run_dirs), out)
    except (RunDirError, ReportOutputError) as error:
        raise click.ClickException(str(error)) from error
    if show_summary:
        from zsim.reports.summary import text

        click.echo(text(built.summary))
    click.echo(f"{built.index}: {built.figures} figures, {built.tables} tables, "
               f"{built.significant} significant finding(s) "
               f"in {time.perf_counter() - started:.1f}s")
