"""The ``zsim`` command line: one click group, each subcommand in its own module."""

from __future__ import annotations

import click

from zsim import __version__


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="zsim")
def main() -> None:
    """Simulate Zhanguo: The First Empire and measure its balance."""


def _register() -> None:
    from zsim.cli import (
        bench,
        compare,
        components,
        play,
        regress,
        replay,
        report,
        run,
        strategies,
        sweep,
    )

    for module in (components, play, strategies, run, replay, report, compare, sweep, regress,
                   bench):
        main.add_command(module.command)


_register()
