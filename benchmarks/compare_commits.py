"""Compare ``zsim bench`` of this checkout with an older commit, back to back.

The older commit (and ``--new`` when given) is checked out once in a clone of its own under
``--workdir`` (outside this checkout, which is left alone: no worktree is added to it), with
its own default build (compiled where that commit compiles its engine), and reused by later
calls. By default each commit gets a virtual environment of its own (minutes, and the network,
once); ``--venv DIR`` reuses an existing one instead (this checkout's, typically): nothing is
installed into it, the commit's engine is compiled in place in its clone
(``setup.py build_ext --inplace`` with that venv's Python, which needs mypy and a setuptools
that reads the commit's pyproject.toml, on ``PYTHONPATH`` if need be) and bench runs as
``DIR/bin/python -m zsim`` with the clone first on ``PYTHONPATH``. Then ``zsim bench`` runs
``--rounds`` times on each side, taking turns (old, new, then new, old, ...), so that a
machine that gets busier or quieter meanwhile moves both alike; each figure of bench's table is
printed for both sides with its ratio new / old: the ratio of the medians over the rounds,
and the range of the ratios of the rounds taken pair by pair (for the percentages, overhead
and efficiency, the difference in points instead).

    python benchmarks/compare_commits.py 89a4f74 -- --games 400 --jobs 1
    python benchmarks/compare_commits.py 89a4f74 --rounds 3 -- --games 600 --jobs 2 --repeat 2
    python benchmarks/compare_commits.py main --new HEAD -- --games 200 -s greedy -s random
    python benchmarks/compare_commits.py 9d0b5bd --venv /work/venv -- --games 400 --jobs 1

Everything after ``--`` goes to ``zsim bench`` on both sides as it is, so both must know the
options given. The new side is, unless ``--new`` names a commit, this checkout run as
``python -m zsim`` by the Python that runs this script: rebuild it after editing a
compiled module, or it measures the sources (``zsim --version`` of each side is printed). Run it
under ``nice`` on a shared machine; bench's games/CPU-s is the figure that load moves least.
"""

from __future__ import annotations

import argparse
import os
import shlex
import statistics
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
# bench's table: the left-aligned key columns, then right-aligned figures (zsim/cli/bench.py).
KEYS = ("lineup", "mode")
# (older commits print "efficiency wall/CPU", newer ones also the efficiency in run: the
# longer name is looked for first, and a name inside one already found is not)
FIGURES = ("games", "wall s", "games/s", "decisions/s", "CPU s", "games/CPU-s",
           "efficiency wall/CPU/in run", "efficiency wall/CPU", "overhead wall/CPU/in run",
           "peak RSS", "stolen")
# A cell holding several figures, "a / b / c", and what each is called.
SPLIT = {"efficiency wall/CPU/in run": ("efficiency wall", "efficiency CPU",
                                        "efficiency in run"),
         "efficiency wall/CPU": ("efficiency wall", "efficiency CPU"),
         "overhead wall/CPU/in run": ("overhead wall", "overhead CPU", "overhead in run")}
# "stolen" (newer commits): the machine's steal time during the measurement, "-" unknown
PERCENT = {name for names in SPLIT.values() for name in names} | {"stolen"}


@dataclass
class Side:
    """One build of zsim that bench runs on."""

    label: str
    zsim: list[str]  # its zsim command
    cwd: Path  # its source tree (older commits read the built-in data from there)
    env: dict[str, str] | None = None  # its environment, when it differs from this one's
    engine: str = ""
    tables: list[dict[tuple[str, str], dict[str, float]]] = field(default_factory=list)

    def command(self, bench_args: Sequence[str]) -> list[str]:
        return [*self.zsim, "bench", *bench_args]


def run(command: Sequence[str], cwd: Path | None = None,
        env: dict[str, str] | None = None) -> str:
    done = subprocess.run(list(command), cwd=cwd, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        sys.exit(f"failed ({done.returncode}): {shlex.join(command)}\n{done.stderr.strip()}")
    return done.stdout


def resolve(commit: str) -> str:
    return run(["git", "-C", str(REPO), "rev-parse", "--verify", f"{commit}^{{commit}}"]).strip()


def checkout(sha: str, src: Path) -> None:
    """``sha`` checked out in a clone of this repository at ``src`` (made once): a clone of its
    own, so that this checkout gains no worktree and its git state is not touched."""
    if not (src / ".git").exists():
        run(["git", "clone", "--quiet", "--no-checkout", "--shared", str(REPO), str(src)])
    run(["git", "-C", str(src), "checkout", "--quiet", "--force", "--detach", sha])


def install(commit: str, workdir: Path, venv: Path | None = None) -> Side:
    """A clone of ``commit`` built once and reused, with a virtual environment of its own, or
    with ``venv`` (an existing one, left as it is: the engine is compiled in the clone); the file
    ``installed`` is written last, so that a half-made one is made again."""
    sha = resolve(commit)
    home = workdir / sha[:12]
    src, done = home / "src", home / ("built" if venv is not None else "installed")
    if not (done.is_file() and done.read_text().strip() == sha):
        print(f"installing {commit} ({sha[:12]}) in {home} (its default build; minutes)",
              file=sys.stderr)
        home.mkdir(parents=True, exist_ok=True)
        checkout(sha, src)
        if venv is None:
            own = home / "venv"
            if not own.exists():
                run([sys.executable, "-m", "venv", str(own)])
                run([str(own / "bin" / "pip"), "install", "-q", "--upgrade", "pip"])
            run([str(own / "bin" / "pip"), "install", "-q", "-e", str(src)], cwd=src)
        elif (src / "setup.py").exists():  # a commit that compiles its engine
            run([str(venv / "bin" / "python"), "setup.py", "build_ext", "--inplace"], cwd=src,
                env=_with_path(src))
        done.write_text(sha + "\n")
    if venv is None:
        return Side(f"{commit} ({sha[:12]})", [str(home / "venv" / "bin" / "zsim")], src)
    return Side(f"{commit} ({sha[:12]})", [str(venv / "bin" / "python"), "-m", "zsim"], src,
                _with_path(src))


def _with_path(src: Path) -> dict[str, str]:
    """This environment with ``src`` first on ``PYTHONPATH`` (its sources and its build)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(src), env.get("PYTHONPATH", "")]))
    return env


def this_checkout() -> Side:
    head = run(["git", "-C", str(REPO), "rev-parse", "--short=12", "HEAD"]).strip()
    dirty = run(["git", "-C", str(REPO), "status", "--porcelain", "--untracked-files=no"])
    label = f"this checkout ({head}{', with local changes' if dirty.strip() else ''})"
    return Side(label, [sys.executable, "-m", "zsim"], REPO)


def parse_bench(text: str) -> dict[tuple[str, str], dict[str, float]]:
    """bench's table as {(lineup, mode): {figure: value}}: each right-aligned cell ends where
    its header does."""
    lines = text.splitlines()
    try:
        top = next(i for i, line in enumerate(lines) if line.startswith("lineup"))
    except StopIteration:
        sys.exit(f"no bench table in:\n{text}")
    header = lines[top]
    ends: dict[str, int] = {}
    for name in FIGURES:
        if name in header and not any(name in found for found in ends):
            ends[name] = header.index(name) + len(name)
    mode_at, first = header.index("mode"), min(end - len(n) for n, end in ends.items())
    rows = {}
    for line in lines[top + 2:]:
        if not line.strip() or line.startswith(("overhead:", "efficiency:", "peak RSS:",
                                                 "engine:", "chosen:")):
            break
        key = (line[:mode_at].strip(), line[mode_at:first].strip())
        values: dict[str, float] = {}
        start = first
        for name, end in sorted(ends.items(), key=lambda item: item[1]):
            cell = line[start:end].strip()
            start = end
            names = SPLIT.get(name, (name,))
            parts = [part.strip() for part in cell.split("/")] if cell else []
            for part_name, part in zip(names, parts, strict=False):
                if part != "-":
                    values[part_name] = _number(part)
        rows[key] = values
    return rows


def _number(cell: str) -> float:
    if cell.endswith("%"):
        return float(cell[:-1]) / 100
    if cell.endswith("MiB"):
        return float(cell[:-3])
    return float(cell)


def _shown(name: str, value: float) -> str:
    if name in PERCENT:
        return f"{value:.1%}"
    if name == "peak RSS":
        return f"{value:.0f} MiB"
    return f"{value:.3g}" if value < 100 else f"{value:.0f}"


def report(old: Side, new: Side, bench_args: Sequence[str]) -> str:
    lines = [f"old: {old.label}: {old.engine}", f"     {shlex.join(old.command(bench_args))}",
             f"new: {new.label}: {new.engine}", f"     {shlex.join(new.command(bench_args))}",
             f"rounds: {len(old.tables)}, taking turns; new/old: the ratio of the medians, for "
             f"percentages their difference in points [range over the rounds, pair by pair]",
             ""]
    header = f"{'lineup':<10}{'mode':<16}{'figure':<18}{'old':>12}{'new':>12}{'new/old':>10}"
    lines += [header, "-" * (len(header) + 16)]
    for key in old.tables[0]:
        for name in old.tables[0][key]:
            if name == "games":
                continue
            olds = [table[key][name] for table in old.tables if name in table.get(key, {})]
            news = [table[key][name] for table in new.tables if name in table.get(key, {})]
            if not olds or not news:
                continue
            low, high = statistics.median(olds), statistics.median(news)
            if name in PERCENT:  # a ratio of two overheads near 0 says nothing: points
                pairs = [100 * (n - o) for o, n in zip(olds, news, strict=False)]
                ratio, unit = f"{100 * (high - low):+.1f} pt", " pt"
            else:
                pairs = [n / o for o, n in zip(olds, news, strict=False) if o]
                ratio, unit = (f"{high / low:.2f}" if low else "-"), ""
            spread = (f"  [{min(pairs):.2f} to {max(pairs):.2f}{unit}]" if len(pairs) > 1
                      else "")
            lines.append(f"{key[0]:<10}{key[1]:<16}{name:<18}{_shown(name, low):>12}"
                         f"{_shown(name, high):>12}{ratio:>10}{spread}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        usage="%(prog)s OLD [--new COMMIT] [--rounds N] [--workdir DIR] [-- BENCH OPTIONS]")
    parser.add_argument("old", help="the older commit (any git revision)")
    parser.add_argument("--new", help="a commit to compare instead of this checkout")
    parser.add_argument("--rounds", type=int, default=2, help="bench runs per side (2)")
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/zsim-compare"),
                        help="where the commits' clones and venvs are kept")
    parser.add_argument("--venv", type=Path,
                        help="an existing virtual environment to run every side with (nothing "
                             "is installed into it; each commit is built in its clone)")
    args, bench_args = parser.parse_known_args()
    if bench_args[:1] == ["--"]:
        bench_args = bench_args[1:]
    workdir = args.workdir.resolve()
    if workdir == REPO or REPO in workdir.parents:
        parser.error(f"--workdir {workdir} is inside this checkout: give one outside it")
    old = install(args.old, workdir, args.venv)
    new = install(args.new, workdir, args.venv) if args.new else this_checkout()
    for side in (old, new):
        side.engine = next((line for line in run([*side.zsim, "--version"], cwd=side.cwd,
                                                 env=side.env).splitlines()
                            if line.startswith("engine")),
                           "engine: not said (a commit from before the compiled build)")
    for turn in range(args.rounds):
        for side in (old, new) if turn % 2 == 0 else (new, old):
            print(f"round {turn + 1}: {side.label}", file=sys.stderr)
            side.tables.append(parse_bench(run(side.command(bench_args), cwd=side.cwd,
                                               env=side.env)))
    print(report(old, new, bench_args))


if __name__ == "__main__":
    main()
