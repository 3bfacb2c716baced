"""The compiled engine (``setup.py``, ``zsim.engine_build``): the same games as the sources,
used only while it matches them, switched off by ``ZSIM_PURE_PYTHON``, and said by the CLI."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from zsim import engine_build
from zsim.cli import main
from zsim.engine_build import ENGINE, MANIFEST, ROOT, choose, extension_of, source_of

# Mixed lineups: random and heuristic bots at 2, 3 and 4 players, and solo games against Li Si.
GAMES = """
import json, sys
from zsim.strategies.registry import resolve
from zsim.components import default_box_dir, load_box
from zsim.engine_build import ENGINE
from zsim.game import play_game
import zsim.game, zsim.rules.turn, zsim.strategies.estimates.cards
box = load_box(default_box_dir())
lineups = (["random", "random"], ["greedy", "builder"], ["governor", "alchemist", "courtier"],
           ["mausoleum", "greedy", "builder", "governor"], ["random"] * 4,
           ["lisi-1", "random"], ["greedy", "lisi-3"], ["lisi-4", "builder"])
games = []
for seed in range(2):
    for names in lineups:
        result = play_game(box, [resolve(name) for name in names], seed=seed)
        games.append([names, seed, result.scores, result.decisions, result.stats])
files = [m.__file__ for m in (zsim.game, zsim.rules.turn, zsim.strategies.estimates.cards)]
json.dump({"engine": ENGINE, "files": files, "games": games}, sys.stdout)
"""


def _played(pure: bool, cwd: Path | None = None, path: Path | None = None) -> dict:
    env = {k: v for k, v in os.environ.items() if k != engine_build.SWITCH}
    if pure:
        env[engine_build.SWITCH] = "1"
    if path is not None:
        env["PYTHONPATH"] = str(path)
    done = subprocess.run([sys.executable, "-c", GAMES], capture_output=True, text=True,
                          env=env, cwd=cwd, check=True)
    return json.loads(done.stdout)


def _require_compiled() -> None:
    if not engine_build.COMPILED:
        pytest.skip(f"this install runs the sources: {ENGINE}")


def test_both_builds_play_the_same_games_decision_for_decision():
    _require_compiled()
    compiled, pure = _played(pure=False), _played(pure=True)
    assert compiled["engine"] == "compiled (mypyc)"
    assert pure["engine"] == f"pure Python ({engine_build.SWITCH}=1)"
    assert all(not f.endswith(".py") for f in compiled["files"])
    assert all(f.endswith(".py") for f in pure["files"])
    assert len(compiled["games"]) == 16
    for fast, slow in zip(compiled["games"], pure["games"], strict=True):
        assert fast == slow, f"{fast[0]} seed {fast[1]} differs between the builds"


def _copy_of_the_install(tmp_path: Path) -> Path:
    """The packages and the compiled build, copied to a directory of their own (the box's
    YAML linked beside them, where the packages look for it)."""
    (tmp_path / "configs").symlink_to(ROOT / "configs")
    for package in ("zsim", "strategies"):
        shutil.copytree(ROOT / package, tmp_path / package,
                        ignore=shutil.ignore_patterns("__pycache__"))
    for library in ROOT.glob("*__mypyc.*"):
        shutil.copy(library, tmp_path)
    return tmp_path


def test_an_edited_source_runs_as_it_is_and_the_rest_of_the_engine_with_it(tmp_path):
    _require_compiled()
    copy = _copy_of_the_install(tmp_path)
    as_built = _played(pure=False, cwd=copy, path=copy)
    assert as_built["engine"] == "compiled (mypyc)"
    assert all(f.startswith(str(copy)) and not f.endswith(".py") for f in as_built["files"])
    turn = copy / "zsim" / "rules" / "turn.py"
    turn.write_text(turn.read_text() + "\n# an edit the build has not seen\n")
    edited = _played(pure=False, cwd=copy, path=copy)
    assert edited["engine"].startswith("pure Python (stale: zsim/rules/turn.py;")
    assert all(f.startswith(str(copy)) and f.endswith(".py") for f in edited["files"])
    assert edited["games"] == as_built["games"]


def test_the_build_is_used_only_whole_fresh_and_not_switched_off(monkeypatch):
    recorded = json.loads(MANIFEST.read_text()) if MANIFEST.exists() else {}
    if not recorded:
        assert not choose({}, switched_off=False)[0]
        pytest.skip(f"this install runs the sources: {ENGINE}")
    assert choose(recorded, switched_off=False) == (True, "compiled (mypyc)")
    monkeypatch.setenv(engine_build.SWITCH, "1")
    assert choose(recorded, switched_off=True) == (False, "pure Python (ZSIM_PURE_PYTHON=1)")
    older = {**recorded, "zsim.state": "0" * 64}
    used, line = choose(older, switched_off=False)
    assert not used and "stale: zsim/state.py" in line
    assert choose({**recorded, "zsim.nowhere": "0" * 64}, switched_off=False)[0] is False
    assert "not compiled" in choose({}, switched_off=False)[1]


def test_the_build_record_names_the_engine_and_the_estimates():
    recorded = json.loads(MANIFEST.read_text()) if MANIFEST.exists() else {}
    if not recorded:
        pytest.skip(f"this install runs the sources: {ENGINE}")
    for module in ("zsim.state", "zsim.game", "zsim.view", "zsim.decisions", "zsim.records",
                   "zsim.rules.turn", "zsim.rules.queries", "zsim.strategies.estimates.cards"):
        assert module in recorded and source_of(module).exists()
        assert extension_of(module) is not None
    assert "zsim.consult" not in recorded  # the runner looks for its Python frame


def test_the_cli_says_which_build_runs():
    version = CliRunner().invoke(main, ["--version"])
    assert version.exit_code == 0
    assert f"engine: {ENGINE}" in version.output


@pytest.mark.parametrize(("value", "off"), [("1", True), ("yes", True), (" TRUE ", True),
                                            ("0", False), ("", False), ("no", False),
                                            ("Off", False), (None, False)])
def test_the_switch_reads_zero_and_no_as_leaving_the_build_on(value, off):
    environ = {} if value is None else {engine_build.SWITCH: value}
    assert engine_build.switched_off(environ) is off


REUSABLE = """
import json, sys, setuptools
setuptools.setup = lambda **kwargs: None  # setup.py's functions, without a build
import runpy
found = runpy.run_path("setup.py")
print(json.dumps([found["reusable"](), found["COMPILED"]]))
"""


def test_a_second_editable_install_keeps_a_fresh_in_place_build(tmp_path):
    """setup.py keeps an in-place build whose record matches every source and whose
    extensions are all there (README's second command does not compile again), and compiles
    once a source, the record or an extension differs."""
    def reusable(root: Path) -> bool:
        done = subprocess.run([sys.executable, "-c", REUSABLE], capture_output=True,
                              text=True, cwd=root, check=True)
        return json.loads(done.stdout.splitlines()[-1])[0]

    repo = Path(__file__).resolve().parents[1]
    sources = json.loads(subprocess.run(
        [sys.executable, "-c", REUSABLE], capture_output=True, text=True, cwd=repo,
        check=True).stdout.splitlines()[-1])[1]
    root = tmp_path / "tree"
    for source in sources:
        (root / source).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(repo / source, root / source)
    shutil.copy(repo / "setup.py", root / "setup.py")
    import hashlib
    import sysconfig

    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    record = {s.removesuffix(".py").replace("/", "."):
              hashlib.sha256((root / s).read_bytes()).hexdigest() for s in sources}
    (root / "zsim" / "compiled.json").write_text(json.dumps(record))
    assert not reusable(root)  # no extension built yet
    for source in sources:
        (root / source).with_suffix(suffix).write_bytes(b"")
    (root / f"abc__mypyc{suffix}").write_bytes(b"")
    assert reusable(root)
    with (root / sources[0]).open("a") as edited:
        edited.write("\n# edited\n")
    assert not reusable(root)  # a source changed since: compiled again


def test_the_builds_shared_library_is_found_at_the_top_of_its_tree(tmp_path, monkeypatch):
    # every compiled module imports the build's shared library by name; an editable install
    # maps it only when it compiles, so a second `pip install -e ".[test]"` that keeps the
    # build would leave it unfound: the build's own finder looks for it where it was built
    from importlib.machinery import EXTENSION_SUFFIXES

    monkeypatch.setattr(engine_build, "ROOT", tmp_path)
    library = tmp_path / f"0123abcd__mypyc{EXTENSION_SUFFIXES[0]}"
    library.write_bytes(b"")
    finder = engine_build.BuildFinder(["zsim.game"], compiled=True)
    spec = finder.find_spec("0123abcd__mypyc")
    assert spec is not None and spec.origin == str(library)
    assert finder.find_spec("ffff__mypyc") is None  # none built here: Python's finders look
    assert finder.find_spec("zsim.game__mypyc") is None  # only a top-level name
    assert engine_build.BuildFinder(["zsim.game"], compiled=False).find_spec(
        "0123abcd__mypyc") is None  # the sources import no library
