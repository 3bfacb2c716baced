"""One record per effect kind and per Mausoleum condition: the schema's kinds, the rules' records
and the bots' valuations have the same keys, a missing one is named, and an unknown kind in a
box is refused when the box loads, naming the file and the line."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import get_args

import pytest

from zsim.components import BoxError, default_box_dir, load_box
from zsim.components.schema import EFFECT_MODELS, MausoleumTile
from zsim.rules.effects import EFFECTS, EffectKind, kind_name, registry_problems
from zsim.rules.mausoleum import CONDITIONS, Condition, conditions_problems
from zsim.rules.tables import compile_tables
from zsim.strategies.estimates import Estimator, Weights, facts, statics
from zsim.strategies.heuristic import PARAMETERS

SCHEMA_KINDS = {kind_name(model) for model in EFFECT_MODELS}


def _defines(record: object, base: type, method: str) -> bool:
    return getattr(type(record), method) is not getattr(base, method)


def test_the_schema_the_rules_and_the_bots_name_the_same_effect_kinds():
    assert set(EFFECTS) == SCHEMA_KINDS and len(SCHEMA_KINDS) == len(EFFECT_MODELS)
    resolves = {name for name, record in EFFECTS.items() if _defines(record, EffectKind, "resolve")}
    valued = {name for name, record in EFFECTS.items()
              if _defines(record, EffectKind, "worth") and _defines(record, EffectKind, "flat")}
    assert resolves == valued == SCHEMA_KINDS
    for name, record in EFFECTS.items():
        assert kind_name(record.model) == name
    assert registry_problems(EFFECTS) == []


def test_a_missing_effect_record_or_valuation_is_named():
    missing = {name: record for name, record in EFFECTS.items() if name != "ship"}
    assert registry_problems(missing) == ["effect kind 'ship' has no record"]
    bare = {**EFFECTS, "ship": EffectKind()}  # a record saying neither rule nor valuation
    assert registry_problems(bare) == [f"record 'ship' does not say its {method}"
                                       for method in ("resolve", "worth", "flat")]
    stray = {**EFFECTS, "teleport": EFFECTS["ship"]}
    assert registry_problems(stray) == ["record 'teleport' has no schema model"]


def test_the_schema_the_rules_and_the_bots_name_the_same_mausoleum_conditions():
    named = set(get_args(MausoleumTile.model_fields["condition"].annotation))
    assert set(CONDITIONS) == named
    for record in CONDITIONS.values():
        assert _defines(record, Condition, "met") and _defines(record, Condition, "distance")
    assert conditions_problems(CONDITIONS) == []
    missing = {name: record for name, record in CONDITIONS.items() if name != "council"}
    assert conditions_problems(missing) == ["Mausoleum condition 'council' has no record"]
    bare = {**CONDITIONS, "council": Condition()}
    assert conditions_problems(bare) == ["condition 'council' does not say its met",
                                         "condition 'council' does not say its distance"]


def _weights() -> Weights:
    return Weights({key: 1.0 for key in PARAMETERS} | {"patience": 0.5})


def test_the_bots_value_every_step_of_the_box_with_its_record(box):
    compiled = compile_tables(box)
    weights = _weights()
    used = set()
    for ability in box.abilities.values():
        for steps in ability.options:
            for e in steps:
                used.add(e.effect)
                assert isinstance(EFFECTS[e.effect].flat(weights, e, 0), float)
    assert used <= SCHEMA_KINDS
    rates = statics(compiled, weights)
    assert set(rates.ability) == set(box.abilities)
    assert facts(compiled).card_steps[1]  # card 1 has its steps


def test_an_unknown_effect_kind_is_refused_naming_the_file_and_line(tmp_path: Path):
    box = tmp_path / "components"
    shutil.copytree(default_box_dir(), box)
    path = box / "abilities.yaml"
    lines = path.read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if "effect: ship" in line)
    lines[at] = lines[at].replace("effect: ship", "effect: teleport", 1)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(BoxError) as error:
        load_box(box)
    [message] = [m for m in error.value.messages if "teleport" in m]
    assert message.startswith("abilities.yaml: abilities.")
    assert "'teleport' is not a known effect kind" in message
    assert f"(line {at + 1})" in message
    for name in EFFECTS:  # the message lists the kinds there are
        assert name in message


def test_a_condition_record_answers_for_the_rule_and_for_the_bots(make_game, box):
    g = make_game()
    p = g.state.players[0]
    spot = next(s for s in g.state.mausoleum if s.condition == "palace")
    record = CONDITIONS["palace"]
    est = Estimator(g.views[0], _weights(), statics(compile_tables(box), _weights()))
    assert not record.met(g, p, spot.where)
    assert record.distance(est, spot.where) == est.pal_dist[spot.where] > 0
    g.state.palace_count[spot.where][p.seat] = 1
    assert record.met(g, p, spot.where)
    g.consults += 1  # the next decision: the view copies the table again
    assert record.distance(Estimator(g.views[0], _weights(), statics(compile_tables(box),
                                                                      _weights())),
                           spot.where) == 0
