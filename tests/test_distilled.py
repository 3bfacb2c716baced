"""The ``distilled`` bot and its turn scorer: the features of a turn's options, the scorer file's
checks, the fit, and the bot's games (deterministic, picklable, blind to hidden cards). Tiny
data: this checks behaviour, not strength (docs/strategies.md measures that)."""

from __future__ import annotations

import pickle
import random
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from tests.test_search_bots import at_turn
from zsim.cli import main as main_cli
from zsim.game import play_game
from zsim.learn.distill import load_turns, main, policy_digest, record, save_turns
from zsim.learn.model import ModelMismatch, rules_digest
from zsim.learn.policy import (
    CATEGORIES,
    MOVES,
    Phase,
    ScorerError,
    ScorerFile,
    feature_names,
    fit_coefficients,
    fit_scorer,
    load_scorer,
    refine_phases,
    save_scorer,
)
from zsim.strategies.distilled import STRONGEST_SCORER, DistilledStrategy, scorer_path
from zsim.strategies.heuristic import HeuristicStrategy
from zsim.strategies.registry import UnknownStrategy, resolve

GREEDY = {k: v for k, v in HeuristicStrategy().params.items() if k in CATEGORIES}


def scorer_file(box, tmp_path: Path, phases: list[Phase] | None = None, n_players: int = 2,
                digest: str | None = None) -> str:
    """A scorer file of these phases (by default one phase of greedy's weights, no bonus)."""
    phases = phases or [Phase(from_turns_left=0, weights=GREEDY)]
    path = tmp_path / f"scorer-{len(list(tmp_path.iterdir()))}.yaml"
    save_scorer(ScorerFile(n_players=n_players, rules_digest=digest or rules_digest(box),
                           phases=phases), path)
    return str(path)


def other_phases() -> list[Phase]:
    """Two phases far from greedy: Walls and tucks early, VP late."""
    return [Phase(from_turns_left=12, weights={**GREEDY, "walls": 3.0}, bonus={"unify": 2.0},
                  fires=1.0),
            Phase(from_turns_left=0, weights={**GREEDY, "vp": 2.5, "palaces": 0.3},
                  bonus={"elixir": -3.0})]


def test_a_scorer_of_greedys_weights_without_bonus_plays_greedys_games(box, tmp_path):
    # the phase's heuristic is greedy and nothing is added: the bot's games are greedy's,
    # decision for decision (its valuations leave the view's RNG and memory as they were)
    path = scorer_file(box, tmp_path)
    for seed in (3, 4):
        ours = play_game(box, [resolve(f"distilled(scorer='{path}')"), resolve("greedy")], seed)
        theirs = play_game(box, [resolve("greedy"), resolve("greedy")], seed)
        assert ours.decisions == theirs.decisions and ours.scores == theirs.scores


def test_other_phases_play_other_turns_and_replay_their_games_after_pickling(box, tmp_path):
    spec = f"distilled(scorer='{scorer_file(box, tmp_path, other_phases())}')"
    first = play_game(box, [resolve(spec), resolve("greedy")], 6)
    again = play_game(box, [pickle.loads(pickle.dumps(resolve(spec))), resolve("greedy")], 6)
    greedy = play_game(box, [resolve("greedy"), resolve("greedy")], 6)
    assert first.decisions == again.decisions and first.scores == again.scores
    assert first.decisions != greedy.decisions


@pytest.mark.parametrize("turn", [9, 30])
def test_it_does_not_see_the_cards_it_cannot_see(box, tmp_path, turn):
    spec = f"distilled(scorer='{scorer_file(box, tmp_path, other_phases())}')"
    game = at_turn(box, 2, 6, turn)
    seat = game.pending().seat
    tables = [game, game.fork(seat, random.Random(1)), game.fork(seat, random.Random(2))]
    hidden = [[h for s, h in enumerate(t.state.hands) if s != seat] for t in tables]
    assert hidden[0] != hidden[1] != hidden[2]  # the cards it cannot see differ
    choices = []
    for table in tables:
        view = table.views[seat]
        view.rng.seed(11)
        choices.append(resolve(spec).choose(view, table.pending()))
    assert choices[0] == choices[1] == choices[2]


def test_its_option_values_are_the_scores_it_chooses_by_and_change_nothing(box, tmp_path):
    # what a search ordering its options by this bot sees (``mcts(judge='distilled')``): on a
    # scorer choosing among every option, the option it plays scores best; the scores are not
    # greedy's values (the phase's weights, the bonuses); asking leaves the view as it was
    path = tmp_path / "every-option.yaml"
    save_scorer(ScorerFile(n_players=2, rules_digest=rules_digest(box), width=0,
                           phases=other_phases()), path)
    bonused = 0
    for turn in (5, 9, 30):
        game = at_turn(box, 2, 6, turn)
        decision = game.pending()
        view = game.views[decision.seat]
        bot = resolve(f"distilled(scorer='{path}')")
        rng, memo = view.rng.getstate(), dict(view.memo)
        scores = bot.option_values(view, decision)
        assert view.rng.getstate() == rng and view.memo == memo
        values = HeuristicStrategy(**bot.params).option_values(view, decision)
        assert all(isinstance(v, float) for v in scores) and len(scores) == len(values)
        bonused += scores != values
        choice = bot.choose(view, decision)
        assert scores[decision.options.index(choice)] == max(scores)
    assert bonused


@pytest.mark.parametrize("text, message", [
    (b"\xff\xfe not text", "cannot read it as YAML"),
    (b"phases: [", "cannot read it as YAML"),
    (b"n_players: 2\nrules_digest: x\n", "phases: Field required"),
    (b"n_players: 2\nrules_digest: x\nphases:\n- {from_turns_left: 0, weights: {vp: -1}}\n",
     "a weight is negative"),
    (b"n_players: 2\nrules_digest: x\nphases:\n- {from_turns_left: 0, weights: {vp: 1}, "
     b"bonus: {fly: 1}}\n", "unknown weight or move 'fly'"),
    (b"n_players: 2\nrules_digest: x\nphases:\n- {from_turns_left: 3, weights: {vp: 1}}\n",
     "must decrease to 0"),
])
def test_a_bad_scorer_file_is_one_clear_line_naming_it(tmp_path, text, message):
    bad = tmp_path / "bad.yaml"
    bad.write_bytes(text)
    with pytest.raises(ScorerError, match=message) as raised:
        load_scorer(bad)
    assert str(raised.value).startswith(f"scorer file {bad}:")
    assert "\n" not in str(raised.value)


def test_bad_scorers_are_refused_by_the_cli_in_one_line(box, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("phases: [")
    three = scorer_file(box, tmp_path, n_players=3)
    for spec, message in ((f"distilled(scorer='{bad}')", "cannot read it"),
                          ("distilled(scorer='/no/such/file.yaml')", "no such file"),
                          (f"distilled(scorer='{three}')", "fitted for 3 players, not the 2")):
        result = CliRunner().invoke(main_cli, ["play", "-n", "2", "-s", spec, "-s", "greedy",
                                               "--json"])
        assert result.exit_code != 0 and message in result.output, result.output
        assert "Traceback" not in result.output
    with pytest.raises(UnknownStrategy, match="no such file"):
        resolve("distilled(scorer='/no/such/file.yaml')")


def test_a_four_player_scorer_plays_a_four_player_game_and_replays_it(box, tmp_path):
    spec = f"distilled(scorer='{scorer_file(box, tmp_path, other_phases(), n_players=4)}')"
    others = [resolve("greedy") for _ in range(3)]
    first = play_game(box, [resolve(spec), *others], 8)
    again = play_game(box, [pickle.loads(pickle.dumps(resolve(spec))), *others], 8)
    greedy = play_game(box, [resolve("greedy") for _ in range(4)], 8)
    assert len(first.scores) == 4
    assert first.decisions == again.decisions and first.scores == again.scores
    assert first.decisions != greedy.decisions


@pytest.mark.parametrize("fitted, players", [(2, 4), (4, 3), (3, 2)])
def test_a_scorer_for_another_count_is_refused_in_one_line(box, tmp_path, fitted, players):
    path = scorer_file(box, tmp_path, n_players=fitted)
    seats = ["-s", f"distilled(scorer='{path}')"] + ["-s", "greedy"] * (players - 1)
    result = CliRunner().invoke(main_cli, ["play", "-n", str(players), *seats, "--json"])
    assert result.exit_code != 0, result.output
    line = f"scorer file {path}: fitted for {fitted} players, not the {players} of this game"
    assert line in result.output and "Traceback" not in result.output


def test_a_count_without_a_shipped_scorer_names_the_command_that_fits_one(box, monkeypatch,
                                                                          tmp_path):
    import zsim.learn.model

    monkeypatch.setattr(zsim.learn.model, "MODELS_DIR", tmp_path)  # nothing shipped here
    seats = ["-s", "distilled", "-s", "greedy", "-s", "greedy"]
    result = CliRunner().invoke(main_cli, ["play", "-n", "3", *seats, "--json"])
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert "no turn scorer is shipped for 3 players" in result.output
    assert "python -m zsim.learn.distill --players 3 --out FILE" in result.output


def test_a_scorer_fitted_on_other_rules_plays_with_a_warning(box, tmp_path):
    path = scorer_file(box, tmp_path, digest="0123456789abcdef")
    with pytest.warns(ModelMismatch, match="fitted on other rules"):
        play_game(box, [resolve(f"distilled(scorer='{path}')"), resolve("greedy")], 2)


def test_recorded_turns_are_saved_read_back_and_fitted_to_phases(box, tmp_path):
    # recording plays the heuristic's own game: the same decisions as greedy's mirror
    turns = record([5], width=3, deals=1, horizon=1)
    assert turns and all(len(t[2]) == min(3, len(t[0])) for t in turns)
    x, _, order, worth = turns[0]
    assert x.shape[1] == len(feature_names()) and order[0] == int(np.argmax(x[:, 0]))
    assert (x[:, 0] <= 0).all() and np.isfinite(worth).all()
    save_turns(turns, tmp_path / "turns.npz")
    again = load_turns(tmp_path / "turns.npz")
    assert all(np.array_equal(a[0], b[0]) and a[1] == b[1] and np.array_equal(a[3], b[3])
               for a, b in zip(turns, again, strict=True))
    phases = fit_scorer(turns, [10, 0], 300.0, GREEDY)
    assert [p.from_turns_left for p in phases] == [10, 0]
    assert all(set(p.weights) == set(CATEGORIES) and min(p.weights.values()) >= 0
               for p in phases)


def test_the_fit_reads_a_bonus_the_playouts_show():
    # made-up turns where a Wall plays out 5 VP better and nothing else matters
    rng = np.random.default_rng(0)
    turns = []
    for _ in range(300):
        x = np.zeros((6, len(feature_names())))
        x[:, 0] = -np.sort(rng.random(6) * 3)
        x[:, 0] -= x[:, 0].max()
        walls = rng.random(6) < 0.3
        x[walls, 1 + len(CATEGORIES) + MOVES.index("wall")] = 1.0
        worth = x[:, 0] + 5.0 * walls + rng.normal(0, 2, 6)
        turns.append((x, int(rng.integers(0, 31)), np.arange(6), worth))
    (phase,) = fit_scorer(turns, [0], 1.0, GREEDY)
    assert phase.bonus["wall"] == pytest.approx(5.0, rel=0.2)
    assert max(abs(v) for m, v in phase.bonus.items() if m != "wall") < 1.0


def _noisy_turns(rng: np.random.Generator, score_weight: float) -> list:
    """Made-up turns whose worth is ``score_weight`` times the score, 5 VP for a Wall, 2 VP per
    unit of the first category's contribution, and noise."""
    turns = []
    for _ in range(400):
        x = np.zeros((6, len(feature_names())))
        x[:, 0] = -np.sort(rng.random(6) * 3)
        x[:, 0] -= x[:, 0].max()
        x[:, 1] = rng.random(6)
        walls = rng.random(6) < 0.3
        x[walls, 1 + len(CATEGORIES) + MOVES.index("wall")] = 1.0
        worth = score_weight * x[:, 0] + 5.0 * walls + 2.0 * x[:, 1] + rng.normal(0, 2, 6)
        turns.append((x, int(rng.integers(0, 31)), np.arange(6), worth))
    return turns


def test_a_fit_holding_the_score_fits_the_rest_as_its_correction():
    """Holding the score's coefficient at 1, whatever the playouts say of it: the bonus and the
    category's rate are read from the worth less the score; holding the weights too leaves
    every category's coefficient at 0 and still reads the bonus."""
    turns = _noisy_turns(np.random.default_rng(1), score_weight=0.2)
    width = len(feature_names())
    wall = 1 + len(CATEGORIES) + MOVES.index("wall")
    free = fit_coefficients(turns, 1.0)
    assert free[0] + 0.5 * free[width] == pytest.approx(0.2, abs=0.3)  # read from the data
    score = fit_coefficients(turns, 1.0, hold="score")
    assert score[0] == 1.0 and score[width] == 0.0
    assert score[wall] + 0.5 * score[width + wall] == pytest.approx(5.0, abs=0.8)
    assert score[1] + 0.5 * score[width + 1] == pytest.approx(2.0, abs=0.8)
    weights = fit_coefficients(turns, 1.0, hold="weights")
    assert weights[0] == 1.0 and not weights[1:1 + len(CATEGORIES)].any()
    assert not weights[width:width + 1 + len(CATEGORIES)].any()
    assert weights[wall] + 0.5 * weights[width + wall] == pytest.approx(5.0, abs=0.8)
    # a heavy penalty shrinks a held fit to the policy itself, a free one to nothing
    assert np.abs(fit_coefficients(turns, 1e9, hold="score")[1:]).max() < 1e-3
    assert np.abs(fit_coefficients(turns, 1e9)).max() < 1e-3
    with pytest.raises(ValueError, match="hold 'all'"):
        fit_coefficients(turns, 1.0, hold="all")


def test_a_first_round_writes_the_phases_of_the_fit_it_holds():
    # the first round's phases come from the held fit, as its held-out check does
    turns = _noisy_turns(np.random.default_rng(2), score_weight=0.2)
    (free,) = fit_scorer(turns, [0], 1.0, GREEDY)
    (held,) = fit_scorer(turns, [0], 1.0, GREEDY, hold="weights")
    assert free.weights != GREEDY and held.weights == GREEDY
    assert held.bonus["wall"] == pytest.approx(5.0, abs=0.8)


def test_a_further_round_measures_the_scorer_that_plays_and_corrects_it(box, tmp_path):
    # Turns recorded with a scorer: the options it chooses among (the heuristic's favourites),
    # its own favourite first, the gap measured on its scores (value plus bonus; the fit
    # measures each from the turn's mean, so what the gap is counted from does not matter).
    # With greedy's weights and a large bonus for a Wall, its favourite is a Wall wherever
    # one is among them.
    phases = [Phase(from_turns_left=0, weights=GREEDY, bonus={"wall": 50.0})]
    path = scorer_file(box, tmp_path, phases)
    turns = record([5], scorer=str(path), width=3, deals=1, horizon=1)
    wall = 1 + len(CATEGORIES) + MOVES.index("wall")
    assert turns
    for x, _, order, _ in turns:
        assert x[order[0], 0] == x[order, 0].max()  # the best score of those kept first
        if x[order, wall].any():
            assert x[order[0], wall] == 1.0
    assert any(x[order, wall].any() and not x[order, wall].all() for x, _, order, _ in turns)


def test_a_further_round_scales_the_scorers_weights_and_adds_to_its_bonuses():
    width = 2 + len(CATEGORIES) + len(MOVES)  # gap, categories, moves, fires
    coef = np.zeros(2 * width)
    coef[0] = 2.0  # the scorer's own score
    coef[1 + CATEGORIES.index("walls")] = 1.0  # walls worth half again as much
    coef[1 + len(CATEGORIES) + MOVES.index("unify")] = -2.0  # one VP less for a tuck
    policy = other_phases()
    refined = refine_phases(coef, policy, GREEDY)
    assert [p.from_turns_left for p in refined] == [12, 0]
    for old, new in zip(policy, refined, strict=True):
        assert new.weights["walls"] == pytest.approx(1.5 * old.weights["walls"], abs=1e-4)
        assert new.weights["vp"] == old.weights["vp"]
        assert new.bonus["unify"] == pytest.approx(old.bonus.get("unify", 0.0) - 1.0)
        assert new.bonus["elixir"] == old.bonus.get("elixir", 0.0) and new.fires == old.fires
    coef[0] = -1.0  # the scorer's score told nothing: every phase kept as it is
    assert refine_phases(coef, policy, GREEDY) == policy


def test_turns_measured_against_another_policy_are_not_pooled(box, tmp_path):
    turns = record([5], width=2, deals=1, horizon=1)
    save_turns(turns, tmp_path / "greedy.npz")
    path = scorer_file(box, tmp_path, other_phases())
    assert len(load_turns(tmp_path / "greedy.npz", 2, "greedy")) == len(turns)
    other = policy_digest(str(path))
    with pytest.raises(ValueError, match=f"turns file {tmp_path / 'greedy.npz'}: measured "
                                         f"against the policy greedy, not {other}"):
        load_turns(tmp_path / "greedy.npz", 2, policy_digest(str(path)))
    with pytest.raises(SystemExit):  # the command refuses them before playing
        main(["--out", str(tmp_path / "x.yaml"), "--games", "1", "--scorer", str(path),
              "--data", str(tmp_path / "greedy.npz")])


def test_the_rebuild_command_writes_a_scorer_the_bot_reads(box, tmp_path):
    out = tmp_path / "s.yaml"
    main(["--out", str(out), "--games", "1", "--seed", "7", "--alpha", "100",
          "--width", "2", "--deals", "1", "--horizon", "1"])
    scorer = load_scorer(out)
    assert scorer.n_players == 2 and scorer.fitted["games"] == 1
    assert scorer.width == 2  # the bot weighs the favourites the scorer was fitted on
    play_game(box, [resolve(f"distilled(scorer='{out}')"), resolve("greedy")], 1)
    held = tmp_path / "held.yaml"
    main(["--out", str(held), "--games", "1", "--seed", "7", "--alpha", "100", "--width", "2",
          "--deals", "1", "--horizon", "1", "--hold", "weights"])
    fitted = load_scorer(held)
    assert fitted.fitted["hold"] == "weights"
    assert all(phase.weights == {c: GREEDY[c] for c in CATEGORIES} for phase in fitted.phases)


def test_the_rebuild_command_fits_four_player_games(box, tmp_path, capsys):
    # every seat of a tiny four-player game records; the file says the count and the command
    out, data = tmp_path / "s4.yaml", tmp_path / "t4.npz"
    main(["--players", "4", "--out", str(out), "--games", "1", "--seed", "7", "--alpha", "100",
          "--width", "2", "--deals", "1", "--horizon", "1", "--save-data", str(data)])
    scorer = load_scorer(out)
    assert scorer.n_players == 4 and scorer.fitted["players"] == 4
    assert scorer.fitted["command"].startswith("python -m zsim.learn.distill --players 4 ")
    assert scorer.fitted["turns"] == len(load_turns(data, 4)) > 3 * 30  # four seats' turns
    game = play_game(box, [resolve(f"distilled(scorer='{out}')")] +
                     [resolve("greedy") for _ in range(3)], 1)
    assert len(game.scores) == 4
    capsys.readouterr()
    for wrong, message in ((["--data", str(data)], "recorded in 4-player games, not 2-player"),
                           (["--scorer", str(out)], "fitted for 4 players, not the 2 of")):
        with pytest.raises(SystemExit):  # refused before playing anything
            main(["--players", "2", "--out", str(tmp_path / "no.yaml"), "--games", "0", *wrong])
        assert message in capsys.readouterr().err
    assert not (tmp_path / "no.yaml").exists()


@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_shipped_scorer_reads_and_plays_its_count(box, n):
    scorer = load_scorer(scorer_path(n))
    assert scorer.n_players == n and len(scorer.phases) >= 1
    game = play_game(box, [resolve("distilled")] + [resolve("greedy") for _ in range(n - 1)], 3)
    assert len(game.scores) == n


def test_one_bot_plays_each_count_with_its_own_scorer_whatever_it_played_before(box):
    """A run of several player counts plays them all with one bot in each worker: a 3-player
    game is the same whether the bot played a 2-player game before it or not."""
    def three(bot):
        return play_game(box, [bot, resolve("greedy"), resolve("greedy")], 7)

    fresh = three(resolve("distilled"))
    used = resolve("distilled")
    play_game(box, [used, resolve("greedy")], 3)
    again = three(used)
    assert again.scores == fresh.scores and again.decisions == fresh.decisions


def test_the_later_rounds_are_shipped_by_name_and_play_as_their_files(box):
    # `scorer='round3'` is the file configs/models/distilled-2p-round3.yaml (docs/learning.md,
    # "Expert iteration"): the same games as the file named by its path; `round1` is the first
    # round's file, which plays other games
    greedy = resolve("greedy")
    games = {}
    for name in ("round2", "round3"):
        path = scorer_path(2, name)
        scorer = load_scorer(path)
        assert scorer.n_players == 2 and scorer.fitted["round"] == int(name[-1])
        by_name = games[name] = play_game(box, [resolve(f"distilled(scorer='{name}')"), greedy],
                                          11)
        by_path = play_game(box, [resolve(f"distilled(scorer='{path}')"), greedy], 11)
        assert by_name.decisions == by_path.decisions and by_name.scores == by_path.scores
    first = play_game(box, [resolve("distilled(scorer='round1')"), greedy], 11)
    assert scorer_path(2, "round1").name == "distilled-2p.yaml"
    assert first.decisions != games["round3"].decisions


@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_plain_bot_plays_the_strongest_scorer_shipped_for_the_count(box, n):
    # STRONGEST_SCORER names it per count (round 1 where no later round is shipped): a plain
    # `distilled` plays the games of that scorer named
    name = STRONGEST_SCORER.get(n, "round1")
    assert scorer_path(n) == scorer_path(n, name) and scorer_path(n).is_file()
    others = [resolve("greedy") for _ in range(n - 1)]
    plain = play_game(box, [resolve("distilled"), *others], 5)
    named = play_game(box, [resolve(f"distilled(scorer='{name}')"), *others], 5)
    assert plain.decisions == named.decisions and plain.scores == named.scores


@pytest.mark.parametrize("spec, message", [
    ("value", "value: no value model is shipped for 3 players"),
    ("distilled(scorer='round3')", "no scorer 'round3' is shipped for 3 players"),
    ("mcts(judge='heuristic', leaf='model', horizon=1)", "no value model is shipped for 3"),
])
def test_a_bot_without_a_model_for_the_runs_count_is_refused_before_any_game(tmp_path, spec,
                                                                             message):
    out = tmp_path / "run"
    args = ["run", "-s", spec, "-s", "greedy", "-n", "3", "--games", "3", "--out", str(out)]
    result = CliRunner().invoke(main_cli, args)
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert message in result.output
    assert len([line for line in result.output.splitlines() if "Error" in line]) == 1
    assert not list(out.rglob("*.parquet"))


def test_a_scorer_name_not_shipped_is_refused_in_one_line_naming_the_shipped_ones(box):
    with pytest.raises(UnknownStrategy, match=r"scorer 'round9': .*shipped: rewards, round1, "
                                              r"round2, round3"):
        resolve("distilled(scorer='round9')")
    seats = ["-s", "distilled(scorer='round3')", "-s", "greedy", "-s", "greedy"]
    result = CliRunner().invoke(main_cli, ["play", "-n", "3", *seats, "--json"])
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert "no scorer 'round3' is shipped for 3 players" in result.output


def test_a_bots_weights_shift_the_learned_ones_never_below_zero():
    # a style on top of the scorer: the learned weight plus the bot's weight less greedy's 1
    bot = DistilledStrategy(elixir=2.0, unrest=0.5)
    params = bot.phase_params({**GREEDY, "elixir": 0.0, "unrest": 0.25, "walls": 0.7})
    assert params["elixir"] == 1.0 and params["unrest"] == 0.0 and params["walls"] == 0.7
    assert params["patience"] == bot.params["patience"]
    assert DistilledStrategy().phase_params({**GREEDY, "walls": 0.7})["walls"] == 0.7


def test_a_bot_file_plays_on_the_scorer_when_it_says_so(box, tmp_path):
    (tmp_path / "base.yaml").write_text("description: plain\nweights: {walls: 1.5}\n")
    (tmp_path / "styled.yaml").write_text("description: styled\nextends: base\n"
                                          "plays: distilled\n")
    (tmp_path / "child.yaml").write_text("description: child\nextends: styled\n")
    styled, plain = resolve(str(tmp_path / "styled.yaml")), resolve(str(tmp_path / "base.yaml"))
    assert isinstance(styled, DistilledStrategy) and styled.params["walls"] == 1.5
    assert type(plain) is HeuristicStrategy
    assert type(resolve(str(tmp_path / "child.yaml"))) is HeuristicStrategy  # not inherited
    greedy = resolve("greedy")
    by_file = play_game(box, [styled, greedy], 9)
    by_spec = play_game(box, [resolve("distilled(walls=1.5)"), greedy], 9)
    assert by_file.decisions == by_spec.decisions and by_file.scores == by_spec.scores
    assert isinstance(resolve("alchemist"), DistilledStrategy)


def test_a_bot_file_playing_on_an_unknown_base_is_refused_in_one_line(tmp_path):
    (tmp_path / "bad.yaml").write_text("description: bad\nplays: mcts\n")
    with pytest.raises(UnknownStrategy, match=r"bad.yaml: plays: "):
        resolve(str(tmp_path / "bad.yaml"))


def test_a_shifted_scorer_moves_its_categories_in_every_phase(box, tmp_path):
    from zsim.learn.shift import main as shift

    base = scorer_file(box, tmp_path, other_phases())
    out = tmp_path / "shifted.yaml"
    shift([base, "--by", "walls=0.5", "--by", "vp=-3", "--name", "test", "--out", str(out)])
    before, after = load_scorer(base), load_scorer(out)
    for old, new in zip(before.phases, after.phases, strict=True):
        assert new.weights["walls"] == old.weights["walls"] + 0.5 and new.weights["vp"] == 0.0
        assert new.bonus == old.bonus and new.fires == old.fires
    assert after.fitted["shift"] == {"walls": 0.5, "vp": -3.0} and after.fitted["name"] == "test"
    # at a turn, the style a bot is given at play time (walls 1.5: shifted by 0.5)
    style = DistilledStrategy(walls=1.5)
    assert [style.phase_params(p.weights)["walls"] for p in before.phases] == \
        [p.weights["walls"] for p in after.phases]


@pytest.mark.parametrize("by, message", [("colour=1", "CATEGORY=AMOUNT"),
                                         ("walls=many", "'many' is not a number")])
def test_a_bad_shift_is_refused_in_one_line(box, tmp_path, capsys, by, message):
    from zsim.learn.shift import main as shift

    with pytest.raises(SystemExit):
        shift([scorer_file(box, tmp_path), "--by", by, "--out", str(tmp_path / "no.yaml")])
    assert message in capsys.readouterr().err and not (tmp_path / "no.yaml").exists()
