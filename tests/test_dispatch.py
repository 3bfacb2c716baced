"""How a run's chunks are shared between its worker processes (``zsim.runner.processes``).

The workers are forks of this process, so stand-ins for ``worker.played`` and
``worker.to_disk`` patched in here are what they run: these tests see the hand-out alone,
without games. The runner's tests cover real chunks end to end.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from zsim.runner import processes, worker
from zsim.runner.chunkfile import Label
from zsim.runner.limits import Overrun, TimeLimits

PENDING = [(index, 10 * index, 10 * index + 10) for index in range(30)]


def stand_in(log: Path, fail: int | None = None, die: int | None = None):
    """A ``played`` that notes each chunk it starts in ``log`` and plays in 2 ms."""

    def played(context, index, start, stop, ended=None):
        with log.open("a") as file:
            file.write(f"{index}\n")
        if index == fail:
            raise ValueError(f"chunk {index} failed")
        if index == die:
            os._exit(3)
        time.sleep(0.002)
        # a worker sends the run only a chunk's counts, as text: the process that played it
        # rides in the label's run id
        return worker.ChunkResult(Label(str(os.getpid()), index, start, stop, ""), games=0,
                                  failures=0, decisions=0, engine_seconds=0.0, peak_rss_bytes=0)

    return played


@pytest.fixture(autouse=True)
def _no_files(monkeypatch):
    """What the stand-in plays is written nowhere."""
    monkeypatch.setattr(worker, "to_disk", lambda out, chunk: chunk)


CONTEXT = SimpleNamespace(limits=TimeLimits(0, 0))


def test_each_chunk_is_played_once_by_the_workers_and_none_by_this_process(tmp_path,
                                                                          monkeypatch):
    monkeypatch.setattr(worker, "played", stand_in(tmp_path / "log"))
    results = list(processes.play(CONTEXT, tmp_path, PENDING, workers=2))
    assert sorted(r.label.index for r in results) == list(range(30))
    assert sorted(map(int, (tmp_path / "log").read_text().split())) == list(range(30))
    players = {int(r.label.run_id) for r in results}
    assert len(players) == 2 and os.getpid() not in players


def test_a_failed_chunk_stops_the_run_with_its_error_and_hands_out_nothing_more(tmp_path,
                                                                                monkeypatch):
    monkeypatch.setattr(worker, "played", stand_in(tmp_path / "log", fail=0))
    # the error crosses from the worker as text (never unpickled): its type and message
    with pytest.raises(processes.WorkerError, match="ValueError: chunk 0 failed"):
        list(processes.play(CONTEXT, tmp_path, PENDING, workers=1))
    time.sleep(0.2)  # long enough for a worker still being handed chunks to play them
    started = (tmp_path / "log").read_text().split()
    assert started in (["0"], ["0", "1"])  # the one it held next at most, then it was killed


def test_a_worker_that_dies_stops_the_run(tmp_path, monkeypatch):
    monkeypatch.setattr(worker, "played", stand_in(tmp_path / "log", die=5))
    with pytest.raises(processes.WorkerLost, match=r"a worker process died \(exit code 3\)"):
        list(processes.play(CONTEXT, tmp_path, PENDING, workers=2))


class _Pipe:
    """A worker's pipe that only counts what it is sent."""

    def __init__(self) -> None:
        self.sent: list[object] = []

    def send(self, task: object) -> None:
        self.sent.append(task)


def test_at_the_end_of_a_run_a_worker_holds_one_chunk_at_a_time():
    crew = processes._Crew(CONTEXT, Path("."), 2)  # type: ignore[arg-type]
    crew._crew = [processes._Worker(slot, None, _Pipe()) for slot in range(2)]  # type: ignore
    crew._queue.extend((*chunk, {}) for chunk in PENDING[:7])
    crew._hand_out()
    assert [len(w.tasks) for w in crew._crew] == [2, 2]  # the chunk it plays and the next
    crew._crew[0].tasks.popleft()  # the first worker finished one: 3 are left
    crew._hand_out()
    assert [len(w.tasks) for w in crew._crew] == [2, 2]  # 2 are left, no more than workers
    crew._crew[0].tasks.popleft()
    crew._hand_out()
    assert [len(w.tasks) for w in crew._crew] == [1, 2]  # the next stays for whoever is free
    crew._crew[1].tasks.popleft()
    crew._crew[1].tasks.popleft()
    crew._hand_out()
    assert [len(w.tasks) for w in crew._crew] == [1, 1] and len(crew._queue) == 1


def test_a_lone_worker_holds_the_next_chunk_to_the_end():
    """With no other worker to share the last chunks with, it gets the next one while it
    still holds one (being written while it plays the next)."""
    crew = processes._Crew(CONTEXT, Path("."), 1)  # type: ignore[arg-type]
    crew._crew = [processes._Worker(0, None, _Pipe())]  # type: ignore[arg-type]
    crew._queue.extend((*chunk, {}) for chunk in PENDING[:3])
    crew._hand_out()
    assert len(crew._crew[0].tasks) == 2 and len(crew._queue) == 1
    crew._crew[0].tasks.popleft()
    crew._hand_out()
    assert len(crew._crew[0].tasks) == 2 and not crew._queue


def test_a_game_over_its_limit_in_the_chunk_after_one_being_written_is_ended(monkeypatch):
    """While its first chunk is written, a worker plays the second: a game of that one over
    its hard limit gets the worker killed, and both chunks are played again, that game
    recorded as ended."""
    crew = processes._Crew(SimpleNamespace(limits=TimeLimits(1, 0)), Path("."), 1)  # type: ignore[arg-type]
    worker_ = processes._Worker(0, None, _Pipe())  # type: ignore[arg-type]
    worker_.tasks.extend([(0, 0, 10, {}), (1, 10, 20, {})])
    crew._crew = [worker_]
    crew._beats[0].game = 13
    over = Overrun(13, 1, "turn", "over its limit", 5.0)
    monkeypatch.setattr(processes.limits, "overrun", lambda beat, *rest: over)
    monkeypatch.setattr(crew, "_read", lambda worker: None)
    killed, started = [], []
    monkeypatch.setattr(processes, "_kill", lambda worker: killed.append(worker))
    monkeypatch.setattr(crew, "_start", lambda slot: started.append(slot) or "fresh")
    crew._end_overruns()
    assert killed == [worker_] and started == [0] and crew._crew == ["fresh"]
    assert list(crew._queue) == [(0, 0, 10, {}), (1, 10, 20, {13: over})]


class _Dead:
    """A worker process that died with exit code 0."""

    exitcode = 0

    def join(self, timeout: float | None = None) -> None:
        pass


def _dead_crew(monkeypatch, calling: int) -> tuple[processes._Crew, list[object]]:
    """A crew of one worker that died playing game 13 of its second chunk, with the strategy
    of seat ``calling`` answering (-1: none)."""
    context = SimpleNamespace(limits=TimeLimits(0, 0), schedule=SimpleNamespace(
        plan=lambda game: SimpleNamespace(strategies=("mine", "theirs"))))
    crew = processes._Crew(context, Path("."), 1)  # type: ignore[arg-type]
    worker_ = processes._Worker(0, _Dead(), _Pipe())  # type: ignore[arg-type]
    worker_.tasks.extend([(0, 0, 10, {}), (1, 10, 20, {})])
    crew._crew = [worker_]
    beat = crew._beats[0]
    beat.game, beat.calling, beat.calling_kind, beat.started = 13, calling, b"turn", 0.0
    killed: list[object] = []
    monkeypatch.setattr(processes, "_kill", lambda worker: killed.append(worker))
    monkeypatch.setattr(crew, "_start", lambda slot: "fresh")
    return crew, killed


def test_a_worker_that_dies_while_a_strategy_answers_is_replaced_and_its_game_failed(
        monkeypatch):
    crew, killed = _dead_crew(monkeypatch, calling=1)
    dead = crew._crew[0]
    crew._lost(dead)
    assert killed == [dead] and crew._crew == ["fresh"]
    first, (index, start, stop, ended) = crew._queue
    assert first == (0, 0, 10, {}) and (index, start, stop) == (1, 10, 20)
    over = ended[13]
    assert (over.game, over.seat, over.kind, over.cause) == (13, 1, "turn", "ProcessDied")
    assert over.reason == ("the process playing the game died (exit code 0) while strategy "
                           "'theirs' (seat 1) was deciding 'turn', so the runner started "
                           "another in its place")


def test_a_worker_that_dies_outside_any_strategy_call_stops_the_run(monkeypatch):
    crew, killed = _dead_crew(monkeypatch, calling=-1)
    with pytest.raises(processes.WorkerLost, match=r"a worker process died \(exit code 0\)"):
        crew._lost(crew._crew[0])
    assert not killed and not crew._queue
