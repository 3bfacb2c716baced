"""``zsim strategies``: the bots that can be named, and the parameters one accepts."""

from __future__ import annotations

import inspect

import click

from zsim.strategies.registry import UnknownStrategy, available, parameters

ROUTES = """\
Besides these names, a strategy can be named as package.module:Class, path/to/file.py:Class,
or path/to/bot.yaml (a heuristic bot file). Parameters go inline, NAME(key=value, ...), or in a
YAML file, NAME@params.yaml. `zsim strategies --params NAME` lists what NAME accepts."""


@click.command("strategies")
@click.option("--params", "spec", metavar="SPEC",
              help="Show the parameters SPEC accepts, with the values it would play with.")
def command(spec: str | None) -> None:
    """List the strategies, one line each (or the parameters of one)."""
    try:
        if spec is not None:
            _show_parameters(spec)
            return
        found = available()
    except UnknownStrategy as error:
        raise click.ClickException(str(error)) from error
    width = max(len(name) for name in found) + 2
    for name, description in found.items():
        click.echo(f"{name.ljust(width)}{description}")
    click.echo()
    click.echo(ROUTES)


def _show_parameters(spec: str) -> None:
    from zsim.strategies.heuristic import PARAMETERS

    values = parameters(spec)
    if not values:
        click.echo(f"{spec} takes no parameters")
        return
    width = max(len(name) for name in values) + 2
    for name, value in values.items():
        note = PARAMETERS.get(name, "") if set(values) <= set(PARAMETERS) else ""
        shown = "(required)" if value is inspect.Parameter.empty else repr(value)
        click.echo(f"{name.ljust(width)}{shown:<10} {note}".rstrip())

