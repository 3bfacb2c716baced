"""Hard limits: a strategy cannot hang a run, whatever it catches, replaces or blocks in.

Each test plays ``zsim run`` in a process of its own, with bots that fight the limits: one
that swallows every exception in a retry loop, one that ignores the signals (SIGALRM, SIGINT,
SIGTERM), one that sleeps in C code holding the interpreter's lock. The runner must end their
games from outside, naming them, and stop at Ctrl-C or SIGTERM within moments. The timeouts
below are generous: they prove that the run ends, not how fast.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import psutil
import pytest

from zsim.runner import chunkfile

BOTS = '''
import ctypes, os, signal, time
from pathlib import Path
from zsim.strategies.random_bot import RandomStrategy

MARK = Path({mark!r})


class Hangs(RandomStrategy):
    """Sleeps at its first decision of each game, forever: nothing stops it from inside."""

    def choose(self, view, decision):
        MARK.touch()
        if not view.memo:
            view.memo["hung"] = True
            self.hang()
        return super().choose(view, decision)


class CatchAll(Hangs):
    def hang(self):
        while True:
            try:
                time.sleep(1)
            except BaseException:
                pass


class OwnSignals(Hangs):
    def hang(self):
        for sig in (signal.SIGALRM, signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, signal.SIG_IGN)
        time.sleep(3600)


class SleepsInC(Hangs):
    def hang(self):
        ctypes.PyDLL(None).sleep(3600)  # keeps the interpreter's lock: no Python runs
'''


@pytest.fixture
def bots(tmp_path: Path) -> Path:
    path = tmp_path / "bots.py"
    path.write_text(BOTS.format(mark=str(tmp_path / "deciding")))
    return path


@pytest.fixture
def zsim():
    """Start ``zsim ARGS`` in a process of its own, with Ctrl-C raising as at a terminal (a
    suite run in the background has SIGINT ignored, which a child would inherit); whatever is
    still running at the end of the test is killed."""
    started: list[subprocess.Popen[str]] = []

    def start(*args: str) -> subprocess.Popen[str]:
        started.append(subprocess.Popen(
            [sys.executable, "-c", "from zsim.cli import main; main()", *args], text=True,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL)))
        return started[-1]

    yield start
    for process in started:
        if process.poll() is None:
            process.kill()
            process.communicate()


def games(out: Path) -> pd.DataFrame:
    return pd.read_parquet(out / "games.parquet").drop(columns=["duration_s"])


@pytest.mark.parametrize("bot, stuck", [
    ("CatchAll", "did not stop when told"),
    ("OwnSignals", "did not stop when told"),
    ("SleepsInC", "stopped responding"),
])
def test_a_game_the_strategy_will_not_let_stop_is_ended_and_the_run_goes_on(bots, zsim,
                                                                          tmp_path, bot, stuck):
    out = tmp_path / "run"
    spec = f"{bots}:{bot}"
    run = zsim("run", "--games", "6", "-n", "2", "-s", spec, "-s", "random", "-s", "random",
               "--seats", "rotate", "--seed", "2", "--chunk-size", "3", "--jobs", "2",
               "--decision-time-limit", "0.5", "--max-failures", "6", "--quiet",
               "--out", str(out))
    output = run.communicate(timeout=300)[0]
    assert run.returncode == 0, output
    played = games(out)
    seated = played["strategies"].str.contains("Hangs|CatchAll|OwnSignals|SleepsInC")
    assert seated.sum() == 4 and played.loc[seated, "failed"].all()
    assert not played.loc[~seated, "failed"].any()
    assert played.loc[seated, "error"].str.contains(stuck).all()
    failures = [json.loads(line) for line in (out / "failures.jsonl").read_text().splitlines()]
    assert len(failures) == 4
    if bot != "SleepsInC":  # frozen before the watchdog saw it decide: no one is named
        assert {f["strategy"] for f in failures} == {spec}
        assert all(f["decision"] == "start_tile" for f in failures)
        assert all(f["strategies"][f["seat"]] == spec for f in failures)


@pytest.mark.parametrize("bot", ["CatchAll", "OwnSignals", "SleepsInC"])
@pytest.mark.parametrize("sent, code, said", [
    (signal.SIGINT, 130, "interrupted"),
    (signal.SIGTERM, 143, "terminated (SIGTERM)"),
])
def test_ctrl_c_and_sigterm_stop_a_run_whatever_its_strategies_do(bots, zsim, tmp_path, bot,
                                                                   sent, code, said):
    out = tmp_path / "run"
    run = zsim("run", "--games", "8", "-n", "2", "-s", f"{bots}:{bot}", "-s", "random",
               "--jobs", "2", "--chunk-size", "2", "--decision-time-limit", "0",
               "--game-time-limit", "0", "--quiet", "--out", str(out))
    deadline = time.monotonic() + 120
    while not (tmp_path / "deciding").exists():
        assert time.monotonic() < deadline and run.poll() is None, "the bot never played"
        time.sleep(0.05)
    time.sleep(0.3)  # well inside its hang
    workers = psutil.Process(run.pid).children(recursive=True)
    run.send_signal(sent)
    output = run.communicate(timeout=60)[0]
    assert run.returncode == code, output
    assert f"{said} with 0 of 8 games finished" in output and "Traceback" not in output
    assert json.loads((out / "run.json").read_text())["status"] == "interrupted"
    assert not chunkfile.finished(out)
    psutil.wait_procs(workers, timeout=10)
    assert not any(w.is_running() and w.status() != psutil.STATUS_ZOMBIE for w in workers)


def test_a_run_whose_games_were_ended_resumes_to_the_same_tables(bots, zsim, tmp_path):
    spec = f"{bots}:CatchAll"
    args = ["--games", "8", "-n", "2", "-s", spec, "-s", "random", "-s", "random", "-s",
            "random", "--seats", "rotate", "--seed", "4", "--chunk-size", "2",
            "--decision-time-limit", "0.5", "--max-failures", "8", "--quiet"]
    whole = zsim("run", *args, "--jobs", "2", "--out", str(tmp_path / "whole"))
    output = whole.communicate(timeout=300)[0]
    assert whole.returncode == 0, output
    out = tmp_path / "run"
    stopped = zsim("run", *args, "--jobs", "2", "--out", str(out))
    deadline = time.monotonic() + 300
    while not chunkfile.finished(out):
        assert time.monotonic() < deadline and stopped.poll() is None
        time.sleep(0.05)
    stopped.terminate()
    output = stopped.communicate(timeout=60)[0]
    assert stopped.returncode == 143, output
    resumed = zsim("run", "--resume", str(out), "--quiet")
    output = resumed.communicate(timeout=300)[0]
    assert resumed.returncode == 0, output
    pd.testing.assert_frame_equal(games(out), games(tmp_path / "whole"))
    assert games(out)["failed"].sum() == 4
