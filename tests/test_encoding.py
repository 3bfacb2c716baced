"""The shipped models against the encodings they read: a change of the observation or of the
action codec fails here, naming what to retrain (docs/architecture.md, "A decision kind").

``encoding.json`` beside this file records the action codec of the base box, kind by kind: the
first id, the number of ids and a digest of the options. The codec is append-only: a kind or an
option type placed mid-list renumbers every later id and breaks any policy trained on them.
Run ``python tests/test_encoding.py --record`` only for a change meant to move ids, and retrain
what reads them.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest

from zsim.components import default_box_dir, load_box
from zsim.encode.codec import codec
from zsim.encode.observation import layout
from zsim.learn.features import width
from zsim.learn.model import MODELS_DIR, load
from zsim.rules.tables import compile_tables

RECORD = Path(__file__).with_name("encoding.json")
RECIPE = "retrain it (zsim train; docs/architecture.md, 'A decision kind')"


def codec_blocks(n: int) -> list[list[object]]:
    """Each kind of the codec in order: [name, first id, number of ids, digest of its options]."""
    space = codec(load_box(default_box_dir()), n)
    return [[kind, ids.start, len(ids),
             hashlib.sha256(repr([space.actions[i][1] for i in ids]).encode()).hexdigest()[:12]]
            for kind, ids in space.kinds.items()]


def shipped_value_models() -> list[Path]:
    return sorted(MODELS_DIR.glob("*.npz"))


def test_a_value_model_is_shipped():
    assert shipped_value_models(), f"no value model in {MODELS_DIR}"


@pytest.mark.parametrize("path", shipped_value_models(), ids=lambda p: p.name)
def test_every_shipped_model_reads_the_encoding_of_today(path):
    model, box = load(path), load_box(default_box_dir())
    n = model.meta["n_players"]
    encoding = layout(compile_tables(box), n)
    name = f"configs/models/{path.name}"
    assert model.meta.get("observation") == encoding.version, (
        f"{name}: trained on observation layout {model.meta.get('observation')}, the encoding is "
        f"now {encoding.version}: {RECIPE}")
    assert model.width == encoding.size + width(n), (
        f"{name}: reads {model.width} values, the observation and features now make "
        f"{encoding.size + width(n)}: {RECIPE}")
    if "codec" in model.meta:  # a policy over action ids
        assert model.meta["codec"] == codec(box, n).version, (
            f"{name}: trained on action codec {model.meta['codec']}, the codec is now "
            f"{codec(box, n).version}: {RECIPE}")


@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_action_codec_only_grows_at_its_end(n):
    recorded = json.loads(RECORD.read_text())["codec"][str(n)]
    now = codec_blocks(n)
    moved = [was[0] for was, block in zip(recorded, now, strict=False) if was != block]
    assert not moved and len(now) >= len(recorded), (
        f"the action codec of {n} players moved the ids of {moved or 'a removed kind'}: append "
        f"new kinds and option types at the end of zsim.kinds.KINDS; a policy trained on action "
        f"ids must be retrained; then `python tests/test_encoding.py --record`")


def test_the_codec_check_sees_a_kind_placed_mid_list():
    recorded = [["a", 0, 2, "x"], ["b", 2, 3, "y"]]
    now = [["a", 0, 2, "x"], ["new", 2, 1, "z"], ["b", 3, 3, "y"]]
    assert [w[0] for w, b in zip(recorded, now, strict=False) if w != b] == ["b"]


if __name__ == "__main__" and sys.argv[1:] == ["--record"]:
    rows = {n: ",\n".join(f"  {json.dumps(block)}" for block in codec_blocks(n)) for n in (2, 3, 4)}
    RECORD.write_text('{"codec": {\n' + ",\n".join(f' "{n}": [\n{text}\n ]'
                                                    for n, text in rows.items()) + "\n}}\n")
    print(f"recorded {RECORD}")
