"""Bots that play zsim games. ``zsim.strategies.registry.resolve`` turns a name into a Strategy."""

# The bots' estimates may be compiled with the engine: ``zsim`` decides which build is imported
# (``zsim.engine_build``) before any of them is.
import zsim  # noqa: F401
