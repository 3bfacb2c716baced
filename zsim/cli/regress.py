"""``zsim regress``: the CI gate that says when score distributions moved more than intended.

Exit status: 0 when nothing moved beyond noise and tolerance, 1 when some shift is both
significant and beyond its tolerance (or more games failed than in the baseline), 2 when the
baseline or the run cannot be read or compared. Keeping errors apart from alarms lets a CI tell
"the rules changed" from "the gate is broken".
"""

from __future__ import annotations

import sys
import tempfile
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click
import numpy as np
import pandas as pd

from zsim.paths import said, shipped
from zsim.regress import (
    DISTRIBUTION,
    QUANTILE,
    WIN_RATE,
    Baseline,
    BaselineError,
    Recording,
    Verdict,
    compare,
    experiment_changes,
    games_needed,
    load_baseline,
    load_reference,
    load_summary,
    read_run,
    table_path,
    verdict,
    write_baseline,
)
from zsim.runner import Experiment, ExperimentError, load_experiment
from zsim.runner.backends import BackendError
from zsim.runner.batch import start_run
from zsim.runner.writer import OutputError

EXIT_ALARM = 1


class RegressError(click.ClickException):
    """A baseline or run that cannot be used; exit status 2, never mistaken for an alarm."""

    exit_code = 2


def _baseline_path(entry: str) -> Path:
    """A baseline as given: a file or run directory that exists, or a shipped baseline's name
    (``ci``: configs/baselines/ci.yaml)."""
    path = Path(entry)
    return path if path.exists() else shipped("baselines", entry) or path


def _existing(entry: str) -> Path:
    """``--against`` as given (a path, or a shipped baseline's name), which must exist."""
    path = _baseline_path(entry)
    if not path.exists():
        raise click.BadParameter(f"{entry}: no such file or directory, nor a shipped "
                                 "baseline (`zsim variants`)", param_hint="--against")
    return path


@click.command("regress")
@click.option("--baseline", "baseline_path", required=True, metavar="FILE|RUN_DIR|NAME",
              callback=lambda ctx, param, value: _baseline_path(value),
              help="Baseline file, run directory, or a shipped baseline's name (ci) to compare "
                   "with.")
@click.option("--against", metavar="RUN_DIR|FILE|NAME",
              callback=lambda ctx, param, value: None if value is None else _existing(value),
              help="Compare this run directory (or baseline file) instead of re-running the "
                   "baseline's experiment.")
@click.option("--update", is_flag=True,
              help="Write a new baseline to FILE and its per-game table beside it (from "
                   "--against, --experiment, or FILE's own experiment re-run), showing what "
                   "moved against the old one.")
@click.option("--experiment", "experiment_file",
              type=click.Path(dir_okay=False, exists=True, path_type=Path),
              help="With --update: the experiment to record (default: the old baseline's).")
@click.option("--tolerance", "tolerances", multiple=True, metavar="KEY=VALUE",
              help="Tolerance override, repeatable: vp=0.5 (any VP mean), win_rate=0.02, "
                   "quantile=1 (VP), distribution=0.05 (KS distance), or a column such as "
                   "vp_total=2. Stored by --update.")
@click.option("--alpha", type=click.FloatRange(0, 1, min_open=True, max_open=True),
              help="Family-wise significance level (Holm); stored by --update.")
@click.option("--quantiles", metavar="Q,Q,...",
              help="Quantile levels whose shifts are tested, e.g. 0.1,0.5,0.9; stored by "
                   "--update.")
@click.option("--unpaired", is_flag=True,
              help="Unpaired tests even when the runs share their seeds (as two independent "
                   "runs would be compared).")
@click.option("--figures", type=click.Path(file_okay=False, path_type=Path),
              help="Draw a figure per alarm (the two ECDFs) into this directory (default with "
                   "--out: OUT/alarms).")
@click.option("--seed", type=click.IntRange(min=0),
              help="Re-run with this master seed instead of the baseline's: other games of the "
                   "same rules, to check that noise does not alarm.")
@click.option("--jobs", "-j", type=int, help="Processes playing a re-run (-1 = all cores).")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path),
              help="Keep the re-run in this new directory (default: a temporary one).")
@click.option("--all", "show_all", is_flag=True,
              help="List every comparison, not only the significant ones.")
@click.option("--quiet", "-q", is_flag=True, help="No progress line while re-running.")
def command(baseline_path: Path, against: Path | None, update: bool,
            experiment_file: Path | None, tolerances: tuple[str, ...], alpha: float | None,
            quantiles: str | None, unpaired: bool, figures: Path | None, seed: int | None,
            jobs: int | None, out: Path | None, show_all: bool, quiet: bool) -> None:
    """Compare score distributions with a baseline; exit 1 when a shift is both significant
    (Holm-corrected) and larger than the baseline's tolerance.

    Without --against, the baseline's experiment is played again (same seeds): an unchanged
    engine reproduces it exactly and the report says "identical", and a changed one is
    compared game by game. See docs/regress.md.
    """
    settings = _parse_tolerances(tolerances)
    levels = _parse_quantiles(quantiles)
    if experiment_file and not update:
        raise click.UsageError("--experiment only chooses what --update records")
    if against is not None and (seed is not None or out is not None):
        raise click.UsageError("--seed and --out apply to a re-run, not to --against")
    rerun = _Rerun(seed, jobs, out, quiet)
    try:
        if update:
            _update(baseline_path, against, experiment_file, settings, alpha, levels, rerun,
                    show_all)
            return
        reference = load_reference(baseline_path, settings, alpha, levels)
        if against is not None:
            now = load_reference(against)
            label = str(against)
        else:
            now = rerun(reference.summary.to_experiment(f"{baseline_path}: key 'experiment'"),
                        str(baseline_path))
            label = f"re-run{f' in {out}' if out else ''} of the baseline's experiment"
        table = compare(reference, now, paired=False if unpaired else None)
    except (BaselineError, ExperimentError, OutputError, BackendError) as error:
        raise RegressError(str(error)) from error
    result = verdict(reference.summary, now.summary, table)
    click.echo(report_text(reference.summary, now.summary, table, result, said(baseline_path),
                           label, show_all))
    directory = figures or (out / "alarms" if out is not None else None)
    if directory is not None and not result.identical:
        from zsim.regress_figures import write_alarm_figures  # matplotlib only when drawing

        drawn = write_alarm_figures(reference, now, table, directory)
        if drawn:
            click.echo(f"figures of the {len(drawn)} alarms: {directory}")
    if not result.passed:
        sys.exit(EXIT_ALARM)


def _parse_tolerances(pairs: tuple[str, ...]) -> dict[str, float]:
    settings = {}
    for pair in pairs:
        key, _, value = pair.partition("=")
        try:
            settings[key.strip()] = float(value)
        except ValueError:
            raise click.BadParameter(f"{pair!r} is not KEY=NUMBER",
                                     param_hint="--tolerance") from None
    return settings


def _parse_quantiles(text: str | None) -> tuple[float, ...] | None:
    if text is None:
        return None
    try:
        return tuple(float(part) for part in text.split(",") if part.strip())
    except ValueError:
        raise click.BadParameter(f"{text!r} is not a comma-separated list of numbers",
                                 param_hint="--quantiles") from None


@dataclass(frozen=True)
class _Rerun:
    """How to play an experiment again: the options that apply to any re-run."""

    seed: int | None
    jobs: int | None
    out: Path | None
    quiet: bool

    def __call__(self, experiment: Experiment, source: str) -> Recording:
        """Play ``experiment`` and record it (in a temporary directory unless --out).

        Failed games do not stop the run: the verdict compares their count with the baseline's.
        """
        experiment = experiment.with_overrides(source, seed=self.seed, jobs=self.jobs,
                                               max_failures=experiment.games)
        if not self.quiet:
            click.echo(f"playing {experiment.games} games of {experiment.name} "
                       f"({', '.join(experiment.strategies)}; players "
                       f"{'/'.join(map(str, experiment.players))}; seed {experiment.seed})",
                       err=True)
        with ExitStack() as stack:
            directory = self.out or Path(stack.enter_context(
                tempfile.TemporaryDirectory(prefix="zsim-regress-"))) / "run"
            start_run(experiment, directory, source=source,
                      progress=not self.quiet and sys.stderr.isatty())
            return read_run(directory)


def _update(path: Path, against: Path | None, experiment_file: Path | None,
            settings: dict[str, float], alpha: float | None,
            levels: tuple[float, ...] | None, rerun: _Rerun, show_all: bool) -> None:
    """Record a new baseline in ``path`` and its per-game table beside it, keeping the old
    one's tolerances, alpha and quantile levels unless overridden, and show how it differs
    from the old one.

    Only the old YAML is needed: an old baseline whose table is missing or stale can still be
    re-recorded (it is then not compared)."""
    if path.is_dir():
        raise BaselineError(f"--update writes a baseline file; {path} is a directory")
    old_summary = load_summary(path) if path.exists() else None
    if against is not None:
        new = load_reference(against)
    elif experiment_file is not None:
        new = rerun(load_experiment(experiment_file), str(experiment_file))
    elif old_summary is not None:
        new = rerun(old_summary.to_experiment(f"{path}: key 'experiment'"), str(path))
    else:
        raise BaselineError(f"{path} does not exist yet: say what to record with "
                            f"--experiment FILE or --against RUN_DIR")
    kept = old_summary if old_summary is not None else new.summary
    new = new.with_settings({**kept.tolerance, **settings},
                            alpha if alpha is not None else kept.alpha,
                            levels if levels is not None else kept.quantiles)
    if old_summary is not None:
        _show_update(path, new, show_all)
    written = write_baseline(path, new)
    table = table_path(path)
    click.echo(f"\nwrote {path} and {table} ({table.stat().st_size / 1024:.0f} KB): "
               f"{written.games} games, fingerprint {written.fingerprint}")


def _show_update(path: Path, new: Recording, show_all: bool) -> None:
    """What moved against the old baseline, when it can be read whole."""
    try:
        old = load_baseline(path)
        table = compare(old, new)
    except BaselineError as error:
        click.echo(f"not compared with the old baseline: {error}")
        return
    click.echo(report_text(old.summary, new.summary, table,
                           verdict(old.summary, new.summary, table), f"old {path}",
                           "the new baseline", show_all, hint=False))


# --- the report ----------------------------------------------------------------------------


def report_text(baseline: Baseline, now: Baseline, table: pd.DataFrame, result: Verdict,
                baseline_label: str, now_label: str, show_all: bool, hint: bool = True) -> str:
    """The printed report: what was compared, which tests, what moved, the sample-size hint,
    the verdict."""
    lines = [f"baseline: {baseline_label}: {_describe(baseline)}",
             f"now:      {now_label}: {_describe(now)}"]
    changes = experiment_changes(baseline, now)
    if changes:
        lines.append("setup differs: " + "; ".join(changes))
    lines.append("")
    if result.identical:
        lines.append(f"identical: the {now.games} games reproduce the baseline's scores exactly "
                     f"(fingerprint {now.fingerprint})")
    else:
        lines += [*_tests_used(table), "", *_moved(table, baseline.alpha, show_all)]
    if hint:
        lines += ["", *_hint(baseline, None if result.identical else table)]
    lines += ["", _verdict_line(baseline, now, result)]
    return "\n".join(lines)


def _tests_used(table: pd.DataFrame) -> list[str]:
    """Which tests ran, and what pairing saved (the variance reduction of the mean tests)."""
    tests = int(table["p"].notna().sum())
    if not table.attrs.get("paired"):
        return [f"tests: unpaired, the runs played other seeds: Welch t for VP means, "
                f"two-proportion z for win rates, Kolmogorov-Smirnov for distributions, "
                f"Mood's test with bootstrap intervals for quantiles; Holm over {tests} tests"]
    games = int(table.attrs["games"])
    lines = [f"tests: paired on {games:,} common games (same seeds): paired t for VP means "
             f"and win rates, Kolmogorov-Smirnov for distributions, Mood's test (McNemar) "
             f"with paired bootstrap intervals for quantiles; Holm over {tests} tests"]
    means = table[table["kind"] == "mean"]
    finite = means.loc[np.isfinite(means["gain"]), "gain"]
    exact = means[np.isinf(means["gain"])]
    constant = int((exact["diff"] != 0).sum())
    same = [f"{constant} moved by the same amount in every game"] if constant else []
    if len(exact) > constant:
        same.append(f"{len(exact) - constant} did not move in any game")
    if len(finite):
        lines.append(f"variance reduction of the paired mean tests against two independent "
                     f"runs: {finite.min():.3g}x to {finite.max():.3g}x (median "
                     f"{finite.median():.3g}x) over {len(finite)} comparisons"
                     + "".join(f"; {part}" for part in same))
    elif same:
        lines.append("the means need no variance reduction: " + "; ".join(same))
    return lines


def _describe(summary: Baseline) -> str:
    experiment = summary.experiment
    variants = "".join(f", {k}={v}" for k, v in (experiment.get("variants") or {}).items())
    return (f"{experiment.get('name')}: {summary.games} games, players "
            f"{'/'.join(map(str, experiment['players']))}, "
            f"{', '.join(experiment['strategies'])}, seed {experiment['seed']}{variants}"
            f" (fingerprint {summary.fingerprint})")


def _moved(table: pd.DataFrame, alpha: float, show_all: bool) -> list[str]:
    shown = table if show_all else table[table["significant"]]
    noise = int((table["beyond"] & ~table["significant"]).sum())
    if shown.empty:
        lines = [f"nothing moved: no difference is significant (Holm, alpha {alpha:g})"]
    else:
        title = "every comparison" if show_all else "what moved (Holm-significant)"
        lines = [f"{title}, alpha {alpha:g}:", _format_table(shown).to_string(index=False)]
    if noise and not show_all:
        lines.append(f"beyond tolerance but not significant, so noise at this sample size: "
                     f"{noise} (--all lists them)")
    return lines


def _format_table(table: pd.DataFrame) -> pd.DataFrame:
    def value(metric: str, x: float, signed: bool = False) -> str:
        sign = "+" if signed else ""
        if pd.isna(x):
            return "-"
        return f"{x:{sign}.1%}" if metric == WIN_RATE else f"{x:{sign}.2f}"

    rows = []
    row: Any  # a named tuple of the table's columns
    for row in table.itertuples():
        spread = row.kind == DISTRIBUTION
        name = (f"{row.metric} ECDF" if spread else
                f"{row.metric} q{row.level * 100:g}" if row.kind == QUANTILE else row.metric)
        rows.append({
            "strategy": row.strategy, "players": row.players, "metric": name,
            "baseline": value(row.metric, row.baseline), "now": value(row.metric, row.now),
            "diff": f"D {row.diff:.3f}" if spread else value(row.metric, row.diff, signed=True),
            "95% CI": "-" if spread or pd.isna(row.low) else
                      f"[{value(row.metric, row.low, True)}, {value(row.metric, row.high, True)}]",
            "test": row.test, "p (Holm)": "-" if pd.isna(row.p_holm) else f"{row.p_holm:.3g}",
            "tolerance": f"D {row.tolerance:.3f}" if spread else value(row.metric,
                                                                        row.tolerance),
            "": "ALARM" if row.alarm else ("within tolerance" if row.significant else ""),
        })
    return pd.DataFrame(rows)


def _hint(baseline: Baseline, table: pd.DataFrame | None) -> list[str]:
    needed = games_needed(baseline, table)

    def amount(metric: object, x: float) -> str:
        return "-" if pd.isna(x) else f"{x:.1%}" if metric == WIN_RATE else f"{x:.2g} VP"

    def games(x: float) -> str:
        return "-" if pd.isna(x) else f"{int(x):,}"

    shown = pd.DataFrame({
        "tolerance": [amount(m, t) for m, t in needed["tolerance"].items()],
        "unpaired games": [games(g) for g in needed["games"]],
        "hardest group": [g if not pd.isna(n) else "-"
                          for g, n in zip(needed["group"], needed["games"], strict=True)],
        "detectable": [amount(m, d) for m, d in needed["detectable"].items()],
        "paired games": [games(g) for g in needed["paired"]],
        "detectable paired": [amount(m, d) for m, d in needed["paired_detectable"].items()],
    }, index=needed.index)
    shown.index.name = None
    paired = ("paired figures use the SD of this comparison's per-game differences"
              if needed["paired"].notna().any() else
              "paired figures need a paired comparison whose games differ (they depend on "
              "the change: none for a constant, as many as unpaired for reshuffled games)")
    return ["sample size (90% power at Holm's strictest level): games per run to detect a shift "
            "of one tolerance,",
            f"and the shift detectable with the baseline's {baseline.games:,} games; {paired}:",
            shown.to_string()]


def _verdict_line(baseline: Baseline, now: Baseline, result: Verdict) -> str:
    if result.passed:
        return "PASS: no shift is both significant and beyond its tolerance"
    reasons = []
    if result.alarms:
        reasons.append(f"{result.alarms} shift{'s' if result.alarms > 1 else ''} significant "
                       f"and beyond tolerance")
    if result.new_failures:
        reasons.append(f"{now.failed_games} games failed (baseline: {baseline.failed_games})")
    return "FAIL: " + "; ".join(reasons)
