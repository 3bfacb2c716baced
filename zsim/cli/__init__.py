"""The ``zsim`` command line: one click group, each subcommand in its own module.

A subcommand's module is imported only when that command runs (or when ``--help`` lists them
all), so a command pays only for what it uses: ``zsim --version`` loads no pandas, and
``zsim run`` can start its worker processes before it imports the rest of the runner.
"""

from __future__ import annotations

import atexit
import gc
from importlib import import_module

import click

from zsim import __version__
from zsim.engine_build import ENGINE
from zsim.extras import MissingExtra, explain

# The subcommands, each the ``command`` of the module ``zsim.cli.<name>``.
COMMANDS = ("balance", "bench", "compare", "components", "effects", "exploit", "play", "power",
            "rate", "regress", "replay", "report", "run", "serve", "sweep", "strategies",
            "tournament", "train", "tune", "view")
#: Commands whose module has another name: ``effects`` measures causal effects of components,
#: and "effects" in the code names the cards' effects (``zsim.rules.effects``).
MODULES = {"effects": "causal"}


class _LazyGroup(click.Group):
    """A group whose subcommands are imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        command: click.Command = import_module(
            f"{__name__}.{MODULES.get(cmd_name, cmd_name)}").command
        return command

    def invoke(self, ctx: click.Context) -> object:
        """Run the subcommand; a package of an optional extra that is missing is one line
        naming the extra to install (``zsim.extras``), not a traceback."""
        try:
            return super().invoke(ctx)
        except MissingExtra as error:
            raise click.ClickException(str(error)) from None
        except ModuleNotFoundError as error:
            missing = explain(error, f"zsim {ctx.invoked_subcommand}")
            if missing is None:
                raise
            raise click.ClickException(str(missing)) from None


@click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="zsim",
                      message=f"%(prog)s, version %(version)s\nengine: {ENGINE}")
def main() -> None:
    """Simulate Zhanguo: The First Empire and measure its balance."""
    # At exit the interpreter's last garbage collections walk every object left (the modules
    # of pandas, scipy, the engine's tables): about 0.2 s, a fifth of a short run's time
    # outside its games. Frozen objects are skipped; memory goes back to the system anyway.
    atexit.unregister(gc.freeze)  # one registration, however often a test invokes the group
    atexit.register(gc.freeze)
