"""The project's modules import in one direction: the packages in the order of the layer table
of docs/architecture.md, no cycle between files, the rules never reaching up, and one import name
for each file."""

from __future__ import annotations

import ast
import graphlib
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# package -> its directory in the repository (the bots and the reports are installed inside zsim)
PACKAGES = {"zsim": ROOT / "zsim", "zsim.strategies": ROOT / "strategies",
            "zsim.reports": ROOT / "reports"}


def modules() -> dict[str, Path]:
    found = {}
    for package, directory in PACKAGES.items():
        for path in directory.rglob("*.py"):
            parts = (*package.split("."), *path.relative_to(directory).with_suffix("").parts)
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """Every project module ``name`` imports anywhere: at the top, in a function, or for type
    checking only (a cycle of annotations is a cycle of ideas all the same)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name in known)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, *([node.module] if node.module else [])])
            for alias in node.names:
                target = f"{base}.{alias.name}"
                found.add(target if target in known else base)
    return (found & set(known)) - {name}


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports(name, path, known) for name, path in known.items()}


def test_there_is_no_import_cycle_among_the_projects_modules():
    try:
        graphlib.TopologicalSorter(graph()).prepare()
    except graphlib.CycleError as cycle:
        raise AssertionError(f"import cycle: {' -> '.join(cycle.args[1])}") from None


def test_the_rules_know_neither_the_engine_nor_the_bots():
    for name, deps in graph().items():
        if name.startswith(("zsim.rules", "zsim.state", "zsim.decisions")):
            above = {d for d in deps if d in ("zsim.game", "zsim.view", "zsim.records")
                     or d.startswith(("zsim.strategies", "zsim.runner", "zsim.cli",
                                      "zsim.reports"))}
            assert not above, f"{name} imports {sorted(above)}"


def test_the_check_sees_a_cycle(tmp_path):
    # the detector itself: two modules that import each other are a cycle
    a, b = tmp_path / "a.py", tmp_path / "b.py"
    a.write_text("from zsim import b\n")
    b.write_text("import zsim.a\n")
    known = {"zsim.a": a, "zsim.b": b}
    cyclic = {name: imports(name, path, known) for name, path in known.items()}
    assert cyclic == {"zsim.a": {"zsim.b"}, "zsim.b": {"zsim.a"}}


# --- the layer table ----------------------------------------------------------------------------

ENTRY = re.compile(r"`([\w/]+?(?:\.py|/))`")
# The imports that break the table's order today, each (importer, imported) by table entry with
# its reason. The list only shrinks: an exception that no longer occurs fails the test.
DEBT: dict[tuple[str, str], str] = {
    ("zsim/learn/", "strategies/"): "the distilled policy and distillation read the heuristic's "
    "moves and estimates (learn/policy.py, learn/distill.py); the learned models they fit sit "
    "in the same package, imported by the bots",
    ("strategies/", "zsim/learn/"): "the bots load their learned models and features from "
    "zsim.learn (distilled, value, search, mcts), which also holds the tools that fit them",
    ("zsim/learn/", "zsim/runner/"): "dataset and training write and run batches "
    "(learn/dataset.py, learn/train.py): tools above the runner kept beside the models",
    ("zsim/runner/", "zsim/experience/"): "the worker records a game's experience "
    "(record, kingmaking, valuewin) and the batch summarises it (winprob, valuewin)",
    ("zsim/experience/", "zsim/runner/"): "the experience tables are read with the runner's "
    "column schema (experience/data.py)",
    ("zsim/experience/", "reports/"): "the experience analysis builds report figures "
    "(experience/whatif.py, experience/unused.py): analysis that belongs beside the sections",
    ("reports/", "zsim/experience/"): "the experience section reads the experience tables "
    "and their analysis (reports/experience.py)",
}


def layer_table() -> list[list[str]]:
    """The entries of each row of the layer table, foundation first."""
    text = (ROOT / "docs" / "architecture.md").read_text()
    table = text.split("| layer | modules |", 1)[1].split("\n\n", 1)[0]
    rows = [line.split("|")[2] for line in table.splitlines()[2:]]
    return [ENTRY.findall(cell) for cell in rows]


def entry_module(entry: str) -> str:
    """``zsim/game.py`` -> ``zsim.game``; ``strategies/`` -> ``zsim.strategies``."""
    name = entry.removesuffix("/").removesuffix(".py").removesuffix("/__init__")
    name = name.replace("/", ".")
    return name if name.startswith("zsim") else f"zsim.{name}"


def placements() -> dict[str, tuple[str, int]]:
    """Each table entry's module name -> (the entry, its row)."""
    return {entry_module(e): (e, row) for row, entries in enumerate(layer_table())
            for e in entries}


def place(module: str, placed: dict[str, tuple[str, int]]) -> tuple[str, int] | None:
    """The most specific entry of the table naming ``module`` (a file, or a package holding
    it), or None."""
    parts = module.split(".")
    for n in range(len(parts), 0, -1):
        hit = placed.get(".".join(parts[:n]))
        if hit and (n == len(parts) or hit[0].endswith("/")):
            return hit
    return None


def entry_edges() -> dict[tuple[str, str], list[str]]:
    """Every import between two different table entries -> the file pairs that make it."""
    placed, edges = placements(), {}
    for name, deps in graph().items():
        here = place(name, placed)
        for dep in deps:
            there = place(dep, placed)
            if here and there and here[0] != there[0]:
                edges.setdefault((here[0], there[0]), []).append(f"{name} -> {dep}")
    return edges


def test_the_layer_table_places_every_module():
    placed = placements()
    assert len(placed) == sum(len(row) for row in layer_table()), "an entry is listed twice"
    for entry, _ in placed.values():
        assert (ROOT / entry).exists(), f"the layer table names {entry}, which does not exist"
    missing = sorted(name for name in modules() if place(name, placed) is None)
    assert not missing, f"docs/architecture.md's layer table places none of {missing}"


def test_every_import_points_up_the_layer_table():
    placed = {e: row for e, row in placements().values()}
    wrong = {pair: files for pair, files in entry_edges().items()
             if placed[pair[1]] > placed[pair[0]] and pair not in DEBT}
    assert not wrong, "imports against the layer table's order: " + "; ".join(
        f"{a} -> {b} ({files[0]})" for (a, b), files in sorted(wrong.items()))


def test_no_two_entries_of_the_table_import_each_other():
    edges = entry_edges()
    both = sorted((a, b) for a, b in edges if (b, a) in edges and a < b
                  and not ((a, b) in DEBT and (b, a) in DEBT))
    assert not both, f"entries of the layer table that import each other: {both}"


def test_every_exception_to_the_order_still_occurs():
    # a debt paid is taken off the list, so that it cannot come back unnoticed
    edges = entry_edges()
    paid = sorted(pair for pair in DEBT if pair not in edges)
    assert not paid, f"these imports no longer occur: take them off DEBT: {paid}"


def test_a_module_goes_with_the_most_specific_entry_naming_it():
    placed = {"zsim.state": ("zsim/state.py", 2), "zsim.rules": ("zsim/rules/", 3),
              "zsim.rules.tables": ("zsim/rules/tables.py", 1)}
    assert place("zsim.rules.effects", placed) == ("zsim/rules/", 3)
    assert place("zsim.rules.tables", placed) == ("zsim/rules/tables.py", 1)
    assert place("zsim.statex", placed) is None
    assert place("zsim.state.inner", placed) is None  # a file entry holds no modules


# --- one import name per file -------------------------------------------------------------------

@pytest.mark.parametrize("package", ["strategies", "reports"])
def test_the_top_level_name_of_a_linked_package_is_refused_in_one_line(package):
    run = subprocess.run([sys.executable, "-c", f"import {package}"], cwd=ROOT,
                         capture_output=True, text=True, env={"PYTHONPATH": str(ROOT)})
    assert run.returncode != 0
    assert run.stderr.strip().splitlines()[-1] == (
        f"ImportError: import zsim.{package}, not {package}: the "
        f"{'bots' if package == 'strategies' else 'reports'} are a part of zsim")


TOP_LEVEL = re.compile(r"^\s*(?:from|import)\s+(?:strategies|reports)\b", re.MULTILINE)


def test_nothing_imports_a_linked_package_by_its_top_level_name():
    sources = [*ROOT.glob("*.py"), *(ROOT / "benchmarks").rglob("*.py"),
               *(ROOT / "tests").rglob("*.py"), *(ROOT / "docs").rglob("*.md"),
               *ROOT.glob("*.md"), *modules().values()]
    found = [str(path.relative_to(ROOT)) for path in sources
             if TOP_LEVEL.search(path.read_text(encoding="utf-8"))]
    assert not found, f"import zsim.strategies / zsim.reports, not the top-level name: {found}"
