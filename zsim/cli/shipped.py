"""``zsim variants``: the experiments, variants and baselines shipped with zsim, by the names
the commands take from any folder (``--variant palace_vp_8``, ``zsim compare default
palace_vp_8``, ``--baseline ci``)."""

from __future__ import annotations

import click

from zsim.paths import SHIPPED, configs_dir, shipped_names
from zsim.yamlload import safe_load

USE = {
    "experiments": "zsim run NAME; zsim compare NAME ...; --experiment NAME",
    "variants": "--variant NAME; zsim compare default NAME",
    "baselines": "zsim regress --baseline NAME",
}


def describe(part: str, name: str) -> str:
    """A shipped file's ``description:``, on one line (a baseline: the games it records)."""
    try:
        data = safe_load((configs_dir(part) / f"{name}.yaml").read_text(encoding="utf-8"))
    except Exception:  # a file that cannot be read is listed; using it says what is wrong
        return "(cannot be read)"
    if not isinstance(data, dict):
        return ""
    game = data.get("experiment")
    if part == "baselines" and isinstance(game, dict):
        players = "/".join(map(str, game.get("players", [])))
        return (f"{game.get('games', '?')} games of {', '.join(game.get('strategies', []))} "
                f"at {players} players, seed {game.get('seed', '?')}")
    return _line(data.get("description", ""))


def _line(text: object) -> str:
    return " ".join(str(text).split())


@click.command("variants")
@click.option("--paths", is_flag=True, help="Also print where each file is (to copy one and "
                                            "edit it).")
def command(paths: bool) -> None:
    """List the shipped experiments, variants and baselines, each by the name to give it."""
    for part, kind in SHIPPED.items():
        names = shipped_names(part)
        click.echo(f"{part} ({USE[part]}):")
        width = max((len(n) for n in names), default=0) + 2
        for name in names:
            click.echo(f"  {name.ljust(width)}{describe(part, name)}")
            if paths:
                click.echo(f"  {''.ljust(width)}{configs_dir(part) / f'{name}.yaml'}")
        if not names:
            click.echo(f"  (no shipped {kind})")
        click.echo()
