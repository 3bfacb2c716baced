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


def balance_figure(curve: pd.DataFrame, keys: list[str], target: tuple[str, float] | None,
                   path: Path) -> None:
    """One key: the objective with its interval above each strategy's win rate with its
    Wilson interval, against the value. Two keys: the objective over the grid, shaded."""
    per_value = curve.drop_duplicates(keys).sort_values(keys)
    label = f"|{target[0]} - {target[1]:.0%}|" if target else "spread of win rates"
    if len(keys) == 2:
        fig, ax = plt.subplots(figsize=(7, 5))
        dots = ax.scatter(per_value[keys[0]], per_value[keys[1]], c=per_value["objective"],
                          s=160, cmap="viridis_r")
        best = per_value[per_value["best"]]
        ax.scatter(best[keys[0]], best[keys[1]], s=320, facecolors="none", edgecolors="red",
                   label="recommended")
        fig.colorbar(dots, label=label)
        ax.set_xlabel(keys[0])
        ax.set_ylabel(keys[1])
        ax.legend(fontsize=8)
    else:
        key = keys[0]
        fig, (top, bottom) = plt.subplots(2, 1, figsize=(8, 7), sharex=True)
        top.plot(per_value[key], per_value["objective"], marker="o", color="C0",
                 label="as played")
        top.errorbar(per_value[key], per_value["corrected"],
                     yerr=[(per_value["corrected"] - per_value["low"]).clip(lower=0),
                           (per_value["high"] - per_value["corrected"]).clip(lower=0)],
                     marker="s", capsize=3, linestyle="--", color="C1",
                     label="corrected for noise, 95% interval")
        plausible = per_value[per_value["plausible"]]
        top.scatter(plausible[key], plausible["corrected"], s=90, facecolors="none",
                    edgecolors="C2", label="not significantly worse than the best")
        top.set_ylabel(label)
        top.legend(fontsize=8)
        for strategy, rows in curve.groupby("strategy"):
            rows = rows.sort_values(key)
            bottom.errorbar(rows[key], rows["win_rate"],
                            yerr=[(rows["win_rate"] - rows["win_low"]).clip(lower=0),
                                  (rows["win_high"] - rows["win_rate"]).clip(lower=0)],
                            marker="o", capsize=2, label=strategy)
        bottom.set_xlabel(key)
        bottom.set_ylabel("win rate")
        bottom.legend(fontsize=7, ncol=3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
