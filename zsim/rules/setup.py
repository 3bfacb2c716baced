"""Setting up a 2–4 player game: every random draw of the setup comes from the game's RNG,
including each seat's colour (and so its Alchemist set)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from zsim.components.schema import COLOURS, SUITS
from zsim.rules import constraints, effects
from zsim.rules.tables import REGION_INDEX
from zsim.state import NO_ONE, GameState, MausoleumSpot, WallSection

if TYPE_CHECKING:
    from zsim.decisions import Table
    from zsim.options import GameOptions


def build_state(g: Table, options: GameOptions, rng: random.Random) -> GameState:
    box, rules, t = g.t.box, g.rules, g.t
    n = g.n
    state = GameState(n)
    boards = [b.id for b in box.unification_boards]
    state.reward_board = (rng.randrange(len(boards)) if options.board == "random"
                          else boards.index(options.board))
    rotated = [(state.reward_board + i) % len(boards) for i in range(len(boards))]
    state.reward_board = constraints.settle(options, "board", rotated, 1, boards.__getitem__)[0]
    _setup_mausoleum(g, state, options, rng)
    _setup_walls(g, state, options, rng)
    palace_kinds = [i for i, tile in enumerate(box.palace_tiles) for _ in range(tile.copies)]
    rng.shuffle(palace_kinds)
    palace_kinds = constraints.settle(options, "palace_tiles", palace_kinds,
                                      5 * rules.palace_spaces[n],
                                      lambda i: box.palace_tiles[i].id, from_end=True)
    for r in range(5):
        for _ in range(rules.palace_spaces[n]):
            state.palace_tiles[r].append(palace_kinds.pop())
    bonus = [i for i, tile in enumerate(box.governor_tiles) if tile.ability is not None
             for _ in range(tile.copies)]
    blank = [i for i, tile in enumerate(box.governor_tiles) if tile.ability is None
             for _ in range(tile.copies)]
    rng.shuffle(bonus)
    bonus = constraints.settle(options, "governor_tiles", bonus, rules.governor_tiles_with_bonus[n],
                               lambda i: box.governor_tiles[i].id)
    governor_tiles = bonus[: rules.governor_tiles_with_bonus[n]] + blank[
        : rules.governor_blank_tiles[n]]
    rng.shuffle(governor_tiles)
    for r in range(5):
        for _ in range(rules.governor_bonus_slots[n]):
            state.governor_slots[r].append([governor_tiles.pop(), NO_ONE])
    masters = list(t.master_cards)
    rng.shuffle(masters)
    master_ids = dict(zip(t.master_cards, (m.id for m in box.master_alchemists), strict=True))
    masters = constraints.settle(options, "master_alchemists", masters, n, master_ids.__getitem__)
    state.master_available = sorted(masters[:n])
    for suit in range(3):
        deck = [c.number for c in box.cards if c.suit == SUITS[suit]]
        rng.shuffle(deck)
        state.decks[suit] = deck
        state.supply[suit] = rules.small_tokens[n]
    colours = rng.sample(range(len(COLOURS)), n)
    colours = constraints.settle(options, "colours",
                                 colours + [c for c in range(len(COLOURS)) if c not in colours],
                                 n, COLOURS.__getitem__)
    for p in state.players:
        p.colour = colours[p.seat]
        p.official_supply = [rules.officials_per_type] * 3
        p.governors, p.palaces, p.walls = rules.governors, rules.palaces, rules.walls
        p.soldiers = rules.soldiers - rules.soldiers_unlocked_at_start
        p.entrance = rules.soldiers_unlocked_at_start
        p.alchemist_supply = list(t.alchemist_sets[p.colour])
    first = rng.randrange(n)
    state.turn_order = [(first + i) % n for i in range(n)]
    return state


def _setup_mausoleum(g: Table, state: GameState, options: GameOptions,
                     rng: random.Random) -> None:
    """Tiles go on spots of their kind at random; the advanced mode also shuffles the bindings."""
    layout = g.t.box.board.mausoleum
    bindings = [b for row in layout.grid for b in row]
    if options.mausoleum == "advanced":
        rng.shuffle(bindings)
    tiles_by_kind: dict[str, list[int]] = {}
    for i, spec in enumerate(g.t.box.mausoleum_tiles):
        tiles_by_kind.setdefault(spec.kind, []).append(i)
    for pool in tiles_by_kind.values():
        rng.shuffle(pool)
    for binding in bindings:
        if binding == "elixir":
            kind, where = "elixir", 0
        elif binding.startswith("site"):
            kind, where = "wall", int(binding.removeprefix("site")) - 1
        else:
            kind, where = "region", REGION_INDEX[binding]
        tile = tiles_by_kind[kind].pop()
        condition = g.t.box.mausoleum_tiles[tile].condition
        state.mausoleum.append(
            MausoleumSpot(binding, where, tile, condition, len(layout.slot_values)))
    constraints.settle_mausoleum(options, state.mausoleum)


def _setup_walls(g: Table, state: GameState, options: GameOptions, rng: random.Random) -> None:
    box, n = g.t.box, g.n
    layout = box.board.wall
    sections = layout.sites * layout.sections_per_site
    wall_tiles = list(range(len(box.wall_tiles)))
    rng.shuffle(wall_tiles)
    wall_tiles = constraints.settle(options, "wall_tiles", wall_tiles, sections,
                                    lambda i: box.wall_tiles[i].id)
    # Emperor tiles by their backs (setup 4B, ruling 13a): the tiles left after the random
    # discard each go to the section their back names; a discarded tile's section stays empty.
    emperor = list(range(len(box.emperor_tiles)))
    rng.shuffle(emperor)
    emperor = constraints.settle(options, "emperor_tiles", emperor, g.rules.emperor_tiles[n],
                                 lambda i: box.emperor_tiles[i].id)
    on_section = [NO_ONE] * sections
    for tile in emperor[: g.rules.emperor_tiles[n]]:
        on_section[box.emperor_tiles[tile].section - 1] = tile
    tiers = tuple(layout.tiers[n])
    for s in range(sections):
        face = rng.choice("ab")
        state.walls.append(
            WallSection(s // layout.sections_per_site, tiers, wall_tiles[s], face,
                        on_section[s]))


def deal_starting_tiles(g: Table, rng: random.Random,
                        preset: dict[int, list[int]] | None = None) -> None:
    """Each player is dealt two Starting tiles, keeps one and resolves it, in turn order.
    ``preset``: the tiles each seat is dealt, drawn already (a determinised fork's deal,
    ``zsim.rules.hidden.starting_deal``)."""
    box, state = g.t.box, g.state
    if preset is not None:
        _keep_starting_tiles(g, preset)
        return
    pool = [i for i, tile in enumerate(box.starting_tiles) for _ in range(tile.copies)]
    rng.shuffle(pool)
    lisi_seat = state.lisi.seat if state.lisi is not None else NO_ONE
    dealt_to = sum(seat != lisi_seat for seat in state.turn_order)
    pool = constraints.settle(g.options, "starting_tiles", pool,
                              dealt_to * g.rules.starting_tiles_dealt,
                              lambda i: box.starting_tiles[i].id, from_end=True)
    dealt = {seat: [pool.pop() for _ in range(g.rules.starting_tiles_dealt)]
             for seat in state.turn_order if seat != lisi_seat}
    _keep_starting_tiles(g, dealt)


def _keep_starting_tiles(g: Table, dealt: dict[int, list[int]]) -> None:
    """Each seat keeps one of the tiles it was dealt, in turn order, then resolves it."""
    box, state = g.t.box, g.state
    chosen = {seat: g.ask(seat, "start_tile", sorted(set(tiles)))
              for seat, tiles in dealt.items()}
    for seat in chosen:
        p = state.players[seat]
        tile = box.starting_tiles[chosen[seat]]
        g.emit("start", {"seat": seat, "tile": tile.id})
        g.emit("tile", {"seat": seat, "kind": "starting", "index": chosen[seat]})
        ability = box.abilities[tile.ability]
        if g.narrating:
            g.say(f"{g.name(p)} starts with: {ability.text}")
        ctx = effects.Context(0, 0, NO_ONE, "vp_cards")
        picks = effects.feasible_options(g, p, ability, ctx, full=False)
        if picks:
            pick = g.ask(seat, "ability_option", picks, {"starting_tile": tile.id})
            effects.resolve_steps(g, p, ability.options[pick], ctx)
