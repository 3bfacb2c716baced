"""The report section on seats: does where you sit, your colour or when you first play decide
the game?

Strategy, seat, colour and starting position are effects of one logistic model per player
count (``zsim.reports.seat_model``), so each is adjusted for the others: with a mixed lineup a
strong bot that happens to sit first more often would otherwise look like a first-seat
advantage. Each panel shows adjusted win rates against the fair share; a term the design cannot
separate from the others (a seat that each lineup always fills in the same order, a colour fixed
to its seat) is refused with the reason instead of drawn.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.layout_engine import ConstrainedLayoutEngine

from zsim.recheck import SEAT
from zsim.reports.common import MIN_GAMES, new_figure, player_count_label, too_few
from zsim.reports.loader import RunData
from zsim.reports.model import SEATING, Comparison, Figure, Note, Section, Table
from zsim.reports.seat_model import TERMS, SeatModel, colours, fit_seat_model
from zsim.stats import cohens_h

INTRO = ("Win ~ strategy + seat + colour + starting position, one logistic model per player "
         "count fitted to the win share (a win shared by k players counts 1/k), with standard "
         "errors clustered by game. Each bar is an adjusted win rate: the model's mean predicted "
         "win rate had every player had that seat (colour, position, strategy), everything else "
         "as it was, with a 95% interval. The seat is the player's place at the table, 0 to "
         "n-1; the starting position is the place in the first round's turn order (1st = the "
         "first player). Later rounds' turn order depends on play, so only the start is a "
         "property of the setup.")
ORDINALS = {0: "1st", 1: "2nd", 2: "3rd", 3: "4th"}
#: Bar colours of the players' colours, as they read on the board.
PLAYER_COLOURS = {"Blue": "#2f6db5", "Yellow": "#e3b505", "Red": "#c8323c",
                  "Purple": "#7b4fa3"}
NEUTRAL = "#8c8c8c"


def _labels(model: SeatModel, term: str, levels: list, seat_colours: dict) -> list[str]:
    if term == "seat":
        if model.colour_is_seat:
            return [f"{seat_colours[s]}\nseat {s}" for s in levels]
        return [str(s) for s in levels]  # the panel's title says "seat"
    if term == "position":
        return [ORDINALS[int(p)] for p in levels]
    return [str(level) for level in levels]


def _bar_colours(model: SeatModel, term: str, levels: list, seat_colours: dict) -> list[str]:
    if term == "seat" and model.colour_is_seat:
        return [PLAYER_COLOURS.get(seat_colours[s], NEUTRAL) for s in levels]
    if term == "colour":
        return [PLAYER_COLOURS.get(str(c), NEUTRAL) for c in levels]
    if term == "strategy":
        return [f"C{i % 10}" for i in range(len(levels))]
    return [NEUTRAL] * len(levels)


def _panel(ax: Axes, rows: pd.DataFrame, labels: list[str], colours: list[str], fair: float,
           title: str) -> None:
    rate = rows["adjusted"].to_numpy(float)
    err = [rate - rows["low"].to_numpy(float), rows["high"].to_numpy(float) - rate]
    ax.bar(labels, rate, yerr=err, capsize=3, color=colours, ecolor="0.3")
    ax.axhline(fair, color="0.3", linestyle="--", linewidth=1)
    ax.yaxis.set_major_formatter(lambda v, _: f"{v:.0%}")
    ax.set_title(title)
    if max(map(len, labels)) > 6:  # strategy names: slanted, each ending under its bar
        for label in ax.get_xticklabels():
            label.set_rotation(60)
            label.set_horizontalalignment("right")
            label.set_rotation_mode("anchor")


def _comparison(model: SeatModel, term: str, rows: pd.DataFrame, labels: list[str],
                others: str) -> Comparison:
    fair = 1 / model.n_players
    far = int(np.argmax(np.abs(rows["adjusted"].to_numpy(float) - fair)))
    best = rows.iloc[far]
    relative = best["adjusted"] / fair - 1
    level = labels[far].replace("\n", " (") + (")" if "\n" in labels[far] else "")
    excess = (best["adjusted"] - fair) * 100, (best["low"] - fair) * 100, \
        (best["high"] - fair) * 100
    return Comparison(
        estimate=excess[0], low=excess[1], high=excess[2], unit="points",
        component=() if term == "strategy" else (f"{SEAT}{term}", str(rows.index[far])),
        label=f"{TERMS[term]}, {player_count_label(model.n_players)}",
        claim=(f"In {model.n_players}-player games, adjusted for {others}, {TERMS[term]} "
               f"{level} wins {best['adjusted']:.1%} (95% CI {best['low']:.1%} to "
               f"{best['high']:.1%}) against a fair {fair:.0%}: {abs(relative):.0%} "
               f"{'more' if relative > 0 else 'fewer'} wins than fair"),
        method="Wald test of the term in a logistic model of the win share, game-clustered",
        pvalue=model.tests[term], effect=cohens_h(float(best["adjusted"]), fair),
        effect_kind="h", games=model.games, relative=relative, basis="fair")


def _figure(model: SeatModel, seat_colours: dict) -> Figure | None:
    shown = [t for t in ("seat", "colour", "position", "strategy") if t in model.tests]
    if not shown:
        return None
    n = model.n_players
    fig, axes = new_figure(1, len(shown), height=3.4)
    engine = fig.get_layout_engine()
    assert isinstance(engine, ConstrainedLayoutEngine)  # new_figure's layout
    engine.set(wspace=0.05)
    comparisons = []
    for ax, term in zip(axes[0], shown, strict=True):
        rows = model.term(term)
        levels = list(rows.index)
        labels = _labels(model, term, levels, seat_colours)
        _panel(ax, rows, labels, _bar_colours(model, term, levels, seat_colours), 1 / n,
               TERMS[term])
        others = ", ".join(TERMS[t] for t in model.tests if t != term) or "nothing else"
        comparisons.append(_comparison(model, term, rows, labels, others))
    top = max(float(np.nanmax(model.term(t)["high"], initial=0)) for t in shown)
    for ax in axes[0]:
        ax.set_ylim(0, min(1.0, max(0.05, top * 1.12)))
    axes[0][0].set_ylabel("adjusted win rate")
    return Figure(
        f"seat-effects-{n}p", f"Seat, colour, starting position and strategy, {n} players",
        f"Adjusted win rates in {n}-player games from one logistic model, each term adjusted "
        "for the others shown, with 95% intervals (delta method, clustered by game); the "
        "dashed line is the fair share. Each term is tested with a Wald test."
        + (" Seats are labelled by their colour, which was fixed to the seat."
           if model.colour_is_seat and "seat" in model.tests else ""),
        model.games, fig, comparisons)


def _table(models: list[SeatModel]) -> Table:
    parts = []
    for model in models:
        effects = model.effects.assign(
            n_players=model.n_players, fair_share=1 / model.n_players,
            term_p=model.effects["term"].map(model.tests))
        effects["vs_fair"] = effects["adjusted"] / effects["fair_share"] - 1
        parts.append(effects)
    table = pd.concat(parts, ignore_index=True)[
        ["n_players", "term", "level", "player_games", "observed", "adjusted", "low", "high",
         "fair_share", "vs_fair", "term_p", "fitted"]]
    return Table("seat-effects", "Adjusted win rates by term (observed rates for reference)",
                 table, formats={"observed": "{:.1%}", "adjusted": "{:.1%}", "low": "{:.1%}",
                                 "high": "{:.1%}", "fair_share": "{:.0%}", "vs_fair": "{:+.0%}",
                                 "term_p": "{:.3g}"})


def _refusal_notes(model: SeatModel) -> list[Note]:
    notes = []
    for term, why in model.refused.items():
        if term == "strategy" or (term == "colour" and model.colour_is_seat
                                  and "seat" in model.tests):
            continue  # nothing to conclude about strategies here; colour shown as the seat
        if term == "colour" and model.colour_is_seat:
            why = ("every seat had the same colour in every game, so colour goes with the seat "
                   "and is refused with it")
        notes.append(Note(f"{player_count_label(model.n_players)}: no conclusion about "
                          f"{TERMS[term]}: {why}.", warning=True))
    return notes


def section(data: RunData) -> Section:
    """Adjusted seat, colour, starting position and strategy effects per player count."""
    section = Section("seats", "Seats and turn order", INTRO, group=SEATING)
    if len(data.finished) < MIN_GAMES:
        section.blocks.append(too_few("Seats", len(data.finished)))
        return section
    players = data.players
    if "colour" not in players.columns:
        section.blocks.append(Note("The runs do not record player colours: each seat is taken "
                                   "to have its own colour (seat 0 Blue, 1 Yellow, 2 Red, "
                                   "3 Purple)."))
    models = []
    for n in data.player_counts:
        rows = players[players["n_players"] == n]
        games = int(rows["game_key"].nunique())
        if games < MIN_GAMES:
            section.blocks.append(too_few(f"Seats, {player_count_label(n)}", games))
            continue
        model = fit_seat_model(rows)
        models.append(model)
        seat_colours = rows.assign(colour=colours(rows)).groupby("seat")["colour"].first()
        section.blocks += _refusal_notes(model)
        if (figure := _figure(model, seat_colours.to_dict())) is not None:
            section.blocks.append(figure)
    if models:
        section.blocks.append(_table(models))
    return section

