"""Shared fixtures: the default box, and games whose seats answer from a script."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from zsim.components import Box, default_box_dir, load_box
from zsim.decisions import Decision
from zsim.game import Game
from zsim.strategies.base import Strategy
from zsim.view import PlayerView


def experiment_file(tmp_path_factory: pytest.TempPathFactory, text: str) -> Path:
    """An experiment YAML with this text, in a fresh directory of its own."""
    path = tmp_path_factory.mktemp("exp") / "experiment.yaml"
    path.write_text(text)
    return path


@pytest.fixture(scope="session")
def box() -> Box:
    return load_box(default_box_dir())


class Scripted(Strategy):
    """Answers queued per decision kind; otherwise the first option (or a custom rule).

    Every decision asked is recorded, so tests can assert what was offered.
    """

    name = "scripted"

    def __init__(self, rule: Callable[[Decision], Any] | None = None) -> None:
        self.queue: dict[str, list[Any]] = {}
        self.asked: list[Decision] = []
        self.rule = rule

    def script(self, kind: str, *answers: Any) -> Scripted:
        self.queue.setdefault(kind, []).extend(answers)
        return self

    def choose(self, view: PlayerView, decision: Decision) -> Any:
        self.asked.append(decision)
        queued = self.queue.get(decision.kind)
        if queued:
            return queued.pop(0)
        if self.rule is not None:
            return self.rule(decision)
        return decision.options[0]

    def offered(self, kind: str) -> list[list[Any]]:
        return [d.options for d in self.asked if d.kind == kind]


@pytest.fixture
def make_game(box: Box) -> Callable[..., Game]:
    """A freshly set-up game (before starting tiles) with scripted seats."""

    def make(n: int = 4, seed: int = 0, **kwargs: Any) -> Game:
        return Game(box, [Scripted() for _ in range(n)], seed, **kwargs)

    return make


# Modules whose tests play many games, start servers, browsers or worker processes, compile,
# tune or fit: `pytest -m "not slow"` leaves them out (README's quick check), CI runs them all.
SLOW_MODULES = frozenset({
    "test_serve_browser", "test_viewer_browser", "test_report", "test_report_figures",
    "test_experience_report", "test_engine_build", "test_tuning", "test_learn",
    "test_distilled", "test_search_bots", "test_rollout_bot", "test_regress",
    "test_compare_commits", "test_isolate", "test_limits", "test_runner", "test_tournament",
    "test_causal", "test_fair_play", "test_serve", "test_env", "test_notebook", "test_findings",
    "test_evidence", "test_compare", "test_api", "test_tutorial", "test_dispatch",
    "test_run_manifest", "test_merging", "test_power", "test_ratings", "test_packaging",
    "test_docs_commands",
})


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the tests of ``SLOW_MODULES`` slow (``pytest -m "not slow"`` to leave them out)."""
    slow = pytest.mark.slow
    for item in items:
        if item.path.stem in SLOW_MODULES:
            item.add_marker(slow)
