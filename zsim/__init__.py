"""zsim: simulate Zhanguo: The First Empire and measure its balance."""

__version__ = "0.2.0"

# Before any engine module is imported: pick the compiled build or the sources (see there).
from zsim import engine_build  # noqa: F401
