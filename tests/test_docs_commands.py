"""The commands the docs give a designer run as printed: every ``zsim`` line of the tutorial
(docs/tutorial.md), in order, in an empty folder outside the checkout, with fewer games; and the
CI workflow of docs/regress.md, which must install the extra ``zsim regress`` needs."""

from __future__ import annotations

import json
import os
import random
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from zsim.cli import NEEDS

ROOT = Path(__file__).resolve().parents[1]
TUTORIAL = ROOT / "docs" / "tutorial.md"
REGRESS = ROOT / "docs" / "regress.md"
GAMES = 8  # games per batch instead of the tutorial's: whole balanced blocks at 2 players


def commands(text: str, fence: str = "bash") -> list[str]:
    """The ``zsim`` lines of the doc's ``fence`` blocks, in order."""
    blocks = re.findall(rf"```{fence}\n(.*?)```", text, flags=re.DOTALL)
    return [line.strip() for block in blocks for line in block.splitlines()
            if line.strip().startswith("zsim ")]


def zsim(line: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """One documented command, run as a user runs it, from ``cwd`` (this checkout's sources on
    the path, as an installed zsim would be)."""
    words = shlex.split(line)
    words = [str(GAMES) if i and words[i - 1] == "--games" else w for i, w in enumerate(words)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "zsim", *words[1:]], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=900)


def playtest(folder: Path, position: str) -> None:
    """What the tutorial's reader does in ``zsim serve``: a game with the palace_vp_8 variant
    against greedy, a few moves, then *Save the position* into ``position``."""
    from serving import call, running

    with running(folder / "playtests") as (base, _):
        status, game = call(f"{base}/api/games", {"players": 2, "seats": ["human", "greedy"],
                                                  "variants": ["palace_vp_8"], "seed": 5})
        assert status == 201, game
        status, payload = call(f"{base}/api/games/{game['id']}")
        rng = random.Random(2)
        for _ in range(6):
            question = payload["question"]
            status, payload = call(f"{base}/api/games/{game['id']}/answer",
                                   {"number": question["number"],
                                    "option": rng.randrange(len(question["options"]))})
            assert status == 200, payload
        status, text = call(f"{base}/api/games/{game['id']}/position")
        assert status == 200, text
    (folder / position).write_text(json.dumps(text))


def test_the_tutorial_runs_as_written_from_an_empty_folder(tmp_path):
    lines = commands(TUTORIAL.read_text(encoding="utf-8"))
    assert len(lines) >= 10
    ran = []
    for line in lines:
        if line == "zsim serve":  # a server the reader plays in: played here through its API
            positions = [w for other in lines for w in shlex.split(other)
                         if w.startswith("zsim-position")]
            playtest(tmp_path, positions[0])
            continue
        done = zsim(line, tmp_path)
        assert done.returncode == 0, f"{line}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
        # what a command prints to run next runs from here too: no path into a checkout
        assert "configs/" not in done.stdout, (line, done.stdout)
        ran.append(line)
    assert any(line.startswith("zsim compare default palace_vp_8") for line in ran)
    assert "identical" in zsim("zsim regress --baseline mine.yaml", tmp_path).stdout


def test_the_ci_workflow_installs_the_extra_the_gate_needs_and_runs(tmp_path):
    """docs/regress.md's workflow: its install step brings the extra ``zsim regress`` needs
    (without it the gate would stop with status 2), and its gate passes on this engine."""
    text = REGRESS.read_text(encoding="utf-8")
    workflow = next(block for block in re.findall(r"```yaml\n(.*?)```", text, flags=re.DOTALL)
                    if "runs-on" in block)
    runs = [line.split("run:", 1)[1].strip() for line in workflow.splitlines()
            if line.strip().startswith("- run:")]
    install = next(run for run in runs if "pip install" in run)
    extras = re.search(r"\.\[([\w,]+)\]", install)
    assert extras is not None and NEEDS["regress"] in extras.group(1).split(","), install
    gate = [run for run in runs if run.startswith("zsim ")]
    assert gate and gate[0].startswith("zsim regress")
    done = zsim(gate[0], tmp_path)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert (tmp_path / "regress-run").is_dir()


@pytest.mark.parametrize("line", [
    "zsim compare default nosuchvariant --out x",
    "zsim regress --baseline nosuchbaseline",
])
def test_a_wrong_name_is_one_line(tmp_path, line):
    done = zsim(line, tmp_path)
    assert done.returncode != 0
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
