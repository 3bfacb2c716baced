"""The report section on what was run, how many games finished, and what failed."""

from __future__ import annotations

import pandas as pd

from zsim.reports.common import MIN_GAMES
from zsim.reports.loader import RunData
from zsim.reports.model import Note, Section, Table


def _runs_table(data: RunData) -> pd.DataFrame:
    rows = []
    for run in data.runs:
        experiment = run.experiment
        games = data.games[data.games["run_id"] == run.run_id]
        variants = experiment.get("variants") or {}
        rows.append({
            "run": str(run.path),
            "run_id": run.run_id,
            "experiment": experiment.get("name", ""),
            "games": len(games),
            "finished": int((~games["failed"]).sum()),
            "failed": int(games["failed"].sum()),
            "player_counts": "/".join(map(str, sorted(games["n_players"].unique()))),
            "lineup": ", ".join(experiment.get("strategies") or []),
            "seats": experiment.get("seats", ""),
            "seed": run.manifest.get("master_seed", experiment.get("seed")),
            "variants": ", ".join(f"{k}={v}" for k, v in variants.items()) or "default",
            "box_digest": run.manifest.get("box_digest", ""),
            "zsim": (run.manifest.get("versions") or {}).get("zsim", ""),
            "commit": ((run.manifest.get("git") or {}).get("commit") or "")[:10],
            "created": run.manifest.get("created", ""),
        })
    return pd.DataFrame(rows)


def _counts_table(data: RunData) -> pd.DataFrame:
    games = data.games
    grouped = games.groupby("n_players")
    table = pd.DataFrame({
        "games": grouped.size(),
        "finished": grouped["failed"].apply(lambda f: int((~f).sum())),
        "failed": grouped["failed"].sum().astype(int),
    })
    if "n_winners" in games.columns:
        table["shared_wins"] = grouped["n_winners"].apply(lambda w: int((w > 1).sum()))
    table.index.name = "players"
    return table.reset_index()


def _failures_table(data: RunData) -> pd.DataFrame:
    failed = data.games[data.games["failed"]]
    columns = [c for c in ("error", "failed_strategy", "failed_decision") if c in failed]
    if failed.empty or not columns:
        return pd.DataFrame()
    keyed = failed[columns].fillna("(engine)").astype(str).assign(game=failed["game"])
    table = keyed.groupby(columns).agg(games=("game", "size"), example_game=("game", "first"))
    return table.reset_index().sort_values("games", ascending=False)


def section(data: RunData) -> Section:
    """Runs, games per player count, lineups and failures; warns about mixed inputs."""
    finished = len(data.finished)
    section = Section("overview", "Overview",
                      f"{len(data.games)} games from {len(data.runs)} run(s); {finished} "
                      f"finished. Every later section uses the finished games only.")
    blocks = section.blocks
    blocks.append(Table("runs", "Runs", _runs_table(data), transposed=True))
    for run in data.runs:
        if run.experiment.get("description"):
            blocks.append(Note(f"{run.experiment.get('name', run.run_id)} ({run.path}): "
                               f"{run.experiment['description']}"))
    blocks.append(Table("player-counts", "Games by player count", _counts_table(data)))
    lineups = data.players.groupby("lineup")["game_key"].nunique().rename("games")
    blocks.append(Table("lineups", "Lineups (strategies seated together)",
                        lineups.reset_index().sort_values("games", ascending=False)))
    digests = {run.manifest.get("box_digest") for run in data.runs}
    if len(digests) > 1:
        blocks.append(Note("These runs used different component files (box digests "
                           f"{', '.join(sorted(map(str, digests)))}): pooled results mix "
                           "different games.", warning=True))
    failures = _failures_table(data)
    if failures.empty:
        blocks.append(Note("No game failed."))
    else:
        blocks.append(Note(f"{int(data.games['failed'].sum())} game(s) failed; they are left "
                           "out of every analysis. Replay one with `zsim replay RUN_DIR --game "
                           "N`; the tracebacks are in each run's failures.jsonl.", warning=True))
        blocks.append(Table("failures", "Failures by error", failures))
    if finished < MIN_GAMES:
        blocks.append(Note(f"Only {finished} finished games: too few games for the "
                           f"statistics below (at least {MIN_GAMES} are needed).",
                           warning=True))
    return section
