"""A fingerprint of the games the default lineup plays: run it before and after a change that
must not change any game (a refactor, a speed-up, a new interface).

It plays the default experiment's first ``--games`` games on one job and hashes the players
table: game, seat, strategy, colour, rank and every ``vp_*`` and ``n_*`` column, sorted by game
and seat, written as CSV. The 300-game value was ``1200 rows 3bb30997e0878a75`` from the forward
model's making until a Worker moved by "move up to 2 of your Workers" could no longer move
twice (``1200 rows 84cd340ad592c575``), and then until each seat's strategy RNG was seeded by
a one-way hash of the game's seed (``1200 rows 7f8087dac618ce06``), and then until Emperor
tiles were laid by their backs and the Elixir tile read the Ship's position (``1200 rows
70b2bd5e86f87eed``), and then until the default lineup seated ``distilled`` and its archetypes
played on the scorer; it has been ``1200 rows 58c7ce2b7325c234`` since.

    python benchmarks/checksum.py            # 300 games
    python benchmarks/checksum.py --games 40 # quicker, for a first look
"""

from __future__ import annotations

import argparse
import hashlib
import subprocess
import sys
import tempfile
from pathlib import Path

import pandas as pd


def fingerprint(players: pd.DataFrame) -> str:
    columns = ["game", "seat", "strategy", "colour", "rank",
               *sorted(c for c in players.columns if c.startswith(("vp_", "n_")))]
    table = players[columns].sort_values(["game", "seat"])
    digest = hashlib.sha256(table.to_csv(index=False).encode()).hexdigest()[:16]
    return f"{len(table)} rows {digest}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "run"
        subprocess.run([sys.executable, "-m", "zsim", "run", "--games", str(args.games),
                        "--jobs", "1", "--out", str(out), "--quiet"], check=True,
                       stdout=subprocess.DEVNULL)
        print(fingerprint(pd.read_parquet(out / "players.parquet")))


if __name__ == "__main__":
    main()
