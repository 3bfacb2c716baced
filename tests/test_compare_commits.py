"""benchmarks/compare_commits.py reads every figure of ``zsim bench``'s table, and builds old
commits in clones of their own."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from zsim.cli.bench import Row, Timing, _table

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "compare_commits.py"


@pytest.fixture(scope="module")
def compare():
    spec = importlib.util.spec_from_file_location("compare_commits", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    yield module
    del sys.modules[spec.name]


def test_the_script_reads_back_each_figure_bench_prints(compare):
    engine = Timing("4 random", "engine, 1 core", 400, 2.0, 1.9, 60_000, 100 * 2**20,
                    stolen=0.25)
    single = Timing("4 random", "runner, 1 job", 400, 2.5, 2.2, 60_000, 110 * 2**20, 2.1)
    double = Timing("4 random", "runner, 2 jobs", 400, 1.6, 2.5, 60_000, 120 * 2**20, 2.2)
    cores = Timing("4 random", "engine, 2 cores", 400, 1.25, 2.3, 60_000, 90 * 2**20)
    text = _table([Row(engine), Row(cores, versus=engine, jobs=2), Row(single, versus=engine),
                   Row(double, versus=single, jobs=2, ceiling=cores)])
    assert "the runner's N jobs reach, of its games/s: 4 random: 78.1%." in text  # 1.25 / 1.6
    rows = compare.parse_bench(f"engine: compiled\n{text}\nengine: compiled (mypyc).")
    assert set(rows) == {("4 random", "engine, 1 core"), ("4 random", "engine, 2 cores"),
                         ("4 random", "runner, 1 job"), ("4 random", "runner, 2 jobs")}
    assert rows["4 random", "engine, 2 cores"]["efficiency wall"] == pytest.approx(0.8)
    assert rows["4 random", "engine, 2 cores"]["efficiency CPU"] == pytest.approx(1.9 / 2.3,
                                                                                 abs=1e-3)
    assert "efficiency in run" not in rows["4 random", "engine, 2 cores"]
    assert rows["4 random", "engine, 1 core"]["games/CPU-s"] == pytest.approx(400 / 1.9, abs=0.1)
    assert rows["4 random", "runner, 1 job"]["overhead wall"] == pytest.approx(0.25)
    assert rows["4 random", "runner, 1 job"]["overhead CPU"] == pytest.approx(2.2 / 1.9 - 1,
                                                                              abs=1e-3)
    assert rows["4 random", "runner, 2 jobs"]["efficiency wall"] == pytest.approx(
        (400 / 1.6) / (2 * 400 / 2.5), abs=1e-3)
    assert rows["4 random", "runner, 2 jobs"]["efficiency in run"] == pytest.approx(
        2.2 / (2 * 1.6), abs=1e-3)
    assert rows["4 random", "runner, 2 jobs"]["peak RSS"] == 120
    assert rows["4 random", "engine, 1 core"]["stolen"] == pytest.approx(0.25)
    assert "stolen" not in rows["4 random", "runner, 1 job"]  # "-": the system did not say


def test_the_script_reads_the_table_of_an_older_bench_too(compare):
    # before the efficiency in run, the column was "efficiency wall/CPU", two figures a cell
    old = """lineup    mode             games  wall s  games/s decisions/s   CPU s games/CPU-s\
  efficiency wall/CPU   overhead wall/CPU/in run  peak RSS
----
4 random  runner, 2 jobs    2000    3.49    573.8      197572    6.91       289.3\
        79.6% / 82.7%                              222 MiB
engine: compiled (mypyc).""".replace("\\\n", "")
    rows = compare.parse_bench(old)
    figures = rows["4 random", "runner, 2 jobs"]
    assert figures["efficiency wall"] == pytest.approx(0.796)
    assert figures["efficiency CPU"] == pytest.approx(0.827)
    assert "efficiency in run" not in figures and figures["peak RSS"] == 222


def test_ratios_are_new_over_old_and_percentages_differ_in_points(compare):
    old = compare.Side("old", ["zsim"], Path("."), None, "engine: pure",
                       [{("x", "engine, 1 core"): {"games/CPU-s": 100.0, "overhead wall": 0.2}}])
    new = compare.Side("new", ["zsim"], Path("."), None, "engine: compiled",
                       [{("x", "engine, 1 core"): {"games/CPU-s": 250.0, "overhead wall": 0.1}}])
    text = compare.report(old, new, ["--games", "4"])
    assert "zsim bench --games 4" in text
    lines = {line.split()[-2] if "pt" in line else line.split()[-1]
             for line in text.splitlines() if line.startswith("x ")}
    assert lines == {"2.50", "-10.0"}


def test_an_old_commit_is_checked_out_in_a_clone_and_the_checkout_gains_no_worktree(compare,
                                                                                   tmp_path):
    repo = compare.REPO
    if not (repo / ".git").exists():
        pytest.skip("not run from a git checkout")

    def git(*args: str, cwd: Path = repo) -> str:
        return subprocess.run(["git", "-C", str(cwd), *args], capture_output=True, text=True,
                              check=True).stdout

    before = git("worktree", "list", "--porcelain")
    sha = git("rev-parse", "HEAD~1").strip()
    src = tmp_path / "src"
    compare.checkout(sha, src)
    assert git("rev-parse", "HEAD", cwd=src).strip() == sha
    assert (src / "zsim" / "__init__.py").is_file()
    compare.checkout(sha, src)  # made once, reused
    assert git("worktree", "list", "--porcelain") == before


def test_an_existing_venv_runs_the_commit_from_its_clone(compare, tmp_path, monkeypatch):
    sha = "0" * 40
    home = tmp_path / sha[:12]
    (home / "src").mkdir(parents=True)
    (home / "built").write_text(sha + "\n")  # built before: nothing is run again
    monkeypatch.setattr(compare, "resolve", lambda commit: sha)
    side = compare.install("old", tmp_path, Path("/some/venv"))
    assert side.zsim == ["/some/venv/bin/python", "-m", "zsim"]
    assert side.env is not None
    assert side.env["PYTHONPATH"].split(":")[0] == str(home / "src")
