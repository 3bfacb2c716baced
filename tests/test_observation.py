"""A seat's observation vector: its layout, and that it shows the seat nothing it cannot see."""

from __future__ import annotations

import random

import numpy as np
import pytest

from zsim.encode.observation import KIND_NAMES, layout, observe, observe_dict
from zsim.game import Game
from zsim.rules.lisi import LiSiSeat
from zsim.rules.scoring import IN_GAME_CATEGORIES


def walk(box, seats, seed, every=1):
    """Yield (game, decision) at every ``every``-th question of a game whose open seats are
    answered at random."""
    game = Game(box, seats, seed=seed)
    rng = random.Random(seed)
    decision = game.pending()
    k = 0
    while decision is not None:
        if k % every == 0:
            yield game, decision
        k += 1
        decision = game.answer(decision.options[rng.randrange(len(decision.options))])


@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_parts_tile_the_vector_and_the_version_names_the_layout(box, n):
    lay = layout(Game(box, [None] * n, seed=1).t, n)
    stops = [part.stop for part in lay.parts.values()]
    starts = [part.start for part in lay.parts.values()]
    assert starts == [0, *stops[:-1]] and stops[-1] == lay.size
    assert lay.inverse.shape == (lay.size,) and np.all(lay.inverse > 0)
    assert {p for p in lay.parts if p.startswith("p0_")} == {
        f"p0_{name}" for name in lay.players[0]}
    others = {layout(Game(box, [None] * m, seed=1).t, m).version for m in (2, 3, 4) if m != n}
    assert lay.version not in others


@pytest.mark.parametrize(("n", "seed"), [(2, 3), (3, 4), (4, 5)])
def test_redealing_what_the_seat_cannot_see_leaves_its_observation_unchanged(box, n, seed):
    """Two determinised forks of a position (every hidden card redealt at random) and the real
    game show the asked seat one and the same vector, at every question of a whole game; and
    the vector does change as the game goes on (the check can fail)."""
    seen = set()
    for game, decision in walk(box, [None] * n, seed, every=3):
        seat = decision.seat
        real = observe(game.views[seat], decision.kind)
        assert real.dtype == np.float32 and real.shape == (layout(game.t, n).size,)
        assert np.all(np.isfinite(real)) and real.min() >= 0.0
        for k in (1, 2):
            fork = game.fork(seat, random.Random(seed * 100 + k))
            assert np.array_equal(observe(fork.views[seat], decision.kind), real)
        seen.add(real.tobytes())
    assert len(seen) > 20


def test_a_solo_game_is_observed_from_the_player_and_from_li_si_seat(box):
    for game, decision in walk(box, [None, LiSiSeat(3)], seed=9, every=5):
        real = observe(game.views[decision.seat], decision.kind)
        fork = game.fork(decision.seat, random.Random(1))
        assert np.array_equal(observe(fork.views[decision.seat], decision.kind), real)
    parts = observe_dict(game.views[0])
    assert parts["lisi_level"].tolist() == [0.0, 0.0, 1.0, 0.0]


def test_each_seat_sees_itself_in_slot_zero_and_its_own_hand_alone(box):
    game, decision = next((g, d) for g, d in walk(box, [None] * 3, seed=7)
                          if g.state.round == 2 and d.kind == "turn")
    state = game.state
    for seat in range(3):
        view = game.views[seat]
        parts = observe_dict(view, decision.kind)
        me = state.players[seat]
        vp = [me.vp.get(c, 0) for c in IN_GAME_CATEGORIES]
        assert parts["p0_vp"].tolist() == pytest.approx([v / 100 for v in vp] + [sum(vp) / 100])
        assert parts["p0_workers"].tolist() == pytest.approx([w / 10 for w in me.workers])
        held = np.flatnonzero(parts["hand"]).tolist()
        assert held == sorted(set(state.hands[seat]))
        nxt = state.players[(seat + 1) % 3]
        assert parts["p1_colour"].tolist() == [float(c == nxt.colour) for c in range(4)]
        backs = [sum(1 for c in state.hands[(seat + 1) % 3] if game.t.card_type[c] == s)
                 for s in range(3)]
        assert parts["p1_hand_backs"].tolist() == pytest.approx([b / 10 for b in backs])
        assert parts["question"][KIND_NAMES.index("turn")] == 1.0
    # no seat's vector names a card of another hand
    for seat in range(3):
        hand = observe_dict(game.views[seat])["hand"]
        for other in range(3):
            if other != seat:
                assert not any(hand[c] for c in state.hands[other] if c not in
                               state.hands[seat])


def test_the_layout_version_is_the_same_in_the_pure_python_build(box):
    """A model file names the layout it was trained on: the compiled and the pure-Python
    engine must name it alike, or a model made with one is refused by the other."""
    import os
    import subprocess
    import sys

    script = ("from zsim.components import load_box; "
              "from zsim.components.loader import default_box_dir; "
              "from zsim.encode.observation import layout; "
              "from zsim.rules.tables import compile_tables; "
              "print(layout(compile_tables(load_box(default_box_dir())), 2).version)")
    pure = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env={**os.environ, "ZSIM_PURE_PYTHON": "1"}, check=True)
    assert pure.stdout.strip() == layout(Game(box, [None, None], seed=1).t, 2).version
