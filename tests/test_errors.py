"""The project's user errors share one base, and the command line shows any of them in one line."""

from __future__ import annotations

import sys
import types

import click
import pytest
from click.testing import CliRunner

from zsim import cli
from zsim.components.loader import BoxError
from zsim.errors import UserError
from zsim.experience.data import ExperienceError
from zsim.extras import MissingExtra
from zsim.learn.dataset import DatasetError
from zsim.learn.model import ModelError
from zsim.lineup import LineupError
from zsim.options import OptionError
from zsim.position import PositionError
from zsim.ratings import RatingError
from zsim.regress import BaselineError
from zsim.reports.build import ReportOutputError
from zsim.reports.loader import RunDirError
from zsim.runner.backends import BackendError
from zsim.runner.experiment import ExperimentError
from zsim.runner.lock import LockError
from zsim.runner.writer import DamagedRun, OutputError
from zsim.serve.replay import ReplayError
from zsim.strategies.heuristic import BotError
from zsim.strategies.registry import UnknownStrategy
from zsim.tuning.balance import BalanceError
from zsim.tuning.search import TuningError

# each user error and the built-in class code may still catch it by
USER_ERRORS = [
    (BoxError, Exception), (ExperienceError, ValueError), (MissingExtra, ImportError),
    (DatasetError, ValueError), (ModelError, ValueError), (LineupError, ValueError),
    (OptionError, ValueError), (PositionError, ValueError), (RatingError, ValueError),
    (BaselineError, ValueError), (ReportOutputError, OSError), (RunDirError, ValueError),
    (BackendError, RuntimeError), (ExperimentError, ValueError), (LockError, OSError),
    (DamagedRun, ValueError), (OutputError, OSError), (ReplayError, ValueError),
    (BotError, ValueError), (UnknownStrategy, ValueError), (BalanceError, ValueError),
    (TuningError, ValueError),
]


@pytest.mark.parametrize(("error", "builtin"), USER_ERRORS, ids=lambda c: c.__name__)
def test_a_user_error_has_the_one_base_and_keeps_its_builtin_class(error, builtin):
    assert issubclass(error, UserError) and issubclass(error, builtin)


def _command_raising(error: BaseException) -> click.Command:
    @click.command()
    def command() -> None:
        raise error
    return command


@pytest.fixture
def boom(monkeypatch):
    """A subcommand ``boom`` of the real group that raises what the test gives it."""
    def install(error: BaseException) -> None:
        module = types.ModuleType("zsim.cli.boom")
        module.command = _command_raising(error)  # type: ignore[attr-defined]
        monkeypatch.setitem(sys.modules, "zsim.cli.boom", module)
        monkeypatch.setattr(cli, "COMMANDS", (*cli.COMMANDS, "boom"))
    return install


def test_a_user_error_a_command_leaves_is_one_line(boom):
    boom(OptionError("unknown variant key 'cout_reset' (did you mean 'court_reset'?)"))
    result = CliRunner().invoke(cli.main, ["boom"])
    assert result.exit_code == 1
    assert result.output == ("Error: unknown variant key 'cout_reset' "
                             "(did you mean 'court_reset'?)\n")


def test_a_bug_is_not_dressed_as_a_user_error(boom):
    boom(KeyError("a bug"))
    result = CliRunner().invoke(cli.main, ["boom"])
    assert isinstance(result.exception, KeyError)  # left to its traceback
