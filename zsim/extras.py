"""The optional parts of zsim and the packages each needs: playing and running batches need
only the core; statistics and reports, tuning, Dask, the learning tools, the research
environments and the playtest app are extras (``pip install 'zsim[report]'`` and so on).

A command that reaches a package of a missing extra says so in one line naming the extra
(``zsim.cli`` turns ``MissingExtra``, and a ``ModuleNotFoundError`` of a package listed here,
into that line), instead of a traceback.
"""

from __future__ import annotations

import importlib.util

from zsim.errors import UserError

# extra -> the top-level packages it installs that zsim imports (pyproject.toml lists the
# distributions; tests/test_packaging.py checks that the two agree)
EXTRAS: dict[str, tuple[str, ...]] = {
    "report": ("statsmodels", "jinja2"),
    "tune": ("optuna",),
    "dask": ("dask", "distributed"),
    "serve": ("starlette", "uvicorn", "jinja2"),
    "rl": ("gymnasium", "pettingzoo", "pyspiel"),
    "learn": ("sklearn",),
}
# package -> the extra that brings it (the first that lists it)
PROVIDER: dict[str, str] = {}
for _extra, _packages in EXTRAS.items():
    for _package in _packages:
        PROVIDER.setdefault(_package, _extra)


class MissingExtra(UserError, ImportError):
    """A feature needs packages of an extra that is not installed."""

    def __init__(self, feature: str, extra: str, missing: list[str]) -> None:
        self.extra = extra
        super().__init__(f"{feature} needs {' and '.join(missing)}: install it with "
                         f"pip install 'zsim[{extra}]'")


def require(extra: str, feature: str) -> None:
    """Raise ``MissingExtra`` naming ``feature`` unless every package of ``extra`` imports."""
    missing = [name for name in EXTRAS[extra] if importlib.util.find_spec(name) is None]
    if missing:
        raise MissingExtra(feature, extra, missing)


def explain(error: ModuleNotFoundError, feature: str) -> MissingExtra | None:
    """The ``MissingExtra`` behind a failed import of a package of an extra, if it is one."""
    package = (error.name or "").split(".")[0]
    extra = PROVIDER.get(package)
    return MissingExtra(feature, extra, [package]) if extra is not None else None
