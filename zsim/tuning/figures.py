"""Figures of a study and of a balance search, as PNGs with a small HTML page beside them."""

from __future__ import annotations

import html
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # after choosing the file-only backend
import pandas as pd

HISTORY, WEIGHTS, PAGE = "history.png", "weights.png", "index.html"


def history_figure(trials: pd.DataFrame, path: Path) -> None:
    """Each trial's win share in training (finished: dots; pruned: crosses, at the share they
    had when stopped), the best finished so far as a step line, hand-weighted bots labelled."""
    fig, ax = plt.subplots(figsize=(8, 4.5))
    done = trials[trials["state"] == "complete"]
    pruned = trials[trials["state"] == "pruned"]
    ax.scatter(done["trial"], done["win_share"], s=18, label="finished")
    ax.scatter(pruned["trial"], pruned["win_share"], marker="x", s=18, color="grey",
               label="pruned (share when stopped)")
    best = done.set_index("trial")["win_share"].cummax()
    if len(best):
        ax.step(best.index, best.to_numpy(), where="post", color="C3", label="best so far")
    for _, row in trials[trials["bot"] != ""].iterrows():
        ax.annotate(row["bot"], (row["trial"], row["win_share"]), fontsize=7,
                    xytext=(3, 3), textcoords="offset points")
    ax.set_xlabel("trial")
    ax.set_ylabel("training win share")
    ax.set_title("Optimisation history")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def weights_figure(moves: pd.DataFrame, path: Path) -> None:
    """The tuned value of each parameter against the reference bot's, largest move first."""
    fig, ax = plt.subplots(figsize=(8, 4.5))
    ax.barh(moves["parameter"], moves["change"], color=["C2" if v >= 0 else "C3"
                                                        for v in moves["change"]])
    ax.invert_yaxis()
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_xlabel("tuned - reference")
    ax.set_title("Parameters that moved most")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def weight_moves(tuned: dict[str, float], reference: dict[str, float]) -> pd.DataFrame:
    """Parameter, reference value, tuned value and change, by size of the change."""
    frame = pd.DataFrame({"parameter": list(tuned), "reference": [reference[k] for k in tuned],
                          "tuned": list(tuned.values())})
    frame["change"] = frame["tuned"] - frame["reference"]
    return frame.reindex(frame["change"].abs().sort_values(ascending=False).index)


def write_page(out: Path, title: str, lines: list[str], images: list[str],
               tables: dict[str, pd.DataFrame]) -> Path:
    """A self-contained page: a few lines of findings, the figures, the tables."""
    body = [f"<h1>{html.escape(title)}</h1>"]
    body += [f"<p>{html.escape(line)}</p>" for line in lines]
    body += [f'<p><img src="{html.escape(name)}" alt="{html.escape(name)}"></p>'
             for name in images]
    for heading, table in tables.items():
        body += [f"<h2>{html.escape(heading)}</h2>",
                 table.to_html(index=False, float_format=lambda v: f"{v:.3f}")]
    page = out / PAGE
    page.write_text("<!doctype html><html><head><meta charset='utf-8'>"
                    f"<title>{html.escape(title)}</title></head><body>"
                    + "\n".join(body) + "</body></html>\n")
    return page
