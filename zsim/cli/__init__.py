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
from zsim.errors import UserError
from zsim.extras import MissingExtra, explain, require

# The subcommands, each the ``command`` of the module ``zsim.cli.<name>``.
COMMANDS = ("balance", "bench", "compare", "components", "effects", "exploit", "play", "power",
            "rate", "regress", "replay", "report", "run", "serve", "sweep", "strategies",
            "tournament", "train", "tune", "variants", "view")
#: Commands whose module has another name: ``effects`` measures causal effects of components,
#: and "effects" in the code names the cards' effects (``zsim.rules.effects``).
MODULES = {"effects": "causal", "variants": "shipped"}
#: The extra each command needs (pyproject.toml, ``zsim.extras``): checked before the command
#: starts, so that a missing package stops it at once (exit 2), not after its games are played.
NEEDS = {"compare": "report", "sweep": "report", "effects": "report", "rate": "report",
         "power": "report", "regress": "report", "report": "report", "tournament": "report",
         "tune": "tune", "exploit": "tune", "serve": "serve", "train": "learn"}


class ExtraMissing(click.ClickException):
    """A command that needs a package of an extra that is not installed: exit status 2, as for
    any command that cannot start (a CI gate tells it from an alarm, exit 1)."""

    exit_code = 2


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

    def resolve_command(self, ctx: click.Context, args: list[str]
                        ) -> tuple[str | None, click.Command | None, list[str]]:
        """The subcommand, once the extra it needs is known to be installed (``NEEDS``;
        asking for its help needs none)."""
        name, command, rest = super().resolve_command(ctx, args)
        needed = NEEDS.get(name or "")
        if needed is not None and not {"-h", "--help"} & set(rest):
            require(needed, f"zsim {name}")
        return name, command, rest

    def invoke(self, ctx: click.Context) -> object:
        """Run the subcommand; a package of an optional extra that is missing is one line
        naming the extra to install (``zsim.extras``), and any other user error
        (``zsim.errors.UserError``) its message, not a traceback."""
        try:
            return super().invoke(ctx)
        except MissingExtra as error:
            raise ExtraMissing(str(error)) from None
        except UserError as error:  # any the command left: one line, not a traceback
            raise click.ClickException(str(error)) from None
        except ModuleNotFoundError as error:
            missing = explain(error, f"zsim {ctx.invoked_subcommand}")
            if missing is None:
                raise
            raise ExtraMissing(str(missing)) from None



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
