"""Where the built-in data lives: the ``configs/`` tree (the component box, experiments, bots
as YAML, variants, baselines), shipped inside the package.

The repository keeps ``configs/`` at its top, where designers edit it; ``zsim/configs`` links
to it there, and the build copies it into the package, so an installed wheel reads the same
files from any directory. A designer's own box is a directory named on the command line or in
an experiment, never looked up from the current directory.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

CONFIGS = Path(str(files("zsim") / "configs"))


def configs_dir(part: str) -> Path:
    """``configs/<part>`` of the built-in data."""
    return CONFIGS / part


#: The kinds of shipped files a command names by name alone (``--variant palace_vp_8``,
#: ``zsim compare default palace_vp_8``, ``--baseline ci``): configs/<part>/<name>.yaml.
SHIPPED = {"experiments": "experiment", "variants": "variant", "baselines": "baseline"}


def shipped_names(part: str) -> list[str]:
    """The names of the shipped files of ``configs/<part>``, sorted."""
    return sorted(path.stem for path in configs_dir(part).glob("*.yaml"))


def shipped(part: str, name: str) -> Path | None:
    """``configs/<part>/<name>.yaml`` when ``name`` is a bare name of one (no folder, no
    suffix), else None: a path given is always read as the path it is."""
    if not name or "/" in name or "\\" in name or "=" in name or Path(name).suffix:
        return None
    path = configs_dir(part) / f"{name}.yaml"
    return path if path.is_file() else None


def named_file(part: str, entry: str) -> Path:
    """``entry`` as a file: a path that exists (a FIFO or a device too, for the reader to say
    what it is; a folder is no file), or a shipped name (``shipped``); else the path as given,
    for the reader to say it does not exist."""
    path = Path(entry)
    if path.exists() and not path.is_dir():
        return path
    return shipped(part, entry) or path


def unknown_name(part: str, name: str) -> str:
    """What to say of a name that is no shipped file: the closest names, and every one."""
    from difflib import get_close_matches

    known = shipped_names(part)
    close = get_close_matches(name, known, n=1)
    guess = f" (did you mean {close[0]}?)" if close else ""
    return f"no shipped {SHIPPED[part]} is called {name!r}{guess}; shipped: {', '.join(known)}"


def said(path: str | Path) -> str:
    """A path as a printed command should say it, to run as printed from any folder: a shipped
    file by its name, a file under the current folder relative to it, any other absolute."""
    path = Path(path).resolve()
    for part in SHIPPED:
        if path.parent == configs_dir(part).resolve() and path.suffix == ".yaml":
            return path.stem
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)
