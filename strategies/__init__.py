"""Bots that play zsim games. ``zsim.strategies.registry.resolve`` turns a name into a Strategy."""

# One file, one import name: from the repository's root this directory could also be imported
# as ``strategies``, a second copy of every class (docs/architecture.md, "The layout").
if __name__ != "zsim.strategies":
    raise ImportError(f"import zsim.strategies, not {__name__}: the bots are a part of zsim")

# The bots' estimates may be compiled with the engine: ``zsim`` decides which build is imported
# (``zsim.engine_build``) before any of them is.
import zsim  # noqa: F401
