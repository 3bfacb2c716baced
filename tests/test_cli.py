"""The ``zsim`` group: every subcommand is listed, and none is imported before it runs."""

from __future__ import annotations

import pkgutil
import subprocess
import sys
from importlib import import_module

from click.testing import CliRunner

import zsim.cli
from zsim.cli import COMMANDS, MODULES, main


def test_every_command_module_is_a_listed_subcommand():
    modules = {info.name for info in pkgutil.iter_modules(zsim.cli.__path__)}
    with_commands = {name for name in modules
                     if hasattr(import_module(f"zsim.cli.{name}"), "command")}
    assert with_commands == {MODULES.get(name, name) for name in COMMANDS}
    result = CliRunner().invoke(main, ["--help"])
    assert result.exit_code == 0, result.output
    for name in COMMANDS:
        command = import_module(f"zsim.cli.{MODULES.get(name, name)}").command
        assert command.name == name
        help_line = command.get_short_help_str()
        assert f"  {name}" in result.output and help_line[:20] in result.output


def test_an_unknown_command_is_refused():
    result = CliRunner().invoke(main, ["runn"])
    assert result.exit_code == 2 and "No such command 'runn'" in result.output


def test_the_group_imports_a_subcommand_only_when_it_runs():
    # `zsim --version` must not pay for pandas or pyarrow, and `zsim run` starts its workers
    # before it imports the runner (zsim.runner.backends.start_workers).
    code = ("import sys, zsim.cli; "
            "print(sorted(m for m in sys.modules if m.startswith("
            "('zsim.cli.', 'pandas', 'pyarrow', 'zsim.runner.batch'))))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True).stdout.strip()
    assert loaded == "[]"
