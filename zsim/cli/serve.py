"""``zsim serve``: the playtest app, a local web server where a designer plays against the bots.
"""

from __future__ import annotations

import socket
from pathlib import Path

import click

from zsim.extras import require
from zsim.serve.hosts import is_loopback
from zsim.serve.sessions import Sessions


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (the default answers this machine only).")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="Port to listen on (0: any free port; the address is printed).")
@click.option("--games", "games_dir", type=click.Path(file_okay=False, path_type=Path),
              default=Path("playtests"), show_default=True,
              help="Folder where every game is kept as a replay file (zsim view reads one).")
@click.option("--bot-seconds", type=click.FloatRange(min=0.1), default=30.0,
              show_default=True,
              help="How long a bot may think over one decision; past it, its game stops.")
@click.option("--pace", type=click.IntRange(0, 10_000), default=500, show_default=True,
              help="Pause in milliseconds after each move of a bot, on the game page.")
@click.option("--max-running", type=click.IntRange(min=1), default=8, show_default=True,
              help="Games kept running at once (each in a process of its own); the least "
                   "recently played beyond it is stopped and built again when next played.")
def command(host: str, port: int, games_dir: Path, bot_seconds: float, pace: int,
            max_running: int) -> None:
    """Serve the playtest app: set a game up (players, bots, a variant, a seed), play the human
    seats in a browser against the bots, with undo, hints and hot-seat play."""
    require("serve", "zsim serve")
    if host.startswith("[") and host.endswith("]"):  # an IPv6 address as written in a URL
        host = host[1:-1]
    import uvicorn

    from zsim.serve.app import create_app

    listener = _listen(host, port)
    port = listener.getsockname()[1]
    sessions = Sessions(games_dir, bot_seconds, max_running)
    app = create_app(sessions, host=host, pace=pace)
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"zsim serve: http://{shown}:{port}/ (games kept in {games_dir}; Ctrl-C stops)")
    if not is_loopback(host):
        click.echo(f"warning: anyone who can reach {host} can play here, and set up games with "
                   "bots from Python files on this machine", err=True)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    server.run(sockets=[listener])


def _listen(host: str, port: int) -> socket.socket:
    """A listening socket on host:port, or one line saying why there can be none."""
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        return socket.create_server((host, port), family=family)
    except OSError as error:
        raise click.ClickException(f"cannot listen on {host}:{port}: "
                                   f"{error.strerror or error}") from None
