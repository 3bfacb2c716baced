"""The package as installed: its extras, the message of a missing one, the data it carries."""

from __future__ import annotations

import re
import sys
from importlib.metadata import metadata

import pytest
from click.testing import CliRunner

from zsim.cli import main
from zsim.extras import EXTRAS, MissingExtra, explain, require
from zsim.paths import configs_dir


def declared_extras() -> dict[str, set[str]]:
    """extra -> the distributions pyproject.toml puts in it (from the installed metadata)."""
    found: dict[str, set[str]] = {}
    for requirement in metadata("zsim").get_all("Requires-Dist") or []:
        marker = re.search(r"extra\s*==\s*['\"]([\w-]+)['\"]", requirement)
        if marker:
            name = re.match(r"[A-Za-z0-9_.-]+", requirement).group(0)
            found.setdefault(marker.group(1), set()).add(normalized(name))
    return found


def normalized(name: str) -> str:
    """A distribution's name as the package index compares them (open_spiel == open-spiel)."""
    return re.sub(r"[-_.]+", "-", name).lower()


# import name -> distribution name, where the two differ
DISTRIBUTION = {"sklearn": "scikit-learn", "pyspiel": "open-spiel", "distributed": "dask"}


def test_every_extra_zsim_names_is_declared_with_its_packages():
    declared = declared_extras()
    for extra, packages in EXTRAS.items():
        assert extra in declared, f"pyproject.toml has no extra {extra!r}"
        for package in packages:
            assert normalized(DISTRIBUTION.get(package, package)) in declared[extra], (extra,
                                                                                       package)
    # [all] brings every extra, and the tests install [all]
    assert "zsim" in declared["all"] and "zsim" in declared["test"]


def test_the_core_does_not_need_an_extra_to_play_and_run(tmp_path):
    """A game and a small run import no package of any extra."""
    extra_packages = {p for packages in EXTRAS.values() for p in packages}
    code = (
        "import sys\n"
        "from click.testing import CliRunner\n"
        "from zsim.cli import main\n"
        "r = CliRunner().invoke(main, ['play', '-n', '2', '-s', 'greedy', '-s', 'random', "
        "'--json'])\n"
        "assert r.exit_code == 0, r.output\n"
        f"r = CliRunner().invoke(main, ['run', '--games', '4', '-n', '2', '-s', 'random', "
        f"'-s', 'greedy', '--jobs', '1', '--quiet', '--out', {str(tmp_path / 'run')!r}])\n"
        "assert r.exit_code == 0, r.output\n"
        f"print(sorted(m for m in {sorted(extra_packages)!r} if m in sys.modules))\n"
    )
    import subprocess
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip().splitlines()[-1] == "[]"


def test_a_command_that_needs_a_missing_extra_says_which_in_one_line(monkeypatch, tmp_path):
    # As if it were not installed: statsmodels and the modules an earlier test of this process
    # imported from it (a report builds ratings) are hidden, so the command imports afresh.
    for name in [m for m in sys.modules if m.split(".")[0] == "statsmodels"]:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setitem(sys.modules, "statsmodels", None)
    for name in ("zsim.ratings", "zsim.cli.rate"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    run = CliRunner().invoke(main, ["run", "--games", "4", "-n", "2", "-s", "random", "-s",
                                    "greedy", "--jobs", "1", "--quiet", "--out",
                                    str(tmp_path / "run")])
    assert run.exit_code == 0, run.output
    result = CliRunner().invoke(main, ["rate", str(tmp_path / "run")])
    assert result.exit_code == 2  # as any command that cannot start: never an alarm (1)
    assert result.output.splitlines() == [
        "Error: zsim rate needs statsmodels: install it with pip install 'zsim[report]'"]


def test_require_and_explain_name_the_extra(monkeypatch):
    require("report", "zsim report")  # installed with the tests: no error
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "optuna" else real(name, *a))
    with pytest.raises(MissingExtra, match=r"^zsim tune needs optuna: .*'zsim\[tune\]'$"):
        require("tune", "zsim tune")
    error = ModuleNotFoundError("No module named 'optuna.samplers'", name="optuna.samplers")
    assert "pip install 'zsim[tune]'" in str(explain(error, "zsim tune"))
    assert explain(ModuleNotFoundError("x", name="nothing_of_ours"), "zsim run") is None


def test_the_built_in_data_is_read_from_the_package():
    import zsim

    components = configs_dir("components")
    assert (components / "cards.yaml").is_file()
    # inside the package (a link to the repository's configs/ in a checkout)
    assert components.parent == type(components)(zsim.__file__).parent / "configs"
