"""End-of-game scoring, category by category, and the winners (ties share the win)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from zsim.rules import lisi, mausoleum, queries
from zsim.rules.pieces import card_type_counts
from zsim.state import PlayerState

if TYPE_CHECKING:
    from zsim.decisions import Table

IN_GAME_CATEGORIES: Final = (
    "vp_palaces", "vp_palace_tiles", "vp_cards", "vp_governor_tiles", "vp_mausoleum",
    "vp_rewards",
)
END_CATEGORIES: Final = (
    "vp_majorities", "vp_elixir", "vp_mausoleum_lines", "vp_walls", "vp_extra_soldiers",
)
CATEGORIES: Final = IN_GAME_CATEGORIES + END_CATEGORIES


def majority_vp(g: Table) -> list[int]:
    """Per region, the most Governors scores; tied leaders split the VP, rounded down. Against
    Li Si, his Governor line may instead win him every tie."""
    state = g.state
    prize = g.rules.governor_majority_vp[state.n]
    lisi_wins_ties = False
    if state.lisi is not None:
        _, governor_line, _ = lisi.scoring_lines(g)
        lisi_wins_ties = governor_line is not None and governor_line.governor == "wins_ties"
    vp = [0] * state.n
    for counts in state.governor_count:
        top = max(counts)
        if not top:
            continue
        leaders = [s for s, c in enumerate(counts) if c == top]
        if lisi_wins_ties and state.lisi.seat in leaders:
            leaders = [state.lisi.seat]
        for s in leaders:
            vp[s] += prize // len(leaders)
    return vp


def elixir_vp(g: Table, p: PlayerState) -> int:
    alchemist_cards = card_type_counts(g, p.tableau_cards())[3]
    return alchemist_cards * g.t.box.board.elixir.vp[p.ship]


def wall_vp(g: Table, p: PlayerState) -> list[tuple[int, int, int]]:
    """(section, tier, VP) for each of the player's Walls."""
    box = g.t.box
    counts = queries.wall_counts(g.t, g.state, p)
    scored = []
    for s, section in enumerate(g.state.walls):
        for slot, holder in enumerate(section.slots):
            if holder == p.seat:
                tile = box.wall_tiles[section.wall_tile]
                scoring = tile.a if section.wall_face == "a" else tile.b
                tier = section.tiers[slot]
                counted = counts[queries.wall_key(scoring)]
                scored.append((s, tier, scoring.values[tier - 1] * counted))
    return scored


def extra_soldier_vp(g: Table, p: PlayerState) -> int:
    table = g.rules.extra_soldier_vp
    return table[min(p.entrance, len(table) - 1)]


def lisi_wall_vp(g: Table, p: PlayerState) -> list[tuple[int, int, int]]:
    """Li Si's Walls score by tier from his top scoring card, whatever the Wall tile."""
    wall_card, _, _ = lisi.scoring_lines(g)
    return [(s, section.tiers[slot], wall_card.wall[section.tiers[slot] - 1])
            for s, section in enumerate(g.state.walls)
            for slot, holder in enumerate(section.slots) if holder == p.seat]


def lisi_elixir_vp(g: Table, p: PlayerState) -> int:
    _, _, elixir_line = lisi.scoring_lines(g)
    if elixir_line is None or elixir_line.elixir_bonus is None:
        return 0
    alchemist_cards = card_type_counts(g, p.tableau_cards())[3]
    return alchemist_cards * (g.t.box.board.elixir.vp[p.ship] + elixir_line.elixir_bonus)


def final_scores(g: Table) -> list[dict[str, int]]:
    """Every player's VP by category; in-game categories come from the running tallies. Each
    player's Walls are told (``walls`` events) as they are scored."""
    scores = []
    for p, (row, walls) in zip(g.state.players, _scored(g), strict=True):
        g.emit("walls", {"seat": p.seat, "walls": walls})
        scores.append(row)
    return scores


def standing(g: Table) -> list[int]:
    """Every player's VP total if the game ended now, telling no one: what the end-game
    categories would add to the running tallies at this point (a trajectory's standing)."""
    return [row["vp_total"] for row, _ in _scored(g)]


def _scored(g: Table) -> list[tuple[dict[str, int], list[tuple[int, int, int]]]]:
    """Per player, the VP by category and the scored Walls (section, tier, VP)."""
    majorities = majority_vp(g)
    line_vp = g.rules.mausoleum_line_vp
    lisi_seat = g.state.lisi.seat if g.state.lisi is not None else -1
    scored = []
    for p in g.state.players:
        is_lisi = p.seat == lisi_seat
        walls = lisi_wall_vp(g, p) if is_lisi else wall_vp(g, p)
        row = {c: p.vp.get(c, 0) for c in IN_GAME_CATEGORIES}
        if is_lisi:
            row["vp_palace_tiles"] += lisi.palace_tile_vp(g, p)
        row["vp_majorities"] = majorities[p.seat]
        row["vp_elixir"] = lisi_elixir_vp(g, p) if is_lisi else elixir_vp(g, p)
        row["vp_mausoleum_lines"] = line_vp * mausoleum.lines(g, p.seat)
        row["vp_walls"] = sum(vp for _, _, vp in walls)
        row["vp_extra_soldiers"] = extra_soldier_vp(g, p)
        row["vp_total"] = sum(row[c] for c in CATEGORIES)
        scored.append((row, walls))
    return scored


def ranks(totals: list[int]) -> list[int]:
    """Competition ranking: 1 for the best total, tied players share a rank."""
    return [1 + sum(1 for other in totals if other > t) for t in totals]
