"""The project's modules import in one direction: no cycle, and the rules never reach up."""

from __future__ import annotations

import ast
import graphlib
from pathlib import Path

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
